/* t_pairs.c — maximal pairs against a brute-force oracle (every position pair,
 * direct LCE scan, left check by hand) on thousands of small random inputs:
 * several alphabets, breakers, several records, every filter combination, 32-
 * and 64-bit arrays, several thread counts, tiny sort memory (spill + merge);
 * cursor queries (covering a position, paged) against the same oracle. */
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "repview/seq.h"

#include "pairs_list.h"
#include "query/pairs_internal.h"
#include "query/pairs_sort.h"

static int collect_batch(void *ud, const rv_pair_t *p, size_t n)
{
    if (n == 0 || n > RV_PAIRS_BATCH) return 99; /* never an empty or oversized batch */
    for (size_t i = 0; i < n; i++) plist_add(ud, p[i]);
    return 0;
}

/* ---- random inputs ---- */

static const char *const kinds[] = {"dna", "dnaN", "protein", "text", "periodic", "same", "binary"};
enum { N_KINDS = 7 };

static void random_record(rng_t *r, int kind, char *buf, size_t len)
{
    static const char prot[] = "ACDEFGHIKLMNPQRSTVWYX*";
    size_t period = 1 + rng_below(r, 4);
    for (size_t i = 0; i < len; i++) {
        switch (kind) {
        case 0: buf[i] = "ACGT"[rng_below(r, 4)]; break;
        case 1: buf[i] = rng_below(r, 8) == 0 ? 'N' : "ACGTacgt"[rng_below(r, 8)]; break;
        case 2: buf[i] = prot[rng_below(r, 8)]; break; /* small alphabet, X and * break */
        case 3: buf[i] = "abc \n"[rng_below(r, 3)]; break;
        case 4: buf[i] = i < period ? "ACGT"[rng_below(r, 4)] : buf[i - period];
                if (rng_below(r, 20) == 0) buf[i] = rng_below(r, 2) ? 'N' : 'A';
                break;
        case 5: buf[i] = rng_below(r, 30) == 0 ? 'N' : 'A'; break;
        default: buf[i] = "ab"[rng_below(r, 2)]; break;
        }
    }
    buf[len] = 0;
}

static const rv_alpha_t kind_alpha[N_KINDS] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT,
                                               RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_TEXT};

static rv_index_t *random_index(rng_t *r, int kind, int max_len, int wide, int threads)
{
    int nrec = 1 + (int)rng_below(r, 3);
    char *seqs[3], names[3][16];
    const char *sp[3], *np[3];
    for (int i = 0; i < nrec; i++) {
        size_t len = 1 + rng_below(r, (uint64_t)max_len);
        seqs[i] = malloc(len + 1);
        random_record(r, kind, seqs[i], len);
        snprintf(names[i], sizeof names[i], "r%d", i);
        sp[i] = seqs[i];
        np[i] = names[i];
    }
    rv_seq_t *s = rv_seq_from_records(np, sp, nrec, kind_alpha[kind]);
    for (int i = 0; i < nrec; i++) free(seqs[i]);
    if (!s) return NULL;
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.force_wide = wide;
    o.threads = threads;
    return rv_build(s, &o, NULL);
}

/* ---- the oracle ---- */

static uint64_t global_of(const rv_seq_t *s, uint64_t t, uint64_t *rec)
{
    uint64_t g = rv_seq_text_to_global(s, t);
    *rec = rv_seq_record_of(s, g);
    return g;
}

/* Does the pair pass o's filters?  Coordinates recomputed from scratch. */
static int oracle_pass(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_pair_t *p)
{
    uint64_t r1, r2, g1 = global_of(s, p->p1, &r1), g2 = global_of(s, p->p2, &r2);
    if (o->use_within && (g1 < o->within_beg || g2 + p->len > o->within_end)) return 0;
    if (o->use_min_gap || o->use_max_gap) {
        if (r1 != r2) return 0;
        int64_t gap = (int64_t)g2 - (int64_t)(g1 + p->len);
        if (o->use_min_gap && gap < o->min_gap) return 0;
        if (o->use_max_gap && gap > o->max_gap) return 0;
    }
    return 1;
}

