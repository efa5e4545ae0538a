/* t_strands.c — indexes of both strands (seq.h rv_seq_add_reverse, build.h
 * strands = 2) against brute-force oracles that never look at the doubled text.
 *
 * The oracle works on the records as written: it collapses breaker runs and record
 * ends into the forward text S itself (and checks the index holds exactly that),
 * then compares characters of S directly:
 *   - direct maximal pairs (repview-pairs(1)) and inverted maximal pairs <p1 <= p2, len>:
 *     S[p2, p2+len) == revcomp(S[p1, p1+len)), extending at neither end
 *     (S[p1-1] vs comp(S[p2+len]), S[p1+len] vs comp(S[p2-1])), self-palindromes
 *     included; every filter, every strand choice, counts and cursor pages;
 *   - longest repeats counting occurrences on both strands, the strands of a
 *     repeat's other copies, and the forward-only LLR;
 *   - the forward view (rv_index_forward) against a one-strand build;
 *   - the .rvx round trip of a both-strand index.
 * Inputs: lengths 1..60, alphabets {A}, {A,C}, {A,C,G,T}, N runs and other
 * breakers, periodic, all-same, planted inverted repeats, 1..3 records. */
#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lr.h"
#include "repview/pairs.h"
#include "repview/seq.h"

#define MAXRAW 60
#define MAXN 72 /* forward text: raw symbols plus record-end breakers */

/* ---- the oracle's own view of the input --------------------------------------- */

typedef struct {
    int nrec;
    char raw[3][MAXRAW + 1];
    uint64_t rlen[3], roff[3];
    int nf;
    uint8_t t[MAXN];    /* forward text, 0 = breaker */
    int64_t g[MAXN];    /* global position of text position (-1: breaker) */
    int rec[MAXN];      /* record of text position (-1: breaker) */
    int lf[MAXN + 1][MAXN + 1]; /* lf[i][j]: common extension of S[i..] and S[j..] */
    int lr[MAXN + 1][MAXN + 1]; /* lr[i][c]: longest h, S[i+k] == comp(S[c-k]) for k < h */
    int rep_f[MAXN];    /* longest prefix of S[i..] occurring forward elsewhere */
    int rep_b[MAXN];    /* longest prefix of S[i..] occurring twice on both strands */
} input_t;

static int code_of(unsigned char c)
{
    const char *p = strchr("ACGT", toupper(c));
    return c && p ? (int)(p - "ACGT") + 1 : 0;
}

static void input_finish(input_t *in)
{
    in->nf = 0;
    int pending = 0;
    uint64_t off = 0;
    for (int r = 0; r < in->nrec; r++) {
        in->roff[r] = off;
        in->rlen[r] = strlen(in->raw[r]);
        for (uint64_t i = 0; i < in->rlen[r]; i++) {
            int c = code_of((unsigned char)in->raw[r][i]);
            if (!c) { pending = in->nf > 0; continue; }
            if (pending) in->t[in->nf] = 0, in->g[in->nf] = -1, in->rec[in->nf] = -1, in->nf++;
            pending = 0;
            in->t[in->nf] = (uint8_t)c, in->g[in->nf] = (int64_t)(off + i), in->rec[in->nf] = r, in->nf++;
        }
        pending = in->nf > 0;
        off += in->rlen[r];
    }
    const int n = in->nf;
    for (int i = n; i >= 0; i--)
        for (int j = n; j >= 0; j--)
            in->lf[i][j] = i < n && j < n && in->t[i] && in->t[i] == in->t[j] ? 1 + in->lf[i + 1][j + 1] : 0;
    for (int i = n; i >= 0; i--)
        for (int c = 0; c <= n; c++)
            in->lr[i][c] = i < n && c < n && in->t[i] && in->t[c] && in->t[i] == 5 - in->t[c]
                               ? 1 + (c > 0 ? in->lr[i + 1][c - 1] : 0)
                               : 0;
    for (int i = 0; i < n; i++) {
        in->rep_f[i] = in->rep_b[i] = 0;
        for (int j = 0; j < n; j++) {
            if (j != i && in->lf[i][j] > in->rep_f[i]) in->rep_f[i] = in->lf[i][j];
            if (in->lr[i][j] > in->rep_b[i]) in->rep_b[i] = in->lr[i][j];
        }
        if (in->rep_f[i] > in->rep_b[i]) in->rep_b[i] = in->rep_f[i];
    }
}

/* ---- random inputs ------------------------------------------------------------ */

enum { K_A, K_AC, K_ACGT, K_BREAK, K_PERIODIC, K_SAME, K_INVERTED, K_COUNT };
static const char *const kind_name[] = {"A", "AC", "ACGT", "breakers", "periodic", "same", "inverted"};

static char comp_letter(char c)
{
    switch (toupper(c)) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    default: return c;
    }
}

static void random_record(rng_t *r, int kind, char *b, int len)
{
    char motif[8];
    int p = 1 + (int)rng_below(r, 6);
    for (int i = 0; i < p; i++) motif[i] = "ACGT"[rng_below(r, 4)];
    if (rng_below(r, 3) == 0) /* a palindromic motif (ACGT, AT, GAATTC-like) */
        for (int i = 0; i < p / 2; i++) motif[p - 1 - i] = comp_letter(motif[i]);
    char same = "ACGT"[rng_below(r, 4)];
    for (int i = 0; i < len; i++) {
        switch (kind) {
        case K_A: b[i] = "Aa"[rng_below(r, 2)]; break;
        case K_AC: b[i] = "AC"[rng_below(r, 2)]; break;
        case K_ACGT: b[i] = "ACGTACGTacgt"[rng_below(r, 12)]; break;
        case K_BREAK:
            b[i] = "ACGTACGTacgtNNR-"[rng_below(r, 16)];
            if (b[i] == 'N')
                for (int k = (int)rng_below(r, 4); k > 0 && i + 1 < len; k--) b[++i] = 'N';
            break;
        case K_PERIODIC:
            b[i] = motif[i % p];
            if (rng_below(r, 25) == 0) b[i] = "ACGTN"[rng_below(r, 5)];
            break;
        case K_SAME: b[i] = rng_below(r, 30) ? same : 'N'; break;
        default: /* chunks: random, or the reverse complement of an earlier stretch */
            if (i > 2 && rng_below(r, 3) == 0) {
                int from = (int)rng_below(r, (uint64_t)i), l = 1 + (int)rng_below(r, (uint64_t)(i - from));
                for (int k = 0; k < l && i < len; k++, i++) b[i] = comp_letter(b[from + l - 1 - k]);
                i--;
            } else {
                b[i] = "ACGTN"[rng_below(r, 20) ? rng_below(r, 4) : 4];
            }
        }
    }
    b[len] = 0;
}

