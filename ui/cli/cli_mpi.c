/* cli_mpi.c — what the headless commands need of MPI (Open MPI; issue 15): start,
 * the master/worker job loop (RACE = seeds/002 §5.2: dynamic, largest first) and
 * moving part files to rank 0.  Built with MPI when mpicc is found (RV_HAVE_MPI);
 * otherwise every call says so, and a command started by mpirun refuses to run N
 * copies of itself. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "cli.h"

static void warm_join(void);

int cli_mpi_fopen(const char *path, const char *name, void *ud)
{
    FILE **f = ud;
    *f = fopen(path, "rb");
    return *f ? 0 : rv_error(name, "%s", strerror(errno));
}

int cli_mpi_open_fd(int fd, const char *name, cli_mpi_open_fn open_file, void *ud)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return open_file(proc, name, ud);
}

#if RV_HAVE_MPI
#include <mpi.h>

enum { TAG_ASK = 1, TAG_JOB, TAG_FILE, TAG_COUNT, TAG_BYTES };
enum { CHUNK = 4 << 20 };
static const uint64_t NO_JOB = UINT64_MAX;

int cli_mpi_available(void) { return 1; }

/* Wait for a message without spinning: a rank that waits (rank 0 most of the time)
 * must leave its core to the ranks that work, above all when ranks outnumber cores. */
static void wait_for(int source, int tag, MPI_Status *st)
{
    int flag = 0;
    for (unsigned us = 50; ; us = us < 2000 ? us * 2 : 2000) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag) return;
        struct timespec ts = {0, (long)us * 1000};
        nanosleep(&ts, NULL);
    }
}

/* The ranks of this host: their communicator, this rank's index among them, and
 * their world ranks; the window holding the host's one copy of the text. */
static MPI_Comm node = MPI_COMM_NULL;
static int node_rank, node_size, *node_world;
static MPI_Win text_win = MPI_WIN_NULL, map_win = MPI_WIN_NULL, count_win = MPI_WIN_NULL;

/* Rank 0's standard output, straight to mpirun's.  Open MPI relays a rank's
 * standard output through a terminal and mpirun's event loop: 550 MB of BEDPE took
 * 65 s that way against 5 s with -o on the dev machine (37 s against 3 s on the
 * H200 host).  When rank 0 is mpirun's child (the host mpirun runs on), it takes
 * mpirun's own fd 1 (pidfd_getfd: the same open file, offset included, so that
 * whatever else writes there after, mpirun's relay or the shell, follows our
 * bytes), or for a pipe or a terminal, or a file opened to append, reopens it
 * through /proc.  Anywhere else, with mpirun's output options (tags, time
 * stamps, XML, a file per rank), or with REPVIEW_MPI_RELAY=1, the relay stays. */
static int parent_fd1(long parent, const struct stat *theirs)
{
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
    /* test hook: REPVIEW_TEST_NO_PIDFD=1 as where ptrace rules refuse it */
    const char *e = getenv("REPVIEW_TEST_NO_PIDFD");
    int pidfd = e && *e == '1' ? -1 : (int)syscall(SYS_pidfd_open, (pid_t)parent, 0);
    if (pidfd >= 0) {
        int fd = (int)syscall(SYS_pidfd_getfd, pidfd, 1, 0);
        close(pidfd);
        if (fd >= 0) return fd;
    }
#endif
    char path[64];
    if (S_ISREG(theirs->st_mode)) { /* a file of its own offset: only where every write appends */
        unsigned flags = 0;
        snprintf(path, sizeof path, "/proc/%ld/fdinfo/1", parent);
        FILE *f = fopen(path, "r");
        char line[128];
        while (f && fgets(line, sizeof line, f))
            if (sscanf(line, "flags: %o", &flags) == 1) break;
        if (f) fclose(f);
        if (!(flags & O_APPEND)) return -1;
    }
    snprintf(path, sizeof path, "/proc/%ld/fd/1", parent);
    return open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | (S_ISREG(theirs->st_mode) ? O_APPEND : 0));
}

static void stdout_past_relay(void)
{
    static const char *const launchers[] = {"mpirun", "mpiexec", "orterun", "prterun"};
    static const char *const relay_options[] = {"OMPI_MCA_orte_tag_output", "OMPI_MCA_orte_timestamp_output",
                                                "OMPI_MCA_orte_xml_output", "OMPI_MCA_orte_output_filename"};
    const char *e = getenv("REPVIEW_MPI_RELAY");
    if (e && *e == '1') return;
    for (size_t i = 0; i < sizeof relay_options / sizeof *relay_options; i++)
        if ((e = getenv(relay_options[i])) && *e && strcmp(e, "0") != 0) return;
    struct stat mine, theirs;
    if (fstat(1, &mine) != 0 || S_ISREG(mine.st_mode)) return;
    char path[64], comm[64] = "";
    long parent = (long)getppid();
    snprintf(path, sizeof path, "/proc/%ld/comm", parent);
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
    fclose(f);
    comm[strcspn(comm, "\n")] = 0;
    int ours = 0;
    for (size_t i = 0; i < sizeof launchers / sizeof *launchers; i++) ours |= strcmp(comm, launchers[i]) == 0;
    snprintf(path, sizeof path, "/proc/%ld/fd/1", parent);
    if (!ours || stat(path, &theirs) != 0 ||
        !(S_ISREG(theirs.st_mode) || S_ISFIFO(theirs.st_mode) || S_ISCHR(theirs.st_mode)))
        return;
    int fd = parent_fd1(parent, &theirs);
    if (fd < 0) return;
    fflush(stdout);
    int moved = dup2(fd, 1) == 1;
    close(fd);
    if (moved && (e = getenv("REPVIEW_MPI_TRACE")) && *e == '1')
        fprintf(stderr, "mpi\trank 0\tstdout past mpirun's relay, to its %s\n",
                S_ISREG(theirs.st_mode) ? "file" : S_ISFIFO(theirs.st_mode) ? "pipe" : "terminal");
}

/* Whether an Open MPI parameter file chooses the pml ("pml = X"): a list of
 * layers, or an exclusion ("^X,Y") that leaves out ob1.  Debian's system file
 * says "pml = ^ucx", which chooses nothing that ob1 goes against. */
static int file_names_pml(const char *path)
{
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    char line[512];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        if (strncmp(p, "pml", 3) != 0 || !(p[3] == ' ' || p[3] == '\t' || p[3] == '=')) continue;
        p += 3 + strspn(p + 3, " \t");
        if (*p++ != '=') continue;
        p += strspn(p, " \t");
        if (*p != '^') { found = 1; break; }
        for (const char *q = p + 1; *q && !found; q += strcspn(q, ",") + 1) {
            q += strspn(q, " \t");
            found = strncmp(q, "ob1", 3) == 0 && strchr(", \t\r\n", q[3]) != NULL;
            if (!q[strcspn(q, ",")]) break; /* the last name */
        }
    }
    if (f) fclose(f);
    return found;
}

