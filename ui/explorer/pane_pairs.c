/* pane_pairs.c — the maximal pairs pane: the maximal pairs (repview(1); RACE,
 * RACE) of which one copy covers the cursor, each row leading to the other
 * copy.  The engine works from the cursor's neighbourhood in the LCP-interval
 * tree (pairs.h rv_pairs_covering), bounded in work so the pane stays responsive;
 * a bounded answer is marked "at least".  Minimum length: half as long again as
 * the repeats chance gives, like ]/[.
 *
 * `:set pairs families` lists repeat families instead (repeats.h
 * rv_repeats_covering): each maximal repeat with a copy over the cursor once,
 * with its number of copies, Enter going to the next copy in text order. */
#include <stdio.h>
#include "app.h"
#include "lrlen.h"

#if __has_include("repview/pairs.h")
#include "repview/common.h"
#include "repview/pairs.h"
#include "repview/repeats.h"

enum { PAGE = 100, MAX_WORK = 200000 };

static void add_pair(pane_t *p, app_t *a, const rv_pair_t *pr, uint64_t t)
{
    const rv_seq_t *s = a->src.x->seq;
    rv_pair_loc_t loc;
    rv_pair_locate(s, pr, &loc);
    /* the copy that does not hold the cursor is where Enter goes */
    int first_here = t >= pr->p1 && t < pr->p1 + pr->len;
    uint64_t other = first_here ? pr->p2 : pr->p1;
    uint64_t g = rv_seq_text_to_global(s, other);
    char where[160], gap[40] = "other record";
    if (loc.same_record) snprintf(gap, sizeof gap, "gap %lld", (long long)loc.gap);
    item_t *it;
    if (!app_both(a))
        it = pane_add(p, (int64_t)g, ST_NORMAL, "%5llu  %s %s  %s", (unsigned long long)pr->len,
                      first_here ? "->" : "<-", app_fmt_pos(a, g, where, sizeof where), gap);
    else /* the other copy's strand relative to the cursor's: '-' reads its reverse complement */
        it = pane_add(p, (int64_t)g, ST_NORMAL, "%5llu  %c  %s %s  %s", (unsigned long long)pr->len,
                      pr->inverted ? '-' : '+', first_here ? "->" : "<-", app_fmt_pos(a, g, where, sizeof where), gap);
    if (it && pr->inverted) { it->strand = '-'; it->len = pr->len; }
    item_mark(it, a, pr->p1, pr->len);
    item_mark(it, a, pr->p2, pr->len);
}

/* The repeat families over text position t, longest first. */
static void families_fill(pane_t *p, app_t *a, uint64_t t)
{
    const rv_index_t *x = a->src.x;
    if (app_both(a)) {
        snprintf(p->note, sizeof p->note, "repeat families: forward strand only (:set strands +)");
        return;
    }
    uint64_t min_len = a->minpair ? a->minpair : lr_min_interesting(x);
    rv_families_t f;
    if (rv_repeats_covering(x, min_len, t, MAX_WORK, &f) < 0) {
        snprintf(p->note, sizeof p->note, "%s", rv_last_error());
        return;
    }
    snprintf(p->title_extra, sizeof p->title_extra, "(families) %s%zu of %llu+ %s", f.complete ? "" : "at least ",
             f.n, (unsigned long long)min_len, app_unit(a));
    if (f.n == 0) snprintf(p->note, sizeof p->note, "no repeat of %llu+ %s covers the cursor", (unsigned long long)min_len, app_unit(a));
    else snprintf(p->header, sizeof p->header, "  len  copies  next copy");
    for (size_t i = 0; i < f.n && i < PAGE; i++) {
        const rv_family_t *r = &f.v[i];
        uint64_t g = rv_seq_text_to_global(x->seq, r->next);
        char where[160];
        item_t *it = pane_add(p, (int64_t)g, ST_NORMAL, "%5llu  %6llu  %s", (unsigned long long)r->len,
                              (unsigned long long)r->count, app_fmt_pos(a, g, where, sizeof where));
        item_mark(it, a, r->here, r->len);
        item_mark(it, a, r->next, r->len);
    }
    if (f.n > PAGE) pane_add(p, -1, ST_DIM, "... %zu more", f.n - PAGE);
    rv_families_free(&f);
}

static void pairs_fill(pane_t *p, app_t *a, int width)
{
    (void)width;
    const rv_index_t *x = a->src.x;
    if (!x) { snprintf(p->note, sizeof p->note, "%s", a->src.state == IDX_BUILDING ? "waiting for the index" : "no index"); return; }
    int64_t t = app_cursor_text(a);
    if (t < 0) { snprintf(p->note, sizeof p->note, "the cursor is on a breaker"); return; }
    if (a->families) { families_fill(p, a, (uint64_t)t); return; }
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, a->minpair ? a->minpair : lr_min_interesting(x));
    o.longest_first = 1; /* the most telling pairs first */
    rv_pairs_page_t page = {0};
    if (rv_pairs_covering(x, &o, (uint64_t)t, PAGE, MAX_WORK, &page) < 0) {
        snprintf(p->note, sizeof p->note, "%s", rv_last_error());
        return;
    }
    snprintf(p->title_extra, sizeof p->title_extra, "%s%llu of %llu+ %s", page.complete ? "" : "at least ",
             (unsigned long long)page.total, (unsigned long long)o.min_len, app_unit(a));
    if (page.n == 0) snprintf(p->note, sizeof p->note, "no maximal pair of %llu+ %s covers the cursor", (unsigned long long)o.min_len, app_unit(a));
    else snprintf(p->header, sizeof p->header, "%s", app_both(a) ? "  len  +/-  other copy" : "  len     other copy");
    for (size_t i = 0; i < page.n; i++) add_pair(p, a, &page.pairs[i], (uint64_t)t);
    if (page.total > page.n) pane_add(p, -1, ST_DIM, "... %llu more", (unsigned long long)(page.total - page.n));
    rv_pairs_page_free(&page);
}

static int pairs_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    (void)p;
    return app_next_repeat(a, dir, g); /* the next repeat start */
}

#else /* the pairs engine has not landed yet */

static void pairs_fill(pane_t *p, app_t *a, int width)
{
    (void)a;
    (void)width;
    snprintf(p->note, sizeof p->note, "waiting for engine (pairs.h)");
}
#define pairs_feature NULL

#endif

const pane_ops_t pane_pairs_ops = {"Maximal pairs", pairs_fill, pairs_feature, NULL};
