/* cli.h — the command-line front end: subcommand entry points and the option
 * handling they share (repview(1)). */
#ifndef REPVIEW_UI_CLI_H
#define REPVIEW_UI_CLI_H

#include <getopt.h>
#include <stdio.h>
#include "repview/approx.h"
#include "repview/build.h"
#include "../front.h"
#include "repview/buckets.h"
#include "repview/find.h"
#include "repview/index.h"
#include "repview/pairs.h"

enum { CLI_NO_SAVE_ENV = 1, CLI_NO_SAVE_FLAG = 2 }; /* REPVIEW_NO_SAVE=1, --no-save */

/* Options every subcommand takes. */
typedef struct {
    rv_build_opts_t build;
    rv_alpha_t alpha;
    int quiet;
    int no_save;  /* never write FILE.rvx: CLI_NO_SAVE_ENV | CLI_NO_SAVE_FLAG, or 0 */
    char *keep;   /* set by cli_open_index(): where to keep the index it built */
    int strands;  /* --strands: 2 both, 1 '+', -1 '-'; 0 when not given */
    int text_only;   /* cli_open_seq(): the command reads the text at a few places
                        (lce): a loaded .rvx keeps its compact text, read by
                        rv_index_lce(), and expands neither text nor sequence */
    uint64_t verify; /* sections of a loaded .rvx the command reads, verified before
                        its first answer (index.h masks; SA, ISA and LCP are added
                        when a derived section named here is missing); 0 = all */
} cli_common_t;

/* Called for each option that is not a common one; return 0, or -1 after
 * cli_usage_error() for a bad value. */
typedef int (*cli_opt_fn)(int opt, const char *arg, void *ud);

/* Parse argv with the subcommand's own options plus the common ones.  Returns the
 * index of the first operand, or -1 when the command should exit with *exit_code
 * (help or version printed: 0; usage error printed: 2). */
int cli_parse(int argc, char **argv, const char *cmd, const char *shortopts,
              const struct option *own, const char *usage, cli_opt_fn fn, void *ud,
              cli_common_t *c, int *exit_code);

/* Print "repview: CMD: message" on stderr; returns RV_EXIT_USAGE. */
/* This process's rank in the launcher's environment (0 when not started by
 * mpirun): before MPI starts, the ranks other than 0 keep their errors to
 * themselves (rank 0 meets the same ones and speaks for the job). */
int cli_launch_rank(void);
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "repview: <rv_last_error()>" on stderr; returns RV_EXIT_DATA. */
int cli_data_error(void);
/* rv_last_error() as cli_data_error() prints it (front_error_text(): the command
 * goes before an out-of-memory message), maybe in buf. */
const char *cli_error_text(char *buf, size_t len);
/* Print "repview: <rv_last_error()>" for an argument (region, position) that does not
 * fit the input; returns RV_EXIT_USAGE. */
int cli_arg_error(void);


/* The index of FILE per repview(1) (FILE.rvx when it matches, else built), with the
 * common options applied; the sections in c->verify of a loaded file are verified
 * first (a damaged file is reported and rebuilt).  When it was built and may be kept
 * (repview-index(1)), c->keep names FILE.rvx: end with cli_close_index().  NULL after
 * printing the error. */
rv_index_t *cli_open_index(const char *path, cli_common_t *c);

/* After the answer: flush and close standard output (a pipe's reader sees the end
 * at once), save the index where c->keep says (a one-line note when that fails;
 * Ctrl-C during the save drops it), then free x.  x may be NULL. */
void cli_close_index(rv_index_t *x, cli_common_t *c);

/* Save x to path through keep.h, waiting in this thread; SIGINT, SIGTERM and SIGHUP
 * meanwhile drop the partial file and end the process as the signal would.  0, or
 * -1 with the reason in why. */
int cli_save_index(const rv_index_t *x, const char *path, int quiet, uint64_t *bytes, char *why,
                   size_t whylen);

/* After a verification of x (opened by cli_open_index) failed: free x and open
 * FILE again, which reports the damage and rebuilds.  NULL after printing the error. */
rv_index_t *cli_reopen(rv_index_t *x, const char *path, cli_common_t *c);

/* The sequence of FILE, from FILE.rvx when it matches and the sections in
 * c->verify (0: the sequence and text) verify (fast), or by reading FILE;
 * *idx is set when the index file was used (free it instead of the seq).
 * NULL after printing the error. */
const rv_seq_t *cli_open_seq(const char *path, const cli_common_t *c, rv_index_t **idx,
                             rv_seq_t **owned);

/* Write the record name and record-relative position of global position g. */
void cli_put_pos(FILE *out, const rv_seq_t *s, uint64_t g);

