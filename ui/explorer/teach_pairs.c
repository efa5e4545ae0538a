/* teach_pairs.c — lesson `pairs`: maximal pairs from the LCP intervals of the
 * suffix array (Abouelhoda, Kurtz & Ohlebusch; Gusfield §7.12; engine/query/pairs_tree.c).
 * An l-interval is a run of rows whose suffixes share l symbols, with the LCP
 * dropping below l at both ends; its child intervals are cut where the LCP is
 * exactly l.  Two suffixes from different children share exactly l symbols, so
 * their copies cannot grow to the right; they form a maximal pair when they cannot
 * grow to the left either: different characters before them, or one of them at the
 * text start or after a breaker (which matches nothing).  The intervals come from
 * one left-to-right pass with a stack, children before parents.  The last frame
 * must be the engine's `pairs`. */
#include <stdlib.h>
#include <string.h>
#include "repview/pairs.h"
#include "teach_frame.h"

typedef struct { uint64_t lb, rb, l; } ival_t;

static uint64_t lcp_at(const rv_index_t *x, uint64_t r) { return r < x->n ? rv_lcp(x, r) : 0; }

/* Every l-interval with l > 0, children before parents (the stack pass). */
static size_t intervals(const rv_index_t *x, ival_t *out)
{
    uint64_t st_l[TEACH_MAX_N + 2], st_lb[TEACH_MAX_N + 2];
    int top = 0;
    size_t k = 0;
    st_l[0] = 0;
    st_lb[0] = 0;
    for (uint64_t r = 1; r <= x->n; r++) {
        uint64_t l = lcp_at(x, r), lb = r - 1;
        while (l < st_l[top]) {
            out[k++] = (ival_t){st_lb[top], r - 1, st_l[top]};
            lb = st_lb[top--];
        }
        if (l > st_l[top]) { st_l[++top] = l; st_lb[top] = lb; }
    }
    return k;
}

/* The character before text position p, or -1 at the start or after a breaker. */
static int left_of(const rv_index_t *x, uint64_t p)
{
    return p == 0 || x->seq->text[p - 1] == RV_BREAK ? -1 : x->seq->text[p - 1];
}

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t *u = a, *v = b;
    for (int i = 0; i < 2; i++)
        if (u[i] != v[i]) return u[i] < v[i] ? -1 : 1;
    return 0;
}

typedef struct { uint64_t *v; size_t n, cap; } list_t;

static int on_pair(void *ud, const rv_pair_t *p)
{
    list_t *l = ud;
    if (l->n + 3 > l->cap) return 1;
    l->v[l->n++] = p->p1;
    l->v[l->n++] = p->p2;
    l->v[l->n++] = p->len;
    return 0;
}

static void draw_interval(lesson_t *L, const ival_t *iv, const uint64_t *found, size_t nf, size_t first_new)
{
    const rv_index_t *x = L->x;
    tf_new(L);
    tf_line(L, ST_TITLE, "  row  SA  LCP  left child  suffix");
    int child = 0;
    for (uint64_t r = 0; r < x->n; r++) {
        int in = iv && r >= iv->lb && r <= iv->rb;
        if (in && r > iv->lb && rv_lcp(x, r) == iv->l) child++;
        char suf[TEACH_MAX_N + 1], left[4] = "-";
        uint64_t p = rv_sa(x, r);
        tf_suffix(L, p, suf, TEACH_MAX_N);
        if (left_of(x, p) >= 0) snprintf(left, sizeof left, "%c", tf_sym(L, p - 1));
        char ch[4] = "";
        if (in) snprintf(ch, sizeof ch, "%c", 'a' + child);
        int y = tf_line(L, in ? ST_NORMAL : ST_DIM, "%s%4llu %3llu %4llu  %4s %5s  %s", in ? "|" : " ",
                        (unsigned long long)r, (unsigned long long)p, (unsigned long long)rv_lcp(x, r), left, ch, suf);
        if (in) tf_style(L, y, 28, (int)iv->l, ST_SHARED);
    }
    tf_line(L, ST_NORMAL, "%s", "");
    tf_line(L, ST_TITLE, "maximal pairs (p1, p2, length)%s:", first_new < nf ? ", * new" : "");
    char buf[TEACH_W + 1];
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < nf; i++) {
        char one[48];
        int w = snprintf(one, sizeof one, " (%llu,%llu,%llu)%s", (unsigned long long)found[3 * i],
                         (unsigned long long)found[3 * i + 1], (unsigned long long)found[3 * i + 2],
                         i >= first_new ? "*" : "");
        if (k + (size_t)w > 90) { /* a new line */
            tf_line(L, ST_NORMAL, "%s", buf);
            k = 0;
            buf[0] = 0;
        }
        memcpy(buf + k, one, (size_t)w + 1);
        k += (size_t)w;
    }
    if (nf == 0) snprintf(buf, sizeof buf, " none yet");
    tf_line(L, ST_MARK, "%s", buf);
}