/* Whether the user chose a pml in a parameter file Open MPI reads: the files
 * named by OMPI_MCA_mca_base_param_files (':' between them), else the user's and
 * the usual system ones; an aggregate or tuning file (mpirun --am, --tune) counts
 * as a choice. */
static int files_name_pml(void)
{
    if (getenv("OMPI_MCA_mca_base_param_file_prefix") || getenv("OMPI_MCA_mca_base_envar_file_prefix")) return 1;
    char path[4096];
    const char *list = getenv("OMPI_MCA_mca_base_param_files");
    if (list) {
        for (const char *p = list; *p;) {
            size_t len = strcspn(p, ":");
            if (len < sizeof path) {
                memcpy(path, p, len), path[len] = 0;
                if (file_names_pml(path)) return 1;
            }
            p += len + (p[len] == ':');
        }
        return 0;
    }
    const char *home = getenv("HOME"), *prefix = getenv("OPAL_PREFIX");
    if (home && snprintf(path, sizeof path, "%s/.openmpi/mca-params.conf", home) > 0 && file_names_pml(path)) return 1;
    if (prefix && snprintf(path, sizeof path, "%s/etc/openmpi-mca-params.conf", prefix) > 0 && file_names_pml(path))
        return 1;
    return file_names_pml("/etc/openmpi/openmpi-mca-params.conf") ||
           file_names_pml("/usr/local/etc/openmpi-mca-params.conf") || file_names_pml("/usr/etc/openmpi-mca-params.conf");
}

/* Open MPI's default start probes its other messaging layers (cm's network
 * transports, UCX where a site allows it), which costs every rank 0.2 s of
 * MPI_Init even where ob1 is then chosen (RESULTS.md, seventeenth session: 0.30
 * against 0.09 s at 16 ranks on an H200 host; 0.26 against 0.06 s on the dev
 * machine, whose system file already leaves UCX out: there it is cm's probe).
 * The ranks of a job on one host talk through shared memory, which the ob1 layer
 * does: such a job takes it, unless the user named a layer (OMPI_MCA_pml, which
 * `mpirun --mca pml X` sets too, or a parameter file) or keeps the library's
 * choice (REPVIEW_MPI_PML=keep).  Jobs over several hosts keep the library's
 * choice.  Returns what the trace says of it. */
static const char *one_host_transport(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE"), *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    const char *keep = getenv("REPVIEW_MPI_PML");
    if (getenv("OMPI_MCA_pml")) return "pml as the user set it";
    if (keep && strcmp(keep, "keep") == 0) return "pml as the library chooses (REPVIEW_MPI_PML=keep)";
    if (!size || !local || strcmp(size, local) != 0) return "pml as the library chooses (several hosts)";
    if (files_name_pml()) return "pml as a parameter file sets it";
    return setenv("OMPI_MCA_pml", "ob1", 0) == 0 ? "pml ob1 (one host)" : "pml as the library chooses";
}

int cli_mpi_init(int *rank, int *size)
{
    int provided;
    const char *transport = one_host_transport();
    if (MPI_Init_thread(NULL, NULL, cli_mpi_watch_wanted() ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED,
                        &provided) != MPI_SUCCESS)
        return rv_error("mpi", "MPI_Init failed");
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    /* a rank's threads take turns with MPI; a failure here is every rank's: end them all */
    const char *why = provided < MPI_THREAD_SERIALIZED ? "the MPI library cannot be called from threads" : NULL;
    /* REPVIEW_MPI_HOSTS_APART=1 (tests): every rank a host of its own, as on a cluster */
    const char *apart = getenv("REPVIEW_MPI_HOSTS_APART");
    if (!why && (apart && *apart == '1' ? MPI_Comm_split(MPI_COMM_WORLD, *rank, 0, &node)
                                        : MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                                              &node)) != MPI_SUCCESS)
        why = "cannot group the ranks by host";
    if (!why) {
        MPI_Comm_rank(node, &node_rank);
        MPI_Comm_size(node, &node_size);
        if (!(node_world = malloc((size_t)node_size * sizeof *node_world))) why = "out of memory";
    }
    if (why) {
        if (*rank == 0) fprintf(stderr, "repview: mpi: %s\n", why);
        cli_mpi_abort(RV_EXIT_DATA);
    }
    MPI_Allgather(rank, 1, MPI_INT, node_world, 1, MPI_INT, node);
    cli_mpi_watch_start(*rank, *size, provided);
    const char *tr = getenv("REPVIEW_MPI_TRACE");
    if (*rank == 0 && tr && *tr == '1')
        fprintf(stderr, "mpi\trank 0\ttransport: %s\nmpi\trank 0\twatch: %s\n", transport, cli_mpi_watch_state());
    if (*rank == 0) stdout_past_relay();
    return 0;
}

void cli_mpi_host_workers(int *worker, int *workers)
{
    int with0 = node_world && node_world[0] == 0; /* the host ranks are in world order */
    *worker = node_rank - with0;
    *workers = node_size - with0;
}

void cli_mpi_widen(int threads)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) >= threads) return;
    int n = rv_default_threads();
    CPU_ZERO(&set);
    for (int i = 0; i < n && i < CPU_SETSIZE; i++) CPU_SET(i, &set);
    sched_setaffinity(0, sizeof set, &set); /* the threads started later inherit it */
}

int cli_mpi_host_leader(void) { return node_rank == 0; }