/* Paths without an index (cli_text.c): the sequence of PATH alone (NULL with the
 * message set; a reading warning printed unless quiet); REGION (NULL: all) as the
 * text range [*lo, *hi) of the forward strand (0, or -1 with a message); standard
 * output flushed: rc, or RV_EXIT_DATA after printing the write error. */
rv_seq_t *cli_load_text(const char *path, const cli_common_t *c);
int cli_text_range(const rv_seq_t *s, const char *region, uint64_t *lo, uint64_t *hi);
int cli_flush_output(const char *cmd, int rc);

/* -o OUT (cli_output.c): standard output goes to OUT.tmp.PID until cli_out_end()
 * renames it to OUT when rc is RV_EXIT_OK (else removes it; a signal that ends the
 * process removes it too); a device or FIFO is opened and written as is.
 * cli_out_begin: 0, or -1 after printing the error.  cli_out_end: rc, or
 * RV_EXIT_DATA when the rename or the flush failed (printed). */
int cli_out_begin(const char *out);
int cli_out_end(const char *out, int rc);
/* Standard output is OUT.tmp.PID, to be synced by cli_out_end: a writer may start
 * its writeback early (cli_out_writeback) so that the final fsync finds little left. */
int cli_out_synced(void);
void cli_out_writeback(void);
/* Unsigned LEB128 varints (files that workers send to rank 0).  get: 1, 0 at the
 * end of the file, -1 when it ends inside one. */
void cli_varint_put(FILE *f, uint64_t v);
int cli_varint_get(FILE *f, uint64_t *v);

/* ---- find over an index (cli_find_many.c) ---- */
enum { CLI_SEARCH_AUTO = 0, CLI_SEARCH_SA, CLI_SEARCH_FM }; /* --search */
typedef struct {
    rv_strand_t strand;
    unsigned k;
    int count;          /* --count: one line per pattern */
    int search;         /* CLI_SEARCH_* */
    char *const *pats;  /* the command line's patterns (compiled once already) */
    int n_pats;
    const char *file;   /* -f, or NULL */
} cli_find_req_t;
/* Answer q over x: the header and the lines on standard output (counts batch by
 * batch; hits once all are found).  RV_EXIT_OK, or RV_EXIT_DATA with the message
 * set (not printed). */
int cli_find_stream(const rv_index_t *x, const cli_find_req_t *q, const cli_common_t *c);
/* The header line of find's output (count: --count's) on a buffered stdout. */
void cli_find_put_header(int count);
/* BED6+ lines of n sorted hits; pattern i is called name[i] and has length len[i]. */
void cli_find_put_hits(const rv_seq_t *s, const char *const *name, const size_t *len, const rv_hit_t *h, int64_t n,
                       int threads);

/* ---- MPI (cli_mpi_main.c, cli_mpi_host.c, cli_mpi_jobs.c, cli_mpi_msg.c; Open MPI when built with it) ---- */
/* Ranks of the job this process belongs to, from the launcher's environment (1
 * when not started by mpirun; cli_common.c, beside cli_launch_rank). */
int cli_mpi_ranks(void);
int cli_mpi_available(void);            /* 1 when built with MPI */
int cli_mpi_init(int *rank, int *size); /* 0, or -1 with a message */
void cli_mpi_finalize(void);
/* The watch (cli_mpi_watch.c): whether one is wanted (REPVIEW_MPI_TIMEOUT, not
 * 0; MPI then starts with MPI_THREAD_MULTIPLE); started by cli_mpi_init with the
 * thread level MPI gave, ended by cli_mpi_finalize (goodbyes exchanged), and
 * told by cli_mpi_abort that this rank ends the job with its own line (rank 0
 * then adds none); its state in words for REPVIEW_MPI_TRACE. */
int cli_mpi_watch_wanted(void);
void cli_mpi_watch_start(int rank, int size, int provided);
void cli_mpi_watch_end(void);
void cli_mpi_watch_failed(void);
const char *cli_mpi_watch_state(void);
/* Drop this rank's mappings of the host's shared windows (text, job map or lists,
 * counts) now, or (now = 0) on a thread of its own that cli_mpi_finalize joins:
 * for a rank done with them that waits for the others, so that MPI_Win_free at
 * the end has little left to unmap.  Once a run; nothing where the host has one
 * rank (its windows are private memory there) or REPVIEW_MPI_KEEP_PAGES=1.  The
 * caller reads none of them after (a truly shared window would map again). */
void cli_mpi_drop_windows(int now);
/* This rank's index among the worker ranks of its host (rank 0 schedules and is
 * not one; -1 for it) and their number. */
void cli_mpi_host_workers(int *worker, int *workers);
/* A rank that runs more threads than the cores mpirun bound it to (Open MPI binds
 * each rank to one core when there are two ranks or fewer) may use every core of
 * its host: called before the threads start. */
