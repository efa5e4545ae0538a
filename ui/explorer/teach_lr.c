/* teach_lr.c — lesson `lr`: the longest repeats covering a position, after Tian &
 * Xu (Tian & Xu; include/repview/lr.h).  L[i], the length of the longest repeat
 * starting at i (LLR_i), is the larger LCP of suffix i with its two neighbours in
 * the suffix array (Lemma 1).  LLR_i is useful when L[i] >= L[i-1]; a useless one
 * ends where LLR_{i-1} ends, so it is its suffix and never an LR (Lemma 2 and 3).
 * The useful LLRs have increasing starts and ends, so those covering k form one
 * run: find the first that ends after k, walk right while it starts <= k, keep the
 * longest.  The last frame must be the engine's LLR array and `lr` answers. */
#include <stdlib.h>
#include <string.h>
#include "repview/lr.h"
#include "teach_frame.h"

/* One LLR as a bar of cells under the text: '=' useful, '-' useless. */
static void bar(lesson_t *L, uint64_t i, uint64_t len, int useful, style_t st, const char *note)
{
    int y = tf_line(L, st, "i=%-2llu L=%-2llu", (unsigned long long)i, (unsigned long long)len);
    char cell[8];
    memset(cell, useful ? '=' : '-', sizeof cell);
    for (uint64_t c = i; c < i + len; c++) tf_put(L, y, tf_col(L, c) + 1, st, "%.*s", L->cw - 1, cell);
    if (note) tf_put(L, y, tf_col(L, i + len) + 2, st, "%s", note);
}

static void sa_neighbours(lesson_t *L, uint64_t i)
{
    const rv_index_t *x = L->x;
    uint64_t r = rv_isa(x, i);
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "    row  SA  LCP  suffix");
    for (uint64_t q = r ? r - 1 : 0; q <= r + 1 && q < x->n; q++) {
        char suf[TEACH_MAX_N + 1];
        tf_suffix(L, rv_sa(x, q), suf, TEACH_MAX_N);
        tf_line(L, q == r ? ST_HIT : ST_NORMAL, "%s %4llu %3llu %4llu  %s", q == r ? ">" : " ",
                        (unsigned long long)q, (unsigned long long)rv_sa(x, q), (unsigned long long)rv_lcp(x, q), suf);
    }
}

static int64_t pick_position(const uint64_t *len, const uint64_t *llr, uint64_t n)
{
    uint64_t best = 0, cover_best = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t cover = 0;
        for (uint64_t i = 0; i <= k; i++)
            cover += llr[i] && i + llr[i] > k && (i == 0 || llr[i] >= llr[i - 1]);
        if (len[k] > len[best] || (len[k] == len[best] && cover > cover_best)) best = k, cover_best = cover;
    }
    return (int64_t)best;
}

