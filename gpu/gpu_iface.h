/* gpu_iface.h — the plain C interface between gpu_glue.c (which speaks rv_index_t,
 * progress and cancellation through the C11 headers) and the CUDA files of gpu/ (C++,
 * which cannot include those headers).  Not part of the public API. */
#ifndef REPVIEW_GPU_IFACE_H
#define REPVIEW_GPU_IFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rv_gpu_job {
    /* in */
    uint64_t n;
    const uint8_t *text;   /* n codes, RV_BREAK = 0 */
    int sigma;             /* largest code that may occur */
    void *sa, *isa;        /* host arrays to fill (32- or 64-bit) */
    int wide;
    int trace;             /* per-step times on stderr */
    int pin;               /* page-lock the host arrays for the transfers */
    int with_llr;          /* also LLR and LLRc (lr.h layout) */
    int with_runs;         /* also the tandem runs (engine/index/runs_store.h layout) */
    /* For the runs: a new section for m runs of width wide (8 bytes when set), the
     * addresses of its start, len and period columns and of its block tree in cols,
     * its size in *bytes; NULL when out of memory.  runs_block: runs per tree block. */
    void *(*runs_section)(uint64_t m, int wide, void *cols[4], uint64_t *bytes);
    uint32_t runs_block;
    int narrow_on_host;    /* test hook: list the values >= 255 on the host, as when
                              the device has no room for them */
    int threads;           /* host threads that prepare the host arrays */
    void *ctx;             /* for the callbacks */
    void (*stage)(void *ctx, int stage, uint64_t total); /* 0 SA, 1 ISA, 2 LCP */
    void (*add)(void *ctx, uint64_t done);
    int (*cancelled)(void *ctx);
    /* out */
    double stage_s[3];     /* seconds: SA (with upload), ISA (SA+ISA download), LCP */
    uint64_t device_bytes; /* device memory the build held at its peak */
    uint8_t *lcp8, *llr8;  /* malloc()ed sections for the caller (narrow.h): the     */
    void *lcp_big, *llr_big; /* small and big parts of LCP and LLR (n bytes each,  */
    uint64_t lcp_big_bytes, llr_big_bytes; /* big parts 32/64-bit as wide)          */
    void *llrc;            /* LLRc starts (32/64-bit as wide) */
    uint64_t llrc_bytes;
    double llr_s;          /* seconds for LLR + LLRc (with their download) */
    void *runs_sec;        /* from runs_section(), filled but for the header; NULL when */
    uint64_t runs_bytes;   /* the runs were not asked for or are left to the CPU        */
    uint64_t runs_m;
    double runs_s;         /* seconds for the runs (with their download) */
} rv_gpu_job_t;

/* 1 with the name of device dev when it is present and usable, else 0 with the
 * reason; the calling thread's device is then dev. */
int rv_gpu_query(int dev, char *name, size_t name_len, char *why, size_t why_len);

/* Build SA, ISA and LCP (and LLR, LLRc) on the GPU.  0, or -1 with a message through
 * rv_error(); the out arrays are then NULL. */
int rv_gpu_run(rv_gpu_job_t *j);

/* All LRs of every position from the LLRc pairs (32-bit): len[k] (0: none), the LRs
 * of k are starts[off[k] .. off[k+1]) (off has n + 1 entries), *starts malloc()ed.
 * kernel_s: device time of the two passes and the scan.  0 or -1 with a message. */
int rv_gpu_lr_all_run(const uint32_t *llrc, uint32_t m, uint64_t n, uint32_t *len, uint32_t *off,
                      uint32_t **starts, uint64_t *hits, double *kernel_s);

/* The w-mers of an index (gpu_wmers.cu; repeats.h): 32-bit ranks (n < 2^32 - 1). */
typedef struct {
    /* in */
    uint64_t n, w, min_count;
    const uint32_t *sa;      /* n entries; read when with_pos or min_count == 1 */
    const uint8_t *lcp8;     /* the narrow LCP's n small bytes (narrow.h) */
    const uint32_t *lcp_val; /* its n_big values >= 255, in rank order */
    uint64_t n_big;
    const uint8_t *text;     /* n codes; read when min_count == 1 */
    int with_pos, trace;     /* trace: per-step times on stderr */
    /* out (malloc()ed, NULL on failure) */
    uint64_t kept, total;    /* w-mers kept; their occurrences (with_pos) */
    uint32_t *lb, *cnt;      /* kept entries each: first rank and count, in rank order */
    uint32_t *pos;           /* with_pos: total positions, each w-mer's ascending, one
                                w-mer after another */
    double device_s;         /* seconds on the device (transfers to it included) */
} rv_gpu_wmers_job_t;

/* 0, or -1 with a message. */
int rv_gpu_wmers_run(rv_gpu_wmers_job_t *j);

/* Prefix buckets on the GPU (gpu_buckets.cu; buckets.h): the number of devices; the
 * text uploaded to device dev for the jobs that follow (sigma: largest code); one
 * job = codes [lo, lo + nc) of k symbols (base sigma), off[c] the first slot of code
 * lo + c (nc + 1 entries, off[nc] = m): pos and lcp (m each, host) receive the
 * suffixes in suffix-array order and the LCP of each with the one before, except at
 * the first slot of a bucket.  When fewer than min_left suffixes are still tied
 * after a round the device stops: *groups holds *n_groups pairs (first slot,
 * count) of suffixes known to share *depth symbols but not yet ordered among
 * themselves (malloc()ed, NULL when none).  Calls are serialized.  0 or -1. */
int rv_gpu_bk_devices(void);
int rv_gpu_bk_open(const uint8_t *text, uint64_t n, int sigma, int dev);
void rv_gpu_bk_close(void);
/* The count of each of the n_codes codes of k symbols (base sigma) in the uploaded
 * text, into count; kept on the device with the starts grouped by code for the
 * jobs that follow.  0 or -1. */
int rv_gpu_bk_count(uint64_t sigma, int k, uint64_t n_codes, uint64_t *count);
int rv_gpu_bk_job(uint64_t sigma, int k, uint64_t lo, uint64_t nc, const uint64_t *off, uint64_t m,
                  uint64_t min_left, uint64_t *pos, uint64_t *lcp, uint64_t *depth, uint64_t **groups,
                  uint64_t *n_groups);

/* FM-index on the device (gpu_fm.cu; fm.h): built from the text (n codes) and its
 * 32-bit SA, both uploaded and kept for the searches; fwd = positions that may
 * start a hit (the forward strand of an index of both strands, else n).  NULL
 * with a message (no room: the caller searches on the CPU). */
typedef struct rv_gpu_fm rv_gpu_fm_t;
typedef struct { /* the layout of rv_hit_t (find.h) */
    uint64_t pos;
    uint32_t pattern;
    uint16_t mism;
    char strand;
} rv_gpu_hit_t;
rv_gpu_fm_t *rv_gpu_fm_open(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t fwd, double *build_s);
void rv_gpu_fm_close(rv_gpu_fm_t *g);
/* One batch (fm.h rv_fm_search): np patterns, pattern i = code[off[i], off[i+1]),
 * every one rv_fm_takes(); strands bit 1 '+', bit 2 '-'.  count (np, or NULL),
 * hits (malloc()ed, or NULL), left (np).  0 or -1 with a message. */
void *rv_gpu_pinned_alloc(size_t bytes);
void rv_gpu_pinned_free(void *p);
int rv_gpu_fm_search(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                     uint32_t first, uint32_t cap, uint64_t *count, rv_gpu_hit_t **hits, uint64_t *n_hits,
                     uint8_t *left);

#ifdef __cplusplus
}
#endif
#endif