static void random_input(rng_t *r, int kind, input_t *in)
{
    int total = 1 + (int)rng_below(r, MAXRAW);
    in->nrec = 1 + (int)rng_below(r, 3);
    if (in->nrec > total) in->nrec = total;
    int left = total;
    for (int k = 0; k < in->nrec; k++) {
        int len = k + 1 == in->nrec ? left : 1 + (int)rng_below(r, (uint64_t)(left - (in->nrec - k - 1)));
        random_record(r, kind, in->raw[k], len);
        left -= len;
    }
    input_finish(in);
}

static rv_seq_t *seq_of(const input_t *in)
{
    const char *names[3] = {"r1", "r2", "r3"}, *seqs[3];
    for (int k = 0; k < in->nrec; k++) seqs[k] = in->raw[k];
    return rv_seq_from_records(names, seqs, in->nrec, RV_ALPHA_DNA);
}

static rv_index_t *build(const input_t *in, int strands, int wide, int threads, int with_llr)
{
    rv_seq_t *s = seq_of(in);
    if (!s) return NULL;
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.strands = strands; /* backend: REPVIEW_DEVICE=gpu runs every build on the GPU */
    o.force_wide = wide;
    o.threads = threads;
    o.with_llr = with_llr;
    rv_index_t *x = rv_build(s, &o, NULL);
    const char *dev = getenv("REPVIEW_DEVICE");
    if (x && dev && !strcmp(dev, "gpu"))
        CHECK(!strncmp(x->backend, "GPU", 3) && !x->note[0], "REPVIEW_DEVICE=gpu built on %s (%s)", x->backend,
              x->note);
    return x;
}

static void describe(const input_t *in, char *buf, size_t len)
{
    size_t k = 0;
    for (int r = 0; r < in->nrec && k + 2 < len; r++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", r ? "|" : "", in->raw[r]);
}

/* The index holds the forward text the oracle made, then one breaker, then its
 * reverse complement; the text maps back to the records' coordinates. */
static void check_text(const rv_index_t *x, const input_t *in, const char *what)
{
    const rv_seq_t *s = x->seq;
    uint64_t nf = (uint64_t)in->nf;
    CHECK(s->strands == 2 && s->nf == nf && s->n == (nf ? 2 * nf + 1 : 0) && x->n == s->n,
          "%s: strands %d nf %llu n %llu, want nf %llu", what, s->strands, (unsigned long long)s->nf,
          (unsigned long long)s->n, (unsigned long long)nf);
    CHECK(rv_seq_fwd_len(s) == nf, "%s: rv_seq_fwd_len", what);
    if (check_failed_) return;
    for (uint64_t i = 0; i < nf; i++) {
        CHECK(s->text[i] == in->t[i], "%s: text[%llu] %d want %d", what, (unsigned long long)i, s->text[i],
              in->t[i]);
        uint8_t c = in->t[nf - 1 - i];
        CHECK(s->text[nf + 1 + i] == (c ? 5 - c : 0), "%s: reverse text[%llu]", what, (unsigned long long)i);
        if (in->t[i])
            CHECK(rv_seq_text_to_global(s, i) == (uint64_t)in->g[i], "%s: global of %llu", what,
                  (unsigned long long)i);
    }
    CHECK(!nf || s->text[nf] == RV_BREAK, "%s: no breaker between the strands", what);
}

/* ---- pairs ------------------------------------------------------------------ */

#include "pairs_list.h"

static int pair_order(const void *va, const void *vb)
{
    const rv_pair_t *a = va, *b = vb;
    if (a->p1 != b->p1) return a->p1 < b->p1 ? -1 : 1;
    if (a->p2 != b->p2) return a->p2 < b->p2 ? -1 : 1;
    return a->inverted - b->inverted;
}

/* The documented order (p1, p2, direct first) leaves the inverted pairs with the
 * same p1 and p2 (two palindromes around different centres) unordered: the
 * oracle orders them by length, and so does canonical() for the engine's list
 * once the documented order is checked. */
static int pair_order_full(const void *va, const void *vb)
{
    const rv_pair_t *a = va, *b = vb;
    int c = pair_order(va, vb);
    return c ? c : a->len < b->len ? -1 : a->len > b->len;
}

static int pair_order_len(const void *va, const void *vb)
{
    const rv_pair_t *a = va, *b = vb;
    if (a->len != b->len) return a->len > b->len ? -1 : 1;
    return pair_order(va, vb);
}

static int is_brk(const input_t *in, int i) { return i < 0 || i >= in->nf || in->t[i] == 0; }

/* Every maximal pair of S, min_len 1, no filter, in (p1, p2, direct first) order. */
static plist_t oracle_pairs(const input_t *in)
{
    plist_t l = {0};
    const int n = in->nf;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int h = in->lf[i][j];
            if (h && (is_brk(in, i - 1) || is_brk(in, j - 1) || in->t[i - 1] != in->t[j - 1]))
                plist_add(&l, (rv_pair_t){(uint64_t)i, (uint64_t)j, (uint64_t)h, 0});
        }
    /* inverted: copy 1 starts at a, copy 2 ends at c (inclusive); h = lr[a][c] is
     * the right-maximal length; left-maximal: S[a-1] vs comp(S[c+1]) */
    for (int a = 0; a < n; a++)
        for (int c = 0; c < n; c++) {
            int h = in->lr[a][c], p2 = c - h + 1;
            if (!h || p2 < a) continue;
            if (is_brk(in, a - 1) || is_brk(in, c + 1) || in->t[a - 1] != 5 - in->t[c + 1])
                plist_add(&l, (rv_pair_t){(uint64_t)a, (uint64_t)p2, (uint64_t)h, 1});
        }
    if (l.n) qsort(l.a, l.n, sizeof *l.a, pair_order_full);
    return l;
}