/* Every maximal pair by definition (repview-pairs(1)), in (p1, p2) order. */
static plist_t oracle(const rv_index_t *x, const rv_pairs_opts_t *o)
{
    const rv_seq_t *s = x->seq;
    const uint8_t *t = s->text;
    plist_t l = {0};
    for (uint64_t i = 0; i < s->n; i++)
        for (uint64_t j = i + 1; j < s->n; j++) {
            uint64_t h = 0;
            while (j + h < s->n && t[i + h] == t[j + h] && t[i + h] != RV_BREAK) h++;
            if (h == 0 || h < o->min_len) continue;
            int left_max = i == 0 || t[i - 1] == RV_BREAK || t[j - 1] == RV_BREAK || t[i - 1] != t[j - 1];
            rv_pair_t p = {i, j, h, 0};
            if (left_max && oracle_pass(s, o, &p)) plist_add(&l, p);
        }
    return l;
}

static int same_list(const plist_t *a, const plist_t *b, char *why, size_t whylen)
{
    for (size_t i = 0; i < a->n || i < b->n; i++) {
        if (i >= a->n || i >= b->n || a->a[i].p1 != b->a[i].p1 || a->a[i].p2 != b->a[i].p2 ||
            a->a[i].len != b->a[i].len) {
            const rv_pair_t *p = i < a->n ? &a->a[i] : NULL, *q = i < b->n ? &b->a[i] : NULL;
            snprintf(why, whylen, "#%zu of %zu/%zu: got <%lld,%lld,%lld> want <%lld,%lld,%lld>", i, a->n, b->n,
                     p ? (long long)p->p1 : -1, p ? (long long)p->p2 : -1, p ? (long long)p->len : -1,
                     q ? (long long)q->p1 : -1, q ? (long long)q->p2 : -1, q ? (long long)q->len : -1);
            return 0;
        }
    }
    return 1;
}

/* Random filter combination number `combo` (bit 0 min gap, 1 max gap, 2 within). */
static void random_filters(rng_t *r, const rv_seq_t *s, int combo, rv_pairs_opts_t *o)
{
    o->min_len = 1 + rng_below(r, 4);
    random_filters_gap_within(r, s, combo, o);
}

static void test_random(int wide)
{
    rng_t r = rng_new(wide ? 77 : 42);
    char name[64], why[256];
    for (int kind = 0; kind < N_KINDS; kind++) {
        case_begin();
        int iters = check_iters(160);
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_index_t *x = random_index(&r, kind, 40, wide, 1);
            CHECK(x, "build: %s", rv_last_error());
            if (!x) break;
            for (int combo = 0; combo < 8; combo++) {
                rv_pairs_opts_t o;
                rv_pairs_opts_init(&o, 1);
                random_filters(&r, x->seq, combo, &o);
                o.threads = rng_below(&r, 4) ? 1 : 2 + (int)rng_below(&r, 2);
                o.grain = 1 + rng_below(&r, 8);
                o.mem_bytes = rng_below(&r, 2) ? 1 : 0; /* 1 byte: spill every 64 pairs */
                plist_t want = oracle(x, &o), got = {0};
                int rc = rv_pairs_each(x, &o, collect, &got);
                CHECK(rc == 0, "each: %s", rv_last_error());
                CHECK(same_list(&got, &want, why, sizeof why), "kind %s combo %d min %llu: %s", kinds[kind],
                      combo, (unsigned long long)o.min_len, why);
                uint64_t cnt = 0;
                CHECK(rv_pairs_count(x, &o, &cnt) == 0 && cnt == want.n, "count %llu want %zu (combo %d)",
                      (unsigned long long)cnt, want.n, combo);
                free(want.a);
                free(got.a);
            }
            rv_index_free(x);
        }
        snprintf(name, sizeof name, "pairs_oracle_%s_%s", kinds[kind], wide ? "64" : "32");
        case_end(name);
    }
}

static int by_len_cmp(const void *a, const void *b)
{
    const rv_pair_t *p = a, *q = b;
    if (p->len != q->len) return p->len > q->len ? -1 : 1;
    if (p->p1 != q->p1) return p->p1 < q->p1 ? -1 : 1;
    return p->p2 < q->p2 ? -1 : p->p2 > q->p2;
}

