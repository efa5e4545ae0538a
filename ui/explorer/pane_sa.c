/* pane_sa.c — the teaching pane: suffix-array rows (rank, SA, LCP, suffix) around
 * the cursor's suffix, the prefix each suffix shares with the row above
 * highlighted (that length is the LCP column), then the LLR segments covering the
 * cursor drawn as bars, useful (=) or useless (-) in the sense of Tian & Xu §4.2:
 * the longest repeat covering the cursor is the longest of these bars. */
#include <stdio.h>
#include <string.h>
#include "repview/seq.h"
#include "app.h"
#include "lrlen.h"

enum { MAX_BARS = 12 };

/* Up to max characters of the suffix at text position t, as read; '$' for breakers.
 * Both strands: the reverse half reads the complement of the forward bases from
 * right to left. */
static int suffix_text(const rv_seq_t *s, uint64_t t, char *out, int max)
{
    uint64_t nf = rv_seq_fwd_len(s);
    uint64_t k = t < nf ? rv_seq_segment_of_text(s, t) : s->n_seg;
    int c = 0;
    for (; c < max && t < s->n; c++, t++) {
        if (s->text[t] == RV_BREAK) { out[c] = '$'; k++; continue; }
        if (t > nf) { /* text t is the complement of forward text 2 nf - t */
            out[c] = (char)app_complement(s->raw[rv_seq_text_to_global(s, 2 * nf - t)]);
            continue;
        }
        while (k < s->n_seg && t >= s->seg[k].tpos + s->seg[k].len) k++;
        out[c] = k < s->n_seg ? s->raw[s->seg[k].gpos + (t - s->seg[k].tpos)] : '$';
    }
    out[c] = 0;
    return c;
}

static int digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

static void fill_rows(pane_t *p, const rv_index_t *x, uint64_t t, int width, uint64_t nrows)
{
    uint64_t r0 = rv_isa(x, t), n = x->n, half = nrows / 2;
    uint64_t lo = r0 > half ? r0 - half : 0, hi = lo + nrows;
    if (hi > n) { hi = n; lo = hi > nrows ? hi - nrows : 0; }
    int rw = digits(n), sw = digits(x->seq->glen);
    if (rw < 4) rw = 4;
    if (sw < 2) sw = 2;
    int both = x->seq->strands == 2;
    int prefix = rw + sw + 8 + both; /* both strands: the strand after the position */
    int room = width - 3 - prefix; /* the row: prefix, two blanks, the suffix; drawn in width - 1 columns */
    if (room > 60) room = 60;
    if (room < 4) room = 4;
    snprintf(p->header, sizeof p->header, " %*s %*s%s %5s  suffix", rw, "rank", sw, "sa", both ? " " : "", "lcp");
    for (uint64_t r = lo; r < hi; r++) {
        uint64_t sa = rv_sa(x, r), lcp = rv_lcp(x, r);
        char suf[64];
        int len = suffix_text(x->seq, sa, suf, room);
        uint64_t fwd;
        int strand = rv_seq_strand(x->seq, sa, 1, &fwd);
        uint64_t g = rv_seq_text_to_global(x->seq, fwd);
        item_t *it = pane_add(p, (int64_t)g, ST_NORMAL, "%c%*llu %*llu%.*s %5llu  %s", r == r0 ? '*' : ' ', rw,
                              (unsigned long long)r, sw, (unsigned long long)g, both, strand == '-' ? "-" : "+",
                              (unsigned long long)lcp, suf);
        if (!it) return;
        if (strand == '-') { it->strand = '-'; it->len = 1; }
        it->hl_beg = prefix;
        it->hl_len = (int)(lcp < (uint64_t)len ? lcp : (uint64_t)len);
        it->hl_st = ST_SHARED;
        if (r == r0) {
            it->hl2_beg = 0;
            it->hl2_len = 1 + rw;
            it->hl2_st = ST_CURSOR;
            p->sel = p->n - 1;
        }
    }
    snprintf(p->title_extra, sizeof p->title_extra, "rank %llu of %llu", (unsigned long long)r0,
             (unsigned long long)n);
}