/* The same set straight from the definition (every p1, p2, len): checks the oracle
 * itself on short inputs. */
static plist_t naive_pairs(const input_t *in)
{
    plist_t l = {0};
    const int n = in->nf;
    const uint8_t *t = in->t;
    for (int p1 = 0; p1 < n; p1++)
        for (int p2 = p1; p2 < n; p2++)
            for (int len = 1; p1 + len <= n && p2 + len <= n; len++) {
                int dir = p1 < p2, inv = 1, k;
                for (k = 0; k < len; k++) {
                    if (!t[p1 + k] || !t[p2 + k]) dir = inv = 0;
                    if (t[p1 + k] != t[p2 + k]) dir = 0;
                    if (t[p2 + k] != 5 - t[p1 + len - 1 - k]) inv = 0;
                }
                if (dir) {
                    int left = is_brk(in, p1 - 1) || is_brk(in, p2 - 1) || t[p1 - 1] != t[p2 - 1];
                    int right = is_brk(in, p1 + len) || is_brk(in, p2 + len) || t[p1 + len] != t[p2 + len];
                    if (left && right) plist_add(&l, (rv_pair_t){(uint64_t)p1, (uint64_t)p2, (uint64_t)len, 0});
                }
                if (inv) {
                    int left = is_brk(in, p1 - 1) || is_brk(in, p2 + len) || t[p1 - 1] != 5 - t[p2 + len];
                    int right = is_brk(in, p1 + len) || is_brk(in, p2 - 1) || t[p1 + len] != 5 - t[p2 - 1];
                    if (left && right) plist_add(&l, (rv_pair_t){(uint64_t)p1, (uint64_t)p2, (uint64_t)len, 1});
                }
            }
    if (l.n) qsort(l.a, l.n, sizeof *l.a, pair_order_full);
    return l;
}

static int pair_pass(const input_t *in, const rv_pairs_opts_t *o, const rv_pair_t *p)
{
    if (p->len < o->min_len) return 0;
    if (o->strands == 1 && p->inverted) return 0;
    if (o->strands == -1 && !p->inverted) return 0;
    int64_t g1 = in->g[p->p1], g2 = in->g[p->p2], len = (int64_t)p->len;
    if (o->use_within && (g1 < (int64_t)o->within_beg || g1 + len > (int64_t)o->within_end ||
                          g2 < (int64_t)o->within_beg || g2 + len > (int64_t)o->within_end))
        return 0;
    if (o->use_min_gap || o->use_max_gap) {
        if (in->rec[p->p1] != in->rec[p->p2]) return 0;
        int64_t gap = g2 - (g1 + len);
        if (o->use_min_gap && gap < o->min_gap) return 0;
        if (o->use_max_gap && gap > o->max_gap) return 0;
    }
    return 1;
}

static plist_t filtered(const input_t *in, const plist_t *all, const rv_pairs_opts_t *o)
{
    plist_t l = {0};
    for (size_t i = 0; i < all->n; i++)
        if (pair_pass(in, o, &all->a[i])) plist_add(&l, all->a[i]);
    return l;
}

/* 0 when l is out of the documented order (why says where); else sorts each run of
 * equal (p1, p2, inverted) by length and returns 1. */
static int canonical(plist_t *l, char *why, size_t whylen)
{
    for (size_t i = 1; i < l->n; i++)
        if (pair_order(&l->a[i - 1], &l->a[i]) > 0) {
            snprintf(why, whylen, "#%zu <%llu,%llu,%llu,%d> comes before #%zu <%llu,%llu,%llu,%d>", i - 1,
                     (unsigned long long)l->a[i - 1].p1, (unsigned long long)l->a[i - 1].p2,
                     (unsigned long long)l->a[i - 1].len, l->a[i - 1].inverted, i, (unsigned long long)l->a[i].p1,
                     (unsigned long long)l->a[i].p2, (unsigned long long)l->a[i].len, l->a[i].inverted);
            return 0;
        }
    if (l->n) qsort(l->a, l->n, sizeof *l->a, pair_order_full);
    return 1;
}

static int same_list(const plist_t *a, const plist_t *b, char *why, size_t whylen)
{
    for (size_t i = 0; i < a->n || i < b->n; i++) {
        const rv_pair_t *p = i < a->n ? &a->a[i] : NULL, *q = i < b->n ? &b->a[i] : NULL;
        if (p && q && p->p1 == q->p1 && p->p2 == q->p2 && p->len == q->len && !p->inverted == !q->inverted)
            continue;
        snprintf(why, whylen, "#%zu of %zu/%zu: got <%lld,%lld,%lld,%s> want <%lld,%lld,%lld,%s>", i, a->n,
                 b->n, p ? (long long)p->p1 : -1, p ? (long long)p->p2 : -1, p ? (long long)p->len : -1,
                 p ? (p->inverted ? "inv" : "dir") : "-", q ? (long long)q->p1 : -1, q ? (long long)q->p2 : -1,
                 q ? (long long)q->len : -1, q ? (q->inverted ? "inv" : "dir") : "-");
        return 0;
    }
    return 1;
}