/* Oracle pairs covering pos (one copy contains it), in page order. */
static plist_t covering_oracle(const plist_t *all, uint64_t pos, int by_len)
{
    plist_t l = {0};
    for (size_t i = 0; i < all->n; i++) {
        const rv_pair_t *p = &all->a[i];
        if ((p->p1 <= pos && pos < p->p1 + p->len) || (p->p2 <= pos && pos < p->p2 + p->len))
            plist_add(&l, *p);
    }
    if (by_len && l.n) qsort(l.a, l.n, sizeof *l.a, by_len_cmp);
    return l;
}

static void test_covering(int wide)
{
    rng_t r = rng_new(wide ? 9 : 5);
    char why[256];
    uint64_t incomplete = 0;
    case_begin();
    int iters = check_iters(300);
    for (int it = 0; it < iters && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS);
        rv_index_t *x = random_index(&r, kind, 50, wide, 1);
        if (!x) { CHECK(0, "build: %s", rv_last_error()); break; }
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1);
        random_filters(&r, x->seq, (int)rng_below(&r, 8), &o);
        o.longest_first = (int)rng_below(&r, 2);
        plist_t all = oracle(x, &o);
        for (uint64_t pos = 0; pos < x->n; pos++) {
            plist_t want = covering_oracle(&all, pos, o.longest_first);
            rv_pairs_page_t pg;
            CHECK(rv_pairs_covering(x, &o, pos, RV_PAIRS_ALL, 0, &pg) == 0, "%s", rv_last_error());
            plist_t got = {pg.pairs, pg.n, pg.n};
            CHECK(pg.complete && pg.total == want.n, "total %llu want %zu", (unsigned long long)pg.total, want.n);
            CHECK(same_list(&got, &want, why, sizeof why), "kind %s pos %llu: %s", kinds[kind],
                  (unsigned long long)pos, why);
            rv_pairs_page_free(&pg);
            size_t page = 1 + rng_below(&r, 3); /* the first `page` of them */
            CHECK(rv_pairs_covering(x, &o, pos, page, 0, &pg) == 0, "%s", rv_last_error());
            plist_t head = {want.a, want.n < page ? want.n : page, 0}, gotp = {pg.pairs, pg.n, 0};
            CHECK(pg.total == want.n && same_list(&gotp, &head, why, sizeof why), "page %zu: %s", page, why);
            rv_pairs_page_free(&pg);
            CHECK(rv_pairs_covering(x, &o, pos, 0, 0, &pg) == 0 && pg.n == 0 && pg.total == want.n,
                  "count-only page");
            rv_pairs_page_free(&pg);
            /* a work bound: complete and exact, or incomplete with a subset */
            CHECK(rv_pairs_covering(x, &o, pos, RV_PAIRS_ALL, 1 + rng_below(&r, 12), &pg) == 0, "bounded");
            CHECK(pg.complete ? pg.total == want.n : pg.total <= want.n, "bounded total %llu want %zu",
                  (unsigned long long)pg.total, want.n);
            for (size_t i = 0; i < pg.n; i++) {
                size_t k = 0;
                while (k < want.n && (want.a[k].p1 != pg.pairs[i].p1 || want.a[k].p2 != pg.pairs[i].p2)) k++;
                CHECK(k < want.n && want.a[k].len == pg.pairs[i].len, "bounded page has a wrong pair");
            }
            incomplete += !pg.complete;
            rv_pairs_page_free(&pg);
            free(want.a);
        }
        free(all.a);
        rv_index_free(x);
    }
    CHECK(incomplete > 0, "the work bound never cut a query short");
    case_end(wide ? "pairs_covering_64" : "pairs_covering_32");
}

/* Larger inputs: same output for 1..4 threads and any sort memory; oracle on a
 * mid-size one. */
