/* index.h — the suffix-array index of an rv_seq_t and its .rvx file.
 *
 * Arrays are over the internal text (rv_seq_t.text, length n):
 *   SA[r]  start of the r-th smallest suffix (0-based rank r)
 *   ISA[i] rank of the suffix starting at i
 *   LCP[r] = lcp(SA[r-1], SA[r]) stopping at breakers, LCP[0] = 0
 * SA and ISA are 32-bit when n < 2^32 and 64-bit otherwise (`wide`); read them
 * through rv_sa()/rv_isa() or branch once on `wide` in hot loops.  LCP is kept in one
 * byte per rank with a table of the values >= 255 (narrow.h): read it with rv_lcp().
 *
 * Other modules attach derived arrays (LLR, LLRc, runs, ...) as numbered sections;
 * the .rvx file stores every attached section.
 */
#ifndef REPVIEW_INDEX_H
#define REPVIEW_INDEX_H

#include <stdint.h>
#include <stddef.h>
#include "repview/narrow.h"
#include "repview/seq.h"

/* Section ids of the .rvx file.  Never renumber: they are on disk. */
enum {
    RV_SEC_RECORDS = 1, RV_SEC_SEGMENTS = 2, RV_SEC_RAW = 3, RV_SEC_TEXT = 4,
    RV_SEC_SA = 5, RV_SEC_ISA = 6,
    RV_SEC_LCP = 7, RV_SEC_LCP_BIG = 8,         /* narrow.h: small and big parts */
    RV_SEC_LLR = 16, RV_SEC_LLRC = 17, RV_SEC_LLR_BIG = 18, /* longest repeats (lr.h) */
    RV_SEC_RUNS = 24,                           /* tandem runs (tandem.h) */
    RV_SEC_LEFTDIV = 32,                        /* maximal pairs (pairs.h) */
    RV_SEC_MAX = 64
};

typedef struct {
    void *ptr;      /* section bytes (owned unless it points into the mapping) */
    uint64_t bytes;
    int owned;
} rv_section_t;

typedef struct rv_index {
    rv_seq_t *seq;   /* owned */
    uint64_t n;      /* == seq->n */
    int wide;        /* 0: uint32_t arrays, 1: uint64_t arrays */
    void *sa, *isa;
    rv_narrow_t lcp;              /* view of sections RV_SEC_LCP and RV_SEC_LCP_BIG */
    rv_section_t ext[RV_SEC_MAX]; /* LCP and derived arrays by section id */
    char backend[96];             /* what built it: "CPU, 2 threads", GPU name, "file" */
    double stage_s[12];           /* seconds spent per rv_stage_t by the build (0 = not run) */
    char note[256];               /* non-fatal remark for the user (GPU fallback), or "" */
    void *map;                    /* mmap of the .rvx, or NULL */
    size_t map_len;
} rv_index_t;

static inline uint64_t rv_get(const void *a, int wide, uint64_t i)
{
    return wide ? ((const uint64_t *)a)[i] : ((const uint32_t *)a)[i];
}
static inline void rv_put(void *a, int wide, uint64_t i, uint64_t v)
{
    if (wide) ((uint64_t *)a)[i] = v; else ((uint32_t *)a)[i] = (uint32_t)v;
}
static inline uint64_t rv_sa(const rv_index_t *x, uint64_t r) { return rv_get(x->sa, x->wide, r); }
static inline uint64_t rv_isa(const rv_index_t *x, uint64_t i) { return rv_get(x->isa, x->wide, i); }
static inline uint64_t rv_lcp(const rv_index_t *x, uint64_t r) { return rv_narrow_get(&x->lcp, r); }

/* Allocate an empty index for seq (takes ownership of seq): SA and ISA uninitialised,
 * no LCP yet (rv_index_set_lcp).
 * force_wide = 1 uses 64-bit arrays even for small n (tests of the 64-bit path). */
rv_index_t *rv_index_alloc(rv_seq_t *seq, int force_wide);
void rv_index_free(rv_index_t *x);

/* Attach a derived array; the index takes ownership of ptr (free()d). Replaces any
 * previous section with the same id. */
void rv_index_attach(rv_index_t *x, int id, void *ptr, uint64_t bytes);
/* A derived array or NULL (bytes set when non-NULL). */
const void *rv_index_section(const rv_index_t *x, int id, uint64_t *bytes);

/* Attach the two parts of the narrow LCP (the index owns them) and bind x->lcp.
 * 0, or -1 with a message when they do not fit together. */
int rv_index_set_lcp(rv_index_t *x, uint8_t *small, void *big, uint64_t big_bytes);
/* Bind x->lcp to the LCP sections already attached (after loading).  0 or -1. */
int rv_index_bind_lcp(rv_index_t *x);

/* Default index path for an input: "FILE.rvx". Caller frees. */
char *rv_index_path_for(const char *input);

/* Write the index to path atomically (temporary file + rename). 0 or -1. */
int rv_index_save(const rv_index_t *x, const char *path);

/* Why an index file was not used (for the one-line report). */
typedef enum {
    RV_RVX_OK = 0, RV_RVX_MISSING, RV_RVX_STALE, RV_RVX_TRUNCATED, RV_RVX_CORRUPT,
    RV_RVX_FOREIGN, RV_RVX_VERSION, RV_RVX_IOERR
} rv_rvx_status_t;

/* Map an index file.  When input is non-NULL the file must match the input's
 * fingerprint (size, mtime).  On success *out is set and RV_RVX_OK returned;
 * otherwise the reason, with a message through rv_error(). */
rv_rvx_status_t rv_index_load(const char *path, const char *input, rv_index_t **out);

/* Read the fingerprint (size, mtime) of a file: 0 or -1. */
int rv_file_fingerprint(const char *path, uint64_t *size, int64_t *mtime_ns);

/* Bytes of memory the index holds (resident arrays and sections). */
uint64_t rv_index_bytes(const rv_index_t *x);

#endif
