/* teach_runs.c — lesson `runs`: the runs (maximal repetitions, repview(1) tandem
 * repeats) from Lyndon roots, the method of Bannai et al., "The Runs Theorem",
 * that engine/index/lyndon.c and engine/index/runs.c implement: for one of the two
 * orders of the alphabet, every run [s, e) of smallest period p holds a Lyndon word
 * of length p that is the longest Lyndon word starting at its position.  The longest Lyndon
 * word at i ends where the next smaller suffix starts; each one, taken as a root of
 * period p, is extended by LCEs to the right and to the left, and is a run when the
 * stretch is at least 2p long.  A breaker is smaller than every letter in both
 * orders, so no Lyndon word and no run crosses one.  The last frame must be the
 * engine's runs. */
#include <stdlib.h>
#include <string.h>
#include "repview/tandem.h"
#include "teach_frame.h"

/* Symbol rank of code c in order ord: the breaker is smallest in both orders. */
static int sym(const lesson_t *L, uint64_t i, int ord)
{
    int c = L->x->seq->text[i];
    return c == RV_BREAK || !ord ? c : L->x->seq->sigma + 1 - c;
}

/* Suffix i < suffix j in order ord (the end of the text is smallest). */
static int less(const lesson_t *L, uint64_t i, uint64_t j, int ord)
{
    uint64_t n = L->x->n;
    for (; i < n && j < n; i++, j++)
        if (sym(L, i, ord) != sym(L, j, ord)) return sym(L, i, ord) < sym(L, j, ord);
    return i >= n && j < n;
}

static uint64_t lce(const lesson_t *L, uint64_t i, uint64_t j, int dir)
{
    const uint8_t *t = L->x->seq->text;
    uint64_t k = 0, n = L->x->n;
    if (dir > 0)
        while (i + k < n && j + k < n && t[i + k] == t[j + k] && t[i + k] != RV_BREAK) k++;
    else
        while (k <= i && k <= j && t[i - k] == t[j - k] && t[i - k] != RV_BREAK) k++;
    return k;
}

static void cells_row(lesson_t *L, const char *label, uint64_t a, uint64_t b, char ch, style_t st)
{
    int y = tf_line(L, ST_TITLE, "%s", label);
    for (uint64_t c = a; c < b; c++) tf_put(L, y, tf_col(L, c) + 1, st, "%*c", L->cw - 1, ch);
}

static int cmp_run(const void *a, const void *b)
{
    const uint64_t *u = a, *v = b;
    if (u[0] != v[0]) return u[0] < v[0] ? -1 : 1;
    return (u[2] > v[2]) - (u[2] < v[2]);
}

static void run_list(lesson_t *L, const uint64_t *runs, size_t nr)
{
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "runs [start,end) period  motif");
    for (size_t k = 0; k < nr; k++) {
        char motif[TEACH_MAX_N + 1];
        tf_suffix(L, runs[3 * k], motif, (int)runs[3 * k + 2]);
        tf_line(L, ST_MARK, "     [%llu,%llu)  p=%llu  %s x %.2g", (unsigned long long)runs[3 * k],
                (unsigned long long)runs[3 * k + 1], (unsigned long long)runs[3 * k + 2], motif,
                (double)(runs[3 * k + 1] - runs[3 * k]) / (double)runs[3 * k + 2]);
    }
    if (!nr) tf_line(L, ST_DIM, "     none yet");
}