void cli_mpi_widen(int threads);
int cli_mpi_host_leader(void); /* 1 on the first rank of each host (it reads the input) */
/* The sum and the largest of every rank's `mine` (a collective call).  0 or -1. */
int cli_mpi_sum_max(uint64_t mine, uint64_t *sum, uint64_t *max);
/* The input read once per host and its text shared by the host's ranks (MPI-3
 * shared memory; both strands when strands is set); raw (the bytes as read) is
 * kept by the first rank of a host when keep_raw is set, NULL everywhere else.
 * NULL with a message; *quiet set when the host's first rank reports the same
 * failure. */
rv_seq_t *cli_mpi_load_seq(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet);
void cli_mpi_abort(int code);           /* ends every rank */
/* Rank 0: hand order[0..n) to the workers in the order asked for, as many jobs
 * an answer as the worker asks (cli_mpi_job_batch), then a "none" to each.  0, or -1.  With order NULL the jobs are those given to
 * cli_mpi_queue() before, which a thread of rank 0 takes too (cli_mpi_own_job, a
 * rv_bucket_next_fn: 1 and *job, 0 when none is left). */
int cli_mpi_serve_jobs(const uint64_t *order, uint64_t n, int workers, int quiet);
void cli_mpi_queue(const uint64_t *order, uint64_t n);
int cli_mpi_own_job(void *ctx, uint64_t *job);
/* A worker's rv_bucket_next_fn: the next job from rank 0.  After
 * cli_mpi_job_batch(T) (a GPU rank of T threads, before its first job) it asks for
 * T jobs at a time, and again while half of them are left. */
int cli_mpi_next_job(void *ctx, uint64_t *job);
void cli_mpi_job_batch(int threads);
/* Files from a worker to rank 0.  A worker's file has no name (cli_mpi_temp_file:
 * nothing is left of it however the job ends); the worker sends its descriptor,
 * open until rank 0 answers.  Rank 0 opens it in place, as /proc/PID/fd/N, when the
 * worker runs on its host (the same size, device and inode; not with
 * REPVIEW_MPI_COPY_FILES=1), or else receives a copy into a file of its own with no
 * name: open_file(path, name, ud) opens either (a failure to open it is final, not
 * a reason to copy). */
typedef int (*cli_mpi_open_fn)(const char *path, const char *name, void *ud);
FILE *cli_mpi_temp_file(void);
int cli_mpi_send_file(int fd);
/* A worker's temporary file f (from cli_mpi_temp_file) when rc == 0 is sent, then
 * closed either way: rc, or -1 with a message. */
int cli_mpi_send_temp(FILE *f, int rc);
/* Open the file of descriptor fd (this process's) as open_file does a path:
 * through /proc/self/fd/N. */
int cli_mpi_open_fd(int fd, const char *name, cli_mpi_open_fn open_file, void *ud);
/* name: what the file is, for messages ("the part of rank 3"). */
int cli_mpi_recv_file(int from, const char *name, cli_mpi_open_fn open_file, void *ud);
/* A cli_mpi_open_fn: fopen(path, "rb") into *(FILE **)ud. */
int cli_mpi_fopen(const char *path, const char *name, void *ud);
int cli_mpi_send_count(uint64_t v);
/* Bytes from one rank to another (the receiver waits without spinning). */
int cli_mpi_send_bytes(int to, const void *buf, uint64_t bytes);
int cli_mpi_recv_bytes(int from, void *buf, uint64_t bytes);
int cli_mpi_recv_count(int from, uint64_t *v);
/* Rank 0's bucket plan to every rank: rank 0 passes ok = 1 with its plan filled
 * (0 when planning failed: the others then fail too), the others receive it into
 * *plan (malloc()ed arrays: rv_bucket_plan_free).  0, or -1 with a message. */
int cli_mpi_share_plan(rv_bucket_plan_t *plan, int rank, int size, int ok);
void cli_mpi_share_map(const rv_seq_t *s, rv_bucket_plan_t *plan, uint64_t bytes, int want, int threads);
/* Jobs whose answers go to rank 0 as files.  A worker: job(j, out, ud) for each job
 * rank 0 hands it, writing its answer to out (a temporary file sent at the end).
 * Rank 0: hand out order[0..n) to the size - 1 workers, then read(f, ud) once
 * for each worker's file (open for reading).  0, or -1 with a message. */
typedef int (*cli_mpi_job_fn)(uint64_t job, FILE *out, void *ud);
typedef int (*cli_mpi_read_fn)(FILE *f, void *ud);
/* A command started by mpirun: MPI, rank 0 alone speaking (the others quiet),
 * one thread a rank unless -t, and *s = the sequence of FILE (NULL with the
 * message set: a failure every rank meets).  gpu: the command may give its
 * workers GPUs (cli_mpi_bucket_gpu), which start while FILE is read.  0, or -1
 * when MPI did not start. */
