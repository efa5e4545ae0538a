/* pane_lr.c — the longest repeats pane: every LR covering the cursor (SPEC §3
 * LR_k; all of them, not only the leftmost), each with its other occurrences;
 * with a visual selection, the longest repeats covering the whole selection
 * (interval query, Xu arXiv 1511.02393).
 *
 * The answers come from the LLRs (seeds/000 Lemma 1): the repeats covering k
 * start in [i0(k), k] (lrlen.h), and the copies of S[i, i+L) are the SA rows
 * around ISA[i] joined by LCP >= L. */
#include <stdio.h>
#include "repview/seq.h"
#include "app.h"
#include "lrlen.h"

enum { MAX_LR = 20, MAX_OCC = 50 };

static void add_occurrences(pane_t *p, app_t *a, uint64_t i, uint64_t len)
{
    const rv_index_t *x = a->src.x;
    uint64_t r = rv_isa(x, i), lo = r, hi = r, shown = 0;
    while (lo > 0 && rv_lcp(x, lo) >= len) lo--;
    while (hi + 1 < x->n && rv_lcp(x, hi + 1) >= len) hi++;
    char buf[160];
    for (uint64_t q = lo; q <= hi && shown < MAX_OCC; q++) {
        if (q == r) continue;
        uint64_t g = rv_seq_text_to_global(x->seq, rv_sa(x, q));
        pane_add(p, (int64_t)g, ST_NORMAL, "   copy at %s", app_fmt_pos(a, g, buf, sizeof buf));
        shown++;
    }
    if (hi - lo > shown)
        pane_add(p, -1, ST_DIM, "   ... %llu more copies", (unsigned long long)(hi - lo - shown));
}

/* All longest LLRs among starts [from, to] that reach past `need`. */
static void list_longest(pane_t *p, app_t *a, uint64_t from, uint64_t to, uint64_t need, const char *what)
{
    const rv_index_t *x = a->src.x;
    uint64_t best = 0, nbest = 0;
    for (uint64_t i = from; i <= to; i++) {
        uint64_t l = lr_llr(x, i);
        if (i + l <= need) continue;
        if (l > best) { best = l; nbest = 0; }
        if (l == best) nbest++;
    }
    if (best == 0) { snprintf(p->note, sizeof p->note, "no repeat covers the %s", what); return; }
    snprintf(p->title_extra, sizeof p->title_extra, "%llu of %llu bp", (unsigned long long)nbest,
             (unsigned long long)best);
    uint64_t k = 0;
    char b1[160], c[32];
    for (uint64_t i = from; i <= to && k < MAX_LR; i++) {
        if (lr_llr(x, i) != best || i + best <= need) continue;
        uint64_t g = rv_seq_text_to_global(x->seq, i);
        const rv_record_t *rec = &x->seq->rec[rv_seq_record_of(x->seq, g)];
        pane_add(p, (int64_t)g, ST_USEFUL, "LR %llu: %s-%s (%llu bp)", (unsigned long long)++k,
                 app_fmt_pos(a, g, b1, sizeof b1), fmt_commas(g - rec->off + best, c, sizeof c),
                 (unsigned long long)best);
        add_occurrences(p, a, i, best);
    }
    if (nbest > k) pane_add(p, -1, ST_DIM, "... %llu more", (unsigned long long)(nbest - k));
    p->sel = p->n > 1 ? 1 : 0;
}

static void lr_fill(pane_t *p, app_t *a, int width)
{
    (void)width;
    const rv_index_t *x = a->src.x;
    if (!x) {
        snprintf(p->note, sizeof p->note, "%s", a->src.state == IDX_BUILDING ? "waiting for the index" : "no index");
        return;
    }
    int64_t t = app_cursor_text(a);
    if (a->visual) {
        uint64_t ga = a->vis_anchor < a->cur ? a->vis_anchor : a->cur;
        uint64_t gb = a->vis_anchor < a->cur ? a->cur : a->vis_anchor;
        int64_t ta = rv_seq_global_to_text(x->seq, ga), tb = rv_seq_global_to_text(x->seq, gb);
        if (ta < 0 || tb < 0 || tb - ta != (int64_t)(gb - ga)) {
            snprintf(p->note, sizeof p->note, "the selection holds a breaker: no repeat covers it");
            return;
        }
        uint64_t i0 = lr_first_cover(x, (uint64_t)tb, LR_LOOKBACK);
        if (i0 > (uint64_t)ta) { snprintf(p->note, sizeof p->note, "no repeat covers the selection"); return; }
        list_longest(p, a, i0, (uint64_t)ta, (uint64_t)tb, "selection");
        return;
    }
    if (t < 0) { snprintf(p->note, sizeof p->note, "the cursor is on a breaker"); return; }
    uint64_t i0 = lr_first_cover(x, (uint64_t)t, LR_LOOKBACK);
    if (i0 > (uint64_t)t) { snprintf(p->note, sizeof p->note, "no repeat covers the cursor"); return; }
    list_longest(p, a, i0, (uint64_t)t, (uint64_t)t, "cursor");
}

static int lr_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    return pane_sa_ops.feature(p, a, dir, g);
}

const pane_ops_t pane_lr_ops = {"Longest repeats", lr_fill, lr_feature};