static void test_threads(void)
{
    rng_t r = rng_new(11);
    char why[256];
    case_begin();
    for (int it = 0; it < check_iters(6) && !check_failed_; it++) {
        int kind = it % 2 ? 4 : 1;
        rv_index_t *x = random_index(&r, kind, it < 2 ? 1500 : 20000, it % 3 == 0, 2);
        if (!x) { CHECK(0, "build"); break; }
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1 + rng_below(&r, 8));
        o.grain = 64;
        plist_t ref = {0};
        if (x->n <= 4000) ref = oracle(x, &o);
        for (int t = 1; t <= 4; t++) {
            o.threads = t;
            o.mem_bytes = t == 3 ? 4096 : 0;
            plist_t got = {0};
            CHECK(rv_pairs_each(x, &o, collect, &got) == 0, "%s", rv_last_error());
            if (t == 1 && !ref.a) ref = got;
            else {
                CHECK(same_list(&got, &ref, why, sizeof why), "threads %d n %llu: %s", t, (unsigned long long)x->n, why);
                free(got.a);
            }
            uint64_t cnt;
            CHECK(rv_pairs_count(x, &o, &cnt) == 0 && cnt == ref.n, "count threads %d", t);
            plist_t bat = {0};
            CHECK(rv_pairs_each_batch(x, &o, collect_batch, &bat) == 0, "batches");
            CHECK(same_list(&bat, &ref, why, sizeof why), "batches, threads %d: %s", t, why);
            free(bat.a);
        }
        free(ref.a);
        rv_index_free(x);
    }
    case_end("pairs_thread_invariance");
}

typedef struct {
    plist_t l;
    size_t stop_at;
} stopper_t;

/* rv_pair_fn: collect until stop_at pairs, then stop with 7. */
static int collect_until(void *ud, const rv_pair_t *p)
{
    stopper_t *s = ud;
    if (s->l.n == s->stop_at) return 7;
    plist_add(&s->l, *p);
    return 0;
}

/* Which chunks find no room for their pairs (REPVIEW_MERGE_NO_ROOM: every Nth;
 * "0" none): such a chunk is merged in pieces in order by the calling thread. */
static const char *const no_room[] = {"0", "1", "3"};

/* The merge on every thread (pairs_merge.c): tiny chunks and checkpoints over
 * spilled and in-memory runs give the oracle's pairs in its order, also where
 * chunks find no room; a callback that stops gets exactly the first pairs. */
static void test_parallel_merge(void)
{
    static const char *const chunks[] = {"2", "5", "64", "1000"};
    rng_t r = rng_new(23);
    char why[256];
    case_begin();
    for (int it = 0; it < check_iters(28) && !check_failed_; it++) {
        const char *chunk = chunks[it % 4], *room = no_room[it / 4 % 3];
        setenv("REPVIEW_MERGE_CHUNK", chunk, 1);
        setenv("REPVIEW_MERGE_NO_ROOM", room, 1);
        int kind = (int)rng_below(&r, N_KINDS);
        /* chunks x runs cursor openings: tiny chunks on short texts (the oracle
         * is cubic on runs, and a binary text has ~n^2/2 pairs) */
        int big = it % 4 < 2 ? 150 : kind >= 4 ? 300 : 1000;
        rv_index_t *x = random_index(&r, kind, it % 7 == 0 ? 40 : big, it % 2, 1);
        if (!x) { CHECK(0, "build"); break; }
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1 + rng_below(&r, 4));
        if (it % 3 == 0) random_filters_gap_within(&r, x->seq, (int)rng_below(&r, 8), &o);
        plist_t want = oracle(x, &o);
        o.threads = 2 + (int)rng_below(&r, 3);
        o.grain = 1 + rng_below(&r, 64);
        o.mem_bytes = it % 3 == 0 ? 1 : it % 3 == 1 ? 4096 : 0;
        plist_t got = {0};
        CHECK(rv_pairs_each_batch(x, &o, collect_batch, &got) == 0, "%s", rv_last_error());
        CHECK(same_list(&got, &want, why, sizeof why), "chunk %s no room %s kind %s threads %d mem %llu: %s", chunk,
              room, kinds[kind], o.threads, (unsigned long long)o.mem_bytes, why);
        stopper_t st = {{0}, want.n / 2};
        int rc = rv_pairs_each(x, &o, collect_until, &st);
        CHECK(want.n == 0 || rc == 7, "stop: rc %d", rc);
        plist_t head = {want.a, want.n / 2, 0};
        CHECK(st.l.n == head.n && same_list(&st.l, &head, why, sizeof why), "stop: %zu of %zu: %s", st.l.n,
              head.n, why);
        free(st.l.a);
        free(got.a);
        free(want.a);
        rv_index_free(x);
    }
    unsetenv("REPVIEW_MERGE_CHUNK");
    unsetenv("REPVIEW_MERGE_NO_ROOM");
    case_end("pairs_parallel_merge");
}

