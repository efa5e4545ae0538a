/* sa_bench.c — times the parallel suffix-array construction (engine/index/
 * sa_parallel.c) against libdivsufsort on one input, each measurement in a process
 * of its own so that its peak RSS is its own.
 *
 *   sa_bench [--threads 1,2,4,8,16] [--only T] [--repeat R] [--check] [--wide]
 *            [--alpha dna|protein|text] [--copies K [--mutate RATE] [--seed S]]
 *            (FASTA | --synth KIND LENGTH)
 *
 * The FASTA is encoded as the index encodes it: codes 1..sigma for matching symbols
 * (DNA: ACGT, any case), 0 for everything else and between records, every run of 0
 * collapsed to one, none at either end.  --copies K makes a collection instead: K
 * copies of that text, each with substitutions at RATE per symbol (default 0.001),
 * one 0 between copies.  --synth KIND LENGTH makes the text itself: same (one
 * symbol), periodP (period P over ACGT), random (uniform ACGT).
 *
 * Prints one table row: n, libdivsufsort's seconds on one thread, then the parallel
 * construction's seconds at each thread count, each followed by the process's peak
 * RSS in MiB.  --repeat R runs each measurement R times and keeps the fastest (for
 * a shared machine).  --only T runs the parallel construction alone at T threads
 * (T = 0: divsufsort alone) and prints "seconds peak_rss_MiB".  --check compares every
 * parallel result with divsufsort's (then the RSS includes divsufsort's array).
 * Build: see `make build/sa_bench` (the Makefile) or
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iengine -pthread tests/bench/sa_bench.c \
 *      engine/index/sa_parallel.c -ldivsufsort -ldivsufsort64 -o sa_bench
 */
#include <divsufsort.h>
#include <divsufsort64.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "index/sa_parallel.h"

static int method = RV_SA_AUTO; /* --method */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *msg)
{
    fprintf(stderr, "sa_bench: %s\n", msg);
    exit(2);
}

/* ---- input ----------------------------------------------------------------------- */

typedef struct {
    uint8_t *t;
    uint64_t n, cap;
    int pending; /* a breaker is due before the next symbol */
} text_t;

static void put(text_t *x, uint8_t c)
{
    if (!c) {
        x->pending = x->n > 0;
        return;
    }
    if (x->n + 2 > x->cap) {
        x->cap = x->cap ? 2 * x->cap : 1 << 20;
        x->t = realloc(x->t, x->cap);
        if (!x->t) die("out of memory");
    }
    if (x->pending) x->t[x->n++] = 0;
    x->pending = 0;
    x->t[x->n++] = c;
}

static uint8_t code(int alpha, int c)
{
    if (alpha == 'd') {
        switch (c | 32) {
        case 'a': return 1;
        case 'c': return 2;
        case 'g': return 3;
        case 't': return 4;
        default: return 0;
        }
    }
    if (alpha == 'p') {
        int u = c & ~32;
        if (u < 'A' || u > 'Z' || u == 'X') return 0;
        return (uint8_t)(u - 'A' + 1 - (u > 'X'));
    }
    return (uint8_t)c;
}

static void load_fasta(const char *path, int alpha, text_t *x)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "sa_bench: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    static char line[1 << 16];
    int header = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        int whole = len && line[len - 1] == '\n';
        if (!header && line[0] == '>') {
            put(x, 0); /* records are separated */
            header = !whole;
            continue;
        }
        if (header) {
            header = !whole;
            continue;
        }
        for (size_t i = 0; i < len; i++) {
            int c = (unsigned char)line[i];
            if (c == '\n' || c == '\r') continue;
            put(x, code(alpha, c));
        }
    }
    fclose(f);
}

static uint64_t rng_s = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_s ^= rng_s >> 12;
    rng_s ^= rng_s << 25;
    rng_s ^= rng_s >> 27;
    return rng_s * 2685821657736338717ull;
}