int cli_mpi_sum_max(uint64_t mine, uint64_t *sum, uint64_t *max)
{
    if (MPI_Allreduce(&mine, sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Allreduce(&mine, max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    return 0;
}

/* Wait for a non-blocking collective without spinning (see wait_for): 0, or -1
 * when MPI failed. */
static int wait_quietly(MPI_Request *req)
{
    int done = 0;
    for (unsigned us = 50; ; us = us < 2000 ? us * 2 : 2000) {
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
        if (done) return 0;
        struct timespec ts = {0, (long)us * 1000};
        nanosleep(&ts, NULL);
    }
}

/* The pages of the host's windows (text, job lists or map, counts) out of this
 * rank's page tables: madvise(MADV_DONTNEED) on a shared mapping drops the
 * mappings, not the bytes (a later read maps them again).  Unmapping them in
 * MPI_Win_free took 0.14 s at the end of a 16-rank run, after rank 0's merge; a
 * rank that drops them while it waits for the others pays it then.  The ranges
 * are found on the calling thread (MPI is serialized), the drop may run on a
 * thread of its own. */
static struct {
    uintptr_t lo[3], hi[3];
    pthread_t th;
    int started;
} drop;

static void *drop_main(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        if (drop.hi[i] > drop.lo[i]) (void)madvise((void *)drop.lo[i], drop.hi[i] - drop.lo[i], MADV_DONTNEED);
    return NULL;
}

void cli_mpi_drop_windows(int now)
{
    const char *keep = getenv("REPVIEW_MPI_KEEP_PAGES"); /* benchmarks: the drop left to MPI_Win_free */
    /* a host of one rank has its windows in private memory (Open MPI's osc/sm
     * allocates them with malloc then), where the drop would zero them */
    if ((keep && *keep == '1') || node_size < 2 || drop.started) return;
    const MPI_Win wins[3] = {text_win, map_win, count_win};
    const long ps = sysconf(_SC_PAGESIZE);
    const uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
    for (int i = 0; i < 3; i++) {
        MPI_Aint size = 0;
        int disp;
        uint8_t *base = NULL;
        drop.lo[i] = drop.hi[i] = 0;
        if (wins[i] == MPI_WIN_NULL || MPI_Win_shared_query(wins[i], 0, &size, &disp, &base) != MPI_SUCCESS || !base ||
            size <= 0)
            continue;
        drop.lo[i] = ((uintptr_t)base + page - 1) & ~(page - 1); /* whole pages of the window only */
        drop.hi[i] = ((uintptr_t)base + (uintptr_t)size) & ~(page - 1);
    }
    if (now || pthread_create(&drop.th, NULL, drop_main, NULL) != 0) {
        drop_main(NULL);
        drop.started = -1; /* done: once a run */
    } else {
        drop.started = 1; /* cli_mpi_finalize joins it */
    }
}

static void drop_join(void)
{
    if (drop.started == 1) pthread_join(drop.th, NULL);
    drop.started = 0;
}

void cli_mpi_finalize(void)
{
    /* The ranks that end first (the workers, while rank 0 merges) wait here
     * asleep: the windows' frees and MPI_Finalize synchronise by polling flat
     * out, which took the cores rank 0's merge threads run on. */
    MPI_Request req;
    const char *tr = getenv("REPVIEW_MPI_TRACE");
    double tw = rv_now();
    cli_mpi_watch_end();
    tw = rv_now() - tw;
    warm_join();
    drop_join();
    int world = -1;
    double t0 = rv_now(), t1, t2;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS) wait_quietly(&req);
    t1 = rv_now();
    if (count_win != MPI_WIN_NULL) MPI_Win_free(&count_win);
    if (map_win != MPI_WIN_NULL) MPI_Win_free(&map_win);
    if (text_win != MPI_WIN_NULL) MPI_Win_free(&text_win);
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    free(node_world);
    node_world = NULL;
    t2 = rv_now();
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Finalize();
    if (tr && *tr == '1') { /* REPVIEW_MPI_TRACE: the end's steps, and the clock for what follows the exit */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        fprintf(stderr,
                "mpi\trank %d\tend: watch %.3f, barrier %.3f, windows freed %.3f, MPI_Finalize %.3f s; epoch %.3f\n",
                world, tw, t1 - t0, t2 - t1, rv_now() - t2, now.tv_sec + now.tv_nsec / 1e9);
    }
}

/* The host's first rank reads the input with every core of the host while the
 * others wait without spinning.  All ranks of the host make one shared window
 * (MPI_Win_allocate_shared) whose size the first rank sends them as soon as it
 * knows it: its parallel encoder writes the text straight into the window
 * (rv_seq_load_placed; a text read serially is copied there after), and with
 * both strands the reverse complement follows it in place.  Then it sends the
 * records (rv_seq_pack) and the others build their sequence over the window.  A
 * window size of 0 means the first rank could not read the input, a records size
 * of 0 that it failed after the window was made.  A rank that must not repeat the
 * reader's error gets *quiet set; *shared is set once every rank of the host has
 * the window. */
typedef struct {
    int strands, made, failed;
    uint8_t *base;
} window_t;

/* The first rank's side: the size to the others, then the window with them. */
static int make_window(window_t *w, uint64_t bytes)
{
    w->made = 1;
    for (int r = 1; r < node_size; r++) cli_mpi_send_bytes(node_world[r], &bytes, sizeof bytes);
    if (MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, node, &w->base, &text_win) != MPI_SUCCESS) {
        w->failed = 1;
        return rv_error("mpi", "cannot share the text between the ranks of a host");
    }
    return 0;
}

/* rv_seq_place_fn: the window, with room for both strands where asked. */
static uint8_t *place_text(void *ud, uint64_t n, uint64_t *room)
{
    window_t *w = ud;
    uint64_t bytes = w->strands && n ? 2 * n + 1 : n;
    if (make_window(w, bytes ? bytes : 1) < 0) return NULL;
    *room = bytes;
    return w->base;
}

static rv_seq_t *lead_host(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *shared)
{
    window_t w = {strands, 0, 0, NULL};
    void *pack = NULL;
    uint64_t bytes = 0;
    rv_seq_t *s = rv_seq_load_placed(path, alpha, 0, place_text, &w);
    if (s && strands && rv_seq_add_reverse(s, 0) < 0) rv_seq_free(s), s = NULL;
    if (s && !w.made && make_window(&w, s->n ? s->n : 1) == 0) { /* read serially: copied */
        rv_copy_threads(w.base, s->text, s->n, 0); /* every core of the host: 3 GB took 2 s on one */
        free(s->owned_text);
        s->owned_text = NULL;
        s->text = w.base;
    }
    if (s && w.failed) rv_seq_free(s), s = NULL;
    if (s && rv_seq_pack(s, &pack, &bytes) < 0) rv_seq_free(s), s = NULL;
    if (!w.made) { /* nothing read: no window for anybody */
        for (int r = 1; r < node_size; r++) cli_mpi_send_bytes(node_world[r], &bytes, sizeof bytes);
        return NULL;
    }
    if (!w.failed) {
        *shared = 1; /* every rank of the host has it */
        MPI_Win_lock_all(MPI_MODE_NOCHECK, text_win);
        MPI_Win_sync(text_win); /* the stores are seen by the ranks that get the records */
        MPI_Win_unlock_all(text_win);
    }
    for (int r = 1; r < node_size; r++) {
        cli_mpi_send_bytes(node_world[r], &bytes, sizeof bytes);
        if (bytes) cli_mpi_send_bytes(node_world[r], pack, bytes);
    }
    free(pack);
    if (s && !keep_raw) { /* the bytes as read: only for display */
        free(s->owned_raw);
        s->owned_raw = NULL;
        s->raw = NULL;
    }
    return s;
}

/* The other ranks' side: a size from the host's first rank, 0 when it failed
 * (its message is its own: *quiet).  0, or -1. */
static int recv_size(const char *path, uint64_t *bytes, int *quiet)
{
    if (cli_mpi_recv_bytes(node_world[0], bytes, sizeof *bytes) < 0) return -1;
    if (*bytes) return 0;
    *quiet = 1;
    return rv_error(path, "the host's first rank could not read it");
}

static rv_seq_t *load_on_host(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet, int *shared)
{
    *quiet = 0;
    if (node_rank == 0) return lead_host(path, alpha, strands, keep_raw, shared);
    uint64_t bytes = 0;
    if (recv_size(path, &bytes, quiet) < 0) return NULL;
    uint8_t *base = NULL;
    if (MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, node, &base, &text_win) != MPI_SUCCESS) {
        rv_error("mpi", "cannot share the text between the ranks of a host");
        return NULL;
    }
    *shared = 1;
    if (recv_size(path, &bytes, quiet) < 0) return NULL;
    /* test hook: REPVIEW_TEST_RECORDS_OOM=R, rank R has no room for the records */
    const char *oom = getenv("REPVIEW_TEST_RECORDS_OOM");
    int world = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    void *pack = oom && *oom && atoi(oom) == world ? NULL : malloc(bytes);
    int ok = pack != NULL;
    if (!ok) { /* the records are taken all the same, piece by piece: the first
                * rank's send must end for the job to reach the failure */
        static char sink[CHUNK];
        rv_error("mpi", "out of memory");
        for (uint64_t off = 0; off < bytes; off += CHUNK)
            if (cli_mpi_recv_bytes(node_world[0], sink, bytes - off < CHUNK ? bytes - off : CHUNK) < 0) break;
    }
    if (ok && cli_mpi_recv_bytes(node_world[0], pack, bytes) < 0) ok = 0;
    rv_seq_t *s = NULL;
    if (ok) {
        MPI_Aint wsize = 0;
        int disp;
        uint8_t *text = NULL;
        MPI_Win_shared_query(text_win, 0, &wsize, &disp, &text);
        MPI_Win_lock_all(MPI_MODE_NOCHECK, text_win);
        MPI_Win_sync(text_win);
        MPI_Win_unlock_all(text_win);
        s = rv_seq_unpack(pack, bytes, text, (uint64_t)wsize);
    }
    free(pack);
    return s;
}

