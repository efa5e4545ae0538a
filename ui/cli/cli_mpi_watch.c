/* cli_mpi_watch.c — the fault rule under mpirun: a rank that stops
 * answering, dies or fails ends the job with one line on stderr.
 *
 * A rank that is stopped (SIGSTOP, a hung node, a lost link) sends nothing more,
 * and the ranks that wait for it would wait forever: every MPI wait of the job
 * loop is a message that never comes.  So each rank runs a watch, a thread that
 * beats once a second on a communicator of its own, the workers to rank 0 and
 * rank 0 to every worker.  A peer silent for REPVIEW_MPI_TIMEOUT seconds (default
 * 60; 0 turns the watch off) ends the job from the rank that noticed, with one
 * line naming it.  At the end every rank says goodbye and waits for its peers'
 * goodbyes, so that no beat is left unreceived at MPI_Finalize.  The watch calls
 * MPI beside the rank's own threads, which needs MPI_THREAD_MULTIPLE; a library
 * without it runs the job unwatched.
 *
 * A rank that dies is mpirun's to notice: it ends every other rank with SIGTERM.
 * Rank 0 then says so in one line, unless the end is one that a rank already
 * explained (its own failure, or a worker's that told rank 0 before ending). */
#if RV_HAVE_MPI
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "cli.h"

enum { TAG_WATCH = 1 };
static const int BEAT = 0, BYE = 1, FAILED = 2;
#define BEAT_PERIOD 1.0 /* seconds between beats */

static struct {
    MPI_Comm comm;
    pthread_t th;
    atomic_int on; /* read by rank 0's SIGTERM handler (lock-free) */
    int rank, size;
    volatile sig_atomic_t ending; /* a rank ends the job and has said why: blame nobody */
    double limit;      /* seconds of silence that end the job */
    atomic_int stop;   /* the rank is at its end: say goodbye */
    double *heard;     /* when each peer was last heard from */
    char *gone;        /* peers that said goodbye */
    MPI_Request *sent; /* the last message to each peer */
} watch = {.comm = MPI_COMM_NULL};

/* Rank 0's SIGTERM: set when the job's end is already explained. */
static volatile sig_atomic_t explained;

/* CLOCK_MONOTONIC nanoseconds at the watch's last turn, and when it last found
 * that it had slept past its turn (the rank was stopped): lock-free atomics,
 * since rank 0's SIGTERM handler reads them */
static atomic_llong watch_turn, watch_slept = -(1ll << 62);
static atomic_llong gap_ns = 1000000000ll; /* gap_limit() for the handler */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2, "the SIGTERM handler reads atomics");

static long long mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* A turn of the watch later than this after the one before: the rank was stopped
 * (or starved of a core that long): its silence, not its peers' */
static double gap_limit(void) { return watch.limit / 2 > 1 ? watch.limit / 2 : 1; }

