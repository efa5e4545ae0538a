/* teach_search.c — lesson `search`: a pattern P in the suffix array, first by two
 * binary searches (the first row >= P, the first row > P as a prefix: the matches
 * are the rows between), then with k mismatches as a branching search: from the
 * interval of the rows that start with Q, the rows whose next symbol is c form a
 * smaller interval, one branch per symbol, a mismatch spent where c differs from
 * P's (engine/search/find_search.c searches the same way).  A breaker matches nothing, not
 * even as a mismatch.  The last frames must be the engine's `find` hits. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/find.h"
#include "teach_frame.h"

enum { ROW_Y0 = 3, TREE_X = 50, MAX_NODES = 400 };

typedef struct {
    const uint8_t *pc; /* pattern codes */
    uint64_t m;
    uint64_t *sa;
} pat_t;

/* Compare the suffix at row r with P over P's length: -1 smaller, 0 P is its
 * prefix, 1 larger; *k = symbols compared equal. */
static int cmp_row(const lesson_t *L, const pat_t *p, uint64_t r, uint64_t *k)
{
    const uint8_t *t = L->x->seq->text;
    uint64_t i = p->sa[r], n = L->x->n;
    for (*k = 0; *k < p->m; (*k)++) {
        if (i + *k >= n) return -1; /* the text ends: shorter is smaller */
        if (t[i + *k] != p->pc[*k]) return t[i + *k] < p->pc[*k] ? -1 : 1;
    }
    return 0;
}

/* The SA rows with the markers of a binary search ('lo', 'hi', 'mid'). */
static void sa_rows(lesson_t *L, const pat_t *p, uint64_t lo, uint64_t hi, int64_t mid, uint64_t cmp_len)
{
    tf_new(L);
    tf_line(L, ST_TITLE, "pattern P = %s", L->pattern);
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "         row  SA  suffix");
    for (uint64_t r = 0; r < L->x->n; r++) {
        char suf[TEACH_MAX_N + 1];
        tf_suffix(L, p->sa[r], suf, TEACH_MAX_N);
        char mark[12] = "";
        if ((int64_t)r == mid) snprintf(mark, sizeof mark, "mid>");
        else if (r == lo && r == hi) snprintf(mark, sizeof mark, "lo=hi>");
        else if (r == lo) snprintf(mark, sizeof mark, "lo>");
        else if (r == hi) snprintf(mark, sizeof mark, "hi>");
        int in = r >= lo && r < hi;
        int y = tf_line(L, in ? ST_NORMAL : ST_DIM, "%8s %4llu %3llu  %s%s", mark, (unsigned long long)r,
                        (unsigned long long)p->sa[r], suf, in ? "" : "  (out)");
        if ((int64_t)r == mid) tf_style(L, y, 19, (int)(cmp_len + 1 < p->m + 1 ? cmp_len + 1 : p->m), ST_HIT);
        if (in) tf_style(L, y, 0, 8, ST_TITLE);
    }
    if (hi == L->x->n) tf_line(L, ST_TITLE, "%8s", "hi>");
}

/* First row whose suffix is >= P (upper = 0), or > P as a prefix (upper = 1). */
static uint64_t bsearch_rows(lesson_t *L, const pat_t *p, int upper, uint64_t lo0)
{
    uint64_t lo = lo0, hi = L->x->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2, k;
        int c = cmp_row(L, p, mid, &k);
        int right = c < 0 || (upper && c == 0);
        sa_rows(L, p, lo, hi, (int64_t)mid, k);
        char suf[TEACH_MAX_N + 1];
        tf_suffix(L, p->sa[mid], suf, (int)p->m);
        tf_caption(L, "%s bound: mid = (lo+hi)/2 = %llu. Its suffix starts '%s': %s P%s, so the %s lies %s mid: %s.",
                   upper ? "Upper" : "Lower", (unsigned long long)mid, suf,
                   c < 0 ? "smaller than" : c > 0 ? "larger than" : "it starts with",
                   c == 0 && upper ? " (P is its prefix; looking for the first row after the matches)" : "",
                   upper ? "first row past the matches" : "first row >= P", right ? "after" : "at or before",
                   right ? "lo = mid+1" : "hi = mid");
        if (right) lo = mid + 1; else hi = mid;
    }
    return lo;
}