int teach_runs(lesson_t *L)
{
    const uint64_t n = L->x->n;
    const uint8_t *t = L->x->seq->text;
    uint64_t *lyn[2] = {calloc(n, sizeof(uint64_t)), calloc(n, sizeof(uint64_t))};
    uint64_t *runs = calloc(3 * n + 3, sizeof *runs);
    size_t nr = 0, repeats = 0;
    int rc = -1;
    rv_runs_t *er = NULL;
    if (!lyn[0] || !lyn[1] || !runs) goto out;
    tf_new(L);
    tf_text_rows(L);
    tf_caption(L, "A run is a maximal stretch [s,e) with smallest period p and length >= 2p (a tandem repeat). The "
                  "Runs Theorem: each run holds a Lyndon word of length p (a word smaller than all its rotations) "
                  "that is the longest Lyndon word starting there, in one of two orders of the alphabet.");
    for (int ord = 0; ord < 2; ord++) {
        for (uint64_t i = 0; i < n; i++) { /* the next smaller suffix ends the longest Lyndon word */
            uint64_t j = i + 1;
            while (j < n && !less(L, j, i, ord)) j++;
            lyn[ord][i] = t[i] == RV_BREAK ? 0 : j - i;
        }
        tf_new(L);
        tf_text_rows(L);
        tf_cells(L, ord ? "Lyndon (z-a)" : "Lyndon (a-z)", lyn[ord], n, ST_HIT);
        if (ord) tf_cells(L, "Lyndon (a-z)", lyn[0], n, ST_DIM);
        tf_caption(L, "Order %s: the longest Lyndon word starting at i ends where the next smaller suffix (in this "
                      "order) starts; its length is the row above. At a breaker: none.",
                   ord ? "2, the alphabet reversed" : "1, the alphabet");
        for (uint64_t i = 0; i < n; i++) {
            uint64_t p = lyn[ord][i];
            if (!p || i + p >= n) continue;
            uint64_t right = lce(L, i, i + p, 1), left = i ? lce(L, i - 1, i + p - 1, -1) : 0;
            uint64_t s = i - left, e = i + p + right;
            if (e - s < 2 * p) continue;
            int again = 0;
            for (size_t k = 0; k < nr; k++) again |= runs[3 * k] == s && runs[3 * k + 1] == e && runs[3 * k + 2] == p;
            if (again) { /* another root of a run already drawn: counted, not drawn again */
                repeats++;
                continue;
            }
            runs[3 * nr] = s, runs[3 * nr + 1] = e, runs[3 * nr + 2] = p, nr++;
            tf_new(L);
            tf_text_rows(L);
            tf_cells(L, ord ? "Lyndon (z-a)" : "Lyndon (a-z)", lyn[ord], n, ST_DIM);
            tf_line(L, ST_NORMAL, "%s", "");
            cells_row(L, "root", i, i + p, '=', ST_HIT);
            cells_row(L, "period copy", i + p, i + 2 * p < e ? i + 2 * p : e, '+', ST_SHARED);
            cells_row(L, "run", s, e, '~', ST_MARK);
            run_list(L, runs, nr);
            char root[TEACH_MAX_N + 1];
            tf_suffix(L, i, root, (int)p);
            tf_caption(L, "Root '%s' at %llu (p=%llu): the text after it repeats it for %llu more (LCE to the right), "
                          "and %llu before it (LCE to the left): [%llu,%llu) is %llu >= 2p long, a run%s.",
                       root, (unsigned long long)i, (unsigned long long)p, (unsigned long long)right,
                       (unsigned long long)left, (unsigned long long)s, (unsigned long long)e,
                       (unsigned long long)(e - s), ord ? " (found with the reversed order only)" : "");
        }
    }
    qsort(runs, nr, 3 * sizeof *runs, cmp_run);
    tf_new(L);
    tf_text_rows(L);
    for (size_t k = 0; k < nr; k++) cells_row(L, "run", runs[3 * k], runs[3 * k + 1], '~', ST_MARK);
    run_list(L, runs, nr);
    if (tf_answer(L, 0, runs, 3 * nr) < 0) goto out;
    er = rv_runs_compute(L->x, 1, NULL);
    if (!er) goto out;
    L->agrees = er->n == nr;
    for (uint64_t k = 0; L->agrees && k < er->n; k++) {
        rv_run_t r = rv_runs_at(er, k);
        L->agrees = r.start == runs[3 * k] && r.end == runs[3 * k + 1] && r.period == runs[3 * k + 2];
    }
    tf_caption(L, "Every run, each found from a Lyndon root; %zu other root%s gave a run already found, the rest "
                  "stretches shorter than 2p. The Runs Theorem also bounds their number: fewer than n.",
               repeats, repeats == 1 ? "" : "s");
    tf_verdict(L, "repview tandem, all runs");
    rc = 0;
out:
    rv_runs_free(er);
    free(lyn[0]);
    free(lyn[1]);
    free(runs);
    return rc;
}
