/* teach_lcp.c — lesson `lcp`: the LCP array by Kasai et al.'s walk in text order,
 * in the Φ form of Kärkkäinen, Manzini & Puglisi that engine/index/lcp_cpu.c runs:
 * Φ[i] = SA[ISA[i] - 1], PLCP[i] = lcp(i, Φ[i]) computed for i = 0, 1, ... with
 * PLCP[i] >= PLCP[i-1] - 1, then LCP[r] = PLCP[SA[r]].  Comparisons stop at a
 * breaker, which matches nothing; the last frame must be the engine's LCP. */
#include <stdlib.h>
#include <string.h>
#include "teach_frame.h"

#define NONE UINT64_MAX

/* A row of cells where NONE prints as '-'; cells [0, upto) only. */
static int row(lesson_t *L, const char *label, const uint64_t *v, uint64_t upto, uint64_t hl)
{
    int y = tf_line(L, ST_TITLE, "%s", label);
    for (uint64_t i = 0; i < upto; i++) {
        style_t st = i == hl ? ST_HIT : ST_NORMAL;
        if (v[i] == NONE) tf_put(L, y, tf_col(L, i), st, "%*s", L->cw, "-");
        else tf_put(L, y, tf_col(L, i), st, "%*llu", L->cw, (unsigned long long)v[i]);
    }
    return y;
}

static void top(lesson_t *L, const uint64_t *sa, const uint64_t *phi, const uint64_t *plcp, uint64_t done, uint64_t hl)
{
    const uint64_t n = L->x->n;
    tf_new(L);
    tf_text_rows(L);
    if (sa) {
        int y = tf_line(L, ST_TITLE, "rank r");
        for (uint64_t r = 0; r < n; r++) tf_put(L, y, tf_col(L, r), ST_RULER, "%*llu", L->cw, (unsigned long long)r);
        row(L, "SA[r]", sa, n, NONE);
    }
    if (phi) row(L, "Phi[i]", phi, n, hl);
    if (plcp) row(L, "PLCP[i]", plcp, done, hl);
}

/* The two suffixes of step i one above the other: '=' known from the step before,
 * '+' compared and equal, '^' where the comparison stopped. */
static void compare_rows(lesson_t *L, uint64_t i, uint64_t j, uint64_t skip, uint64_t l)
{
    char a[TEACH_MAX_N + 1], b[TEACH_MAX_N + 1], m[TEACH_MAX_N + 2];
    tf_suffix(L, i, a, TEACH_MAX_N);
    tf_suffix(L, j, b, TEACH_MAX_N);
    tf_line(L, ST_NORMAL, "%s", "");
    int ya = tf_line(L, ST_NORMAL, "suffix i=%-4llu %s", (unsigned long long)i, a);
    int yb = tf_line(L, ST_NORMAL, "Phi[i]=%-6llu %s", (unsigned long long)j, b);
    uint64_t k = 0;
    for (; k < l; k++) m[k] = k < skip ? '=' : '+';
    m[k++] = '^';
    m[k] = 0;
    int ym = tf_line(L, ST_DIM, "%13s %s", "", m);
    tf_style(L, ya, 14, (int)skip, ST_SHARED);
    tf_style(L, yb, 14, (int)skip, ST_SHARED);
    tf_style(L, ya, 14 + (int)skip, (int)(l - skip), ST_HIT);
    tf_style(L, yb, 14 + (int)skip, (int)(l - skip), ST_HIT);
    tf_style(L, ym, 14, (int)l + 1, ST_TITLE);
}