/* Random filters: bit 0 min gap, 1 max gap, 2 within. */
static void random_filters(rng_t *r, const input_t *in, int combo, rv_pairs_opts_t *o)
{
    static const int strands[] = {0, 1, -1, 2};
    o->min_len = 1 + rng_below(r, 4);
    o->strands = strands[rng_below(r, 4)];
    if (combo & 1) o->use_min_gap = 1, o->min_gap = (int64_t)rng_below(r, 20) - 12;
    if (combo & 2) o->use_max_gap = 1, o->max_gap = (int64_t)rng_below(r, 30) - 8;
    if (combo & 4) {
        int rid = (int)rng_below(r, (uint64_t)in->nrec);
        uint64_t len = in->rlen[rid], b = rng_below(r, len + 1), e = b + rng_below(r, len - b + 1);
        o->use_within = 1;
        o->within_beg = in->roff[rid] + b;
        o->within_end = in->roff[rid] + e;
    }
}

static const char *strands_name(int s) { return s == 1 ? "+" : s == -1 ? "-" : s == 2 ? "both" : "0"; }

/* (a) rv_pairs_each / rv_pairs_count on the both-strand index. */
static void check_pairs(const rv_index_t *x, const input_t *in, const plist_t *all, rng_t *r, const char *what)
{
    char why[256];
    for (int combo = 0; combo < 8 && !check_failed_; combo++) {
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1);
        random_filters(r, in, combo, &o);
        o.threads = rng_below(r, 3) ? 1 : 2 + (int)rng_below(r, 2);
        o.grain = 1 + rng_below(r, 8);
        o.mem_bytes = rng_below(r, 2) ? 1 : 0; /* 1 byte: spill to files and merge */
        plist_t want = filtered(in, all, &o), got = {0};
        CHECK(rv_pairs_each(x, &o, collect, &got) == 0, "%s: each: %s", what, rv_last_error());
        CHECK(canonical(&got, why, sizeof why) && same_list(&got, &want, why, sizeof why),
              "%s: strands %s combo %d min %llu: %s", what,
              strands_name(o.strands), combo, (unsigned long long)o.min_len, why);
        uint64_t cnt = 0;
        CHECK(rv_pairs_count(x, &o, &cnt) == 0 && cnt == want.n, "%s: count %llu want %zu (strands %s combo %d)",
              what, (unsigned long long)cnt, want.n, strands_name(o.strands), combo);
        free(want.a);
        free(got.a);
    }
}

/* (a) rv_pairs_covering for every forward position (and page order). */
static void check_covering(const rv_index_t *x, const input_t *in, const plist_t *all, rng_t *r,
                           const char *what)
{
    char why[256];
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, 1);
    random_filters(r, in, (int)rng_below(r, 8), &o);
    o.longest_first = (int)rng_below(r, 2);
    plist_t pass = filtered(in, all, &o);
    for (uint64_t pos = 0; pos < (uint64_t)in->nf && !check_failed_; pos++) {
        plist_t want = {0};
        for (size_t i = 0; i < pass.n; i++) {
            const rv_pair_t *p = &pass.a[i];
            if ((p->p1 <= pos && pos < p->p1 + p->len) || (p->p2 <= pos && pos < p->p2 + p->len))
                plist_add(&want, *p);
        }
        if (o.longest_first && want.n) qsort(want.a, want.n, sizeof *want.a, pair_order_len);
        rv_pairs_page_t pg;
        CHECK(rv_pairs_covering(x, &o, pos, RV_PAIRS_ALL, 0, &pg) == 0, "%s: %s", what, rv_last_error());
        plist_t got = {pg.pairs, pg.n, pg.n};
        CHECK(pg.complete && pg.total == want.n, "%s: covering %llu (strands %s): total %llu want %zu", what,
              (unsigned long long)pos, strands_name(o.strands), (unsigned long long)pg.total, want.n);
        CHECK((o.longest_first || canonical(&got, why, sizeof why)) && same_list(&got, &want, why, sizeof why),
              "%s: covering %llu (strands %s min %llu%s%s%s%s): %s",
              what, (unsigned long long)pos, strands_name(o.strands), (unsigned long long)o.min_len,
              o.use_within ? " within" : "", o.use_min_gap ? " min-gap" : "", o.use_max_gap ? " max-gap" : "",
              o.longest_first ? " longest" : "", why);
        rv_pairs_page_free(&pg);
        size_t page = 1 + rng_below(r, 3);
        CHECK(rv_pairs_covering(x, &o, pos, page, 0, &pg) == 0, "%s", rv_last_error());
        /* the first `page` in page order; without longest_first, pairs tied in
         * (p1, p2, inverted) may stand in for each other at the page's end */
        size_t hn = want.n < page ? want.n : page;
        int page_ok = pg.total == want.n && pg.n == hn;
        for (size_t i = 0; i < hn && page_ok; i++) {
            const rv_pair_t *g = &pg.pairs[i];
            page_ok = o.longest_first ? !pair_order_len(g, &want.a[i]) : !pair_order(g, &want.a[i]);
            size_t k = 0;
            while (k < want.n && pair_order_full(&want.a[k], g)) k++;
            page_ok &= k < want.n;
        }
        CHECK(page_ok, "%s: covering %llu page %zu: %zu pairs of %llu", what, (unsigned long long)pos, page, pg.n,
              (unsigned long long)pg.total);
        rv_pairs_page_free(&pg);
        free(want.a);
    }
    free(pass.a);
}

/* ---- longest repeats -------------------------------------------------------- */

/* LRs of forward position k counting both strands (or forward only), by start. */
static int oracle_lr(const input_t *in, int k, int both, rv_lr_t *out)
{
    const int *rep = both ? in->rep_b : in->rep_f;
    int best = 0, cnt = 0;
    if (!in->t[k]) return 0;
    for (int i = 0; i <= k; i++)
        if (i + rep[i] > k && rep[i] > best) best = rep[i];
    if (!best) return 0;
    for (int i = 0; i <= k; i++)
        if (i + best > k && rep[i] >= best) out[cnt++] = (rv_lr_t){(uint64_t)i, (uint64_t)best};
    return cnt;
}

