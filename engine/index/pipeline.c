/* pipeline.c — the build pipeline (backend choice, CPU stages, derived arrays), the
 * background build job, and rv_open() used by every subcommand. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/build.h"
#include "repview/gpu.h"
#include "repview/keep.h"
#include "repview/lr.h"
#include "repview/tandem.h"
#include "base/internal.h"
#include "lcp_cpu.h"
#include "lr_arrays.h"
#include "runs.h"
#include "sa_cpu.h"

void rv_build_opts_init(rv_build_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->with_llr = 1;
    /* test hook: exercise the 64-bit array path on small inputs */
    const char *w = getenv("REPVIEW_FORCE_WIDE");
    o->force_wide = w && *w == '1';
}

static rv_backend_t backend_from_env(rv_backend_t b)
{
    const char *e = getenv("REPVIEW_DEVICE");
    if (b != RV_BACKEND_AUTO || !e) return b;
    if (strcmp(e, "cpu") == 0) return RV_BACKEND_CPU;
    if (strcmp(e, "gpu") == 0) return RV_BACKEND_GPU;
    return RV_BACKEND_AUTO;
}

static void release_written(const rv_build_opts_t *o, rv_index_t *x, uint64_t want, int wait);

/* SA, then LCP (both borrow the ISA buffer as scratch), then ISA.  With late_isa (a
 * build for the file alone) the sequence's letters go once SA is built (the writer
 * took them first), the buffer goes after LCP, and the caller builds ISA later
 * (build_late_isa), once the LLR arrays are written and gone: no stage then holds
 * SA, ISA and the LLR arrays at once. */
static int build_cpu(const rv_build_opts_t *o, rv_index_t *x, int threads, rv_progress_t *p, int late_isa)
{
    double t0 = rv_now();
    if (rv_cpu_sa(x, threads, p) < 0) return -1;
    double t1 = rv_now();
    x->stage_s[RV_STAGE_SA] = t1 - t0;
    rv_trace("build.sa", &t0);
    if (rv_cancelled(p)) return rv_error("", "cancelled");
    if (late_isa) {
        double t = rv_now();
        release_written(o, x, RV_SEC_BIT(RV_SEC_RAW), 1);
        rv_trace("build.release_raw", &t);
        t1 = rv_now();
    }
    if (rv_cpu_lcp(x, threads, p) < 0) return -1;
    double t2 = rv_now();
    x->stage_s[RV_STAGE_LCP] = t2 - t1;
    rv_trace("build.lcp", &t1);
    if (rv_cancelled(p)) return rv_error("", "cancelled");
    if (late_isa) {
        free(x->isa);
        x->isa = NULL;
        return 0;
    }
    rv_cpu_isa(x, threads, p);
    x->stage_s[RV_STAGE_ISA] = rv_now() - t2;
    rv_trace("build.isa", &t2);
    return 0;
}

/* The ISA that build_cpu left for later, from SA. */
static int build_late_isa(rv_index_t *x, int threads, rv_progress_t *p)
{
    double t = rv_now();
    const size_t bytes = (size_t)(x->n ? x->n : 1) * (x->wide ? 8 : 4); /* as rv_index_alloc */
    if (!(x->isa = rv_big_alloc(bytes))) return rv_oom("inverse suffix array", bytes);
    rv_cpu_isa(x, threads, p);
    x->stage_s[RV_STAGE_ISA] = rv_now() - t;
    rv_trace("build.isa", &t);
    return 0;
}

/* Hand the sections a stage made final to the writer (a failure is kept by the
 * writer and reported by its finish: the build goes on). */
static void hand_over(const rv_build_opts_t *o, const rv_index_t *x, uint64_t mask)
{
    if (o->writer) rv_rvx_writer_add_index(o->writer, x, mask);
}

#define RELEASE_CORE (RV_SEC_BIT(RV_SEC_SA) | RV_SEC_BIT(RV_SEC_RAW))
#define RELEASE_LCP (RV_SEC_BIT(RV_SEC_LCP) | RV_SEC_BIT(RV_SEC_LCP_BIG))
#define RELEASE_LLR (RV_SEC_BIT(RV_SEC_LLR) | RV_SEC_BIT(RV_SEC_LLR_BIG) | RV_SEC_BIT(RV_SEC_LLRC))

