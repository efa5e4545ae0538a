/* strands.c — indexes of both strands: the doubled text and the forward view.
 *
 * A both-strand text is T = S . # . rc(S) (S the forward text, # one breaker,
 * rc the reverse complement: codes reversed and A<->T, C<->G), as REPuter and vmatch
 * index a sequence for palindromic (inverted) matches.  An inverted repeat of S is
 * then an ordinary repeat of T with one copy in each half, so every query of the
 * index sees both strands without code of its own; the reverse half only has to
 * be mapped back to forward coordinates (rv_seq_strand()) and its mirror answers
 * dropped by the callers.
 *
 * The forward view (rv_index_forward) answers one-strand questions from a
 * both-strand index: the forward suffixes, taken in the order T's suffix array
 * gives them, are S's suffixes sorted, and the LCP of two forward neighbours is the
 * minimum of T's LCPs between them (LCPs stop at breakers, and # is one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/index.h"
#include "base/internal.h"

int rv_strands_parse(const char *word, int *out)
{
    if (!strcmp(word, "both") || !strcmp(word, "+-") || !strcmp(word, "2")) *out = 2;
    else if (!strcmp(word, "+") || !strcmp(word, "fwd") || !strcmp(word, "forward")) *out = 1;
    else if (!strcmp(word, "-") || !strcmp(word, "rev") || !strcmp(word, "reverse")) *out = -1;
    else return -1;
    return 0;
}

typedef struct {
    const uint8_t *src;
    uint8_t *dst;
    uint64_t nf;
} reverse_t;

/* dst[i] = complement of src[nf - 1 - i] for i in [lo, hi).  DNA codes are 1..4 for
 * A C G T (order preserving), so the complement of c is 5 - c; a breaker stays. */
static void reverse_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const reverse_t *r = ctx;
    for (uint64_t i = lo; i < hi; i++) {
        uint8_t c = r->src[r->nf - 1 - i];
        r->dst[i] = c == RV_BREAK ? RV_BREAK : (uint8_t)(5 - c);
    }
}

int rv_seq_add_reverse(rv_seq_t *s, int threads)
{
    if (s->strands == 2) return 0;
    if (s->alpha != RV_ALPHA_DNA)
        return rv_error(s->path ? s->path : "strands", "both strands need DNA (alphabet is %s)",
                        rv_alpha_name(s->alpha));
    uint64_t nf = s->n, n = nf ? 2 * nf + 1 : 0;
    /* a placed text with room for both (rv_seq_load_placed) grows where it is */
    int in_place = !s->owned_text && s->text_room >= n && s->text_room;
    uint8_t *t = in_place ? (uint8_t *)s->text : malloc(n ? n : 1);
    if (!t) return rv_oom("text of both strands", n);
    if (!in_place) memcpy(t, s->text, nf);
    if (nf) t[nf] = RV_BREAK;
    reverse_t r = {t, t + nf + 1, nf};
    rv_parallel_for(threads > 0 ? threads : rv_default_threads(), nf, reverse_range, &r);
    if (!in_place) {
        free(s->owned_text);
        s->owned_text = t;
        s->text_room = 0;
    }
    s->text = t;
    s->nf = nf;
    s->n = n;
    s->strands = 2;
    return 0;
}

/* Rank order of the forward suffixes (SA'), their LCPs and ISA'. */
static int forward_arrays(const rv_index_t *b, rv_index_t *f, int threads)
{
    const uint64_t nf = f->n;
    void *lcp = malloc((nf ? nf : 1) * (f->wide ? 8 : 4));
    if (!lcp) return rv_oom("forward strand's LCP", (nf ? nf : 1) * (f->wide ? 8 : 4));
    uint64_t k = 0, run = 0; /* run: min of T's LCPs since the last forward suffix */
    for (uint64_t r = 0; r < b->n; r++) {
        uint64_t l = rv_lcp(b, r), p = rv_get(b->sa, b->wide, r);
        if (l < run || r == 0) run = l;
        if (p >= nf) continue;
        rv_put(f->sa, f->wide, k, p);
        rv_put(lcp, f->wide, k, k ? run : 0);
        rv_put(f->isa, f->wide, p, k);
        k++;
        run = UINT64_MAX;
    }
    if (k != nf) { free(lcp); return rv_error("strands", "the both-strand index is inconsistent"); }
    uint8_t *small = NULL;
    void *big = NULL;
    uint64_t big_bytes = 0;
    int rc = rv_narrow_pack(lcp, f->wide, nf, f->wide, threads, &small, &big, &big_bytes);
    free(lcp);
    if (rc < 0) return -1;
    return rv_index_set_lcp(f, small, big, big_bytes);
}

rv_index_t *rv_index_forward(rv_index_t *both, int threads)
{
    rv_seq_t *s = both->seq;
    if (s->strands != 2) return both;
    if (threads <= 0) threads = rv_default_threads();
    /* the view reads SA, LCP and the text of a mapped file at once: check them first */
    if (rv_index_verify(both, RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_SA) | RV_SEC_BIT(RV_SEC_LCP) |
                                  RV_SEC_BIT(RV_SEC_LCP_BIG), threads) < 0) { /* not ISA: not read */
        rv_index_free(both);
        return NULL;
    }
    uint64_t nf = s->nf;
    s->n = nf;
    s->strands = 1;
    rv_index_t *f = rv_index_alloc(s, both->wide);
    if (!f) { s->n = 2 * nf + 1; s->strands = 2; rv_index_free(both); return NULL; }
    both->seq = NULL;
    f->parent = both;
    snprintf(f->backend, sizeof f->backend, "%.60s, forward of both strands", both->backend);
    memcpy(f->stage_s, both->stage_s, sizeof f->stage_s);
    if (forward_arrays(both, f, threads) < 0) { rv_index_free(f); return NULL; }
    return f;
}