static int lr_at_matches(const rv_index_t *x, const input_t *in, int both, const char *what)
{
    rv_lr_t got[MAXN], want[MAXN];
    for (int k = 0; k < in->nf; k++) {
        uint64_t c = rv_lr_at(x, (uint64_t)k, got, MAXN);
        int wc = oracle_lr(in, k, both, want);
        CHECK(c == (uint64_t)wc, "%s: rv_lr_at(%d) gives %llu LRs, want %d (len %llu vs %llu)", what, k,
              (unsigned long long)c, wc, c ? (unsigned long long)got[0].len : 0ull,
              wc ? (unsigned long long)want[0].len : 0ull);
        for (int i = 0; i < wc && c == (uint64_t)wc; i++)
            CHECK(got[i].start == want[i].start && got[i].len == want[i].len,
                  "%s: rv_lr_at(%d)[%d] = (%llu,%llu), want (%llu,%llu)", what, k, i,
                  (unsigned long long)got[i].start, (unsigned long long)got[i].len,
                  (unsigned long long)want[i].start, (unsigned long long)want[i].len);
        if (check_failed_) return 0;
    }
    return 1;
}

typedef struct {
    rv_lr_hit_t h[MAXN * MAXN];
    size_t n;
} hits_t;

static int collect_hits(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    hits_t *c = ctx;
    for (size_t i = 0; i < n && c->n < MAXN * MAXN; i++) c->h[c->n++] = h[i];
    return 0;
}

/* (c) LRs, copy strands and the forward LLR on the both-strand index. */
static void check_lr(const rv_index_t *x, const input_t *in, int with_llr, const char *what)
{
    if (!lr_at_matches(x, in, 1, what)) return;
    const int n = in->nf;
    for (int i = 0; i < n && !check_failed_; i++) {
        uint64_t fl = rv_lr_forward_llr(x, (uint64_t)i);
        CHECK(fl == (uint64_t)(in->t[i] ? in->rep_f[i] : 0), "%s: rv_lr_forward_llr(%d) = %llu, want %d", what,
              i, (unsigned long long)fl, in->rep_f[i]);
        for (int len = 1; i + len <= n && !check_failed_; len++) {
            int want = 0;
            for (int j = 0; j < n; j++) {
                if (j != i && in->lf[i][j] >= len) want |= 1;
                if (in->lr[i][j] >= len) want |= 2;
            }
            int got = rv_lr_copy_strands(x, (uint64_t)i, (uint64_t)len);
            CHECK(got == want, "%s: rv_lr_copy_strands(%d, %d) = %d, want %d", what, i, len, got, want);
        }
    }
    if (!with_llr || check_failed_) return;
    /* the scans over the forward positions give the same LRs */
    static hits_t got;
    for (int m = RV_LR_RAW; m <= RV_LR_SWEEP && !check_failed_; m++) {
        got.n = 0;
        rv_lr_scan_opts_t so = {(rv_lr_method_t)m, 0, 1 + m % 2};
        CHECK(rv_lr_scan(x, 0, (uint64_t)n, &so, collect_hits, &got, NULL) == 0, "%s: scan: %s", what,
              rv_last_error());
        size_t h = 0;
        rv_lr_t want[MAXN];
        for (int k = 0; k < n && !check_failed_; k++) {
            int wc = oracle_lr(in, k, 1, want);
            for (int i = 0; i < wc && !check_failed_; i++, h++)
                CHECK(h < got.n && got.h[h].pos == (uint64_t)k && got.h[h].start == want[i].start &&
                          got.h[h].len == want[i].len,
                      "%s: scan method %d, hit %zu for position %d", what, m, h, k);
        }
        CHECK(h == got.n, "%s: scan method %d gives %zu hits, want %zu", what, m, got.n, h);
    }
}

/* ---- the forward view ------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t sa_equal_views, sa_differ_views;

/* (b) the forward view of a both-strand index against a one-strand build and the
 * oracle (SA, LCP by definition; pairs; LRs; cursor pages). */