static void on_term(int sig)
{
    static const char line[] = "repview: mpi: mpirun ended the job before it was done "
                               "(a rank died or was killed, or the job was interrupted)\n";
    /* a rank 0 that was stopped itself was blamed by the workers, who said so */
    const long long now = mono_ns(), gap = atomic_load(&gap_ns);
    const int was_stopped = watch.on && (now - atomic_load(&watch_turn) > gap || now - atomic_load(&watch_slept) < 2 * gap);
    if (!explained && !was_stopped) {
        ssize_t w = write(2, line, sizeof line - 1);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* REPVIEW_MPI_TIMEOUT: 0 (off), or seconds from 2 (shorter would end healthy
 * jobs on a busy host's jitter) to a day; anything else is the default, 60. */
static double watch_limit(void)
{
    const char *v = getenv("REPVIEW_MPI_TIMEOUT");
    if (!v || !*v) return 60;
    char *end;
    double s = strtod(v, &end);
    if (*end || !(s >= 0 && s <= 86400)) return 60; /* garbage, a sign of its own, nan, inf */
    return s == 0 ? 0 : s < 2 ? 2 : s;
}

int cli_mpi_watch_wanted(void) { return watch_limit() > 0; }

static int is_peer(int r) { return watch.rank == 0 ? r > 0 : r == 0; }

static void send_all(const int *what)
{
    for (int r = 0; r < watch.size; r++) {
        if (!is_peer(r)) continue;
        int done = 1;
        if (watch.sent[r] != MPI_REQUEST_NULL) {
            if (*what == BEAT) MPI_Test(&watch.sent[r], &done, MPI_STATUS_IGNORE);
            else MPI_Wait(&watch.sent[r], MPI_STATUS_IGNORE); /* a goodbye is never skipped */
        }
        if (done) MPI_Isend(what, 1, MPI_INT, r, TAG_WATCH, watch.comm, &watch.sent[r]);
    }
}

static void hear_all(double now)
{
    for (;;) {
        int flag = 0, what;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_WATCH, watch.comm, &flag, &st) != MPI_SUCCESS || !flag) return;
        MPI_Recv(&what, 1, MPI_INT, st.MPI_SOURCE, TAG_WATCH, watch.comm, MPI_STATUS_IGNORE);
        watch.heard[st.MPI_SOURCE] = now;
        if (what == BYE) watch.gone[st.MPI_SOURCE] = 1;
        if (what == FAILED) explained = 1, watch.ending = 1; /* it printed why and ends the job */
    }
}

/* This rank ends the job with its own line: the others are told, so that none
 * blames the silence that follows (rank 0 waited for, as long as it takes the
 * word within a second: it may be the one gone). */
static void tell_peers_failed(void)
{
    explained = 1, watch.ending = 1;
    if (!watch.on) return;
    MPI_Request req;
    for (int r = 1; r < watch.size; r++) /* the other workers: fire and forget */
        if (r != watch.rank && MPI_Isend(&FAILED, 1, MPI_INT, r, TAG_WATCH, watch.comm, &req) == MPI_SUCCESS)
            MPI_Request_free(&req);
    if (watch.rank == 0) return;
    if (MPI_Issend(&FAILED, 1, MPI_INT, 0, TAG_WATCH, watch.comm, &req) != MPI_SUCCESS) return;
    for (int i = 0; i < 20; i++) {
        int done = 0;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done) {
            struct timespec ts = {0, 100000000L}; /* for rank 0's watch to note it */
            nanosleep(&ts, NULL);
            return;
        }
        struct timespec ts = {0, 50000000L};
        nanosleep(&ts, NULL);
    }
}

static void silent_peer(int r, double secs)
{
    char line[160];
    if (watch.rank == 0)
        snprintf(line, sizeof line, "repview: mpi: rank %d has not answered for %.0f s: the job is ended\n", r, secs);
    else
        snprintf(line, sizeof line, "repview: rank %d: rank 0 has not answered for %.0f s: the job is ended\n",
                 watch.rank, secs);
    fputs(line, stderr);
    fflush(stderr);
    tell_peers_failed();
    MPI_Abort(MPI_COMM_WORLD, RV_EXIT_DATA);
}

/* The watch's pause between turns: 50 ms, cut short when the rank reaches its
 * end; 2 ms once it has said goodbye (the peers' goodbyes are due: the end of
 * the job waits for them). */
static pthread_mutex_t nap_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nap_cv; /* on CLOCK_MONOTONIC: a step of the wall clock stops no beat */

static void nap(int ending)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += ending ? 2000000L : 50000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&nap_mu);
    if (!atomic_load(&watch.stop) || ending) pthread_cond_timedwait(&nap_cv, &nap_mu, &until);
    pthread_mutex_unlock(&nap_mu);
}

static atomic_int watch_go; /* 1: every rank's watch started; -1: not all did */

