/* pane_find.c — pattern search: the `/` and `?` prompts, n/N, hits highlighted in
 * the sequence view, and the matches pane (count and list).
 *
 * Until the find engine (find.h, seeds/003) lands, exact matches are found here
 * by binary search of the pattern in the suffix array, on both strands for DNA:
 * every suffix starting with P lies in one SA interval. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/seq.h"
#include "app.h"

enum { MAX_HITS = 1000000, LIST_BEFORE = 50, LIST_MAX = 400 };

/* Compare the suffix at text position s with the codes p[0..m): <0, 0 (prefix), >0. */
static int cmp_suffix(const rv_index_t *x, uint64_t s, const uint8_t *p, size_t m)
{
    for (size_t j = 0; j < m; j++) {
        if (s + j >= x->n) return -1;
        uint8_t c = x->seq->text[s + j];
        if (c != p[j]) return c < p[j] ? -1 : 1; /* a breaker (0) sorts first, matches nothing */
    }
    return 0;
}

/* First rank whose suffix is >= P (strict = 0) or > P as a prefix (strict = 1). */
static uint64_t sa_bound(const rv_index_t *x, const uint8_t *p, size_t m, int strict)
{
    uint64_t lo = 0, hi = x->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        int c = cmp_suffix(x, rv_sa(x, mid), p, m);
        if (c < 0 || (strict && c == 0)) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int add_strand(app_t *a, const char *pat, size_t m, uint64_t *cap)
{
    const rv_index_t *x = a->src.x;
    uint8_t code[128];
    for (size_t j = 0; j < m; j++)
        if ((code[j] = rv_alpha_code(x->seq->alpha, (unsigned char)pat[j])) == RV_BREAK) return -1;
    uint64_t lo = sa_bound(x, code, m, 0), hi = sa_bound(x, code, m, 1);
    for (uint64_t r = lo; r < hi && a->n_hits < MAX_HITS; r++) {
        if (a->n_hits == *cap) {
            *cap = *cap ? *cap * 2 : 256;
            uint64_t *h = realloc(a->hits, *cap * sizeof *h);
            if (!h) return 0;
            a->hits = h;
        }
        a->hits[a->n_hits++] = rv_seq_text_to_global(x->seq, rv_sa(x, r));
    }
    return 0;
}

static int cmp_u64(const void *p, const void *q)
{
    uint64_t u = *(const uint64_t *)p, v = *(const uint64_t *)q;
    return u < v ? -1 : u > v;
}

static void find_all(app_t *a, const char *pat)
{
    size_t m = strlen(pat);
    uint64_t cap = 0;
    a->n_hits = 0;
    a->hit_len = m;
    if (add_strand(a, pat, m, &cap) < 0) { app_message(a, 1, "%s: holds a breaker, matches nothing", pat); return; }
    if (a->src.x->seq->alpha == RV_ALPHA_DNA) { /* the - strand: reverse complement */
        char rc[128];
        for (size_t j = 0; j < m; j++) {
            const char *from = "ACGTacgt", *to = "TGCAtgca", *c = strchr(from, pat[m - 1 - j]);
            rc[j] = c ? to[c - from] : 'N';
        }
        rc[m] = 0;
        add_strand(a, rc, m, &cap);
    }
    qsort(a->hits, a->n_hits, sizeof *a->hits, cmp_u64);
    uint64_t k = 0; /* palindromes are found on both strands at one place */
    for (uint64_t i = 0; i < a->n_hits; i++)
        if (k == 0 || a->hits[i] != a->hits[k - 1]) a->hits[k++] = a->hits[i];
    a->n_hits = k;
}

/* Index of the first hit starting after g (dir 1) or the last before g (-1), with wrap. */
static uint64_t hit_from(const app_t *a, uint64_t g, int dir, int *wrapped)
{
    uint64_t lo = 0, hi = a->n_hits;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (a->hits[mid] <= g) lo = mid + 1; else hi = mid;
    }
    *wrapped = 0;
    if (dir > 0) { if (lo == a->n_hits) { *wrapped = 1; return 0; } return lo; }
    uint64_t k = lo; /* first hit > g; we want the last < g */
    while (k > 0 && a->hits[k - 1] >= g) k--;
    if (k == 0) { *wrapped = 1; return a->n_hits - 1; }
    return k - 1;
}

void search_step(app_t *a, int dir, long count)
{
    if (!a->pattern[0]) { app_message(a, 1, "no search yet: / or ? starts one"); return; }
    if (a->n_hits == 0) { app_message(a, 1, "%s: not found", a->pattern); return; }
    int d = dir * (a->search_dir ? a->search_dir : 1), wrapped = 0, w;
    uint64_t g = a->cur, k = 0;
    for (long c = 0; c < (count > 0 ? count : 1); c++) {
        k = hit_from(a, g, d, &w);
        wrapped |= w;
        g = a->hits[k];
    }
    app_jump(a, g);
    app_message(a, 0, "match %llu of %llu: %s%s", (unsigned long long)k + 1, (unsigned long long)a->n_hits,
                a->pattern, wrapped ? " (search wrapped)" : "");
}

void search_run(app_t *a, const char *pattern, int dir)
{
    if (!*pattern) pattern = a->pattern;
    if (!*pattern) { app_message(a, 1, "no previous pattern"); return; }
    if (strlen(pattern) >= sizeof a->pattern - 1) { app_message(a, 1, "pattern too long"); return; }
    if (pattern != a->pattern) snprintf(a->pattern, sizeof a->pattern, "%s", pattern);
    a->search_dir = dir;
    if (!a->src.x) { app_message(a, 1, "search needs the index: wait for the status bar to say ready"); return; }
    find_all(a, a->pattern);
    a->hits_gen = a->src.generation;
    a->extra_gen++;
    if (a->n_hits) search_step(a, 1, 1);
    else app_message(a, 1, "%s: not found", a->pattern);
}

int search_hit_at(const app_t *a, uint64_t g)
{
    uint64_t lo = 0, hi = a->n_hits; /* last hit starting <= g */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (a->hits[mid] <= g) lo = mid + 1; else hi = mid;
    }
    return lo > 0 && g < a->hits[lo - 1] + a->hit_len;
}

static void find_fill(pane_t *p, app_t *a, int width)
{
    (void)width;
    if (!a->pattern[0]) { snprintf(p->note, sizeof p->note, "/ or ? searches (exact, both strands for DNA)"); return; }
    snprintf(p->title_extra, sizeof p->title_extra, "%llu of %s", (unsigned long long)a->n_hits, a->pattern);
    if (!a->n_hits) { snprintf(p->note, sizeof p->note, "no matches"); return; }
    int w;
    uint64_t k = hit_from(a, a->cur > 0 ? a->cur - 1 : 0, 1, &w);
    if (w) k = a->n_hits - 1;
    uint64_t from = k > LIST_BEFORE ? k - LIST_BEFORE : 0;
    char buf[160];
    for (uint64_t i = from; i < a->n_hits && i < from + LIST_MAX; i++) {
        pane_add(p, (int64_t)a->hits[i], a->hits[i] == a->cur ? ST_HIT : ST_NORMAL, "%llu %s",
                 (unsigned long long)i + 1, app_fmt_pos(a, a->hits[i], buf, sizeof buf));
        if (i == k) p->sel = p->n - 1;
    }
}

static int find_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    (void)p;
    (void)g;
    search_step(a, dir, 1);
    return 0;
}

const pane_ops_t pane_find_ops = {"Matches", find_fill, find_feature};