static void copies(text_t *x, int k, double rate)
{
    text_t y = {0};
    uint64_t thr = (uint64_t)(rate * 18446744073709551615.0);
    for (int c = 0; c < k; c++) {
        put(&y, 0);
        for (uint64_t i = 0; i < x->n; i++) {
            uint8_t s = x->t[i];
            if (s && c > 0 && rng() < thr) s = (uint8_t)(1 + (s + rng() % 3) % 4);
            put(&y, s);
        }
    }
    free(x->t);
    *x = y;
}

static void synth(const char *kind, uint64_t len, text_t *x)
{
    unsigned p = 0;
    uint8_t unit[4096];
    if (strncmp(kind, "period", 6) == 0) {
        p = (unsigned)atoi(kind + 6);
        if (p < 1 || p > sizeof unit) die("--synth periodP: P in 1..4096");
        for (unsigned i = 0; i < p; i++) unit[i] = (uint8_t)(1 + rng() % 4);
    } else if (strcmp(kind, "same") == 0) {
        p = 1;
        unit[0] = 1;
    } else if (strcmp(kind, "random") != 0) {
        die("--synth: same, periodP or random");
    }
    for (uint64_t i = 0; i < len; i++) put(x, p ? unit[i % p] : (uint8_t)(1 + rng() % 4));
}

static uint64_t parse_len(const char *s)
{
    char *e;
    double v = strtod(s, &e);
    if (*e == 'k') v *= 1e3;
    else if (*e == 'm') v *= 1e6;
    else if (*e == 'g') v *= 1e9;
    return (uint64_t)v;
}

/* ---- one measurement ------------------------------------------------------------- */

typedef struct {
    const uint8_t *t;
    uint64_t n;
    int wide, check;
} job_t;

/* 0: ok; 1: differs from divsufsort; 2: failed */
static int measure(const job_t *j, int threads, double *sec)
{
    uint64_t n = j->n;
    int wide = j->wide || n >= (1ull << 31);
    size_t w = wide ? 8 : 4;
    void *sa = malloc(n * w);
    if (!sa) return 2;
    if (threads == 0) {
        double t0 = now();
        int rc = wide ? divsufsort64(j->t, sa, (saidx64_t)n) : divsufsort(j->t, sa, (saidx_t)n);
        *sec = now() - t0;
        free(sa);
        return rc ? 2 : 0;
    }
    void *scratch = malloc(n * w);
    if (!scratch) return 2;
    double t0 = now();
    const rv_sa_opts_t opts = {.method = method};
    int rc = rv_sa_parallel_opts(j->t, n, 255, sa, scratch, wide, threads, &opts);
    *sec = now() - t0;
    free(scratch);
    if (rc) return 2;
    int bad = 0;
    if (j->check) {
        void *ref = malloc(n * w);
        if (!ref) return 2;
        if (wide ? divsufsort64(j->t, ref, (saidx64_t)n) : divsufsort(j->t, ref, (saidx_t)n)) return 2;
        bad = memcmp(sa, ref, n * w) != 0;
        free(ref);
    }
    free(sa);
    return bad;
}

static int repeat = 1;

/* Run one measurement in a child: seconds and its peak RSS in MiB; the status as
 * measure's.  With --repeat, the fastest of the runs (and the largest RSS). */
static int in_child_once(const job_t *j, int threads, double *sec, double *rss_mib);
static int in_child(const job_t *j, int threads, double *sec, double *rss_mib)
{
    int worst = 0;
    for (int r = 0; r < repeat; r++) {
        double s = 0, m = 0;
        int st = in_child_once(j, threads, &s, &m);
        if (st > worst) worst = st;
        if (r == 0 || s < *sec) *sec = s;
        if (r == 0 || m > *rss_mib) *rss_mib = m;
    }
    return worst;
}