static void check_forward(rv_index_t *f, const rv_index_t *one, const input_t *in, const plist_t *all, rng_t *r,
                          const char *what)
{
    const uint64_t n = (uint64_t)in->nf;
    char why[256];
    CHECK(f->n == n && one->n == n && f->seq->strands == 1 && f->seq->n == n && rv_seq_fwd_len(f->seq) == n,
          "%s: forward view n %llu strands %d, one-strand n %llu, want %llu", what, (unsigned long long)f->n,
          f->seq->strands, (unsigned long long)one->n, (unsigned long long)n);
    if (check_failed_) return;
    CHECK(memcmp(f->seq->text, one->seq->text, n) == 0, "%s: text", what);
    uint64_t *a = malloc((n + 1) * 8), *b = malloc((n + 1) * 8);
    int same_sa = 1;
    for (uint64_t k = 0; k < n; k++) {
        a[k] = rv_sa(f, k), b[k] = rv_sa(one, k);
        same_sa &= a[k] == b[k];
        CHECK(rv_isa(f, rv_sa(f, k)) == k, "%s: ISA[SA[%llu]]", what, (unsigned long long)k);
        /* LCP by definition, and the suffixes in order (a breaker ties) */
        if (k) {
            uint64_t p = rv_sa(f, k - 1), q = rv_sa(f, k), l = (uint64_t)in->lf[p][q];
            CHECK(rv_lcp(f, k) == l, "%s: view LCP[%llu] = %llu, want %llu", what, (unsigned long long)k,
                  (unsigned long long)rv_lcp(f, k), (unsigned long long)l);
            int cp = p + l < n ? in->t[p + l] : -1, cq = q + l < n ? in->t[q + l] : -1;
            CHECK(cp <= 0 || cq <= 0 || cp < cq, "%s: view suffixes %llu, %llu out of order", what,
                  (unsigned long long)p, (unsigned long long)q);
        } else {
            CHECK(rv_lcp(f, 0) == 0, "%s: view LCP[0]", what);
        }
    }
    /* without breakers every suffix order is fixed by the content (a suffix that is
     * a prefix of another comes first); with them, suffixes tied up to a breaker
     * may stand in either order (LCP stops there), so only the set must agree */
    int has_breaker = 0;
    for (uint64_t k = 0; k < n; k++) has_breaker |= in->t[k] == 0;
    CHECK(same_sa || has_breaker, "%s: view SA differs from the one-strand SA on a breaker-free text", what);
    same_sa ? sa_equal_views++ : sa_differ_views++;
    qsort(a, n, 8, cmp_u64);
    for (uint64_t k = 0; k < n; k++) CHECK(a[k] == k, "%s: view SA is no permutation", what);
    for (uint64_t k = 0; k < n; k++) a[k] = rv_lcp(f, k), b[k] = rv_lcp(one, k);
    qsort(a, n, 8, cmp_u64);
    qsort(b, n, 8, cmp_u64);
    CHECK(n == 0 || memcmp(a, b, n * 8) == 0, "%s: LCP multisets differ", what);
    free(a);
    free(b);
    if (check_failed_) return;
    /* pairs: one strand, view and oracle agree (strands 0 and 1: all direct) */
    for (int combo = 0; combo < 8 && !check_failed_; combo += 1 + (int)rng_below(r, 3)) {
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1);
        random_filters(r, in, combo, &o);
        o.strands = (int)rng_below(r, 2);
        o.threads = 1 + (int)rng_below(r, 2);
        o.grain = 1 + rng_below(r, 4);
        plist_t want = filtered(in, all, &(rv_pairs_opts_t){.min_len = o.min_len, .strands = 1,
                                                             .use_min_gap = o.use_min_gap, .min_gap = o.min_gap,
                                                             .use_max_gap = o.use_max_gap, .max_gap = o.max_gap,
                                                             .use_within = o.use_within,
                                                             .within_beg = o.within_beg,
                                                             .within_end = o.within_end});
        plist_t gf = {0}, go = {0};
        CHECK(rv_pairs_each(f, &o, collect, &gf) == 0 && rv_pairs_each(one, &o, collect, &go) == 0, "%s: each: %s",
              what, rv_last_error());
        CHECK(same_list(&gf, &want, why, sizeof why), "%s: view pairs combo %d: %s", what, combo, why);
        CHECK(same_list(&go, &want, why, sizeof why), "%s: one-strand pairs combo %d: %s", what, combo, why);
        uint64_t cnt = 0;
        CHECK(rv_pairs_count(f, &o, &cnt) == 0 && cnt == want.n, "%s: view count %llu want %zu", what,
              (unsigned long long)cnt, want.n);
        free(want.a), free(gf.a), free(go.a);
    }
    /* cursor pages: the view and the one-strand index */
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, 1 + rng_below(r, 3));
    for (uint64_t pos = 0; pos < n && !check_failed_; pos++) {
        rv_pairs_page_t pf, po;
        CHECK(rv_pairs_covering(f, &o, pos, RV_PAIRS_ALL, 0, &pf) == 0 &&
                  rv_pairs_covering(one, &o, pos, RV_PAIRS_ALL, 0, &po) == 0,
              "%s: covering: %s", what, rv_last_error());
        plist_t lf = {pf.pairs, pf.n, 0}, lo = {po.pairs, po.n, 0};
        CHECK(pf.total == po.total && same_list(&lf, &lo, why, sizeof why), "%s: view covering %llu: %s", what,
              (unsigned long long)pos, why);
        rv_pairs_page_free(&pf);
        rv_pairs_page_free(&po);
    }
    /* LRs: without sections, then with the arrays built on the view */
    char w2[400];
    snprintf(w2, sizeof w2, "%s (view)", what);
    if (!lr_at_matches(f, in, 0, w2) || !lr_at_matches(one, in, 0, what)) return;
    for (uint64_t i = 0; i < n; i++)
        CHECK(rv_lr_forward_llr(f, i) == (uint64_t)(in->t[i] ? in->rep_f[i] : 0) &&
                  rv_lr_forward_llr(one, i) == rv_lr_forward_llr(f, i),
              "%s: rv_lr_forward_llr(%llu) on the view", what, (unsigned long long)i);
    CHECK(rv_lr_build_arrays(f, 1 + (int)rng_below(r, 2), NULL) == 0, "%s: LR arrays on the view: %s", what,
          rv_last_error());
    snprintf(w2, sizeof w2, "%s (view with LLR)", what);
    lr_at_matches(f, in, 0, w2);
}

/* ---- the cases ----------------------------------------------------------------- */

static char tmpdir[200];