/* rv_pairs_text_t for the test: "p1 p2 len inverted" lines; format() fails on
 * the chunk holding pair fail_at (when set), write() stops after stop_after calls. */
typedef struct {
    char *all;
    size_t len, cap;
    size_t writes, stop_after;
    uint64_t fail_at;
} text_out_t;

static int text_format(void *ud, const rv_pair_t *p, size_t n, char **buf, size_t *cap, size_t *len)
{
    const text_out_t *t = ud;
    if (*cap < n * 96 + 1) {
        *buf = realloc(*buf, n * 96 + 1);
        *cap = n * 96 + 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (t->fail_at && p[i].p1 == t->fail_at) return rv_error("test", "format failed");
        k += (size_t)sprintf(*buf + k, "%llu %llu %llu %d\n", (unsigned long long)p[i].p1,
                             (unsigned long long)p[i].p2, (unsigned long long)p[i].len, p[i].inverted);
    }
    *len = k;
    return 0;
}

static int text_write(void *ud, const char *bytes, size_t len)
{
    text_out_t *t = ud;
    if (t->stop_after && t->writes == t->stop_after) return 5;
    t->writes++;
    if (t->len + len + 1 > t->cap) {
        t->cap = 2 * (t->len + len + 1);
        t->all = realloc(t->all, t->cap);
    }
    memcpy(t->all + t->len, bytes, len);
    t->len += len;
    t->all[t->len] = 0;
    return 0;
}

/* rv_pairs_each_text (one thread, several, tiny chunks, chunks without room):
 * the same lines as the pairs of rv_pairs_each in order; a failing format() and a
 * stopping write() end the call with their value. */
static void test_text(void)
{
    static const char *const chunks[] = {"3", "40", "100000"};
    rng_t r = rng_new(31);
    case_begin();
    for (int it = 0; it < check_iters(24) && !check_failed_; it++) {
        setenv("REPVIEW_MERGE_CHUNK", chunks[it % 3], 1);
        setenv("REPVIEW_MERGE_NO_ROOM", no_room[it / 3 % 3], 1);
        rv_index_t *x = random_index(&r, (int)rng_below(&r, 4), 600, it % 2, 1);
        if (!x) { CHECK(0, "build"); break; }
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1 + rng_below(&r, 3));
        o.threads = 1 + (int)rng_below(&r, 4);
        o.mem_bytes = it % 2 ? 1 : 0;
        plist_t want = {0};
        CHECK(rv_pairs_each(x, &o, collect, &want) == 0, "each");
        text_out_t ref = {0}, got = {0};
        char *b = NULL;
        size_t cap = 0, len = 0;
        for (size_t i = 0; i < want.n; i++) {
            text_format(&ref, &want.a[i], 1, &b, &cap, &len);
            text_write(&ref, b, len);
        }
        rv_pairs_text_t t = {text_format, text_write, &got};
        CHECK(rv_pairs_each_text(x, &o, &t) == 0, "text: %s", rv_last_error());
        CHECK(got.len == ref.len && (!got.len || !strcmp(got.all, ref.all)),
              "text differs: %zu vs %zu bytes, chunk %s no room %s threads %d", got.len, ref.len, chunks[it % 3],
              no_room[it / 3 % 3], o.threads);
        if (want.n > 2) {
            text_out_t bad = {.fail_at = want.a[want.n / 2].p1};
            t.ud = &bad;
            CHECK(rv_pairs_each_text(x, &o, &t) == -1 && strstr(rv_last_error(), "format failed"), "format error: %s",
                  rv_last_error());
            text_out_t stop = {.stop_after = 1};
            t.ud = &stop;
            int rc = rv_pairs_each_text(x, &o, &t);
            /* stopped at the second write, or everything came in one */
            CHECK(rc == 5 ? stop.writes == 1 && stop.len < ref.len : rc == 0 && stop.len == ref.len,
                  "write stop: rc %d writes %zu", rc, stop.writes);
            free(bad.all);
            free(stop.all);
        }
        free(b);
        free(ref.all);
        free(got.all);
        free(want.a);
        rv_index_free(x);
    }
    unsetenv("REPVIEW_MERGE_CHUNK");
    unsetenv("REPVIEW_MERGE_NO_ROOM");
    case_end("pairs_text_chunks");
}

