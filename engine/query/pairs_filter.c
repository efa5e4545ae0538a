/* pairs_filter.c — the gap and range filters of maximal pairs (RACE
 * §2 and §4.3: length, bounded gap, range), resolved once into text coordinates,
 * and the mapping of a pair back to records for output. */
#include <string.h>
#include "repview/common.h"
#include "pairs_internal.h"

void rv_pairs_opts_init(rv_pairs_opts_t *o, uint64_t min_len)
{
    memset(o, 0, sizeof *o);
    o->min_len = min_len;
}

/* Smallest text position t that is not a breaker and whose global position is
 * >= g (n when none).  Global positions grow with text positions, so a copy
 * [t, t+len) lies in global [gb, ge) iff tb <= t and t + len <= te. */
static uint64_t text_lower_bound(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_seg;
    while (lo < hi) { /* first segment ending after g */
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->seg[mid].gpos + s->seg[mid].len <= g) lo = mid + 1; else hi = mid;
    }
    if (lo == s->n_seg) return rv_seq_fwd_len(s);
    const rv_segment_t *k = &s->seg[lo];
    return g <= k->gpos ? k->tpos : k->tpos + (g - k->gpos);
}

int pf_filter_init(pf_filter_t *f, const rv_seq_t *s, const rv_pairs_opts_t *o)
{
    memset(f, 0, sizeof *f);
    f->s = s;
    f->min_len = o->min_len;
    if (o->min_len < 1) return rv_error("pairs", "minimum length must be at least 1");
    f->min_gap = o->use_min_gap ? o->min_gap : INT64_MIN;
    f->max_gap = o->use_max_gap ? o->max_gap : INT64_MAX;
    f->use_gap = o->use_min_gap || o->use_max_gap;
    f->use_within = o->use_within;
    if (o->use_within) {
        if (o->within_beg > o->within_end || o->within_end > s->glen)
            return rv_error("pairs", "range outside the sequence");
        f->tb = text_lower_bound(s, o->within_beg);
        f->te = text_lower_bound(s, o->within_end);
        if (f->te < f->tb) f->te = f->tb;
    }
    f->both = s->strands == 2;
    f->want = o->strands == 1 || o->strands == -1 ? o->strands : 2;
    f->nf = rv_seq_fwd_len(s);
    f->any = f->use_gap || f->use_within || f->both; /* both: no counting by products */
    return 0;
}

/* The segment of text position t (t not a breaker), trying `hint` first. */
static uint64_t segment_near(const rv_seq_t *s, uint64_t t, uint64_t hint)
{
    const rv_segment_t *k = &s->seg[hint < s->n_seg ? hint : 0];
    if (hint < s->n_seg && t >= k->tpos && t < k->tpos + k->len) return hint;
    return rv_seq_segment_of_text(s, t);
}

/* The record of global position g, trying `hint` first (a record holding g is
 * the one rv_seq_record_of gives: the records after it start past g). */
static uint64_t record_near(const rv_seq_t *s, uint64_t g, uint64_t hint)
{
    const rv_record_t *r = &s->rec[hint < s->n_rec ? hint : 0];
    if (hint < s->n_rec && g >= r->off && g < r->off + r->len) return hint;
    return rv_seq_record_of(s, g);
}

void rv_pair_locate_near(const rv_seq_t *s, const rv_pair_t *p, rv_pair_loc_t *loc, rv_pair_hint_t *hint)
{
    uint64_t k1 = segment_near(s, p->p1, hint->seg);
    const rv_segment_t *g = &s->seg[k1];
    uint64_t k2 = p->p2 >= g->tpos && p->p2 < g->tpos + g->len ? k1 : segment_near(s, p->p2, hint->seg2);
    uint64_t g1 = s->seg[k1].gpos + (p->p1 - s->seg[k1].tpos), g2 = s->seg[k2].gpos + (p->p2 - s->seg[k2].tpos);
    loc->rec1 = record_near(s, g1, hint->rec);
    loc->rec2 = k1 == k2 ? loc->rec1 : record_near(s, g2, loc->rec1);
    loc->start1 = g1 - s->rec[loc->rec1].off;
    loc->start2 = g2 - s->rec[loc->rec2].off;
    loc->same_record = loc->rec1 == loc->rec2;
    loc->gap = loc->same_record ? (int64_t)g2 - (int64_t)(g1 + p->len) : 0;
    hint->seg = k1, hint->rec = loc->rec1, hint->seg2 = k2;
}

void rv_pair_locate(const rv_seq_t *s, const rv_pair_t *p, rv_pair_loc_t *loc)
{
    rv_pair_hint_t none = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
    rv_pair_locate_near(s, p, loc, &none);
}

int pf_pass_gap(const pf_filter_t *f, uint64_t p1, uint64_t p2, uint64_t len)
{
    /* Within one record each text breaker stands for >= 1 original symbol, so the
     * gap in text coordinates is a lower bound: reject far pairs without lookups. */
    if ((int64_t)p2 - (int64_t)(p1 + len) > f->max_gap) return 0;
    rv_pair_t p = {p1, p2, len, 0};
    rv_pair_loc_t loc;
    rv_pair_locate(f->s, &p, &loc);
    return loc.same_record && loc.gap >= f->min_gap && loc.gap <= f->max_gap;
}