static int in_child_once(const job_t *j, int threads, double *sec, double *rss_mib)
{
    int fd[2];
    if (pipe(fd)) die("pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        close(fd[0]);
        double s = 0;
        int st = measure(j, threads, &s);
        if (write(fd[1], &s, sizeof s) != (ssize_t)sizeof s) _exit(3);
        _exit(st);
    }
    close(fd[1]);
    if (read(fd[0], sec, sizeof *sec) != (ssize_t)sizeof *sec) *sec = -1;
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) die("wait4");
    *rss_mib = (double)ru.ru_maxrss / 1024.0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *list = "1,2,4,8,16", *synth_kind = NULL;
    uint64_t synth_len = 0;
    int only = -1, check = 0, wide = 0, alpha = 'd', k = 0;
    double rate = 0.001;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--threads") && i + 1 < argc) list = argv[++i];
        else if (!strcmp(a, "--only") && i + 1 < argc) only = atoi(argv[++i]);
        else if (!strcmp(a, "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else if (!strcmp(a, "--check")) check = 1;
        else if (!strcmp(a, "--method") && i + 1 < argc) {
            const char *m = argv[++i];
            method = !strcmp(m, "doubling") ? RV_SA_DOUBLING : !strcmp(m, "sais") ? RV_SA_SAIS : RV_SA_AUTO;
        }
        else if (!strcmp(a, "--wide")) wide = 1;
        else if (!strcmp(a, "--alpha") && i + 1 < argc) alpha = argv[++i][0];
        else if (!strcmp(a, "--copies") && i + 1 < argc) k = atoi(argv[++i]);
        else if (!strcmp(a, "--mutate") && i + 1 < argc) rate = atof(argv[++i]);
        else if (!strcmp(a, "--seed") && i + 1 < argc) rng_s ^= strtoull(argv[++i], NULL, 10) * 0x2545f4914f6cdd1dull;
        else if (!strcmp(a, "--synth") && i + 2 < argc) {
            synth_kind = argv[++i];
            synth_len = parse_len(argv[++i]);
        } else if (a[0] != '-' && !path) path = a;
        else {
            fprintf(stderr, "usage: sa_bench [--threads 1,2,4] [--only T] [--repeat R] [--check] [--wide] [--method auto|doubling|sais] "
                            "[--alpha dna|protein|text] [--copies K [--mutate RATE] [--seed S]] "
                            "(FASTA | --synth same|periodP|random LENGTH)\n");
            return 2;
        }
    }
    text_t x = {0};
    if (synth_kind) synth(synth_kind, synth_len, &x);
    else if (path) load_fasta(path, alpha, &x);
    else die("no input (a FASTA or --synth)");
    if (k > 1) copies(&x, k, rate);
    if (x.n == 0) die("empty input");
    job_t j = {x.t, x.n, wide, check};
    if (only >= 0) {
        double s = 0, rss = 0;
        int st = in_child(&j, only, &s, &rss);
        printf("%.3f %.1f%s\n", s, rss, st == 1 ? " DIFFERS" : st ? " FAILED" : check && only ? " same" : "");
        return st;
    }
    printf("%12s %10s", "n", "divsufsort");
    char *l = strdup(list);
    for (char *p = strtok(l, ","); p; p = strtok(NULL, ",")) printf(" %10s", p);
    printf("    (seconds; [peak RSS MiB])\n");
    double s, rss;
    int st = in_child(&j, 0, &s, &rss), worst = st;
    printf("%12llu %10.2f", (unsigned long long)x.n, s);
    char rss_line[1024];
    int off = snprintf(rss_line, sizeof rss_line, "%12s [%8.0f]", "", rss);
    free(l);
    l = strdup(list);
    for (char *p = strtok(l, ","); p; p = strtok(NULL, ",")) {
        st = in_child(&j, atoi(p), &s, &rss);
        if (st > worst) worst = st;
        printf(" %9.2f%s", s, st == 1 ? "!" : st ? "?" : " ");
        off += snprintf(rss_line + off, sizeof rss_line - (size_t)off, " [%8.0f]", rss);
        fflush(stdout);
    }
    printf("\n%s\n", rss_line);
    if (check) printf("check: %s\n", worst == 1 ? "DIFFERS (!)" : worst ? "FAILED (?)" : "all equal to divsufsort");
    free(l);
    free(x.t);
    return worst;
}