/* Hand-checked: a small example string, and the callback stopping. */
static void test_fixed(void)
{
    case_begin();
    rv_seq_t *s = rv_seq_from_string("xabcyiiizabcqabcyrxar", 21, RV_ALPHA_TEXT, "fig1");
    rv_build_opts_t bo;
    rv_build_opts_init(&bo);
    rv_index_t *x = rv_build(s, &bo, NULL);
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, 3);
    plist_t got = {0};
    CHECK(x && rv_pairs_each(x, &o, collect, &got) == 0, "each");
    /* RACE Fig. 1 (shifted by its leading '#'): <(1,9),3>, <(1,13),4>, <(9,13),3> */
    CHECK(got.n == 3, "n %zu", got.n);
    if (got.n == 3) {
        CHECK(got.a[0].p1 == 1 && got.a[0].p2 == 9 && got.a[0].len == 3, "first");
        CHECK(got.a[1].p1 == 1 && got.a[1].p2 == 13 && got.a[1].len == 4, "second");
        CHECK(got.a[2].p1 == 9 && got.a[2].p2 == 13 && got.a[2].len == 3, "third");
    }
    free(got.a);
    rv_pairs_opts_init(&o, 0);
    CHECK(x && rv_pairs_each(x, &o, collect, &got) < 0, "min_len 0 refused");
    rv_index_free(x);
    case_end("pairs_race_figure1");
}

/* The runs' sort on several threads (pf_sort_pairs_threads) against the one-thread
 * sort and a comparison sort: random, few distinct p1, all equal, 97% of p1 in one
 * part of the split by top bits (sorted on every thread), with and
 * without the length as a key, narrow and wide positions, 2, 3 and 8 threads. */
static int pair_cmp(const void *a, const void *b)
{
    const rv_pair_t *x = a, *y = b;
    if (x->p1 != y->p1) return x->p1 < y->p1 ? -1 : 1;
    if (x->p2 != y->p2) return x->p2 < y->p2 ? -1 : 1;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return 0;
}

static void test_sort_threads(void)
{
    case_begin();
    rng_t r = rng_new(1601);
    const uint64_t n = 300000;
    rv_pair_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    rv_pair_t *tmp = malloc(n * sizeof *tmp);
    CHECK(a && b && c && tmp, "out of memory");
    for (int shape = 0; shape < 5 && !check_failed_; shape++)
        for (int with_len = 0; with_len < 2 && !check_failed_; with_len++)
            for (int bits = 20; bits <= 40 && !check_failed_; bits += 20) {
                const uint64_t top = 1ull << bits;
                for (uint64_t i = 0; i < n; i++) {
                    uint64_t p1 = shape == 0 ? rng_below(&r, top - 1)
                                : shape == 1 ? rng_below(&r, 5) * (top / 8)
                                : shape == 2 ? 7
                                : shape == 3 ? (n - i) % 1000
                                : i % 32 ? top / 4 + rng_below(&r, top / 512) : rng_below(&r, top - 1);
                    uint64_t p2 = shape == 2 ? 9 : p1 + 1 + rng_below(&r, top - 1 - p1);
                    /* equal (p1, p2) only with the length as a key (both strands) */
                    uint64_t len = with_len ? 1 + rng_below(&r, 50) : (p1 ^ p2) % 97;
                    if (!with_len && shape == 2) p2 = 9 + i, p1 = 7; /* distinct pairs */
                    a[i] = (rv_pair_t){p1, p2, len, 0};
                }
                memcpy(c, a, n * sizeof *a);
                qsort(c, n, sizeof *c, pair_cmp);
                memcpy(b, a, n * sizeof *a);
                pf_sort_pairs(b, tmp, n, bits + 1, with_len);
                CHECK(memcmp(b, c, n * sizeof *b) == 0, "one thread: shape %d len %d bits %d", shape, with_len, bits);
                static const int teams[] = {2, 3, 8};
                for (int q = 0; q < 3 && !check_failed_; q++) {
                    const int t = teams[q];
                    memcpy(b, a, n * sizeof *a);
                    pf_sort_pairs_threads(b, tmp, n, bits + 1, with_len, t);
                    CHECK(memcmp(b, c, n * sizeof *b) == 0, "%d threads: shape %d len %d bits %d", t, shape, with_len,
                          bits);
                }
            }
    free(a), free(b), free(c), free(tmp);
    case_end("pairs_sort_threads");
}