typedef struct {
    int depth, parent;
    uint64_t lo, hi, mism;
    uint8_t sym;
    char state; /* 'o' open, 'x' pruned, 'm' match, 'e' expanded */
} node_t;

/* The nodes under v in tree order (a node, then its children's subtrees). */
static int preorder(const node_t *nd, int nn, int v, int *out, int k)
{
    out[k++] = v;
    for (int c = v + 1; c < nn; c++)
        if (nd[c].parent == v) k = preorder(nd, nn, c, out, k);
    return k;
}

static void draw_tree(lesson_t *L, const pat_t *p, const node_t *nd, int nn, int curn)
{
    const node_t *c = &nd[curn];
    int order[MAX_NODES];
    sa_rows(L, p, c->lo, c->hi, -1, 0);
    tf_put(L, 2, TREE_X, ST_TITLE, "branch             rows     mism");
    int y = ROW_Y0, no = preorder(nd, nn, 0, order, 0);
    for (int o = 0; o < no; o++, y++) {
        int k = order[o];
        char q[TEACH_MAX_N + 1];
        int d = nd[k].depth;
        /* spell the branch: symbols from the suffix at the node's first row */
        tf_suffix(L, p->sa[nd[k].lo], q, d);
        if (k == 0) snprintf(q, sizeof q, "(empty)");
        const char *st = nd[k].state == 'x' ? " x too many" : nd[k].state == 'm' ? " MATCH" : "";
        tf_put(L, y, TREE_X, k == curn ? ST_HIT : nd[k].state == 'x' ? ST_DIM : ST_NORMAL, "%s%*s%-*s [%llu,%llu) %4llu%s",
               k == curn ? ">" : " ", d, "", 18 - d, q, (unsigned long long)nd[k].lo, (unsigned long long)nd[k].hi,
               (unsigned long long)nd[k].mism, st);
    }
}

/* The rows of [lo, hi) whose suffix has symbol c at depth d form one interval:
 * the next child (c in SA order) from row *r on. */