static void random_case(int kind, uint64_t seed)
{
    rng_t r = rng_new(seed);
    char name[64], what[300], desc[200];
    case_begin();
    int iters = check_iters(120);
    for (int it = 0; it < iters && !check_failed_; it++) {
        static input_t in;
        random_input(&r, kind, &in);
        if (in.nf == 0) continue; /* all breakers: fixed_edge_cases */
        describe(&in, desc, sizeof desc);
        int wide = (int)rng_below(&r, 2), threads = 1 + (int)rng_below(&r, 2), with_llr = it % 3 != 0;
        snprintf(what, sizeof what, "%s #%d \"%s\"%s%s", kind_name[kind], it, desc, wide ? " 64-bit" : "",
                 with_llr ? " llr" : "");
        plist_t all = oracle_pairs(&in);
        if (in.nf <= 24) {
            char why[256];
            plist_t nv = naive_pairs(&in);
            CHECK(same_list(&all, &nv, why, sizeof why), "%s: the oracle disagrees with the definition: %s", what,
                  why);
            free(nv.a);
        }
        rv_index_t *x = build(&in, 2, wide, threads, with_llr);
        CHECK(x != NULL, "%s: build: %s", what, rv_last_error());
        if (x) {
            check_text(x, &in, what);
            if (!check_failed_) check_pairs(x, &in, &all, &r, what);
            if (!check_failed_) check_covering(x, &in, &all, &r, what);
            if (!check_failed_) check_lr(x, &in, with_llr, what);
        }
        /* (d) round trip through a file, then (b) the forward view of the loaded or
         * the built index */
        rv_index_t *y = NULL;
        if (x && !check_failed_ && it % 4 == 0) {
            char path[300];
            snprintf(path, sizeof path, "%s/s%d.rvx", tmpdir, kind);
            CHECK(rv_index_save(x, path) == 0, "%s: save: %s", what, rv_last_error());
            CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK && y, "%s: load: %s", what, rv_last_error());
            unlink(path);
            if (y) {
                CHECK(y->seq->strands == 2 && y->seq->nf == (uint64_t)in.nf && y->n == x->n,
                      "%s: loaded strands %d nf %llu", what, y->seq->strands, (unsigned long long)y->seq->nf);
                CHECK(rv_index_verify(y, RV_SEC_ALL_MASK, 1) == 0, "%s: verify: %s", what, rv_last_error());
                if (!check_failed_) check_text(y, &in, what);
                if (!check_failed_) check_pairs(y, &in, &all, &r, what);
                if (!check_failed_) check_lr(y, &in, with_llr, what);
            }
        }
        if (x && !check_failed_) {
            rv_index_t *src = y ? y : x;
            if (y) rv_index_free(x);
            x = y = NULL;
            rv_index_t *f = rv_index_forward(src, threads);
            CHECK(f != NULL, "%s: forward view: %s", what, rv_last_error());
            rv_index_t *one = build(&in, 1, wide, threads, 0);
            CHECK(one != NULL, "%s: one-strand build: %s", what, rv_last_error());
            if (f && one) check_forward(f, one, &in, &all, &r, what);
            rv_index_free(one);
            rv_index_free(f);
        }
        rv_index_free(x);
        rv_index_free(y);
        free(all.a);
    }
    snprintf(name, sizeof name, "strands_oracle_%s", kind_name[kind]);
    case_end(name);
}

/* Hand-checked pairs: a palindrome pairs with itself; a breaker stops an inverted
 * pair; direct pairs as on one strand. */
static void fixed_pairs(void)
{
    static const struct {
        const char *s;
        int n;
        rv_pair_t want[8];
    } cases[] = {
        {"ACGT", 1, {{0, 0, 4, 1}}},
        {"AT", 1, {{0, 0, 2, 1}}},
        {"A", 0, {{0}}},
        {"AAAA", 3, {{0, 1, 3, 0}, {0, 2, 2, 0}, {0, 3, 1, 0}}},
        {"ACCA", 2, {{0, 3, 1, 0}, {1, 2, 1, 0}}},
        {"ACNGT", 1, {{0, 3, 2, 1}}},
    };
    case_begin();
    char why[256];
    for (size_t c = 0; c < sizeof cases / sizeof *cases && !check_failed_; c++) {
        rv_seq_t *s = rv_seq_from_string(cases[c].s, strlen(cases[c].s), RV_ALPHA_DNA, "x");
        rv_build_opts_t bo;
        rv_build_opts_init(&bo);
        bo.strands = 2;
        rv_index_t *x = s ? rv_build(s, &bo, NULL) : NULL;
        CHECK(x, "build %s: %s", cases[c].s, rv_last_error());
        if (!x) break;
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1);
        plist_t got = {0}, want = {(rv_pair_t *)cases[c].want, (size_t)cases[c].n, 0};
        CHECK(rv_pairs_each(x, &o, collect, &got) == 0, "each: %s", rv_last_error());
        CHECK(canonical(&got, why, sizeof why) && same_list(&got, &want, why, sizeof why), "%s: %s", cases[c].s,
              why);
        free(got.a);
        rv_index_free(x);
    }
    case_end("strands_pairs_hand_checked");
}

/* Edge inputs: nothing but breakers; a single base; a text of one strand asked
 * to be reverse complemented when it is not DNA. */
static void fixed_edge_cases(void)
{
    case_begin();
    static const char *const only_breakers[] = {"N", "NNNN", "RYKN-"};
    for (int i = 0; i < 3; i++) {
        rv_seq_t *s = rv_seq_from_string(only_breakers[i], strlen(only_breakers[i]), RV_ALPHA_DNA, "n");
        rv_build_opts_t bo;
        rv_build_opts_init(&bo);
        bo.strands = 2;
        rv_index_t *x = s ? rv_build(s, &bo, NULL) : NULL;
        if (!x) continue; /* refusing an empty text is fine; crashing is not */
        CHECK(x->n == 0 && x->seq->nf == 0, "%s: n %llu", only_breakers[i], (unsigned long long)x->n);
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1);
        uint64_t cnt = 1;
        plist_t got = {0};
        CHECK(rv_pairs_count(x, &o, &cnt) == 0 && cnt == 0, "%s: count", only_breakers[i]);
        CHECK(rv_pairs_each(x, &o, collect, &got) == 0 && got.n == 0, "%s: pairs", only_breakers[i]);
        free(got.a);
        rv_lr_t lr[2];
        CHECK(rv_lr_at(x, 0, lr, 2) == 0, "%s: LR", only_breakers[i]);
        rv_index_free(x);
    }
    rv_seq_t *p = rv_seq_from_string("MKVLAT", 6, RV_ALPHA_PROTEIN, "p");
    rv_build_opts_t bo;
    rv_build_opts_init(&bo);
    bo.strands = 2;
    rv_index_t *x = p ? rv_build(p, &bo, NULL) : NULL;
    CHECK(x == NULL && strstr(rv_last_error(), "DNA"), "both strands of protein: %s",
          x ? "built" : rv_last_error());
    rv_index_free(x);
    case_end("strands_edge_inputs");
}