/* Each host's first rank read the input itself: every host's text must be rank
 * 0's (a file that differs between the hosts' file systems would give wrong
 * pairs).  Compared only with more than one host; every rank past load_on_host
 * calls it (s NULL where the rank failed).  0, or -1 with a message. */
static int same_text_everywhere(const rv_seq_t *s, const char *path)
{
    int lead = node_rank == 0 && s, hosts = 0, world, bad, worst = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    if (MPI_Allreduce(&lead, &hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    if (hosts < 2) return 0;
    uint64_t mine[2] = {0, 0}, ref[2];
    if (lead) mine[0] = s->n, mine[1] = rv_seq_text_digest(s, 0);
    memcpy(ref, mine, sizeof ref);
    if (MPI_Bcast(ref, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    bad = lead && (mine[0] != ref[0] || mine[1] != ref[1]) ? world : -1;
    if (MPI_Allreduce(&bad, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    if (worst >= 0)
        return rv_error(path, "the host of rank %d read another text than rank 0's (the file differs between the hosts)",
                        worst);
    return 0;
}

rv_seq_t *cli_mpi_load_seq(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet)
{
    int shared = 0;
    rv_seq_t *s = load_on_host(path, alpha, strands, keep_raw, quiet, &shared);
    if (shared && same_text_everywhere(s, path) < 0) { /* every rank knows: rank 0 says it */
        int world;
        MPI_Comm_rank(MPI_COMM_WORLD, &world);
        *quiet = world != 0;
        rv_seq_free(s);
        return NULL;
    }
    return s;
}

void cli_mpi_abort(int code)
{
    cli_mpi_watch_failed(); /* the caller printed why (or rank 0 will) */
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
}

/* The jobs rank 0 hands out, shared with a thread of its own that works too
 * (cli_mpi_own_job). */
static struct {
    pthread_mutex_t mu;
    const uint64_t *order;
    uint64_t n, next;
} queue = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static uint64_t queue_take(void)
{
    pthread_mutex_lock(&queue.mu);
    uint64_t job = queue.order && queue.next < queue.n ? queue.order[queue.next++] : NO_JOB;
    pthread_mutex_unlock(&queue.mu);
    return job;
}

void cli_mpi_queue(const uint64_t *order, uint64_t n)
{
    pthread_mutex_lock(&queue.mu);
    queue.order = order, queue.n = n, queue.next = 0;
    pthread_mutex_unlock(&queue.mu);
}

int cli_mpi_own_job(void *ctx, uint64_t *job)
{
    (void)ctx;
    *job = queue_take();
    return *job != NO_JOB;
}

/* A rank asks for up to `want` jobs at a time (its threads: cli_mpi_job_batch) and
 * gets them in one answer, ended by NO_JOB once the queue is empty.  It has one
 * ask out at most and never asks after NO_JOB, so rank 0 is done when it has
 * told every worker. */
enum { BATCH_MAX = 256 };

static void fault_here(int rank);

int cli_mpi_serve_jobs(const uint64_t *order, uint64_t n, int workers, int quiet)
{
    int done = 0;
    fault_here(0);
    if (order) cli_mpi_queue(order, n); /* else queued by the caller, whose thread works too */
    double t0 = MPI_Wtime(), shown = 0;
    uint64_t answer[BATCH_MAX];
    while (done < workers) {
        uint64_t want;
        MPI_Status st;
        wait_for(MPI_ANY_SOURCE, TAG_ASK, &st);
        if (MPI_Recv(&want, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_ASK, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
            return rv_error("mpi", "a rank stopped answering");
        if (want < 1) want = 1;
        if (want > BATCH_MAX) want = BATCH_MAX;
        int k = 0;
        do answer[k] = queue_take();
        while (answer[k++] != NO_JOB && (uint64_t)k < want);
        if (answer[k - 1] == NO_JOB) done++;
        MPI_Send(answer, k, MPI_UINT64_T, st.MPI_SOURCE, TAG_JOB, MPI_COMM_WORLD);
        if (!quiet && isatty(2) && MPI_Wtime() - t0 > 1 && MPI_Wtime() - shown > 0.2) {
            pthread_mutex_lock(&queue.mu);
            uint64_t next = queue.next;
            pthread_mutex_unlock(&queue.mu);
            fprintf(stderr, "\rrepview: %d ranks: job %llu of %llu   ", workers + 1, (unsigned long long)next,
                    (unsigned long long)n);
            shown = MPI_Wtime();
        }
    }
    if (shown) fprintf(stderr, "\r%60s\r", "");
    return 0;
}

/* This rank's side: the jobs received and not yet taken, and the ask out. */
static struct {
    uint64_t job[2 * BATCH_MAX];
    int head, len;
    int batch;     /* jobs asked for at a time: the rank's threads */
    int out;       /* an ask is out */
    int none_left; /* rank 0 said so: the rank's other threads must not ask again */
} held = {.batch = 1};

void cli_mpi_job_batch(int threads)
{
    held.batch = threads < 1 ? 1 : threads > BATCH_MAX ? BATCH_MAX : threads;
}

static int ask_jobs(void)
{
    static int first = 1;
    if (first) { /* test hook: REPVIEW_MPI_JOB_BATCH=T batches a CPU rank's jobs too */
        const char *e = getenv("REPVIEW_MPI_JOB_BATCH");
        if (e && atoi(e) > 0) cli_mpi_job_batch(atoi(e));
        first = 0;
    }
    uint64_t want = (uint64_t)(held.batch - held.len);
    if (MPI_Send(&want, 1, MPI_UINT64_T, 0, TAG_ASK, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "rank 0 stopped answering");
    held.out = 1;
    return 0;
}

/* Take rank 0's answer into the list, waiting for it unless `now_only`: 0 (taken
 * or not come yet), or -1 with a message. */
static int take_answer(int now_only)
{
    MPI_Status st;
    int flag = 1, k = 0;
    if (now_only) MPI_Iprobe(0, TAG_JOB, MPI_COMM_WORLD, &flag, &st);
    else wait_for(0, TAG_JOB, &st);
    if (!flag) return 0;
    if (held.head) { /* the jobs left, to the front: the answer fits after them */
        memmove(held.job, held.job + held.head, (size_t)held.len * sizeof *held.job);
        held.head = 0;
    }
    if (MPI_Recv(held.job + held.len, BATCH_MAX, MPI_UINT64_T, 0, TAG_JOB, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
        return rv_error("mpi", "rank 0 stopped answering");
    MPI_Get_count(&st, MPI_UINT64_T, &k);
    held.out = 0;
    if (k > 0 && held.job[held.len + k - 1] == NO_JOB) held.none_left = 1, k--;
    held.len += k;
    return 0;
}

int cli_mpi_next_job(void *ctx, uint64_t *job)
{
    (void)ctx; /* the callers are serialized */
    *job = NO_JOB;
    if (held.out && take_answer(held.len > 0) < 0) return -1;
    if (!held.len && !held.none_left && (ask_jobs() < 0 || take_answer(0) < 0)) return -1;
    if (!held.len) return 0;
    *job = held.job[held.head++];
    held.len--;
    /* with a batch, more are asked for while half of it is left: the rank's threads
     * do not wait for rank 0's answer, one after the other, as they did for one
     * job at a time (8 ms a job for a GPU rank of 32 threads on the H200 host) */
    if (held.batch > 1 && !held.out && !held.none_left && 2 * held.len < held.batch && ask_jobs() < 0) return -1;
    return 1;
}

/* A file goes to rank 0 in two steps: its identity (size, device, inode, and the
 * process and descriptor that hold it open), then, unless rank 0 answers that it
 * opened the file itself (a rank of its own host, through /proc), its bytes. */
typedef struct {
    uint64_t size, dev, ino, pid, fd;
} file_head_t;

enum { FILE_SEND = 0, FILE_TAKEN = 1 };

FILE *cli_mpi_temp_file(void)
{
    int fd = rv_temp_fd(NULL);
    FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (fd >= 0 && !f) {
        rv_error("mpi", "%s", strerror(errno));
        close(fd);
    }
    return f;
}

int cli_mpi_send_temp(FILE *f, int rc)
{
    if (fflush(f) != 0 && rc == 0) rc = rv_error("mpi", "cannot write a temporary file: %s", strerror(errno));
    if (rc == 0) rc = cli_mpi_send_file(fileno(f));
    fclose(f);
    return rc;
}

int cli_mpi_send_file(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return rv_error("mpi", "a temporary file: %s", strerror(errno));
    file_head_t h = {(uint64_t)st.st_size, (uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)getpid(),
                     (uint64_t)fd};
    MPI_Send(&h, sizeof h, MPI_BYTE, 0, TAG_FILE, MPI_COMM_WORLD);
    MPI_Status st0;
    int answer = FILE_SEND;
    wait_for(0, TAG_FILE, &st0); /* rank 0 may be merging another part: no spinning */
    MPI_Recv(&answer, 1, MPI_INT, 0, TAG_FILE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char *buf = answer == FILE_SEND ? malloc(CHUNK) : NULL;
    int rc = answer == FILE_SEND && !buf ? rv_error("mpi", "out of memory") : 0;
    for (uint64_t off = 0; answer == FILE_SEND && off < h.size;) {
        uint64_t want = h.size - off < CHUNK ? h.size - off : CHUNK;
        ssize_t r = buf ? pread(fd, buf, want, (off_t)off) : -1;
        if (r <= 0) { /* the receiver waits for more: an empty message ends it */
            if (rc == 0) rc = rv_error("mpi", "cannot read back a temporary file");
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_FILE, MPI_COMM_WORLD);
            break;
        }
        MPI_Send(buf, (int)r, MPI_BYTE, 0, TAG_FILE, MPI_COMM_WORLD);
        off += (uint64_t)r;
    }
    free(buf);
    return rc;
}

/* Is world rank r on this host? */
static int on_this_host(int r)
{
    for (int i = 0; node_world && i < node_size; i++)
        if (node_world[i] == r) return 1;
    return 0;
}

/* The bytes of a file rank `from` sends, into a file of this process with no
 * name. */
static int recv_copy(int from, const file_head_t *h, const char *name, cli_mpi_open_fn open_file, void *ud)
{
    int fd = rv_temp_fd(NULL), rc = fd < 0 ? -1 : 0;
    char *buf = malloc(CHUNK);
    if (rc == 0 && !buf) rc = rv_error("mpi", "out of memory");
    for (uint64_t got = 0; got < h->size;) {
        MPI_Status st1;
        int len;
        MPI_Recv(buf ? buf : (char[1]){0}, buf ? CHUNK : 0, MPI_BYTE, from, TAG_FILE, MPI_COMM_WORLD, &st1);
        MPI_Get_count(&st1, MPI_BYTE, &len);
        if (len == 0) { /* the sender could not read its file */
            if (rc == 0) rc = rv_error(name, "rank %d could not read it", from);
            break;
        }
        for (int w = 0; rc == 0 && w < len;) {
            ssize_t r = pwrite(fd, buf + w, (size_t)(len - w), (off_t)(got + (uint64_t)w));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) rc = rv_error("mpi", "cannot write a temporary file: %s", strerror(errno));
            else w += (int)r;
        }
        got += (uint64_t)len;
    }
    free(buf);
    if (rc == 0) rc = cli_mpi_open_fd(fd, name, open_file, ud);
    if (fd >= 0) close(fd); /* open_file has its own */
    return rc;
}

int cli_mpi_recv_file(int from, const char *name, cli_mpi_open_fn open_file, void *ud)
{
    file_head_t h;
    MPI_Status first;
    wait_for(from, TAG_FILE, &first);
    MPI_Recv(&h, sizeof h, MPI_BYTE, from, TAG_FILE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* the worker's file, open in the worker, has no name: /proc reaches it on its
     * host (a refusal, or another host's /proc, and it comes as bytes) */
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/%llu/fd/%llu", (unsigned long long)h.pid, (unsigned long long)h.fd);
    const char *copy = getenv("REPVIEW_MPI_COPY_FILES"), *trace = getenv("REPVIEW_MPI_TRACE");
    int fd = on_this_host(from) && !(copy && *copy == '1') ? open(proc, O_RDONLY | O_CLOEXEC) : -1;
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || (uint64_t)st.st_size != h.size || (uint64_t)st.st_dev != h.dev ||
                    (uint64_t)st.st_ino != h.ino))
        close(fd), fd = -1;
    const int answer = fd >= 0 ? FILE_TAKEN : FILE_SEND;
    int rc = fd >= 0 ? cli_mpi_open_fd(fd, name, open_file, ud) : 0; /* its failure is the file's: final */
    if (fd >= 0) close(fd);
    if (trace && *trace == '1')
        fprintf(stderr, "mpi\trank 0\tfile of rank %d: %s\n", from, answer == FILE_TAKEN ? "opened in place" : "copied");
    MPI_Send(&answer, 1, MPI_INT, from, TAG_FILE, MPI_COMM_WORLD);
    return answer == FILE_TAKEN ? rc : recv_copy(from, &h, name, open_file, ud);
}

int cli_mpi_send_bytes(int to, const void *buf, uint64_t bytes)
{
    const char *p = buf;
    for (uint64_t off = 0; off < bytes;) {
        uint64_t k = bytes - off < CHUNK ? bytes - off : CHUNK;
        if (MPI_Send(p + off, (int)k, MPI_BYTE, to, TAG_BYTES, MPI_COMM_WORLD) != MPI_SUCCESS)
            return rv_error("mpi", "rank %d stopped answering", to);
        off += k;
    }
    return 0;
}

int cli_mpi_recv_bytes(int from, void *buf, uint64_t bytes)
{
    char *p = buf;
    MPI_Status st;
    if (bytes) wait_for(from, TAG_BYTES, &st);
    for (uint64_t off = 0; off < bytes;) {
        uint64_t k = bytes - off < CHUNK ? bytes - off : CHUNK;
        if (MPI_Recv(p + off, (int)k, MPI_BYTE, from, TAG_BYTES, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return rv_error("mpi", "rank %d stopped answering", from);
        off += k;
    }
    return 0;
}

int cli_mpi_send_count(uint64_t v)
{
    return MPI_Send(&v, 1, MPI_UINT64_T, 0, TAG_COUNT, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

int cli_mpi_recv_count(int from, uint64_t *v)
{
    MPI_Status st;
    wait_for(from, TAG_COUNT, &st);
    return MPI_Recv(v, 1, MPI_UINT64_T, from, TAG_COUNT, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
}

/* Broadcast `bytes` from the first rank of comm in pieces (into a sink where dst
 * is NULL: a rank out of memory joins all the same).  0, or -1 with a message. */
static int bcast_pieces(MPI_Comm comm, void *dst, uint64_t bytes)
{
    static uint8_t sink[1 << 20];
    for (uint64_t off = 0; off < bytes;) {
        int len = bytes - off < sizeof sink ? (int)(bytes - off) : (int)sizeof sink;
        if (MPI_Bcast(dst ? (uint8_t *)dst + off : sink, len, MPI_BYTE, 0, comm) != MPI_SUCCESS)
            return rv_error("mpi", "a rank stopped answering");
        off += (uint64_t)len;
    }
    return 0;
}

/* The counts (8 bytes a code: 32 MB for DNA's 4^11 codes) from rank 0 to every
 * rank, without a copy for each: one window on each host (a broadcast among the
 * hosts' first ranks fills the other hosts'), read by the ranks of the host until
 * cli_mpi_finalize (a broadcast to 15 ranks of one host took 0.4 s).  Returns
 * the window's copy (rank 0 copies `mine` in), or NULL with a message. */
static uint64_t *share_counts(uint64_t *mine, uint64_t bytes)
{
    uint8_t *base = NULL;
    MPI_Aint wsize = 0;
    int disp, rc = 0, world;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    if (MPI_Win_allocate_shared(node_rank == 0 ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL, node, &base, &count_win) !=
        MPI_SUCCESS) {
        rv_error("mpi", "cannot share the bucket counts");
        return NULL;
    }
    MPI_Win_shared_query(count_win, 0, &wsize, &disp, &base);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, count_win);
    if (world == 0) memcpy(base, mine, bytes);
    MPI_Comm leaders = MPI_COMM_NULL;
    if (MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, 0, &leaders) != MPI_SUCCESS) rc = -1;
    if (leaders != MPI_COMM_NULL) {
        int nl = 0;
        MPI_Comm_size(leaders, &nl);
        if (nl > 1) rc = bcast_pieces(leaders, base, bytes); /* world rank 0 leads (key: world order) */
        MPI_Comm_free(&leaders);
    }
    MPI_Win_sync(count_win); /* the leader's stores are seen past the barrier */
    MPI_Request req;
    if (MPI_Ibarrier(node, &req) != MPI_SUCCESS || wait_quietly(&req) < 0) rc = -1;
    MPI_Win_sync(count_win);
    MPI_Win_unlock_all(count_win);
    if (rc < 0 || (uint64_t)wsize != bytes) {
        rv_error("mpi", "a rank stopped answering");
        return NULL;
    }
    return (uint64_t *)base;
}

int cli_mpi_share_plan(rv_bucket_plan_t *plan, int rank, int size, int ok)
{
    (void)size;
    rv_bucket_plan_t head = {0};
    if (rank == 0 && ok) head = *plan;
    /* the first while rank 0 still counts on every core: waited for without spinning */
    MPI_Request req;
    if (MPI_Ibcast(&head, sizeof head, MPI_BYTE, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS || wait_quietly(&req) < 0)
        return rv_error("mpi", "a rank stopped answering");
    if (rank == 0) {
        if (!ok) return -1;
    } else {
        *plan = head;
        plan->count = plan->own_count = NULL, plan->jobs = NULL; /* rank 0's pointers */
        plan->map = NULL, plan->own_map = NULL, plan->map_width = 0;
        plan->lists = NULL, plan->own_lists = NULL;
        /* the groups of split buckets are for cutting the plan again (rank 0's):
         * a job names its own part */
        plan->split = NULL, plan->units = NULL, plan->n_split = plan->n_units = 0;
        if (!plan->n_codes) return rv_error("mpi", "rank 0 could not plan the buckets");
        plan->jobs = malloc((plan->n_jobs ? plan->n_jobs : 1) * sizeof *plan->jobs);
        if (!plan->jobs) rv_error("mpi", "out of memory"); /* joins the sharing all the same */
    }
    /* every rank joins every step (a rank out of memory receives into a sink) */
    int bad = rank > 0 && !plan->jobs;
    uint64_t *shared = share_counts(plan->count, plan->n_codes * sizeof *plan->count);
    int rc = bcast_pieces(MPI_COMM_WORLD, bad ? NULL : plan->jobs, plan->n_jobs * sizeof *plan->jobs);
    if (shared) { /* one copy on the host: rank 0 drops its own */
        free(plan->own_count);
        plan->count = shared, plan->own_count = NULL;
    }
    return !shared || rc < 0 || bad ? -1 : 0;
}


/* The plan's job lists, else its job map (buckets.h), in a window shared by the
 * ranks of a host, when some rank reads them (`want`: this one) and they fit
 * `bytes`: each rank of the host fills a share of the positions in proportion to
 * its threads (whole blocks for the lists), then all wait for all.  Without either
 * (or when a rank failed to fill its share) the jobs scan the text, as before: the
 * answer is the same.  Every rank calls it. */
void cli_mpi_share_map(const rv_seq_t *s, rv_bucket_plan_t *plan, uint64_t bytes, int want, int threads)
{
    int any = 0, width = rv_bucket_map_width(plan);
    MPI_Allreduce(&want, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const int find = rv_bucket_finder(plan, s->n, bytes);
    if (!any || find == RV_BUCKET_FIND_SCAN) return;
    if (find == RV_BUCKET_FIND_LISTS) width = 0; /* the lists, not the map */
    const uint64_t lists = rv_bucket_lists_bytes(plan, s->n);
    int *weight = malloc((size_t)node_size * sizeof *weight);
    if (!weight) { /* the others wait in the gather: end the job rather than hang it */
        fprintf(stderr, "repview: mpi: out of memory\n");
        cli_mpi_abort(RV_EXIT_DATA);
    }
    MPI_Allgather(&threads, 1, MPI_INT, weight, 1, MPI_INT, node);
    uint64_t total = 0, before = 0;
    for (int r = 0; r < node_size; r++) {
        total += (uint64_t)(weight[r] > 0 ? weight[r] : 1);
        if (r < node_rank) before += (uint64_t)(weight[r] > 0 ? weight[r] : 1);
    }
    uint64_t mine = (uint64_t)(threads > 0 ? threads : 1), n = s->n;
    free(weight);
    /* the shares in positions (the map) or in blocks (the lists) */
    const uint64_t unit = width ? 1 : RV_BUCKET_BLOCK, units = (n + unit - 1) / unit;
    uint64_t lo = (uint64_t)((unsigned __int128)units * before / total) * unit;
    uint64_t hi = (uint64_t)((unsigned __int128)units * (before + mine) / total) * unit;
    const uint64_t want_size = width ? n * (uint64_t)width : lists;
    uint8_t *base = NULL;
    MPI_Aint size = node_rank == 0 ? (MPI_Aint)want_size : 0;
    if (MPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, node, &base, &map_win) != MPI_SUCCESS) return;
    MPI_Aint wsize = 0;
    int disp, ok, all = 0;
    MPI_Win_shared_query(map_win, 0, &wsize, &disp, &base);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, map_win);
    ok = (uint64_t)wsize == want_size && (width ? rv_bucket_map_fill(s, plan, base, lo, hi, threads)
                                                : rv_bucket_lists_fill(s, plan, base, lo, hi, threads)) == 0;
    MPI_Win_sync(map_win); /* the stores are seen by the ranks past the reduction */
    /* the ranks done with their share wait asleep for rank 0, which fills its
     * larger share on every core */
    MPI_Request req;
    if (MPI_Iallreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node, &req) != MPI_SUCCESS || wait_quietly(&req) < 0) all = 0;
    MPI_Win_sync(map_win);
    MPI_Win_unlock_all(map_win);
    if (all && width) rv_bucket_plan_use_map(plan, base);
    else if (all) rv_bucket_plan_use_lists(plan, base);
}

/* Tests of the fault rule: REPVIEW_TEST_KILL_RANK=R kills rank R (SIGKILL, as
 * the OOM killer or a lost node would), REPVIEW_TEST_STOP_RANK=R stops it
 * (SIGSTOP, as a hung node or a lost link would look), as it starts asking for
 * jobs (whether or not one is left for it: a rank may find every job taken);
 * rank 0 as it starts handing them out. */
static void fault_here(int rank)
{
    const char *v = getenv("REPVIEW_TEST_KILL_RANK");
    if (v && *v && atoi(v) == rank) raise(SIGKILL);
    v = getenv("REPVIEW_TEST_STOP_RANK");
    if (v && *v && atoi(v) == rank) raise(SIGSTOP);
}

int cli_mpi_next_job_of(int rank, uint64_t *job)
{
    static int asked;
    if (!asked++) fault_here(rank);
    return cli_mpi_next_job(NULL, job);
}

int cli_mpi_work(int rank, cli_mpi_job_fn job, void *ud)
{
    FILE *out = cli_mpi_temp_file();
    if (!out) return -1;
    uint64_t j;
    int rc = 0, got;
    while (rc == 0 && (got = cli_mpi_next_job_of(rank, &j)) == 1) {
        rc = job(j, out, ud);
        if (rc == 0 && ferror(out)) rc = rv_error("mpi", "cannot write a temporary file: %s", strerror(errno));
    }
    if (rc == 0 && got < 0) rc = -1;
    return cli_mpi_send_temp(out, rc);
}

int cli_mpi_collect(const uint64_t *order, uint64_t n, int size, int quiet, cli_mpi_read_fn read, void *ud)
{
    int rc = cli_mpi_serve_jobs(order, n, size - 1, quiet);
    for (int r = 1; r < size && rc == 0; r++) {
        FILE *f = NULL;
        char name[64];
        snprintf(name, sizeof name, "rank %d's answers", r);
        rc = cli_mpi_recv_file(r, name, cli_mpi_fopen, &f);
        if (rc == 0) rc = read(f, ud);
        if (f) fclose(f);
    }
    return rc;
}

#else /* built without MPI */

int cli_mpi_available(void) { return 0; }
int cli_mpi_init(int *rank, int *size)
{
    *rank = 0, *size = 1;
    return rv_error("mpirun", "this repview was built without MPI (no mpicc at build time): "
                              "install libopenmpi-dev and rebuild, or run without mpirun");
}
void cli_mpi_finalize(void) { warm_join(); }
void cli_mpi_drop_windows(int now) { (void)now; }
void cli_mpi_host_workers(int *worker, int *workers) { *worker = -1, *workers = 0; }
void cli_mpi_widen(int threads) { (void)threads; }
int cli_mpi_host_leader(void) { return 1; }
int cli_mpi_sum_max(uint64_t mine, uint64_t *sum, uint64_t *max) { *sum = *max = mine; return -1; }
rv_seq_t *cli_mpi_load_seq(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet)
{
    (void)path; (void)alpha; (void)strands; (void)keep_raw;
    *quiet = 0;
    rv_error("mpirun", "this repview was built without MPI");
    return NULL;
}
void cli_mpi_abort(int code) { exit(code); }
int cli_mpi_serve_jobs(const uint64_t *order, uint64_t n, int workers, int quiet) { return -1; }
void cli_mpi_queue(const uint64_t *order, uint64_t n) {}
int cli_mpi_own_job(void *ctx, uint64_t *job) { return -1; }
int cli_mpi_next_job(void *ctx, uint64_t *job) { return -1; }
void cli_mpi_job_batch(int threads) { (void)threads; }
FILE *cli_mpi_temp_file(void) { return NULL; }
int cli_mpi_send_file(int fd) { return -1; }
int cli_mpi_send_temp(FILE *f, int rc)
{
    fclose(f);
    return -1;
}
int cli_mpi_recv_file(int from, const char *name, cli_mpi_open_fn open_file, void *ud) { return -1; }
int cli_mpi_send_count(uint64_t v) { return -1; }
int cli_mpi_send_bytes(int to, const void *buf, uint64_t bytes) { return -1; }
int cli_mpi_recv_bytes(int from, void *buf, uint64_t bytes) { return -1; }
int cli_mpi_recv_count(int from, uint64_t *v) { return -1; }
int cli_mpi_share_plan(rv_bucket_plan_t *plan, int rank, int size, int ok) { return -1; }
void cli_mpi_share_map(const rv_seq_t *s, rv_bucket_plan_t *plan, uint64_t bytes, int want, int threads) {}
int cli_mpi_next_job_of(int rank, uint64_t *job) { return -1; }
int cli_mpi_work(int rank, cli_mpi_job_fn job, void *ud) { return -1; }
int cli_mpi_collect(const uint64_t *order, uint64_t n, int size, int quiet, cli_mpi_read_fn read, void *ud)
{
    return -1;
}

#endif

/* ---- GPU ranks (buckets.h): the worker ranks of a host take its GPUs in order ---- */

/* A rank that may take a GPU makes its device's context while the host's first
 * rank reads the input (a context took 0.15 s on an H200, after the driver's own
 * start); cli_mpi_bucket_gpu waits for it. */
static pthread_t warm_thread;
static int warm_started;

static void *warm_device(void *arg)
{
    int dev = (int)(intptr_t)arg;
    char name[128], why[256];
    if (dev < rv_gpu_devices()) (void)rv_gpu_probe_device(dev, name, sizeof name, why, sizeof why);
    return NULL;
}

void cli_mpi_gpu_warm(const cli_common_t *c, int rank)
{
    int worker, workers;
    if (rank == 0 || warm_started || !rv_gpu_compiled() || cli_gpu_refused(c)) return;
    cli_mpi_host_workers(&worker, &workers);
    if (worker >= 0) warm_started = pthread_create(&warm_thread, NULL, warm_device, (void *)(intptr_t)worker) == 0;
}

static void warm_join(void)
{
    if (warm_started) pthread_join(warm_thread, NULL);
    warm_started = 0;
}

int cli_mpi_bucket_gpu(const rv_seq_t *s, const cli_common_t *c, const char *cmd, int rank)
{
    warm_join();
    if (rank == 0 || cli_gpu_refused(c)) return 0;
    int worker, workers, devices = rv_gpu_devices();
    cli_mpi_host_workers(&worker, &workers);
    if (worker >= devices) {
        if (cli_gpu_forced(c))
            return rv_error(cmd, "--gpu: rank %d has no GPU of its own (%d on its host for %d workers)", rank,
                            devices, workers);
        return 0;
    }
    /* the text goes up through a staging buffer that many threads fill: mpirun
     * binds a rank of two to one core, where they took 0.9 s for 3 GB, not 0.5 s;
     * a rank whose device is not usable works on the CPU in mpirun's binding */
    cpu_set_t bound;
    const int had = sched_getaffinity(0, sizeof bound, &bound) == 0;
    cli_mpi_widen(rv_default_threads() / (workers > 0 ? workers : 1));
    const int gpu = cli_bucket_gpu(s, c, cmd, worker, 1);
    if (gpu != 1 && had) sched_setaffinity(0, sizeof bound, &bound);
    return gpu;
}

int cli_mpi_gpu_threads(int t_given, int threads)
{
    if (!t_given) {
        int worker, workers;
        cli_mpi_host_workers(&worker, &workers);
        threads = rv_default_threads() / (workers > 0 ? workers : 1);
        if (threads < 1) threads = 1;
    }
    cli_mpi_widen(threads);
    return threads;
}

/* ---- a command's life under mpirun (with or without MPI built in) ---------------- */

int cli_mpi_start(const char *file, cli_common_t *c, int gpu, int *rank, int *size, rv_seq_t **s)
{
    *s = NULL;
    if (cli_mpi_init(rank, size) < 0) return -1;
    if (*rank > 0) c->quiet = 1;                  /* rank 0 speaks for the job */
    if (!c->build.threads) c->build.threads = 1; /* a rank per core, unless -t */
    if (gpu) cli_mpi_gpu_warm(c, *rank);
    if (!cli_mpi_available()) {
        *s = cli_load_text(file, c);
        return 0;
    }
    /* read once per host, on every core of it; one text for the host's ranks */
    if (*rank == 0 || cli_mpi_host_leader()) cli_mpi_widen(rv_default_threads());
    int quiet = 0;
    *s = cli_mpi_load_seq(file, c->alpha, 0, 1, &quiet);
    if (*s && (*s)->warning && !c->quiet) fprintf(stderr, "repview: %s: %s\n", file, (*s)->warning);
    return 0;
}

int cli_mpi_fail_all(int rank, int code, int printed)
{
    if (rank == 0) {
        if (!printed) fprintf(stderr, "repview: %s\n", rv_last_error());
        cli_mpi_abort(code);
    }
    /* rank 0 meets the same failure and ends the job (finalizing meanwhile may crash
     * in Open MPI: exit 139 instead of rank 0's code): wait to be ended.  When rank 0
     * did not meet it (this rank's host could not read the input, or its memory ran
     * out), nobody else will end the job: after ten seconds, this rank does. */
    for (int i = 0; i < 100; i++) {
        struct timespec ts = {0, 100000000L};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "repview: rank %d: %s\n", rank, rv_last_error());
    cli_mpi_abort(code);
    return code;
}

int cli_mpi_end(int rank, int rc, const char *cmd, const char *out)
{
    if (rc < 0) { /* one line from the rank that failed, then every rank ends */
        fprintf(stderr, "repview: %s\n", rv_last_error());
        if (rank == 0) cli_out_end(out, RV_EXIT_DATA);
        cli_mpi_abort(RV_EXIT_DATA);
    }
    return rank == 0 ? cli_out_end(out, cli_flush_output(cmd, RV_EXIT_OK)) : RV_EXIT_OK;
}
