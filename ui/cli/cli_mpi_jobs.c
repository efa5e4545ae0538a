/* cli_mpi_jobs.c — the master/worker job loop under mpirun (RACE
 * §5.2: dynamic, largest first) and what goes from rank to rank with
 * it: the workers' part files to rank 0, bytes and counts.  Built with MPI when
 * mpicc is found (RV_HAVE_MPI); otherwise every call fails. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "cli.h"
#include "cli_mpi_internal.h"

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

static const uint64_t NO_JOB = UINT64_MAX;


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
     * do not wait for rank 0's answer one after the other (one job at a time costs
     * a GPU rank of 32 threads 8 ms a job on an H200 host) */
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
    int fd = cli_mpi_on_this_host(from) && !(copy && *copy == '1') ? open(proc, O_RDONLY | O_CLOEXEC) : -1;
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
int cli_mpi_next_job_of(int rank, uint64_t *job) { return -1; }
int cli_mpi_work(int rank, cli_mpi_job_fn job, void *ud) { return -1; }
int cli_mpi_collect(const uint64_t *order, uint64_t n, int size, int quiet, cli_mpi_read_fn read, void *ud)
{
    return -1;
}

#endif
