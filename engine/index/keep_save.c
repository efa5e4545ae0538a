/* keep_save.c — saving a built index in the background, abandonable at any moment
 * without leaving a partial file behind (keep.h says how). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/keep.h"

struct rv_keep {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rv_index_t snap;     /* shallow copy of the index: sections added later are not seen */
    char *path;          /* the target, PATH */
    char *dir;           /* PATH.saving.PID.N: private, removed on every way out */
    int dir_fd;          /* open on dir, holding its lock (leftovers.c), or -1 */
    char *inner;         /* DIR/NAME, what rv_index_save() writes */
    int dir_made, done, abandoned, ok, refs; /* under mu */
    uint64_t bytes;
    char why[400];
};

int rv_keep_allowed(const char *input)
{
    struct stat st;
    if (strcmp(input, "-") == 0 || strncmp(input, "/dev/", 5) == 0 || strncmp(input, "/proc/", 6) == 0)
        return 0;
    return stat(input, &st) == 0 && S_ISREG(st.st_mode);
}

int rv_keep_env_off(void)
{
    const char *e = getenv("REPVIEW_NO_SAVE");
    return e && *e && strcmp(e, "0") != 0;
}

void rv_keep_size_str(uint64_t bytes, char *buf, size_t len)
{
    double b = (double)bytes;
    if (bytes < 1000) snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    else if (bytes < 1000000) snprintf(buf, len, "%.0f kB", b / 1e3);
    else if (bytes < 1000000000) snprintf(buf, len, "%.1f MB", b / 1e6);
    else snprintf(buf, len, "%.1f GB", b / 1e9);
}

static void keep_free(rv_keep_t *k)
{
    pthread_mutex_destroy(&k->mu);
    pthread_cond_destroy(&k->cv);
    free(k->path);
    free(k->dir);
    free(k->inner);
    free(k);
}

/* Drop one reference (under mu, which this releases); the last one frees k. */
static void keep_release(rv_keep_t *k)
{
    int last = --k->refs == 0;
    pthread_mutex_unlock(&k->mu);
    if (last) keep_free(k);
}

/* rv_index_save()'s message names the inner path: keep only the reason, as for a
 * failed mkdir ("No space left on device"). */
static void set_why(char *why, size_t len, const char *msg, const char *inner)
{
    size_t l = strlen(inner);
    if (strncmp(msg, inner, l) == 0 && strncmp(msg + l, ": ", 2) == 0) msg += l + 2;
    if (strncmp(msg, "cannot write: ", 14) == 0) msg += 14;
    snprintf(why, len, "%s", msg);
}

void rv_keep_test_delay(void)
{
    const char *e = getenv("REPVIEW_SAVE_DELAY_MS");
    long ms = e ? atol(e) : 0;
    if (ms <= 0) return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* Make the private directory and lock it as a live writer's, so that no sweep of
 * another process removes it; -1 with errno when it cannot be made. */
static int make_dir(rv_keep_t *k)
{
    for (int tries = 0; tries < 8; tries++) {
        if (mkdir(k->dir, 0700) != 0) return -1;
        k->dir_fd = open(k->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (k->dir_fd >= 0 && rv_rvx_claim(k->dir_fd) == 0) return 0;
        if (k->dir_fd >= 0) close(k->dir_fd);
        k->dir_fd = -1; /* a sweep took it between mkdir and the lock: make it again */
    }
    errno = EAGAIN;
    return -1;
}

static void *keep_main(void *arg)
{
    rv_keep_t *k = arg;
    char why[400] = "";
    int ok = 0;
    pthread_mutex_lock(&k->mu);
    int go = !k->abandoned; /* the directory is made under the lock: an abandon sees it */
    if (go && make_dir(k) == 0) k->dir_made = 1;
    else if (go) snprintf(why, sizeof why, "%s", strerror(errno)), go = 0;
    pthread_mutex_unlock(&k->mu);
    if (go) {
        ok = rv_index_save(&k->snap, k->inner) == 0;
        if (!ok) set_why(why, sizeof why, rv_last_error(), k->inner);
        rv_keep_test_delay();
    }
    pthread_mutex_lock(&k->mu);
    if (ok && k->abandoned) ok = 0; /* its directory is gone already */
    if (ok && rename(k->inner, k->path) != 0) ok = 0, snprintf(why, sizeof why, "%s", strerror(errno));
    struct stat st;
    if (ok && stat(k->path, &st) == 0) k->bytes = (uint64_t)st.st_size;
    if (k->dir_made && !k->abandoned) rv_rvx_remove_dir(k->dir);
    if (k->dir_fd >= 0) close(k->dir_fd);
    k->dir_fd = -1;
    k->ok = ok;
    snprintf(k->why, sizeof k->why, "%s", k->abandoned ? "abandoned" : why);
    k->done = 1;
    pthread_cond_broadcast(&k->cv);
    keep_release(k);
    return NULL;
}

/* A new string of at most len - 1 characters from fmt. */
static char *str_new(size_t len, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *str_new(size_t len, const char *fmt, ...)
{
    char *s = malloc(len);
    if (!s) return NULL;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, len, fmt, ap);
    va_end(ap);
    return s;
}

rv_keep_t *rv_keep_start(const rv_index_t *x, const char *path)
{
    static _Atomic int serial;
    rv_keep_t *k = calloc(1, sizeof *k);
    if (!k) { rv_error(path, "out of memory"); return NULL; }
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    k->snap = *x;
    k->dir_fd = -1;
    k->refs = 2; /* the thread's and the caller's */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    k->path = strdup(path);
    size_t len = 2 * strlen(path) + 64;
    rv_rvx_sweep_leftovers(path); /* its own writer works inside its private directory */
    k->dir = str_new(len, "%s.saving.%ld.%d", path, (long)getpid(), atomic_fetch_add(&serial, 1));
    k->inner = k->dir ? str_new(len, "%s/%s", k->dir, base) : NULL;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* signals stay with the caller's thread */
    pthread_t tid;
    int rc = k->path && k->inner ? pthread_create(&tid, &attr, keep_main, k) : -1;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) { keep_free(k); rv_error(path, "cannot start the saving thread"); return NULL; }
    return k;
}

int rv_keep_wait(rv_keep_t *k, double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long ns = ts.tv_nsec + (long)((seconds - (double)(long)seconds) * 1e9);
    ts.tv_sec += (time_t)seconds + ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    pthread_mutex_lock(&k->mu);
    while (!k->done && seconds > 0 && pthread_cond_timedwait(&k->cv, &k->mu, &ts) == 0) {}
    int done = k->done;
    pthread_mutex_unlock(&k->mu);
    return done;
}

int rv_keep_finish(rv_keep_t *k, int abandon, uint64_t *bytes, char *why, size_t whylen)
{
    pthread_mutex_lock(&k->mu);
    if (abandon && !k->done) {
        k->abandoned = 1;
        if (k->dir_made) rv_rvx_remove_dir(k->dir);
        if (why) snprintf(why, whylen, "abandoned");
        keep_release(k);
        return -1;
    }
    while (!k->done) pthread_cond_wait(&k->cv, &k->mu);
    int ok = k->ok;
    if (bytes) *bytes = k->bytes;
    if (why) snprintf(why, whylen, "%s", ok ? "" : k->why);
    keep_release(k);
    return ok ? 0 : -1;
}