static int next_child(const lesson_t *L, const pat_t *p, uint64_t *r, uint64_t hi, int d, uint64_t *clo, uint64_t *chi,
                      uint8_t *c)
{
    const uint8_t *t = L->x->seq->text;
    uint64_t n = L->x->n;
    while (*r < hi && (p->sa[*r] + (uint64_t)d >= n || t[p->sa[*r] + d] == RV_BREAK)) (*r)++; /* ends or breaker */
    if (*r >= hi) return 0;
    *c = t[p->sa[*r] + d];
    *clo = *r;
    while (*r < hi && p->sa[*r] + (uint64_t)d < n && t[p->sa[*r] + d] == *c) (*r)++;
    *chi = *r;
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* The branching search with k mismatches: one frame per branch taken. */
static int branching(lesson_t *L, const pat_t *p, unsigned k, uint64_t **hits, size_t *nh)
{
    node_t *nd = malloc(MAX_NODES * sizeof *nd);
    int *stack = malloc(MAX_NODES * sizeof *stack), ns = 0, nn = 1;
    *hits = malloc(2 * (L->x->n + 1) * sizeof **hits);
    *nh = 0;
    if (!nd || !stack || !*hits) { free(nd); free(stack); return -1; }
    nd[0] = (node_t){0, -1, 0, L->x->n, 0, 0, 'e'};
    stack[ns++] = 0;
    while (ns > 0) {
        int v = stack[--ns];
        node_t *u = &nd[v];
        if ((uint64_t)u->depth == p->m) continue;
        int first = nn;
        uint64_t r = u->lo, clo, chi;
        uint8_t c;
        while (nn < MAX_NODES && next_child(L, p, &r, u->hi, u->depth, &clo, &chi, &c)) {
            uint64_t mm = u->mism + (c != p->pc[u->depth]);
            char st = mm > k ? 'x' : (uint64_t)u->depth + 1 == p->m ? 'm' : 'o';
            nd[nn++] = (node_t){u->depth + 1, v, clo, chi, mm, c, st};
            if (st == 'm')
                for (uint64_t q = clo; q < chi; q++) {
                    (*hits)[2 * *nh] = p->sa[q];
                    (*hits)[2 * *nh + 1] = mm;
                    (*nh)++;
                }
        }
        draw_tree(L, p, nd, nn, v);
        char q[TEACH_MAX_N + 1] = "";
        if (u->depth) tf_suffix(L, p->sa[u->lo], q, u->depth);
        tf_caption(L, "Rows [%llu,%llu) start with '%s' (%llu mismatches). Split them by their next symbol: each "
                      "symbol is a branch; one that differs from P's '%c' spends a mismatch, and a branch with more "
                      "than %u is cut (x). A breaker or the text's end stops a branch: it matches nothing.",
                   (unsigned long long)u->lo, (unsigned long long)u->hi, q, (unsigned long long)u->mism,
                   L->pattern[u->depth], k);
        for (int a = nn - 1; a >= first; a--) /* depth first, in SA order */
            if (nd[a].state == 'o') stack[ns++] = a;
    }
    qsort(*hits, *nh, 2 * sizeof **hits, cmp_u64);
    free(nd);
    free(stack);
    return 0;
}

/* The pattern when none is given: up to 3 symbols of the longest repeat. */
static void pick_pattern(lesson_t *L)
{
    const rv_index_t *x = L->x;
    uint64_t best = 0, at = 0;
    for (uint64_t r = 1; r < x->n; r++)
        if (rv_lcp(x, r) > best) best = rv_lcp(x, r), at = rv_sa(x, r);
    uint64_t len = best < 3 ? (best ? best : 1) : 3;
    tf_suffix(L, at, L->pattern, (int)len);
}

/* The engine's hits of P with k mismatches on the forward strand as (pos, mism). */
static int engine_hits(const lesson_t *L, unsigned k, uint64_t **out, size_t *n)
{
    rv_pattern_t *pt = rv_find_compile(L->x, L->pattern, strlen(L->pattern), RV_STRAND_FWD, k);
    if (!pt) return -1;
    int64_t c = rv_find_count(pt);
    rv_hit_t *h = malloc(((size_t)(c > 0 ? c : 0) + 1) * sizeof *h);
    *out = malloc(2 * ((size_t)(c > 0 ? c : 0) + 1) * sizeof **out);
    int64_t got = h && *out && c >= 0 ? rv_find_page(pt, 0, h, (size_t)c) : -1;
    for (int64_t i = 0; i < got; i++) (*out)[2 * i] = h[i].pos, (*out)[2 * i + 1] = h[i].mism;
    *n = got > 0 ? (size_t)got : 0;
    free(h);
    rv_find_free(pt);
    return got < 0 ? -1 : 0;
}

static void hit_list(lesson_t *L, const char *title, const uint64_t *h, size_t n, int with_mism)
{
    tf_line(L, ST_NORMAL, "%s", "");
    int y = tf_line(L, ST_TITLE, "%s:", title);
    char buf[TEACH_W + 1] = "";
    size_t k = 0;
    for (size_t i = 0; i < n && k + 16 < sizeof buf; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, with_mism ? " %llu(%llu)" : " %llu", (unsigned long long)h[2 * i],
                              (unsigned long long)h[2 * i + 1]);
    tf_put(L, y, (int)strlen(title) + 1, ST_MARK, "%s", n ? buf : " none");
}

int teach_search(lesson_t *L)
{
    const rv_index_t *x = L->x;
    if (L->o.pattern) {
        if (!*L->o.pattern) return snprintf(L->err, sizeof L->err, "empty --pattern"), -1;
        if (strlen(L->o.pattern) > TEACH_MAX_N)
            return snprintf(L->err, sizeof L->err, "--pattern: at most %d characters", TEACH_MAX_N), -1;
        snprintf(L->pattern, sizeof L->pattern, "%s", L->o.pattern);
    } else {
        pick_pattern(L);
    }
    uint64_t m = strlen(L->pattern);
    uint8_t pc[TEACH_MAX_N];
    for (uint64_t d = 0; d < m; d++)
        if ((pc[d] = rv_alpha_code(x->seq->alpha, (unsigned char)L->pattern[d])) == RV_BREAK)
            return snprintf(L->err, sizeof L->err, "--pattern: '%c' is a breaker in the %s alphabet: it matches nothing",
                            L->pattern[d], rv_alpha_name(x->seq->alpha)), -1;
    pat_t p = {pc, m, malloc(x->n * sizeof(uint64_t))};
    uint64_t *exact = NULL, *mm = NULL, *e0 = NULL, *ek = NULL;
    size_t n0 = 0, nk = 0, ne0 = 0, nek = 0;
    int rc = -1;
    if (!p.sa) goto out;
    for (uint64_t r = 0; r < x->n; r++) p.sa[r] = rv_sa(x, r);
    sa_rows(L, &p, 0, x->n, -1, 0);
    tf_caption(L, "Find P = '%s' in the suffix array. Every occurrence of P starts a suffix that begins with P, and "
                  "those suffixes are neighbours in the SA: two binary searches find the first and the last.",
               L->pattern);
    uint64_t lo = bsearch_rows(L, &p, 0, 0);
    uint64_t hi = bsearch_rows(L, &p, 1, lo);
    sa_rows(L, &p, lo, hi, -1, 0);
    exact = malloc(2 * (hi - lo + 1) * sizeof *exact);
    if (!exact) goto out;
    for (uint64_t r = lo; r < hi; r++) exact[2 * n0] = p.sa[r], exact[2 * n0 + 1] = 0, n0++;
    qsort(exact, n0, 2 * sizeof *exact, cmp_u64);
    hit_list(L, "exact matches at", exact, n0, 0);
    tf_caption(L, "Rows [%llu,%llu): %llu exact match%s of '%s', found with about 2 log2(n) comparisons of P. "
                  "Next: up to %u mismatch%s.",
               (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)n0, n0 == 1 ? "" : "es",
               L->pattern, L->o.k, L->o.k == 1 ? "" : "es");
    if (branching(L, &p, L->o.k, &mm, &nk) < 0) goto out;
    if (engine_hits(L, 0, &e0, &ne0) < 0 || engine_hits(L, L->o.k, &ek, &nek) < 0) {
        snprintf(L->err, sizeof L->err, "%s", rv_last_error());
        goto out;
    }
    tf_new(L);
    tf_line(L, ST_TITLE, "pattern P = %s", L->pattern);
    hit_list(L, "exact matches at", exact, n0, 0);
    char title[64];
    snprintf(title, sizeof title, "with <= %u mismatches, at (mism)", L->o.k);
    hit_list(L, title, mm, nk, 1);
    uint64_t *e = malloc((n0 + 1) * sizeof *e);
    if (!e) goto out;
    for (size_t i = 0; i < n0; i++) e[i] = exact[2 * i];
    if (tf_answer(L, 0, e, n0) < 0 || tf_answer(L, 1, mm, 2 * nk) < 0) { free(e); goto out; }
    free(e);
    L->agrees = ne0 == n0 && nek == nk;
    for (size_t i = 0; L->agrees && i < n0; i++) L->agrees = e0[2 * i] == exact[2 * i];
    for (size_t i = 0; L->agrees && i < 2 * nk; i++) L->agrees = ek[i] == mm[i];
    tf_caption(L, "Positions in the text, in order: %zu exact, %zu with at most %u mismatch%s (their count in "
                  "brackets).", n0, nk, L->o.k, L->o.k == 1 ? "" : "es");
    tf_verdict(L, "repview find, forward strand");
    rc = 0;
out:
    free(p.sa);
    free(exact);
    free(mm);
    free(e0);
    free(ek);
    return rc;
}
