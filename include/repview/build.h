/* build.h — building an index, synchronously or in a worker thread, with progress
 * and cancellation; and rv_open(), which every subcommand uses to get an index.
 */
#ifndef REPVIEW_BUILD_H
#define REPVIEW_BUILD_H

#include <stdatomic.h>
#include <stdint.h>
#include "repview/index.h"
#include "repview/progress.h"

typedef enum { RV_BACKEND_AUTO = 0, RV_BACKEND_CPU, RV_BACKEND_GPU } rv_backend_t;

typedef struct {
    int threads;          /* CPU threads, 0 = all */
    rv_backend_t backend; /* from --cpu / --gpu / REPVIEW_DEVICE */
    int force_wide;       /* 64-bit arrays even when n < 2^32 (tests) */
    int with_llr;         /* also compute LLR/LLRc (lr.h) */
    int with_runs;        /* also compute the tandem runs (tandem.h) */
    int strands;          /* 2: index both strands (DNA, seq.h); 1: the forward strand
                             (rv_open derives it from a both-strand FILE.rvx); 0: as
                             FILE.rvx holds it, else 1 (the explorer) */
    rv_rvx_writer_t *writer; /* when set, rv_build() hands each section to it as soon
                                as a stage makes it final (index.h), so that saving
                                overlaps the next stage; the caller finishes it */
    int release;          /* with a writer: the caller wants the file, not the index.
                             Arrays are freed once written when no later stage reads
                             them; the index returned keeps its header fields, its
                             sequence's records and the stage times (repview index) */
} rv_build_opts_t;

void rv_build_opts_init(rv_build_opts_t *o);

/* Build SA, ISA, LCP (and the derived arrays asked for) for seq, which the index
 * takes over.  progress may be NULL.  Returns the index or NULL (message set;
 * "cancelled" when progress->cancel was raised). */
rv_index_t *rv_build(rv_seq_t *seq, const rv_build_opts_t *o, rv_progress_t *progress);

/* Background build: reads the input (when seq is NULL) and builds in a thread. */
typedef struct rv_build_job rv_build_job_t;
rv_build_job_t *rv_build_start(const char *path, rv_seq_t *seq, rv_alpha_t alpha,
                               const rv_build_opts_t *o);
rv_progress_t *rv_build_progress(rv_build_job_t *j);
void rv_build_cancel(rv_build_job_t *j);
/* Non-blocking: 1 when the worker has finished (successfully or not). */
int rv_build_finished(rv_build_job_t *j);
/* Wait for the worker; returns the index (caller owns) or NULL with the message
 * copied into err. Frees the job. */
rv_index_t *rv_build_join(rv_build_job_t *j, char *err, size_t errlen);

/* Wait for a job in this thread, drawing progress on stderr (when it is a
 * terminal, quiet = 0, and the build has run for more than a second).  Returns the
 * index or NULL with the message set.  Frees the job. */
rv_index_t *rv_build_wait(rv_build_job_t *j, int quiet);

/* What every subcommand does: use PATH.rvx when it exists and matches (reporting
 * in one line on stderr when it is stale/corrupt and rebuilding), else read the
 * input and build in memory.  quiet = 0 prints progress on stderr when it takes
 * more than a second and stderr is a terminal. */
rv_index_t *rv_open(const char *path, rv_alpha_t alpha, const rv_build_opts_t *o, int quiet);

/* rv_open() for commands that keep what they build (repview-index(1), keep.h).  keep NULL:
 * never write FILE.rvx (--no-save).  Otherwise, when the index had to be built and
 * FILE.rvx may take it (missing, or ours but stale or damaged; the input a regular
 * file), *keep is set to FILE.rvx's path (caller frees) for the caller to complete
 * (rv_index_complete) and save once the answer is out; else *keep = NULL. */
rv_index_t *rv_open_keep(const char *path, rv_alpha_t alpha, const rv_build_opts_t *o, int quiet,
                         char **keep);

/* Add what `repview index` writes and x lacks: the longest-repeat arrays and the
 * tandem runs (threads <= 0: all cores).  0, or -1 with a message. */
int rv_index_complete(rv_index_t *x, int threads);

#endif