static void add_bar(pane_t *p, const rv_index_t *x, uint64_t i, uint64_t t, uint64_t wa, uint64_t scale,
                    int bw)
{
    uint64_t l = lr_llr(x, i);
    int useful = lr_llr_useful(x, i);
    const rv_seq_t *s = x->seq;
    uint64_t g = rv_seq_text_to_global(s, i);
    const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
    char bar[160], c[32];
    if (bw > (int)sizeof bar - 1) bw = (int)sizeof bar - 1;
    for (int k = 0; k < bw; k++) {
        uint64_t a = wa + (uint64_t)k * scale, b = a + scale;
        int cov = a < i + l && b > i;
        int cur = t >= a && t < b;
        bar[k] = cur ? (cov ? '+' : '|') : cov ? (useful ? '=' : '-') : ' ';
    }
    bar[bw] = 0;
    item_t *it = pane_add(p, (int64_t)g, useful ? ST_USEFUL : ST_USELESS, "%11s %6llu %-7s %s",
                          fmt_commas(g - rec->off + 1, c, sizeof c), (unsigned long long)l,
                          useful ? "useful" : "useless", bar);
    (void)it;
}

/* Up to rows lines: a summary, then the longest covering LLRs (the LRs first in
 * line, so they are always drawn), in start order, on one scale. */
static void fill_bars(pane_t *p, const rv_index_t *x, uint64_t t, int width, int rows)
{
    uint64_t i0 = lr_first_cover(x, t);
    if (i0 > t) {
        pane_add(p, -1, ST_DIM, " no repeat covers the cursor (LR length 0)");
        return;
    }
    uint64_t count = t + 1 - i0, useful = 0;
    int room = rows - 1 < MAX_BARS ? rows - 1 : MAX_BARS;
    if (room < 1) room = 1;
    if (count > (uint64_t)room && room > 1) room--; /* keep a line for "not drawn" */
    uint64_t pick[MAX_BARS], plen[MAX_BARS];
    int np = 0;
    for (uint64_t i = i0; i <= t; i++) {
        uint64_t l = lr_llr(x, i);
        useful += (uint64_t)lr_llr_useful(x, i);
        int k = np < room ? np++ : room; /* insertion by length, longest first */
        if (k == room && l <= plen[room - 1]) continue;
        if (k == room) k = room - 1;
        while (k > 0 && plen[k - 1] < l) { pick[k] = pick[k - 1]; plen[k] = plen[k - 1]; k--; }
        pick[k] = i;
        plen[k] = l;
    }
    for (int a = 1; a < np; a++) /* back to start order */
        for (int b = a; b > 0 && pick[b - 1] > pick[b]; b--) {
            uint64_t u = pick[b]; pick[b] = pick[b - 1]; pick[b - 1] = u;
        }
    pane_add(p, -1, ST_DIM, " %llu LLR segment%s the cursor, %llu useful (= useful, - useless):",
             (unsigned long long)count, count == 1 ? " covers" : "s cover", (unsigned long long)useful);
    uint64_t wa = pick[0], wb = t + 1;
    for (int k = 0; k < np; k++)
        if (pick[k] + lr_llr(x, pick[k]) > wb) wb = pick[k] + lr_llr(x, pick[k]);
    int bw = width - 28;
    if (bw < 10) bw = 10;
    uint64_t scale = (wb - wa + (uint64_t)bw - 1) / (uint64_t)bw;
    if (scale == 0) scale = 1;
    for (int k = 0; k < np; k++) add_bar(p, x, pick[k], t, wa, scale, bw);
    if (count > (uint64_t)np)
        pane_add(p, -1, ST_DIM, " (%llu shorter segments not drawn)", (unsigned long long)(count - (uint64_t)np));
}

static void sa_fill(pane_t *p, app_t *a, int width)
{
    const rv_index_t *x = a->src.x;
    if (!x) {
        snprintf(p->note, sizeof p->note, "%s", a->src.state == IDX_BUILDING ? "waiting for the index (progress in the status bar)" : "no index");
        return;
    }
    int64_t t = app_cursor_text(a);
    if (t < 0) {
        snprintf(p->note, sizeof p->note, "the cursor is on a breaker: no suffix starts here");
        return;
    }
    /* SA rows first, LLR bars below: share the height so both are on screen */
    int h = p->height - 1, bars = h / 2 > MAX_BARS + 2 ? MAX_BARS + 2 : h / 2;
    fill_rows(p, x, (uint64_t)t, width, (uint64_t)(h - bars > 3 ? h - bars : 3) | 1);
    int keep = p->sel;
    fill_bars(p, x, (uint64_t)t, width, bars);
    p->sel = keep;
}

/* ]/[ on the suffix array, the longest repeats and the pairs: the next repeat start. */
static int sa_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    (void)p;
    return app_next_repeat(a, dir, g);
}

const pane_ops_t pane_sa_ops = {"Suffix array", sa_fill, sa_feature, NULL};