int teach_pairs(lesson_t *L)
{
    const rv_index_t *x = L->x;
    const uint64_t n = x->n, min = L->o.min_len;
    ival_t iv[TEACH_MAX_N + 1];
    size_t niv = intervals(x, iv), cap = 3 * n * n + 3, nf = 0;
    uint64_t *found = calloc(cap, sizeof *found);
    list_t eng = {malloc(cap * sizeof(uint64_t)), 0, cap};
    int rc = -1;
    if (!found || !eng.v) goto out;
    size_t skipped = 0;
    for (size_t k = 0; k < niv; k++) skipped += iv[k].l < min;
    draw_interval(L, NULL, found, 0, 0);
    tf_caption(L, "Maximal pairs of length >= %llu. In the suffix array the suffixes that share a prefix of length l "
                  "are neighbours: an l-interval (the LCP is >= l inside, < l at both ends). %zu interval%s, "
                  "visited children first.%s",
               (unsigned long long)min, niv, niv == 1 ? "" : "s",
               skipped ? " Those with l below the minimum length are left out." : "");
    for (size_t k = 0; k < niv; k++) {
        if (iv[k].l < min) continue;
        size_t before = nf, refused = 0;
        for (uint64_t a = iv[k].lb; a <= iv[k].rb; a++)
            for (uint64_t b = a + 1; b <= iv[k].rb; b++) {
                uint64_t lo = UINT64_MAX;
                for (uint64_t r = a + 1; r <= b; r++) lo = rv_lcp(x, r) < lo ? rv_lcp(x, r) : lo;
                if (lo != iv[k].l) continue; /* same child: they share more */
                uint64_t p = rv_sa(x, a), q = rv_sa(x, b);
                int la = left_of(x, p), lq = left_of(x, q);
                if (la >= 0 && la == lq) { refused++; continue; }
                found[3 * nf] = p < q ? p : q;
                found[3 * nf + 1] = p < q ? q : p;
                found[3 * nf + 2] = iv[k].l;
                nf++;
            }
        draw_interval(L, &iv[k], found, nf, before);
        char pre[TEACH_MAX_N + 1];
        tf_suffix(L, rv_sa(x, iv[k].lb), pre, (int)iv[k].l);
        tf_caption(L, "Rows %llu-%llu (|) share '%s' (l=%llu); the children a, b, ... start where the LCP is exactly "
                      "%llu, so two suffixes from different children cannot grow to the right. Left test: %zu new "
                      "pair%s where the characters before differ (or one is '-': the start or a breaker)%s.",
                   (unsigned long long)iv[k].lb, (unsigned long long)iv[k].rb, pre, (unsigned long long)iv[k].l,
                   (unsigned long long)iv[k].l, nf - before, nf - before == 1 ? "" : "s",
                   refused ? ", the others could grow left" : "");
    }
    qsort(found, nf, 3 * sizeof *found, cmp_pair);
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, min);
    o.threads = 1;
    if (rv_pairs_each(x, &o, on_pair, &eng) != 0) goto out;
    draw_interval(L, NULL, found, nf, nf);
    if (tf_answer(L, 0, found, 3 * nf) < 0) goto out;
    L->agrees = eng.n == 3 * nf && (nf == 0 || memcmp(eng.v, found, 3 * nf * sizeof *found) == 0);
    tf_caption(L, "All %zu maximal pairs of length >= %llu, in (p1, p2) order.", nf, (unsigned long long)min);
    tf_verdict(L, "repview pairs");
    rc = 0;
out:
    free(found);
    free(eng.v);
    return rc;
}
