/* lcp_cpu.c — LCP array stopping at breakers, by the Φ / PLCP method of Kärkkäinen,
 * Manzini & Puglisi (CPM 2009), threaded:
 *   1. Φ[SA[r]] = SA[r-1]             (scatter, split by rank)
 *   2. PLCP[i] = lcp(i, Φ[i])          (text order, split into chunks; each chunk
 *                                       restarts with h = 0 and then uses
 *                                       PLCP[i+1] >= PLCP[i] - 1)
 *   3. LCP[r] = PLCP[SA[r]]            (gather, split by rank, straight into the
 *                                       one-byte form of narrow.h)
 * The invariant of step 2 still holds when comparisons stop at breakers (doc/DESIGN.md,
 * "Text encoding").  Φ and PLCP live in the ISA array, free until the caller
 * computes ISA afterwards: the stage needs no memory beyond the index's. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/seq.h"
#include "base/internal.h"
#include "lcp_cpu.h"

#define NO_PREV UINT64_MAX

typedef struct {
    rv_index_t *x;
    void *phi;    /* Φ, then PLCP, indexed by text position */
    rv_progress_t *p;
} lcp_ctx_t;

/* Common breaker-free prefix length of text[i..] and text[j..], known to be at
 * least h.  Compares 8 bytes at a time while no byte is a breaker (code 0). */
static inline uint64_t extend(const uint8_t *t, uint64_t n, uint64_t i, uint64_t j, uint64_t h)
{
    uint64_t lim = n - (i > j ? i : j);
    while (h + 8 <= lim) {
        uint64_t a, b;
        memcpy(&a, t + i + h, 8);
        memcpy(&b, t + j + h, 8);
        uint64_t has_zero = (a - 0x0101010101010101ull) & ~a & 0x8080808080808080ull;
        if (a != b || has_zero) break;
        h += 8;
    }
    while (h < lim && t[i + h] == t[j + h] && t[i + h] != RV_BREAK) h++;
    return h;
}

static void phi_range(void *arg, uint64_t lo, uint64_t hi, int tid)
{
    (void)tid;
    lcp_ctx_t *c = arg;
    const rv_index_t *x = c->x;
    for (uint64_t r = lo; r < hi; r++)
        rv_put(c->phi, x->wide, rv_sa(x, r), r ? rv_sa(x, r - 1) : (x->wide ? NO_PREV : UINT32_MAX));
}

static void plcp_range(void *arg, uint64_t lo, uint64_t hi, int tid)
{
    (void)tid;
    lcp_ctx_t *c = arg;
    const rv_index_t *x = c->x;
    const uint8_t *t = x->seq->text;
    const uint64_t none = x->wide ? NO_PREV : UINT32_MAX;
    uint64_t h = 0;
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t j = rv_get(c->phi, x->wide, i);
        if (j == none) {
            h = 0;
        } else {
            h = extend(t, x->n, i, j, h);
        }
        rv_put(c->phi, x->wide, i, h);
        if (h) h--;
    }
    rv_progress_add(c->p, hi - lo);
}

int rv_cpu_lcp(rv_index_t *x, int threads, rv_progress_t *p)
{
    rv_progress_stage(p, RV_STAGE_LCP, x->n);
    lcp_ctx_t c = {x, x->isa, p};
    rv_parallel_for(threads, x->n, phi_range, &c);
    if (rv_cancelled(p)) return rv_error("", "cancelled");
    /* many more chunks than threads: repetitive regions cost more, and a chunk's
     * restart at h = 0 costs at most one LCP value of extra comparisons */
    uint64_t chunk = x->n / ((uint64_t)threads * 32) + 1;
    if (chunk < (1u << 16)) chunk = 1u << 16;
    rv_parallel_dynamic(threads, x->n, chunk, plcp_range, &c);
    if (rv_cancelled(p)) return rv_error("", "cancelled");
    /* LCP[0] = PLCP[SA[0]] = 0: suffix SA[0] has no predecessor */
    uint8_t *small;
    void *big;
    uint64_t big_bytes;
    if (rv_narrow_pack_gather(c.phi, x->sa, x->wide, x->n, x->wide, threads, &small, &big, &big_bytes) < 0) return -1;
    return rv_index_set_lcp(x, small, big, big_bytes);
}
