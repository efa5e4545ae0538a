/* teach_sa.c — lesson `sa`: the suffix array by prefix doubling (Manber & Myers),
 * ranked as repview's GPU builder does it (gpu/gpu_sa.cu): rank[i] is the row of
 * the first suffix of i's group, round h sorts the suffixes that still tie by the
 * pair (rank[i], rank[i + h]), and a group of one is final.  The symbols compare
 * by their codes, a breaker as the smallest symbol and the end of the text smaller
 * still, which is the order of libdivsufsort on the CPU: the last frame must be the
 * engine's SA. */
#include <stdlib.h>
#include <string.h>
#include "teach_frame.h"

typedef struct {
    uint64_t n, h;
    uint64_t *sa, *rank, *nrank;
    uint64_t **hist;   /* rank table of each round, for the rows at the top */
    uint64_t *hist_h;
    int rounds;
} dbl_t;

static int64_t key2(const dbl_t *d, uint64_t i)
{
    return i + d->h < d->n ? (int64_t)d->rank[i + d->h] : -1;
}

/* Row r begins a group / ends it (the group is [lo, hi) of equal rank). */
static void group_of(const dbl_t *d, uint64_t r, uint64_t *lo, uint64_t *hi)
{
    uint64_t g = d->rank[d->sa[r]];
    *lo = g;
    *hi = r + 1;
    while (*hi < d->n && d->rank[d->sa[*hi]] == g) (*hi)++;
}

/* 1 while some group holds two or more suffixes. */
static int any_open(const dbl_t *d)
{
    for (uint64_t r = 1; r < d->n; r++)
        if (d->rank[d->sa[r]] == d->rank[d->sa[r - 1]]) return 1;
    return 0;
}

static void draw(lesson_t *L, const dbl_t *d, int with_keys)
{
    tf_new(L);
    tf_text_rows(L);
    for (int k = 0; k < d->rounds; k++) {
        char label[32];
        snprintf(label, sizeof label, "rank h=%llu", (unsigned long long)d->hist_h[k]);
        tf_cells(L, label, d->hist[k], d->n, k == d->rounds - 1 ? ST_HIT : ST_DIM);
    }
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "  row   i  rank  %-9s group  suffix: [first h] %s", with_keys ? "key" : "",
                    with_keys ? "| next h" : "");
    for (uint64_t r = 0; r < d->n; r++) {
        uint64_t i = d->sa[r], lo, hi;
        group_of(d, r, &lo, &hi);
        int alone = hi - lo == 1 && r == lo;
        const char *g = alone ? "final" : r == lo ? "{" : r + 1 == hi ? "}" : "|";
        char key[24] = "";
        if (with_keys && !alone) {
            int64_t k2 = key2(d, i);
            if (k2 < 0) snprintf(key, sizeof key, "(%llu,-)", (unsigned long long)d->rank[i]);
            else snprintf(key, sizeof key, "(%llu,%lld)", (unsigned long long)d->rank[i], (long long)k2);
        }
        char suf[TEACH_MAX_N + 1], shown[3 * TEACH_MAX_N + 8];
        tf_suffix(L, i, suf, TEACH_MAX_N);
        uint64_t len = strlen(suf), a = d->h < len ? d->h : len;
        uint64_t b = with_keys && !alone ? (2 * d->h < len ? 2 * d->h : len) : a;
        int k = 0;
        shown[k++] = '[';
        for (uint64_t c = 0; c < len; c++) {
            if (c == a && b > a) shown[k++] = '|';
            if (c == b) shown[k++] = ']';
            shown[k++] = suf[c];
        }
        if (b == len) shown[k++] = ']';
        shown[k] = 0;
        int row = tf_line(L, alone ? ST_DIM : ST_NORMAL, " %4llu %3llu  %4llu  %-9s %-6s %s", (unsigned long long)r,
                          (unsigned long long)i, (unsigned long long)d->rank[i], key, g, shown);
        int col = 34;
        if (!alone) {
            tf_style(L, row, col, (int)a + 1, ST_SHARED);
            if (b > a) tf_style(L, row, col + (int)a + 1, (int)(b - a) + 1, ST_HIT);
        }
    }
}

/* Sort the rows of each unfinished group by (rank[i], rank[i+h]): small groups,
 * insertion sort (a lesson has at most TEACH_MAX_N suffixes). */
static int round_sort(dbl_t *d)
{
    for (uint64_t lo = 0; lo < d->n;) {
        uint64_t l, hi;
        group_of(d, lo, &l, &hi);
        for (uint64_t a = lo + 1; a < hi; a++)
            for (uint64_t b = a; b > lo && key2(d, d->sa[b - 1]) > key2(d, d->sa[b]); b--) {
                uint64_t t = d->sa[b]; d->sa[b] = d->sa[b - 1]; d->sa[b - 1] = t;
            }
        for (uint64_t r = lo; r < hi; r++) /* new heads: where the second key changes */
            d->nrank[d->sa[r]] = r > lo && key2(d, d->sa[r]) == key2(d, d->sa[r - 1]) ? d->nrank[d->sa[r - 1]] : r;
        lo = hi;
    }
    memcpy(d->rank, d->nrank, d->n * sizeof *d->rank);
    return any_open(d);
}