int cli_mpi_start(const char *file, cli_common_t *c, int gpu, int *rank, int *size, rv_seq_t **s);
/* A failure every rank meets before the work (FILE, REGION, patterns): rank 0
 * prints rv_last_error() unless printed and ends the job with code; the other
 * ranks get code back (to free, cli_mpi_finalize and return it). */
int cli_mpi_fail_all(int rank, int code, int printed);
/* A rank's work done with rc: rc < 0 prints rv_last_error(), drops rank 0's -o
 * file and ends every rank with status 1; otherwise rank 0 flushes the output and
 * renames OUT into place.  The exit code. */
int cli_mpi_end(int rank, int rc, const char *cmd, const char *out);
int cli_mpi_work(int rank, cli_mpi_job_fn job, void *ud);
/* cli_mpi_next_job for rank `rank` (REPVIEW_TEST_KILL_RANK=rank kills it as it
 * first asks: the tests of a rank that dies). */
int cli_mpi_next_job_of(int rank, uint64_t *job);
int cli_mpi_collect(const uint64_t *order, uint64_t n, int size, int quiet, cli_mpi_read_fn read, void *ud);

/* The bucket jobs of this process sorted on GPU `device` (buckets.h) when one is
 * usable and the text is large enough to pay for its start (any size when
 * any_size), always with --gpu (an error when none), never with --cpu; end with
 * rv_bucket_gpu_end().  1 on the GPU, 0 on the CPU, -1 with a message.  Under
 * mpirun: the worker ranks of a host take its GPUs in order (rank 0 has none). */
int cli_bucket_gpu(const rv_seq_t *s, const cli_common_t *c, const char *cmd, int device, int any_size);
/* --gpu or REPVIEW_DEVICE=gpu; --cpu or REPVIEW_DEVICE=cpu. */
int cli_gpu_forced(const cli_common_t *c);
/* The text of FILE alone (cli_load_text), REGION's text range (all when NULL) and the
 * GPU for its bucket jobs (cli_bucket_gpu): RV_EXIT_OK, or the exit code after the
 * message (*s NULL).  End with rv_bucket_gpu_end() and rv_seq_free(). */
int cli_open_text(const char *file, const char *region, const cli_common_t *c, const char *cmd, rv_seq_t **s,
                  uint64_t *lo, uint64_t *hi);
int cli_gpu_refused(const cli_common_t *c);
int cli_mpi_bucket_gpu(const rv_seq_t *s, const cli_common_t *c, const char *cmd, int rank);
/* Before the read: a rank that may take a GPU starts its device in a thread
 * (cli_mpi_bucket_gpu waits for it). */
void cli_mpi_gpu_warm(const cli_common_t *c, int rank);
/* The threads of a GPU rank: its host's share of the cores unless -t gave them
 * (t_given), with mpirun's binding widened to them. */
int cli_mpi_gpu_threads(int t_given, int threads);

int cli_index(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_sa(int argc, char **argv);
int cli_lce(int argc, char **argv);
int cli_lr(int argc, char **argv);
int cli_pairs(int argc, char **argv);
int cli_merge(int argc, char **argv);
/* --buckets I/N (cli_text.c): slice I - 1 of N, or an exit-2 message (-1).  And
 * its company: RV_EXIT_OK when n_slices is 0 or with -o PART outside mpirun
 * (ranks: cli_mpi_ranks()) and without --count (count: the command's), else the
 * usage error's exit code. */
int cli_parse_buckets(const char *cmd, const char *arg, uint64_t *slice, uint64_t *n_slices);
int cli_buckets_usage(const char *cmd, uint64_t n_slices, const char *out, int ranks, int count);
/* `repview merge` of a checked set of parts of each command (part.h), s their
 * input: the command's output on stdout, header included.  0, or -1 with a
 * message. */
int cli_pairs_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int threads);
int cli_lr_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int threads);
int cli_tandem_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s);
/* `tandem --approx --format` (cli_tandem_formats.c): 0 bed, 1 gff3, 2 trf, -1 for
 * another name; the loci of a overlapping text [lo, hi) that pass f, to stdout. */
int cli_approx_format(const char *name);
void cli_approx_print(const rv_seq_t *s, const rv_approx_set_t *a, const rv_tandem_filter_t *f,
                      const rv_approx_opts_t *o, int format, uint64_t lo, uint64_t hi);
int cli_find_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int count);
/* `pairs --estimate` on the loaded text (cli_estimate.c): an exit code. */
int cli_pairs_estimate(const char *file, const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_estimate_opts_t *eo);
int cli_tandem(int argc, char **argv);
int cli_find(int argc, char **argv);
int cli_overlap(int argc, char **argv);
int cli_repeats(int argc, char **argv);
int cli_wmers(int argc, char **argv);

#endif