static void *watch_main(void *arg)
{
    (void)arg;
    while (atomic_load(&watch_go) == 0) {
        struct timespec ts = {0, 1000000L};
        nanosleep(&ts, NULL);
    }
    if (atomic_load(&watch_go) < 0) return NULL;
    double last = 0, woke = MPI_Wtime();
    /* when rank 0 is the one gone, every worker notices it: the first speaks and
     * ends the job, the next ones would a quarter second later each */
    const double stagger = watch.rank > 0 ? 0.25 * (watch.rank < 40 ? watch.rank - 1 : 39) : 0;
    int bye_sent = 0;
    for (;;) {
        double now = MPI_Wtime();
        /* this thread slept past its turn (the rank stopped and continued, or
         * starved of a core): the silence may be its own, not its peers' */
        if (now - woke > gap_limit()) {
            atomic_store(&watch_slept, mono_ns());
            for (int r = 0; r < watch.size; r++) watch.heard[r] = now;
        }
        woke = now;
        atomic_store(&watch_turn, mono_ns());
        hear_all(now);
        if (atomic_load(&watch.stop) && !bye_sent) send_all(&BYE), bye_sent = 1;
        else if (!bye_sent && now - last >= BEAT_PERIOD) send_all(&BEAT), last = now;
        int all_gone = 1;
        for (int r = 0; r < watch.size; r++) {
            if (!is_peer(r) || watch.gone[r]) continue;
            all_gone = 0;
            if (!watch.ending && now - watch.heard[r] > watch.limit + stagger) silent_peer(r, now - watch.heard[r]);
        }
        if (bye_sent && all_gone) break;
        nap(bye_sent);
    }
    for (int r = 0; r < watch.size; r++)
        if (watch.sent[r] != MPI_REQUEST_NULL) MPI_Wait(&watch.sent[r], MPI_STATUS_IGNORE);
    return NULL;
}

void cli_mpi_watch_start(int rank, int size, int provided)
{
    if (rank == 0 && size > 1) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_term;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, NULL);
    }
    watch.limit = watch_limit();
    if (size < 2) return;
    /* collectives every rank takes, whatever its environment: rank 0's limit
     * for all (mpirun passes a variable to other hosts only with -x), then one
     * vote on the thread level and the memory, one more on the threads started */
    MPI_Bcast(&watch.limit, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    atomic_store(&gap_ns, (long long)(gap_limit() * 1e9));
    watch.rank = rank, watch.size = size;
    watch.heard = malloc((size_t)size * sizeof *watch.heard);
    watch.gone = calloc((size_t)size, 1);
    watch.sent = malloc((size_t)size * sizeof *watch.sent);
    int ok = watch.limit > 0 && provided >= MPI_THREAD_MULTIPLE && watch.heard && watch.gone && watch.sent, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all && MPI_Comm_dup(MPI_COMM_WORLD, &watch.comm) == MPI_SUCCESS) {
        double now = MPI_Wtime();
        for (int r = 0; r < size; r++) watch.heard[r] = now, watch.sent[r] = MPI_REQUEST_NULL;
        atomic_store(&watch_turn, mono_ns());
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&nap_cv, &ca);
        pthread_condattr_destroy(&ca);
        const int started = pthread_create(&watch.th, NULL, watch_main, NULL) == 0;
        int everywhere = 0;
        MPI_Allreduce(&started, &everywhere, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        atomic_store(&watch_go, everywhere ? 1 : -1); /* a rank without its watch: none watches */
        if (started && !everywhere) pthread_join(watch.th, NULL);
        watch.on = everywhere;
        if (!everywhere) MPI_Comm_free(&watch.comm);
    }
    if (!watch.on) free(watch.heard), free(watch.gone), free(watch.sent);
}

const char *cli_mpi_watch_state(void)
{
    return watch.on ? "watched" : watch.limit <= 0 ? "unwatched (REPVIEW_MPI_TIMEOUT=0)" : "unwatched";
}

void cli_mpi_watch_end(void)
{
    if (watch.rank == 0) explained = 1; /* the output is complete: a late SIGTERM needs no line */
    if (!watch.on) return;
    pthread_mutex_lock(&nap_mu);
    atomic_store(&watch.stop, 1);
    pthread_cond_signal(&nap_cv);
    pthread_mutex_unlock(&nap_mu);
    pthread_join(watch.th, NULL);
    watch.on = 0;
    MPI_Comm_free(&watch.comm);
    free(watch.heard), free(watch.gone), free(watch.sent);
}

void cli_mpi_watch_failed(void) { tell_peers_failed(); }

#else
typedef int cli_mpi_watch_unused_t; /* built without MPI: nothing to watch */
#endif