/* For a caller that wants the file alone (rv_build_opts_t.release): free those of
 * the sections `want` that the file has (all of them once written, when `wait`), so
 * that each stage's arrays take the place of those the stages after it do not read:
 * on the CPU the sequence's letters once SA is built, the LLR arrays before ISA is
 * built, SA after that, ISA and LCP before the tandem runs' sort. */
static void drop_section(rv_index_t *x, int id)
{
    if (x->ext[id].owned) free(x->ext[id].ptr);
    x->ext[id] = (rv_section_t){NULL, 0, 0};
}

static void release_written(const rv_build_opts_t *o, rv_index_t *x, uint64_t want, int wait)
{
    const uint64_t done = rv_rvx_writer_release(o->writer, want, wait);
    if ((done >> RV_SEC_SA & 1) && !x->map) {
        free(x->sa);
        x->sa = NULL;
    }
    rv_seq_t *s = x->seq;
    if ((done >> RV_SEC_RAW & 1) && s->owned_raw && s->owned_raw == s->raw) {
        free(s->owned_raw);
        s->owned_raw = NULL;
        s->raw = NULL;
    }
    for (int id = RV_SEC_LLR; id <= RV_SEC_LLR_BIG; id++)
        if ((done >> id & 1) && x->ext[id].owned) drop_section(x, id);
    if ((done & RELEASE_LCP) == RELEASE_LCP && !x->map) { /* both parts, and the view of them */
        drop_section(x, RV_SEC_LCP);
        drop_section(x, RV_SEC_LCP_BIG);
        memset(&x->lcp, 0, sizeof x->lcp);
    }
}

typedef struct {
    const rv_build_opts_t *o;
    rv_index_t *x;
} release_ctx_t;

/* The tandem runs' hook (rv_runs_get_then): ISA is not in the file, and LCP was
 * handed to the writer three stages ago; the runs' sort then takes their place. */
static void release_rank_arrays(void *ud)
{
    const release_ctx_t *r = ud;
    double t = rv_now();
    if (!r->x->map) {
        free(r->x->isa);
        r->x->isa = NULL;
    }
    release_written(r->o, r->x, RELEASE_LCP, 1);
    rv_trace("build.release_isa_lcp", &t);
}

/* Free x once the writer no longer reads from it (its file is then spoiled). */
static void build_failed(const rv_build_opts_t *o, rv_index_t *x)
{
    if (o->writer) rv_rvx_writer_stop(o->writer);
    rv_index_free(x);
}