/* Spilled runs coded by slices on several threads (pf_sink_spill with sort_threads
 * > 1 and runs of 2^18 pairs or more), merged back: the same pairs in the same
 * order as a comparison sort of what went in, for 1 and 3 threads, positions
 * narrow and wide, with and without the length as a key, from one sink (the heap
 * merge) and from two (the merge that starts inside runs at their checkpoints). */
typedef struct {
    rv_pair_t *a;
    size_t n, cap;
} spill_got_t;

static int spill_collect(void *ud, const rv_pair_t *p, size_t n)
{
    spill_got_t *g = ud;
    if (g->n + n > g->cap) return -1;
    memcpy(g->a + g->n, p, n * sizeof *p);
    g->n += n;
    return 0;
}

/* Room for n pairs: what goes in, what should come out, and what came out
 * (spill_collect); the case fails without it. */
static void pairs_room(uint64_t n, rv_pair_t **in, rv_pair_t **want, spill_got_t *got)
{
    *in = malloc(n * sizeof **in), *want = malloc(n * sizeof **want);
    *got = (spill_got_t){malloc(n * sizeof *got->a), 0, n};
    CHECK(*in && *want && got->a, "out of memory");
}

static void test_spill_slices(void)
{
    case_begin();
    rng_t r = rng_new(1777);
    const uint64_t n = 1300001, run = 300000;
    rv_pair_t *in, *want;
    spill_got_t got;
    pairs_room(n, &in, &want, &got);
    static const int teams[] = {1, 3};
    for (int wide = 0; wide < 2 && !check_failed_; wide++)
        for (int with_len = 0; with_len < 2 && !check_failed_; with_len++) {
            const uint64_t top = wide ? 1ull << 40 : 1ull << 30;
            for (uint64_t i = 0; i < n; i++) {
                uint64_t p1 = rng_below(&r, top / 2), p2 = with_len ? p1 + 1 + rng_below(&r, 3) : p1 + 1 + i;
                in[i] = (rv_pair_t){p1, p2, with_len ? 1 + rng_below(&r, 1000) : 1 + rng_below(&r, 300), 0};
            }
            memcpy(want, in, n * sizeof *in);
            qsort(want, n, sizeof *want, pair_cmp);
            for (int q = 0; q < 2 && !check_failed_; q++)
                for (int ns = 1; ns <= 2 && !check_failed_; ns++) { /* two sinks: the merge by checkpoints */
                    pf_sink_t k[2];
                    for (int j = 0; j < ns; j++) {
                        pf_sink_init(&k[j], run, top);
                        k[j].sort_threads = teams[q];
                        k[j].with_len = with_len;
                    }
                    for (uint64_t i = 0; i < n; i++) pf_sink_push(&k[i % (uint64_t)ns], in[i].p1, in[i].p2, in[i].len);
                    for (int j = 0; j < ns; j++)
                        CHECK(!k[j].err && k[j].nruns == (n / (uint64_t)ns) / run, "%d threads: %llu runs spilled",
                              teams[q], (unsigned long long)k[j].nruns);
                    got.n = 0;
                    pf_out_t out = {spill_collect, &got, NULL, 0, UINT64_MAX, 0};
                    CHECK(pf_merge(k, ns, &out) == 0 && got.n == n, "%d threads: merged %zu of %llu", teams[q],
                          got.n, (unsigned long long)n);
                    for (uint64_t i = 0; i < n && !check_failed_; i++)
                        CHECK(got.a[i].p1 == want[i].p1 && got.a[i].p2 == want[i].p2 && got.a[i].len == want[i].len,
                              "%d threads wide %d len %d sinks %d: pair %llu differs", teams[q], wide, with_len, ns,
                              (unsigned long long)i);
                    for (int j = 0; j < ns; j++) pf_sink_free(&k[j]);
                }
        }
    free(in);
    free(want);
    free(got.a);
    case_end("pairs_spill_slices");
}