int teach_lr(lesson_t *L)
{
    const rv_index_t *x = L->x;
    const uint64_t n = x->n;
    uint64_t *llr = calloc(n, sizeof *llr), *lr = calloc(n, sizeof *lr), *starts = calloc(n + 1, sizeof *starts);
    uint64_t *useful = calloc(n + 1, sizeof *useful);
    int rc = -1;
    if (!llr || !lr || !starts || !useful) goto out;
    /* Lemma 1, one frame per position */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = rv_isa(x, i), up = rv_lcp(x, r), down = r + 1 < n ? rv_lcp(x, r + 1) : 0;
        llr[i] = up > down ? up : down;
        tf_new(L);
        tf_text_rows(L);
        tf_cells(L, "L[i]", llr, i + 1, ST_NORMAL);
        tf_style(L, 2, tf_col(L, i), L->cw, ST_HIT);
        sa_neighbours(L, i);
        if (x->seq->text[i] == RV_BREAK)
            tf_caption(L, "i=%llu is a breaker: no repeat contains it, L[%llu] = 0.", (unsigned long long)i,
                       (unsigned long long)i);
        else
            tf_caption(L, "Lemma 1: the longest repeat starting at i=%llu (LLR_%llu) is shared with a neighbour of "
                          "suffix %llu in the suffix array (row %llu): L[%llu] = max(LCP above %llu, LCP below %llu) "
                          "= %llu.%s",
                       (unsigned long long)i, (unsigned long long)i, (unsigned long long)i, (unsigned long long)r,
                       (unsigned long long)i, (unsigned long long)up, (unsigned long long)down,
                       (unsigned long long)llr[i], llr[i] ? "" : " No repeat starts here.");
    }
    /* useful and useless LLRs */
    uint64_t m = 0;
    tf_new(L);
    tf_text_rows(L);
    tf_cells(L, "L[i]", llr, n, ST_NORMAL);
    tf_line(L, ST_NORMAL, "%s", "");
    for (uint64_t i = 0; i < n; i++) {
        if (!llr[i]) continue;
        int u = i == 0 || llr[i] >= llr[i - 1];
        if (u) useful[m++] = i;
        bar(L, i, llr[i], u, u ? ST_USEFUL : ST_USELESS, u ? "useful" : "useless");
    }
    tf_caption(L, "Each LLR as a bar. L[i] >= L[i-1] - 1 always (Lemma 2); when L[i] = L[i-1] - 1, LLR_i ends where "
                  "LLR_%s ends: it is a piece of a longer repeat and never a longest one (useless, -). Only the %llu "
                  "useful ones (=) are kept (the LLRc array).",
               "{i-1}", (unsigned long long)m);
    /* LR length of every position, from the useful LLRs */
    for (uint64_t k = 0; k < n; k++)
        for (uint64_t j = 0; j < m; j++)
            if (useful[j] <= k && useful[j] + llr[useful[j]] > k && llr[useful[j]] > lr[k]) lr[k] = llr[useful[j]];
    int64_t k = L->o.at;
    if (k >= 0) {
        k = rv_seq_global_to_text(x->seq, (uint64_t)k);
        if (k < 0) return snprintf(L->err, sizeof L->err, "--at: position %lld is a breaker: no repeat covers it",
                                   (long long)L->o.at + 1), free(llr), free(lr), free(starts), free(useful), -1;
    } else {
        k = pick_position(lr, llr, n);
    }
    /* the walk for position k */
    uint64_t j0 = 0;
    while (j0 < m && useful[j0] + llr[useful[j0]] <= (uint64_t)k) j0++;
    uint64_t best = 0, ns = 0;
    for (uint64_t j = j0; j < m && useful[j] <= (uint64_t)k; j++) {
        uint64_t i = useful[j], l = llr[i];
        if (l > best) best = l, ns = 0;
        if (l == best) starts[ns++] = i;
        tf_new(L);
        tf_text_rows(L);
        int y = tf_line(L, ST_TITLE, "position k");
        tf_put(L, y, tf_col(L, (uint64_t)k), ST_HIT, "%*s", L->cw, "^");
        tf_line(L, ST_NORMAL, "%s", "");
        for (uint64_t q = j0; q <= j; q++)
            bar(L, useful[q], llr[useful[q]], 1, q == j ? ST_HIT : ST_USEFUL,
                llr[useful[q]] == best ? "longest so far" : NULL);
        tf_caption(L, "%s useful LLR at %llu, length %llu, covers k=%lld%s. Longest so far: %llu.",
                   j == j0 ? "The first" : "Next:", (unsigned long long)i, (unsigned long long)l, (long long)k,
                   j == j0 ? " (binary search: the first useful LLR ending after k; the ends increase)" :
                             " (starts increase too: walk right while the start is <= k)",
                   (unsigned long long)best);
    }
    tf_new(L);
    tf_text_rows(L);
    tf_cells(L, "L[i]", llr, n, ST_DIM);
    tf_cells(L, "LR length", lr, n, ST_MARK);
    int y = tf_line(L, ST_TITLE, "position k");
    tf_put(L, y, tf_col(L, (uint64_t)k), ST_HIT, "%*s", L->cw, "^");
    tf_line(L, ST_NORMAL, "%s", "");
    for (uint64_t q = 0; q < ns; q++) bar(L, starts[q], best, 1, ST_MARK, "LR");
    if (!ns) tf_line(L, ST_DIM, "no repeat covers position %lld", (long long)k);
    if (tf_answer(L, 0, llr, n) < 0 || tf_answer(L, 1, lr, n) < 0 || tf_answer(L, 2, starts, ns) < 0) goto out;
    /* the engine: its LLR array, and lr at every position */
    L->agrees = 1;
    rv_narrow_t view;
    int has = rv_lr_llr_view(x, &view);
    rv_lr_t got[TEACH_MAX_N + 1];
    for (uint64_t q = 0; q < n; q++) {
        if (has) L->agrees &= rv_narrow_get(&view, q) == llr[q];
        uint64_t c = rv_lr_at(x, q, got, TEACH_MAX_N + 1);
        L->agrees &= (c ? got[0].len : 0) == lr[q];
        if (q == (uint64_t)k) {
            L->agrees &= c == ns;
            for (uint64_t a = 0; a < c && a < ns; a++) L->agrees &= got[a].start == starts[a] && got[a].len == best;
        }
    }
    tf_caption(L, "Position k=%lld: %llu longest repeat%s of length %llu. The row 'LR length' repeats the walk for "
                  "every position.",
               (long long)k, (unsigned long long)ns, ns == 1 ? "" : "s", (unsigned long long)best);
    tf_verdict(L, "LLR array and repview lr at every position");
    rc = 0;
out:
    free(llr);
    free(lr);
    free(starts);
    free(useful);
    return rc;
}