/* A palindrome is its own repeat: LR of ACGT covers every position on both
 * strands, but not on the forward strand alone. */
static void fixed_lr(void)
{
    case_begin();
    rv_seq_t *s = rv_seq_from_string("GGACGTCC", 8, RV_ALPHA_DNA, "x");
    rv_build_opts_t bo;
    rv_build_opts_init(&bo);
    bo.strands = 2;
    bo.with_llr = 1;
    rv_index_t *x = s ? rv_build(s, &bo, NULL) : NULL;
    CHECK(x, "build: %s", rv_last_error());
    if (x) {
        rv_lr_t lr[4];
        for (uint64_t k = 0; k < 8; k++)
            CHECK(rv_lr_at(x, k, lr, 4) == 1 && lr[0].start == 0 && lr[0].len == 8, "LR at %llu",
                  (unsigned long long)k);
        CHECK(rv_lr_copy_strands(x, 0, 8) == 2, "copy strands %d", rv_lr_copy_strands(x, 0, 8));
        CHECK(rv_lr_copy_strands(x, 0, 1) == 3, "copy strands of G %d", rv_lr_copy_strands(x, 0, 1));
        CHECK(rv_lr_forward_llr(x, 0) == 1 && rv_lr_forward_llr(x, 2) == 0, "forward llr %llu %llu",
              (unsigned long long)rv_lr_forward_llr(x, 0), (unsigned long long)rv_lr_forward_llr(x, 2));
    }
    rv_index_free(x);
    case_end("strands_lr_palindrome");
}

/* Larger inputs: the same pairs in the very same order (ties included) for every
 * thread count, work grain and sort memory (pairs.h: "identical for every thread
 * count"); and the forward-view pairs equal the one-strand ones. */
static void thread_invariance(void)
{
    rng_t r = rng_new(31);
    uint64_t ties = 0;
    case_begin();
    for (int it = 0; it < check_iters(6) && !check_failed_; it++) {
        size_t len = it < 3 ? 1500 : 6000;
        char *b = malloc(len + 1);
        for (size_t i = 0; i < len; i++) {
            if (i > 8 && rng_below(&r, 4) == 0) { /* a palindrome around a centre */
                size_t h = 1 + rng_below(&r, 6);
                for (size_t k = 0; k < h && i < len && k < i; k++, i++) b[i] = comp_letter(b[i - 1 - 2 * k]);
                i--;
            } else {
                b[i] = it % 2 ? "AT"[rng_below(&r, 2)] : "ACGTN"[rng_below(&r, 40) ? rng_below(&r, 4) : 4];
            }
        }
        b[len] = 0;
        rv_seq_t *s = rv_seq_from_string(b, len, RV_ALPHA_DNA, "big");
        free(b);
        rv_build_opts_t bo;
        rv_build_opts_init(&bo);
        bo.strands = 2;
        bo.threads = 2;
        bo.force_wide = it % 3 == 1;
        rv_index_t *x = s ? rv_build(s, &bo, NULL) : NULL;
        CHECK(x, "build: %s", rv_last_error());
        if (!x) break;
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, (it % 2 ? 6 : 2) + rng_below(&r, 4));
        o.strands = it % 3 == 2 ? -1 : 0;
        plist_t ref = {0};
        for (int t = 1; t <= 4 && !check_failed_; t++) {
            o.threads = t;
            o.grain = t == 1 ? 0 : 16 << t;
            o.mem_bytes = t == 3 ? 4096 : 0;
            plist_t got = {0};
            CHECK(rv_pairs_each(x, &o, collect, &got) == 0, "each: %s", rv_last_error());
            if (t == 1) {
                ref = got;
                for (size_t i = 1; i < ref.n; i++) ties += !pair_order(&ref.a[i - 1], &ref.a[i]);
                continue;
            }
            size_t i = 0;
            while (i < got.n && i < ref.n && !pair_order_full(&got.a[i], &ref.a[i])) i++;
            CHECK(got.n == ref.n && i == got.n,
                  "input %d (n %llu, min %llu): %zu pairs with 1 thread, %zu with %d; first difference #%zu: "
                  "<%llu,%llu,%llu,%d> vs <%llu,%llu,%llu,%d>",
                  it, (unsigned long long)x->n, (unsigned long long)o.min_len, ref.n, got.n, t, i,
                  i < ref.n ? (unsigned long long)ref.a[i].p1 : 0ull, i < ref.n ? (unsigned long long)ref.a[i].p2 : 0ull,
                  i < ref.n ? (unsigned long long)ref.a[i].len : 0ull, i < ref.n ? ref.a[i].inverted : -1,
                  i < got.n ? (unsigned long long)got.a[i].p1 : 0ull, i < got.n ? (unsigned long long)got.a[i].p2 : 0ull,
                  i < got.n ? (unsigned long long)got.a[i].len : 0ull, i < got.n ? got.a[i].inverted : -1);
            free(got.a);
        }
        uint64_t cnt = 0;
        CHECK(rv_pairs_count(x, &o, &cnt) == 0 && cnt == ref.n, "count %llu want %zu", (unsigned long long)cnt,
              ref.n);
        free(ref.a);
        rv_index_free(x);
    }
    CHECK(ties > 0, "no pairs tied in (p1, p2, inverted) were made");
    case_end("strands_pairs_thread_invariance");
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/t_strands_%d", (int)getpid());
    mkdir(tmpdir, 0755);
    fixed_pairs();
    fixed_edge_cases();
    fixed_lr();
    for (int k = 0; k < K_COUNT; k++) random_case(k, 1000 + (uint64_t)k);
    thread_invariance();
    printf("# forward views with the one-strand SA order: %llu of %llu\n", (unsigned long long)sa_equal_views,
           (unsigned long long)(sa_equal_views + sa_differ_views));
    rmdir(tmpdir);
    return check_exit();
}