rv_index_t *rv_build(rv_seq_t *seq, const rv_build_opts_t *o, rv_progress_t *p)
{
    rv_build_opts_t def;
    if (!o) { rv_build_opts_init(&def); o = &def; }
    int threads = o->threads > 0 ? o->threads : rv_default_threads();
    rv_backend_t backend = backend_from_env(o->backend);
    char gpu_name[80] = "", why[160] = "";
    int gpu_ok = 0;
    if (backend != RV_BACKEND_CPU) {
        gpu_ok = rv_gpu_compiled() && rv_gpu_probe(gpu_name, sizeof gpu_name, why, sizeof why);
        if (!gpu_ok && backend == RV_BACKEND_GPU) {
            rv_seq_free(seq);
            rv_error("--gpu", "no usable GPU: %s", why[0] ? why : "built without CUDA");
            return NULL;
        }
    }
    if (o->strands == 2 && rv_seq_add_reverse(seq, threads) < 0) { rv_seq_free(seq); return NULL; }
    rv_index_t *x = rv_index_alloc(seq, o->force_wide);
    if (!x) { rv_seq_free(seq); return NULL; }
    if (seq->strands == 2) {
        uint64_t *nf = malloc(sizeof *nf);
        if (!nf) { rv_index_free(x); rv_oom("strands section", sizeof *nf); return NULL; }
        *nf = seq->nf;
        rv_index_attach(x, RV_SEC_STRANDS, nf, sizeof *nf);
    }
    hand_over(o, x, RV_SEC_SEQ_MASK);
    int done = 0;
    if (gpu_ok && x->n > 0) {
        snprintf(x->backend, sizeof x->backend, "GPU %s", gpu_name);
        if (p) snprintf(p->backend, sizeof p->backend, "%s", x->backend);
        if (rv_gpu_build(x, o, p) == 0) {
            done = 1;
        } else if (!rv_cancelled(p)) {
            snprintf(x->note, sizeof x->note, "GPU build failed (%s); built on the CPU instead",
                     rv_last_error());
        }
    }
    if (!done && rv_cancelled(p)) { /* cancelled during the GPU build: no CPU fallback */
        build_failed(o, x);
        rv_error("", "cancelled");
        return NULL;
    }
    const int release = o->release && o->writer && !done; /* a CPU build: it waits for the writer */
    if (!done) {
        snprintf(x->backend, sizeof x->backend, "CPU, %d thread%s", threads, threads > 1 ? "s" : "");
        if (p) snprintf(p->backend, sizeof p->backend, "%s", x->backend);
        if (build_cpu(o, x, threads, p, release) < 0) { build_failed(o, x); return NULL; }
    }
    hand_over(o, x, RV_SEC_CORE_MASK);
    release_ctx_t rel = {o, x};
    if (o->with_llr && !rv_index_section(x, RV_SEC_LLRC, NULL)) {
        double t0 = rv_now();
        rv_progress_stage(p, RV_STAGE_LLR, x->n);
        if (rv_lr_build_arrays(x, threads, p) < 0) {
            build_failed(o, x);
            return NULL;
        }
        x->stage_s[RV_STAGE_LLR] = rv_now() - t0;
        rv_trace("build.llr", &t0);
    }
    hand_over(o, x, RV_SEC_BIT(RV_SEC_LLR) | RV_SEC_BIT(RV_SEC_LLRC) | RV_SEC_BIT(RV_SEC_LLR_BIG));
    /* a CPU build waits for the writer (the LLR arrays were handed over just now,
     * 0.1 s for a 48 Mbp collection on 2 cores, and that saves 3 bytes a symbol of
     * the peak); a GPU build frees only what is written already, its runs being too
     * short to wait */
    if (release) { /* the LLR arrays go before ISA comes, SA after */
        double t = rv_now();
        release_written(o, x, RELEASE_LLR, 1);
        if (build_late_isa(x, threads, p) < 0) { build_failed(o, x); return NULL; }
        release_written(o, x, RELEASE_CORE, 1);
        rv_trace("build.release", &t);
    } else if (o->release && o->writer) {
        double t = rv_now();
        release_written(o, x, RELEASE_CORE | RELEASE_LLR, 0);
        rv_trace("build.release", &t);
    }
    if (o->with_runs && !rv_index_section(x, RV_SEC_RUNS, NULL)) {
        double t0 = rv_now();
        rv_runs_t view;
        rv_progress_stage(p, RV_STAGE_EXTRA, 0);
        if (rv_runs_get_then(x, threads, p, &view, release ? release_rank_arrays : NULL, &rel) < 0) {
            build_failed(o, x);
            return NULL;
        }
        x->stage_s[RV_STAGE_EXTRA] = rv_now() - t0;
        rv_trace("build.runs", &t0);
    }
    if (rv_cancelled(p)) { build_failed(o, x); rv_error("", "cancelled"); return NULL; }
    double t_all = rv_now();
    hand_over(o, x, RV_SEC_ALL_MASK); /* packs the runs */
    rv_trace("build.hand_over_runs", &t_all);
    rv_progress_stage(p, RV_STAGE_DONE, 0);
    return x;
}

/* ---- background job ---------------------------------------------------------- */

struct rv_build_job {
    pthread_t tid;
    char *path;
    rv_seq_t *seq;
    rv_alpha_t alpha;
    rv_build_opts_t opts;
    rv_progress_t progress;
    rv_index_t *result;
    char err[512];
    _Atomic int finished;
};

/* Create the CUDA context (~0.1-0.3 s) while the input is read. */
static void *warm_gpu(void *arg)
{
    char name[80], why[160];
    rv_gpu_probe(name, sizeof name, why, sizeof why);
    return NULL;
}