/* A sink reserved ahead (the estimate's sample: pf_sink_reserve), empty or
 * holding pairs already, holds the reserve, at most its max, keeps its pairs, and
 * then takes more, spills at its max and merges them as a sink that grew on its
 * own: the same pairs in the same order. */
static void test_sink_reserve(void)
{
    case_begin();
    rng_t r = rng_new(4242);
    const uint64_t n = 70001, max = 20000;
    rv_pair_t *in, *want;
    spill_got_t got;
    pairs_room(n, &in, &want, &got);
    for (uint64_t i = 0; i < n && in; i++) {
        uint64_t p1 = rng_below(&r, 1u << 20);
        in[i] = (rv_pair_t){p1, p1 + 1 + rng_below(&r, 1000), 1 + rng_below(&r, 50), 0};
    }
    if (in && want) memcpy(want, in, n * sizeof *in), qsort(want, n, sizeof *want, pair_cmp);
    static const uint64_t reserve[] = {0, 1, 4096, 12345, 20000, 1000000};
    for (size_t q = 0; q < 2 * (sizeof reserve / sizeof *reserve) && !check_failed_; q++) {
        const uint64_t want_cap = reserve[q / 2] < max ? reserve[q / 2] : max, before = q % 2 ? 1000 : 0;
        pf_sink_t k;
        pf_sink_init(&k, max, 1u << 21);
        for (uint64_t i = 0; i < before; i++) pf_sink_push(&k, in[i].p1, in[i].p2, in[i].len);
        const uint64_t had = k.cap;
        CHECK(pf_sink_reserve(&k, reserve[q / 2]) == 0 && k.n == before &&
                  k.cap == (want_cap > had ? want_cap : had) && !k.nruns,
              "reserve %llu after %llu: cap %llu", (unsigned long long)reserve[q / 2], (unsigned long long)before,
              (unsigned long long)k.cap);
        for (uint64_t i = before; i < n; i++) pf_sink_push(&k, in[i].p1, in[i].p2, in[i].len);
        CHECK(!k.err && k.nruns == n / max && k.n == n % max, "reserve %llu: %llu runs, %llu held",
              (unsigned long long)reserve[q / 2], (unsigned long long)k.nruns, (unsigned long long)k.n);
        got.n = 0;
        pf_out_t out = {spill_collect, &got, NULL, 0, UINT64_MAX, 0};
        CHECK(pf_merge(&k, 1, &out) == 0 && got.n == n, "reserve %llu: merged %zu", (unsigned long long)reserve[q / 2],
              got.n);
        for (uint64_t i = 0; i < n && !check_failed_; i++)
            CHECK(got.a[i].p1 == want[i].p1 && got.a[i].p2 == want[i].p2 && got.a[i].len == want[i].len,
                  "reserve %llu: pair %llu differs", (unsigned long long)reserve[q / 2], (unsigned long long)i);
        pf_sink_free(&k);
    }
    free(in), free(want), free(got.a);
    case_end("pairs_sink_reserve");
}

int main(void)
{
    test_sink_reserve();
    test_sort_threads();
    test_spill_slices();
    test_fixed();
    test_random(0);
    test_random(1);
    test_covering(0);
    test_covering(1);
    test_threads();
    test_parallel_merge();
    test_text();
    return check_exit();
}
