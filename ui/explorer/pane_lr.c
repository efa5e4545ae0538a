/* pane_lr.c — the longest repeats pane: every LR covering the cursor (repview(1)
 * LR_k; all of them, not only the leftmost), each with its other occurrences;
 * with a visual selection, the longest repeats covering the whole selection
 * (interval query, Xu arXiv 1511.02393).
 *
 * Answers from the LR engine (lr.h): rv_lr_at, rv_lr_interval, and the copies of
 * each LR as its suffix-array interval (rv_lr_occurrences). */
#include <stdio.h>
#include "repview/lr.h"
#include "repview/seq.h"
#include "app.h"

enum { MAX_LR = 20, MAX_OCC = 50 };

static void add_occurrences(pane_t *p, app_t *a, const rv_lr_t *lr)
{
    const rv_index_t *x = a->src.x;
    uint64_t lo, hi, shown = 0;
    rv_lr_occurrences(x, lr->start, lr->len, &lo, &hi);
    char buf[160];
    for (uint64_t q = lo; q < hi && shown < MAX_OCC; q++) {
        uint64_t g;
        /* both strands: a copy in the reverse half reads the reverse complement of
         * forward bases; only the '+' copy at the LR's own start is the LR itself */
        int strand = app_copy(a, rv_sa(x, q), lr->len, &g);
        if (strand == '+' && rv_sa(x, q) == lr->start) continue;
        item_t *it;
        if (!app_both(a)) it = pane_add(p, (int64_t)g, ST_NORMAL, "   copy at %s", app_fmt_pos(a, g, buf, sizeof buf));
        else it = pane_add(p, (int64_t)g, ST_NORMAL, "   %c copy at %s", strand, app_fmt_pos(a, g, buf, sizeof buf));
        if (it && strand == '-') { it->strand = '-'; it->len = lr->len; }
        shown++;
    }
    if (hi - lo - 1 > shown)
        pane_add(p, -1, ST_DIM, "   ... %llu more copies", (unsigned long long)(hi - lo - 1 - shown));
}

static void list_lrs(pane_t *p, app_t *a, const rv_lr_t *lr, uint64_t n, uint64_t total)
{
    const rv_seq_t *s = a->src.x->seq;
    char b1[160], c[32];
    snprintf(p->title_extra, sizeof p->title_extra, "%llu of %llu %s", (unsigned long long)total,
             (unsigned long long)lr[0].len, app_unit(a));
    for (uint64_t k = 0; k < n; k++) {
        uint64_t g = rv_seq_text_to_global(s, lr[k].start);
        const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
        pane_add(p, (int64_t)g, ST_USEFUL, "LR %llu: %s-%s (%llu %s)", (unsigned long long)k + 1,
                 app_fmt_pos(a, g, b1, sizeof b1), fmt_commas(g - rec->off + lr[k].len, c, sizeof c),
                 (unsigned long long)lr[k].len, app_unit(a));
        add_occurrences(p, a, &lr[k]);
    }
    if (total > n) pane_add(p, -1, ST_DIM, "... %llu more", (unsigned long long)(total - n));
    p->sel = p->n > 1 ? 1 : 0;
    if (app_both(a)) snprintf(p->header, sizeof p->header, "copies: + as is, - reverse complement");
}

static void lr_fill(pane_t *p, app_t *a, int width)
{
    (void)width;
    const rv_index_t *x = a->src.x;
    rv_lr_t lr[MAX_LR];
    if (!x) {
        snprintf(p->note, sizeof p->note, "%s", a->src.state == IDX_BUILDING ? "waiting for the index" : "no index");
        return;
    }
    if (a->visual) { /* Xu, arXiv 1511.02393: LRs covering the whole selection */
        uint64_t ga = a->vis_anchor < a->cur ? a->vis_anchor : a->cur;
        uint64_t gb = a->vis_anchor < a->cur ? a->cur : a->vis_anchor;
        int64_t ta = rv_seq_global_to_text(x->seq, ga), tb = rv_seq_global_to_text(x->seq, gb);
        if (ta < 0 || tb < 0 || tb - ta != (int64_t)(gb - ga)) {
            snprintf(p->note, sizeof p->note, "the selection holds a breaker: no repeat covers it");
            return;
        }
        uint64_t n = rv_lr_interval(x, (uint64_t)ta, (uint64_t)tb + 1, lr, MAX_LR);
        if (!n) { snprintf(p->note, sizeof p->note, "no repeat covers the selection"); return; }
        list_lrs(p, a, lr, n < MAX_LR ? n : MAX_LR, n);
        return;
    }
    int64_t t = app_cursor_text(a);
    if (t < 0) { snprintf(p->note, sizeof p->note, "the cursor is on a breaker"); return; }
    uint64_t n = rv_lr_at(x, (uint64_t)t, lr, MAX_LR);
    if (!n) { snprintf(p->note, sizeof p->note, "no repeat covers the cursor"); return; }
    list_lrs(p, a, lr, n < MAX_LR ? n : MAX_LR, n);
}

static int lr_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    (void)p;
    return app_next_repeat(a, dir, g); /* the next repeat start */
}

const pane_ops_t pane_lr_ops = {"Longest repeats", lr_fill, lr_feature, NULL};