static void *job_main(void *arg)
{
    rv_build_job_t *j = arg;
    double read_s = 0;
    if (!j->seq) {
        rv_progress_stage(&j->progress, RV_STAGE_READ, 0);
        pthread_t warm;
        int warming = backend_from_env(j->opts.backend) != RV_BACKEND_CPU && rv_gpu_compiled() &&
                      pthread_create(&warm, NULL, warm_gpu, NULL) == 0;
        double t0 = rv_now();
        j->seq = rv_seq_load_threads(j->path, j->alpha, j->opts.threads);
        read_s = rv_now() - t0;
        if (warming) pthread_join(warm, NULL);
    }
    if (j->seq) {
        rv_seq_t *s = j->seq;
        j->seq = NULL;
        j->result = rv_build(s, &j->opts, &j->progress);
        if (j->result) j->result->stage_s[RV_STAGE_READ] = read_s;
    }
    if (!j->result) {
        snprintf(j->err, sizeof j->err, "%s", rv_last_error());
        rv_progress_stage(&j->progress, rv_cancelled(&j->progress) ? RV_STAGE_CANCELLED : RV_STAGE_FAILED, 0);
    }
    atomic_store(&j->finished, 1);
    return NULL;
}

rv_build_job_t *rv_build_start(const char *path, rv_seq_t *seq, rv_alpha_t alpha,
                               const rv_build_opts_t *o)
{
    rv_build_job_t *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->path = path ? strdup(path) : NULL;
    j->seq = seq;
    j->alpha = alpha;
    if (o) j->opts = *o; else rv_build_opts_init(&j->opts);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* the worker inherits a full mask */
    int rc = pthread_create(&j->tid, NULL, job_main, j);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) { free(j->path); free(j); rv_thread_failed(rc, "build thread"); return NULL; }
    return j;
}

rv_progress_t *rv_build_progress(rv_build_job_t *j) { return &j->progress; }
void rv_build_cancel(rv_build_job_t *j) { atomic_store(&j->progress.cancel, 1); }
int rv_build_finished(rv_build_job_t *j) { return atomic_load(&j->finished); }

rv_index_t *rv_build_join(rv_build_job_t *j, char *err, size_t errlen)
{
    pthread_join(j->tid, NULL);
    rv_index_t *x = j->result;
    if (!x && err) snprintf(err, errlen, "%s", j->err);
    rv_seq_free(j->seq);
    free(j->path);
    free(j);
    return x;
}

/* ---- rv_open ------------------------------------------------------------------ */

static void show_progress(rv_progress_t *p, double start)
{
    static const char spin[] = "|/-\\";
    int stage = atomic_load(&p->stage);
    uint64_t done = atomic_load(&p->done), total = atomic_load(&p->total);
    int k = (int)((rv_now() - start) * 4) % 4;
    if (total)
        fprintf(stderr, "\rrepview: %s: %-16s %3d%%   ", p->backend[0] ? p->backend : "indexing",
                rv_stage_name((rv_stage_t)stage), (int)(100.0 * (double)done / (double)total));
    else
        fprintf(stderr, "\rrepview: %s: %-16s %c      ", p->backend[0] ? p->backend : "indexing",
                rv_stage_name((rv_stage_t)stage), spin[k]);
}

/* Run a build job to completion in this thread, drawing progress on a terminal
 * once it has taken more than a second. */
