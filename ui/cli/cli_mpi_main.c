/* cli_mpi_main.c — what the headless commands need of MPI (Open MPI): its
 * start (the messaging layer, rank 0's standard output past mpirun's relay) and
 * its end, the worker ranks' GPUs and a command's life under mpirun.  The ranks of
 * a host and what they share are in cli_mpi_host.c, the master/worker job loop and
 * the part files to rank 0 in cli_mpi_jobs.c, the watch in cli_mpi_watch.c.  Built
 * with MPI when mpicc is found (RV_HAVE_MPI); otherwise every call says so, and a
 * command started by mpirun refuses to run N copies of itself. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "cli.h"
#include "cli_mpi_internal.h"

static void warm_join(void);

#if RV_HAVE_MPI

int cli_mpi_available(void) { return 1; }

/* Rank 0's standard output, straight to mpirun's.  Open MPI relays a rank's
 * standard output through a terminal and mpirun's event loop: 550 MB of BEDPE take
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
 * MPI_Init even where ob1 is then chosen (tests/bench/RESULTS.md: 0.30
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
    if (!why) why = cli_mpi_host_group(*rank);
    if (why) {
        if (*rank == 0) fprintf(stderr, "repview: mpi: %s\n", why);
        cli_mpi_abort(RV_EXIT_DATA);
    }
    cli_mpi_watch_start(*rank, *size, provided);
    const char *tr = getenv("REPVIEW_MPI_TRACE");
    if (*rank == 0 && tr && *tr == '1')
        fprintf(stderr, "mpi\trank 0\ttransport: %s\nmpi\trank 0\twatch: %s\n", transport, cli_mpi_watch_state());
    if (*rank == 0) stdout_past_relay();
    return 0;
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

int cli_mpi_sum_max(uint64_t mine, uint64_t *sum, uint64_t *max)
{
    if (MPI_Allreduce(&mine, sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Allreduce(&mine, max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    return 0;
}

void cli_mpi_finalize(void)
{
    /* The ranks that end first (the workers, while rank 0 merges) wait here
     * asleep: the windows' frees and MPI_Finalize synchronise by polling flat
     * out, which takes the cores rank 0's merge threads run on. */
    MPI_Request req;
    const char *tr = getenv("REPVIEW_MPI_TRACE");
    double tw = rv_now();
    cli_mpi_watch_end();
    tw = rv_now() - tw;
    warm_join();
    cli_mpi_drop_join();
    int world = -1;
    double t0 = rv_now(), t1, t2;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS) wait_quietly(&req);
    t1 = rv_now();
    cli_mpi_host_free();
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

#else /* built without MPI */

int cli_mpi_available(void) { return 0; }
int cli_mpi_init(int *rank, int *size)
{
    *rank = 0, *size = 1;
    return rv_error("mpirun", "this repview was built without MPI (no mpicc at build time): "
                              "install libopenmpi-dev and rebuild, or run without mpirun");
}
void cli_mpi_finalize(void) { warm_join(); }
void cli_mpi_widen(int threads) { (void)threads; }
int cli_mpi_sum_max(uint64_t mine, uint64_t *sum, uint64_t *max) { *sum = *max = mine; return -1; }

#endif

/* ---- GPU ranks (buckets.h): the worker ranks of a host take its GPUs in order ---- */

/* A rank that may take a GPU makes its device's context while the host's first
 * rank reads the input (a context takes 0.15 s on an H200, after the driver's own
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
     * binds a rank of two to one core, where they take 0.9 s for 3 GB, not 0.5 s;
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
    if (rank == 0 && printed) cli_mpi_abort(code);
    if (rank == 0) cli_mpi_say_and_abort(0, code);
    /* rank 0 meets the same failure and ends the job (finalizing meanwhile may crash
     * in Open MPI: exit 139 instead of rank 0's code): wait to be ended.  When rank 0
     * did not meet it (this rank's memory ran out), nobody else will end the job:
     * after ten seconds, this rank does. */
    cli_mpi_await_end(10);
    cli_mpi_say_and_abort(rank, code);
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
