/* lcp_cpu.c — LCP array stopping at breakers, by Kasai et al.'s algorithm run in
 * independent text chunks (each chunk restarts with h = 0, so chunks need no
 * coordination; Kärkkäinen, Manzini & Puglisi 2009 for the PLCP view).  The
 * invariant lcp(i+1, j+1) >= lcp(i, j) - 1 still holds when comparisons stop at
 * breakers (DESIGN.md, text encoding). */
#include <string.h>
#include "repview/common.h"
#include "repview/seq.h"
#include "internal.h"

typedef struct {
    rv_index_t *x;
    rv_progress_t *p;
} lcp_ctx_t;

/* Length of the common breaker-free prefix of text[i..] and text[j..], starting
 * the comparison at offset h (known equal before it). Compares 8 bytes at a time. */
static inline uint64_t extend(const uint8_t *t, uint64_t n, uint64_t i, uint64_t j, uint64_t h)
{
    uint64_t lim = n - (i > j ? i : j);
    while (h + 8 <= lim) {
        uint64_t a, b;
        memcpy(&a, t + i + h, 8);
        memcpy(&b, t + j + h, 8);
        uint64_t zero = (a - 0x0101010101010101ull) & ~a & 0x8080808080808080ull;
        if (a != b || zero) break;
        h += 8;
    }
    while (h < lim && t[i + h] == t[j + h] && t[i + h] != RV_BREAK) h++;
    return h;
}

static void lcp_range(void *arg, uint64_t lo, uint64_t hi, int tid)
{
    (void)tid;
    lcp_ctx_t *c = arg;
    rv_index_t *x = c->x;
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n;
    uint64_t h = 0, since = 0;
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t r = rv_isa(x, i);
        if (r == 0) {
            h = 0;
            rv_put(x->lcp, x->wide, 0, 0);
        } else {
            uint64_t j = rv_sa(x, r - 1);
            h = extend(t, n, i, j, h);
            rv_put(x->lcp, x->wide, r, h);
            if (h) h--;
        }
        if (++since == 1u << 20) {
            rv_progress_add(c->p, since);
            since = 0;
            if (rv_cancelled(c->p)) return;
        }
    }
    rv_progress_add(c->p, since);
}

int rv_cpu_lcp(rv_index_t *x, int threads, rv_progress_t *p)
{
    rv_progress_stage(p, RV_STAGE_LCP, x->n);
    lcp_ctx_t c = {x, p};
    /* more chunks than threads: a chunk's restart costs at most one LCP value of
     * extra comparisons, and dynamic hand-out balances repetitive regions */
    uint64_t chunk = x->n / ((uint64_t)threads * 16) + 1;
    if (chunk < (1u << 16)) chunk = 1u << 16;
    rv_parallel_dynamic(threads, x->n, chunk, lcp_range, &c);
    return rv_cancelled(p) ? rv_error("", "cancelled") : 0;
}
