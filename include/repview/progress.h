/* progress.h — the stages of a build, its progress and its cancellation: what a
 * worker reports and an observer (the explorer, the progress line) reads.  Every
 * stage (sa_cpu, lcp_cpu, lr_arrays, runs, the GPU) reports through this alone,
 * without knowing the build that drives it (build.h). */
#ifndef REPVIEW_PROGRESS_H
#define REPVIEW_PROGRESS_H

#include <stdatomic.h>
#include <stdint.h>

typedef enum {
    RV_STAGE_IDLE = 0, RV_STAGE_READ, RV_STAGE_SA, RV_STAGE_ISA, RV_STAGE_LCP,
    RV_STAGE_LLR, RV_STAGE_EXTRA, RV_STAGE_SAVE, RV_STAGE_DONE, RV_STAGE_FAILED,
    RV_STAGE_CANCELLED
} rv_stage_t;

const char *rv_stage_name(rv_stage_t s);

/* Shared between the worker and its observers (UI thread, progress printer). */
typedef struct rv_progress {
    _Atomic int stage;        /* rv_stage_t */
    _Atomic uint64_t done;    /* units done in this stage */
    _Atomic uint64_t total;   /* units in this stage (0 = unknown) */
    _Atomic int cancel;       /* set to 1 to ask the worker to stop */
    char backend[96];         /* written once before the first stage */
} rv_progress_t;

/* True when the worker should stop. */
static inline int rv_cancelled(rv_progress_t *p) { return p && atomic_load(&p->cancel); }
static inline void rv_progress_stage(rv_progress_t *p, rv_stage_t s, uint64_t total)
{
    if (!p) return;
    atomic_store(&p->done, 0);
    atomic_store(&p->total, total);
    atomic_store(&p->stage, (int)s);
}
static inline void rv_progress_add(rv_progress_t *p, uint64_t k)
{
    if (p) atomic_fetch_add(&p->done, k);
}

#endif
