/* narrow.h — arrays of lengths kept in one byte per entry (doc/DESIGN.md, "Memory").
 *
 * LCP and LLR values are almost always small (on generated DNA 0.15% of LCP values
 * and 0.3% of LLR values reach 255), so each array is stored as two sections:
 *
 *   small  uint8_t v[n]: the value, or RV_NARROW_ESC (255) for a value >= 255
 *   big    uint64_t n_big, then W val[n_big]: the escaped values in position order,
 *          and W dir[nb + 1] with nb = ceil(n / RV_NARROW_BLOCK): dir[b] is the number
 *          of escaped entries before block b (W = uint32_t for 32-bit indexes,
 *          uint64_t for 64-bit ones)
 *
 * The value of an escaped entry i is val[dir[b] + the escapes in v[b * BLOCK, i)],
 * a count over at most one block of bytes, 8 at a time.  Dense tables (related
 * genomes, where a third of the LLR values can pass 255) cost 4 bytes per escape.
 */
#ifndef REPVIEW_NARROW_H
#define REPVIEW_NARROW_H

#include <stdint.h>
#include <string.h>
#include "repview/common.h"

#define RV_NARROW_ESC 255u
#define RV_NARROW_BLOCK 128u

typedef struct {
    const uint8_t *v;        /* n bytes */
    const void *val;         /* n_big entries */
    const void *dir;         /* ceil(n / RV_NARROW_BLOCK) + 1 entries */
    uint64_t n, n_big;
    int wide;                /* W = uint64_t when set */
} rv_narrow_t;

/* For walks over consecutive entries: the number of escapes before entry i, and the
 * k-th escaped value.  Walking left from an escaped entry with rank k, the next
 * escaped entry met has rank k - 1 (right: k + 1), so a walk counts only once. */
/* Bytes equal to RV_NARROW_ESC (0xff) in v[0, len): 8 at a time, exactly (the high
 * bit of t is set in a byte iff that byte of w is 0xff).  The flags are summed by a
 * multiply (each byte holds 0 or 1, the top byte of the product their sum), not by a
 * popcount, which without -mpopcnt is a library call. */
static inline uint64_t rv_narrow_count_esc(const uint8_t *v, uint64_t len)
{
    uint64_t c = 0, k = 0;
    for (; k + 8 <= len; k += 8) {
        uint64_t w;
        memcpy(&w, v + k, 8);
        uint64_t t = (w & 0x7f7f7f7f7f7f7f7full) + 0x0101010101010101ull;
        c += (((t & w & ~0x7f7f7f7f7f7f7f7full) >> 7) * 0x0101010101010101ull) >> 56;
    }
    for (; k < len; k++) c += v[k] == RV_NARROW_ESC;
    return c;
}

static inline uint64_t rv_narrow_rank(const rv_narrow_t *a, uint64_t i)
{
    uint64_t b0 = i / RV_NARROW_BLOCK * RV_NARROW_BLOCK;
    return rv_get(a->dir, a->wide, i / RV_NARROW_BLOCK) + rv_narrow_count_esc(a->v + b0, i - b0);
}
static inline uint64_t rv_narrow_val(const rv_narrow_t *a, uint64_t k)
{
    if (k >= a->n_big) return RV_NARROW_ESC; /* never for an array built here */
    return a->wide ? ((const uint64_t *)a->val)[k] : ((const uint32_t *)a->val)[k];
}
/* Value of an escaped entry i (RV_NARROW_ESC when the big table lacks it, which an
 * array built here never does). */
static inline uint64_t rv_narrow_big(const rv_narrow_t *a, uint64_t i) { return rv_narrow_val(a, rv_narrow_rank(a, i)); }

static inline uint64_t rv_narrow_get(const rv_narrow_t *a, uint64_t i)
{
    uint8_t b = a->v[i];
    return b != RV_NARROW_ESC ? b : rv_narrow_big(a, i);
}


/* Bytes of the big section for n entries of which n_big are escaped. */
uint64_t rv_narrow_big_bytes(uint64_t n, uint64_t n_big, int wide);

/* Check that (small, small_bytes) and (big, big_bytes) form a narrow array of n
 * entries and fill *a.  0, or -1 (nothing is reported) when they do not. */
int rv_narrow_view(rv_narrow_t *a, const void *small, uint64_t small_bytes, const void *big,
                   uint64_t big_bytes, uint64_t n, int wide);

/* For builders that write the small bytes themselves: a big section for n_big
 * escapes, *a set up (a->v = small) to fill a->val (cast away const) in position
 * order; then rv_narrow_finish(a, threads) counts the escapes of every block into
 * dir.  NULL when out of memory. */
void *rv_narrow_big_alloc(rv_narrow_t *a, const uint8_t *small, uint64_t n, uint64_t n_big, int wide,
                          uint64_t *bytes);
void rv_narrow_finish(rv_narrow_t *a, int threads);

/* Build the big section from the escaped entries (pos increasing, 32-bit input, as
 * the GPU hands them back).  malloc()ed, *bytes set; NULL when out of memory. */
void *rv_narrow_big_from32(const uint32_t *pos, const uint32_t *val, uint64_t n_big, uint64_t n,
                           int wide, uint64_t *bytes);

/* Narrow a full array (entries of src_wide ? 8 : 4 bytes) with `threads` threads:
 * *small gets n malloc()ed bytes, *big the big section (*big_bytes).  0, or -1 with
 * a message (out of memory). */
int rv_narrow_pack(const void *full, int src_wide, uint64_t n, int wide, int threads, uint8_t **small,
                   void **big, uint64_t *big_bytes);
/* The same for the array whose entry i is full[perm[i]] (perm: n values < n, of the
 * same width), without making it: LCP from PLCP and SA. */
int rv_narrow_pack_gather(const void *full, const void *perm, int src_wide, uint64_t n, int wide, int threads,
                          uint8_t **small, void **big, uint64_t *big_bytes);

#endif