static int snapshot(dbl_t *d)
{
    d->hist[d->rounds] = malloc(d->n * sizeof **d->hist);
    if (!d->hist[d->rounds]) return -1;
    memcpy(d->hist[d->rounds], d->rank, d->n * sizeof *d->rank);
    d->hist_h[d->rounds++] = d->h;
    return 0;
}

static int cmp_code(const void *p, const void *q, void *ud)
{
    const uint8_t *t = ud;
    uint64_t i = *(const uint64_t *)p, j = *(const uint64_t *)q;
    return t[i] != t[j] ? (t[i] < t[j] ? -1 : 1) : (i < j ? -1 : i > j);
}

int teach_sa(lesson_t *L)
{
    const rv_index_t *x = L->x;
    dbl_t d = {.n = x->n, .h = 1};
    d.sa = malloc(d.n * sizeof *d.sa);
    d.rank = malloc(d.n * sizeof *d.rank);
    d.nrank = malloc(d.n * sizeof *d.nrank);
    d.hist = calloc(66, sizeof *d.hist);
    d.hist_h = calloc(66, sizeof *d.hist_h);
    int rc = -1;
    if (!d.sa || !d.rank || !d.nrank || !d.hist || !d.hist_h) goto out;
    const uint8_t *t = x->seq->text;
    for (uint64_t i = 0; i < d.n; i++) d.sa[i] = i;
    qsort_r(d.sa, d.n, sizeof *d.sa, cmp_code, (void *)t);
    for (uint64_t r = 0; r < d.n; r++) d.rank[d.sa[r]] = r > 0 && t[d.sa[r]] == t[d.sa[r - 1]] ? d.rank[d.sa[r - 1]] : r;

    tf_new(L);
    tf_text_rows(L);
    int brk = 0;
    for (uint64_t i = 0; i < d.n; i++) brk |= t[i] == RV_BREAK;
    tf_caption(L, "Sort all %llu suffixes of T. Prefix doubling first sorts them by 1 character, then by 2, 4, 8...: "
                  "each round doubles the characters compared without reading the text again.%s",
               (unsigned long long)d.n,
               brk ? " The breaker sorts as a symbol smaller than every letter (the CPU and GPU order); it still "
                     "never matches anything." : "");
    if (snapshot(&d) < 0) goto out;
    int open = any_open(&d);
    draw(L, &d, 0);
    tf_caption(L, "Round h=1: the suffixes sorted by their first character. Suffixes that tie form a group ({ | }); "
                  "rank[i] is the row of the first suffix of i's group. A suffix alone in its group is final.");
    while (open) {
        draw(L, &d, 1);
        tf_caption(L, "Doubling h=%llu -> %llu: the first %llu characters of suffix i are its first %llu (ranked: "
                      "rank[i]) followed by the first %llu of suffix i+%llu (ranked: rank[i+%llu]). So the key "
                      "(rank[i], rank[i+h]) orders each group; '-' (past the end) is smallest.",
                   (unsigned long long)d.h, (unsigned long long)(2 * d.h), (unsigned long long)(2 * d.h),
                   (unsigned long long)d.h, (unsigned long long)d.h, (unsigned long long)d.h,
                   (unsigned long long)d.h);
        open = round_sort(&d);
        d.h *= 2;
        if (snapshot(&d) < 0) goto out;
        draw(L, &d, 0);
        tf_caption(L, "Round h=%llu: each group sorted by its keys and split where the key changes; new ranks are "
                      "new group heads.%s",
                   (unsigned long long)d.h,
                   open ? " Groups still tie: double again." : " Every suffix is alone: the suffix array is done.");
    }
    /* the answer */
    tf_new(L);
    tf_text_rows(L);
    tf_cells(L, "SA[r]", d.sa, d.n, ST_MARK);
    tf_cells(L, "ISA = rank", d.rank, d.n, ST_NORMAL);
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "    r  SA[r]  suffix");
    for (uint64_t r = 0; r < d.n; r++) {
        char suf[TEACH_MAX_N + 1];
        tf_suffix(L, d.sa[r], suf, TEACH_MAX_N);
        tf_line(L, ST_NORMAL, " %4llu  %5llu  %s", (unsigned long long)r, (unsigned long long)d.sa[r], suf);
    }
    if (tf_answer(L, 0, d.sa, d.n) < 0) goto out;
    L->agrees = 1;
    for (uint64_t r = 0; r < d.n; r++) L->agrees &= d.sa[r] == rv_sa(x, r);
    tf_caption(L, "The suffix array after %d rounds: SA[r] is the start of the r-th smallest suffix, and the last "
                  "ranks are its inverse.", d.rounds);
    tf_verdict(L, "SA of the index");
    rc = 0;
out:
    for (int k = 0; d.hist && k < d.rounds; k++) free(d.hist[k]);
    free(d.hist);
    free(d.hist_h);
    free(d.sa);
    free(d.rank);
    free(d.nrank);
    return rc;
}