rv_index_t *rv_build_wait(rv_build_job_t *j, int quiet)
{
    double start = rv_now();
    int shown = 0, tty = !quiet && isatty(2);
    while (!rv_build_finished(j)) {
        /* short polls while a build may end any moment, then at the progress rate */
        struct timespec ts = {0, (rv_now() - start < 1.0 ? 2 : 50) * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (tty && rv_now() - start > 1.0) { show_progress(rv_build_progress(j), start); shown = 1; }
    }
    if (shown) fprintf(stderr, "\r%60s\r", "");
    char err[512];
    rv_index_t *x = rv_build_join(j, err, sizeof err);
    if (!x) rv_error("", "%s", err);
    return x;
}

/* FILE.rvx of path: the index when it matches (alphabet included), else NULL with
 * *ours saying whether the file may be (re)written: 1 missing, 2 ours but stale or
 * damaged (reported in one line), 0 no.  A foreign file or one that cannot be read is
 * reported and never overwritten; a good index for another alphabet stays too. */
static rv_index_t *load_rvx(const char *path, const char *rvx, rv_alpha_t alpha, int strands,
                            int rebuild_word, int quiet, int *ours)
{
    rv_index_t *x = NULL;
    rv_rvx_status_t st = rvx ? rv_index_load(rvx, path, &x) : RV_RVX_IOERR;
    *ours = 0;
    if (st == RV_RVX_OK && alpha != RV_ALPHA_AUTO && alpha != x->seq->alpha) {
        rv_index_free(x); /* built for another alphabet: not an answer to this question */
        return NULL;
    }
    if (st == RV_RVX_OK && strands == 2 && x->seq->strands != 2) {
        /* one strand cannot answer for two; the both-strand index that replaces it
         * answers one-strand questions too (rv_index_forward) */
        rv_index_free(x);
        *ours = 2;
        if (!quiet) fprintf(stderr, "repview: %s holds the forward strand only; %s\n", rvx,
                            rebuild_word ? "indexing both strands" : "indexing both strands in memory");
        return NULL;
    }
    if (st == RV_RVX_OK) return x;
    *ours = st == RV_RVX_MISSING ? 1 : st != RV_RVX_FOREIGN && st != RV_RVX_IOERR ? 2 : 0;
    if (st != RV_RVX_MISSING && !quiet)
        fprintf(stderr, "repview: %s; %s\n", rv_last_error(),
                *ours && rebuild_word ? "rebuilding it" : "building the index in memory");
    return NULL;
}

/* rv_open()'s body.  mode 0: never write FILE.rvx; 1: rewrite a stale or damaged
 * one here (rv_open); 2: leave *keep = FILE.rvx to the caller whenever the index
 * had to be built and may be kept (rv_index_complete() then adds what the
 * command did not need, after its answer). */
static rv_index_t *open_index(const char *path, rv_alpha_t alpha, const rv_build_opts_t *o, int quiet,
                              int mode, char **keep)
{
    rv_index_t *x = NULL;
    char *rvx = strcmp(path, "-") != 0 ? rv_index_path_for(path) : NULL;
    int ours = 0;
    int strands = o ? o->strands : 0;
    if (rvx) x = load_rvx(path, rvx, alpha, strands, mode == 1 || (mode == 2 && rv_keep_allowed(path)), quiet,
                          &ours);
    if (x && strands == 1 && x->seq->strands == 2) {
        x = rv_index_forward(x, o->threads);
        if (!x) { free(rvx); return NULL; }
    }
    if (!x) {
        int kept = mode == 2 && ours && rv_keep_allowed(path);
        rv_build_job_t *j = rv_build_start(path, NULL, alpha, o);
        x = j ? rv_build_wait(j, quiet) : NULL;
        if (x && x->seq->warning && !quiet) fprintf(stderr, "repview: %s: %s\n", path, x->seq->warning);
        if (x && x->note[0] && !quiet) fprintf(stderr, "repview: %s\n", x->note);
        if (x && mode == 1 && ours == 2 && rv_index_save(x, rvx) < 0 && !quiet)
            fprintf(stderr, "repview: %s\n", rv_last_error());
        if (x && kept) { *keep = rvx; rvx = NULL; }
    } else if (o && o->with_llr && (rv_index_derive(x, RV_SEC_BIT(RV_SEC_LLRC), o->threads) < 0 ||
                                     !rv_index_section(x, RV_SEC_LLRC, NULL))) {
        int threads = o->threads > 0 ? o->threads : rv_default_threads();
        if (rv_lr_build_arrays(x, threads, NULL) < 0) { rv_index_free(x); x = NULL; }
    }
    free(rvx);
    return x;
}

int rv_index_complete(rv_index_t *x, int threads)
{
    if (threads <= 0) threads = rv_default_threads();
    if (rv_index_derive(x, RV_SEC_BIT(RV_SEC_LLRC), threads) < 0) return -1;
    if (!rv_index_section(x, RV_SEC_LLRC, NULL) && rv_lr_build_arrays(x, threads, NULL) < 0) return -1;
    rv_runs_t view;
    return rv_index_section(x, RV_SEC_RUNS, NULL) ? 0 : rv_runs_get(x, threads, NULL, &view);
}

rv_index_t *rv_open(const char *path, rv_alpha_t alpha, const rv_build_opts_t *o, int quiet)
{
    return open_index(path, alpha, o, quiet, 1, NULL);
}

rv_index_t *rv_open_keep(const char *path, rv_alpha_t alpha, const rv_build_opts_t *o, int quiet,
                         char **keep)
{
    if (keep) *keep = NULL;
    return open_index(path, alpha, o, quiet, keep ? 2 : 0, keep);
}