int teach_lcp(lesson_t *L)
{
    const rv_index_t *x = L->x;
    const uint64_t n = x->n;
    const uint8_t *t = x->seq->text;
    uint64_t *sa = calloc(n, sizeof *sa), *phi = calloc(n, sizeof *phi), *plcp = calloc(n, sizeof *plcp),
             *lcp = calloc(n, sizeof *lcp);
    int rc = -1;
    if (!sa || !phi || !plcp || !lcp) goto out;
    for (uint64_t r = 0; r < n; r++) sa[r] = rv_sa(x, r); /* the SA lesson builds it */
    top(L, sa, NULL, NULL, 0, NONE);
    tf_caption(L, "LCP[r] = the length of the common prefix of the suffixes at rows r-1 and r. Comparing every "
                  "neighbour pair from scratch costs up to n^2; Kasai's walk takes the suffixes in TEXT order "
                  "instead, and then never compares more than 2n characters in all.");
    for (uint64_t r = 0; r < n; r++) phi[sa[r]] = r ? sa[r - 1] : NONE;
    top(L, sa, phi, NULL, 0, NONE);
    tf_caption(L, "Phi[i] = the suffix just above suffix i in the suffix array (SA[ISA[i]-1]; '-' for the "
                  "smallest). PLCP[i] = lcp(i, Phi[i]) is LCP in text order.");
    uint64_t l = 0, compared = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t skip = l;
        if (phi[i] == NONE) {
            plcp[i] = 0;
            top(L, NULL, phi, plcp, i + 1, i);
            tf_caption(L, "i=%llu: the smallest suffix has no suffix above it: PLCP[%llu] = 0, and the next step "
                          "starts from l = 0.", (unsigned long long)i, (unsigned long long)i);
            l = 0;
            continue;
        }
        uint64_t j = phi[i];
        while (i + l < n && j + l < n && t[i + l] == t[j + l] && t[i + l] != RV_BREAK) l++, compared++;
        compared++; /* the comparison that stopped */
        plcp[i] = l;
        top(L, NULL, phi, plcp, i + 1, i);
        compare_rows(L, i, j, skip, l);
        const char *why = i + l >= n || j + l >= n ? "the end of the text" :
                          t[i + l] == RV_BREAK || t[j + l] == RV_BREAK ? "a breaker (it matches nothing)" :
                          "two different characters";
        if (i == 0 || skip == 0)
            tf_caption(L, "i=%llu: compare suffix %llu with Phi[i]=%llu from the start: %llu equal, then %s. "
                          "PLCP[%llu] = %llu.", (unsigned long long)i, (unsigned long long)i,
                       (unsigned long long)j, (unsigned long long)l, why, (unsigned long long)i,
                       (unsigned long long)l);
        else
            tf_caption(L, "i=%llu: l = PLCP[%llu]-1 = %llu characters are known to match (=): suffix %llu, its first "
                          "character dropped, still shares them with a suffix above %llu, so the one just above "
                          "shares as many. Compare from there: %llu more (+), then %s. PLCP[%llu] = %llu.",
                       (unsigned long long)i, (unsigned long long)(i - 1), (unsigned long long)skip,
                       (unsigned long long)(i - 1), (unsigned long long)i, (unsigned long long)(l - skip), why,
                       (unsigned long long)i, (unsigned long long)l);
        l = l ? l - 1 : 0; /* l drops by at most one */
    }
    for (uint64_t r = 0; r < n; r++) lcp[r] = plcp[sa[r]];
    tf_new(L);
    tf_text_rows(L);
    row(L, "PLCP[i]", plcp, n, NONE);
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "    r  SA[r]  LCP[r]  suffix (shared with the row above in [ ])");
    for (uint64_t r = 0; r < n; r++) {
        char suf[TEACH_MAX_N + 1], shown[TEACH_MAX_N + 3];
        tf_suffix(L, sa[r], suf, TEACH_MAX_N);
        snprintf(shown, sizeof shown, "%s", suf);
        if (lcp[r]) snprintf(shown, sizeof shown, "[%.*s]%s", (int)lcp[r], suf, suf + lcp[r]);
        int y = tf_line(L, ST_NORMAL, " %4llu  %5llu  %6llu  %s", (unsigned long long)r, (unsigned long long)sa[r],
                        (unsigned long long)lcp[r], shown);
        if (lcp[r]) tf_style(L, y, 24, (int)lcp[r] + 2, ST_SHARED);
    }
    if (tf_answer(L, 0, lcp, n) < 0 || tf_answer(L, 1, plcp, n) < 0) goto out;
    L->agrees = 1;
    for (uint64_t r = 0; r < n; r++) L->agrees &= lcp[r] == rv_lcp(x, r);
    tf_caption(L, "LCP[r] = PLCP[SA[r]]. The walk compared %llu characters for n = %llu: l grows by the matches and "
                  "drops by at most one per step, so at most 2n comparisons.",
               (unsigned long long)compared, (unsigned long long)n);
    tf_verdict(L, "LCP of the index");
    rc = 0;
out:
    free(sa);
    free(phi);
    free(plcp);
    free(lcp);
    return rc;
}
