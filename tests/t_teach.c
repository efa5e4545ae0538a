/* t_teach.c — oracle tests of teaching mode (ui/explorer/teach*.c): for every
 * topic, on the classroom strings and on small random strings (DNA with and
 * without breakers, two letters, one letter, protein, text; periodic stretches),
 * the answer of the lesson's last frame equals brute force, the engine agrees
 * (the lesson's own check, which the last caption shows), and the last frame
 * shows that answer.  Bad input gives one-line reasons. */
#include "check.h"
#include "repview/common.h"
#include "repview/find.h"
#include "../ui/explorer/teach_frame.c"
#include "../ui/explorer/teach.c"
#include "../ui/explorer/teach_sa.c"
#include "../ui/explorer/teach_lcp.c"
#include "../ui/explorer/teach_search.c"
#include "../ui/explorer/teach_lr.c"
#include "../ui/explorer/teach_pairs.c"
#include "../ui/explorer/teach_runs.c"

/* ---- brute force over the text codes (0 = breaker, matches nothing) ---- */

static uint64_t b_lcp(const uint8_t *t, uint64_t n, uint64_t i, uint64_t j)
{
    uint64_t l = 0;
    while (i + l < n && j + l < n && t[i + l] == t[j + l] && t[i + l] != RV_BREAK) l++;
    return l;
}

static int b_less(const uint8_t *t, uint64_t n, uint64_t i, uint64_t j) /* byte order, end smallest */
{
    for (; i < n && j < n; i++, j++)
        if (t[i] != t[j]) return t[i] < t[j];
    return i >= n;
}

static uint64_t b_llr(const uint8_t *t, uint64_t n, uint64_t i)
{
    uint64_t best = 0;
    for (uint64_t j = 0; j < n; j++)
        if (j != i && b_lcp(t, n, i, j) > best) best = b_lcp(t, n, i, j);
    return best;
}

static uint64_t b_lr(const uint8_t *t, uint64_t n, uint64_t k)
{
    uint64_t best = 0;
    for (uint64_t i = 0; i <= k; i++) {
        uint64_t l = b_llr(t, n, i);
        if (i + l > k && l > best) best = l;
    }
    return best;
}

static uint64_t smallest_period(const uint8_t *t, uint64_t s, uint64_t e)
{
    for (uint64_t q = 1; q < e - s; q++) {
        uint64_t j = s + q;
        while (j < e && t[j] == t[j - q]) j++;
        if (j == e) return q;
    }
    return e - s;
}

/* The text as text: a string of the lesson's final frame lines. */
static void last_frame(const lesson_t *L, char *out, size_t cap)
{
    const teach_frame_t *f = &L->f[L->n - 1];
    size_t k = 0;
    for (int y = 0; y < f->n && k + TEACH_W + 2 < cap; y++) k += (size_t)snprintf(out + k, cap - k, "%s\n", f->line[y].text);
}

/* Entry k of a triple answer (pairs, runs) is (a, b, c), and the last frame shows
 * it as want. */
static void check_triple(const lesson_t *L, size_t k, const uint64_t v[3], const char *frame, const char *want,
                         const char *str)
{
    CHECK(k + 2 < L->n_ans[0] && L->ans[0][k] == v[0] && L->ans[0][k + 1] == v[1] && L->ans[0][k + 2] == v[2],
          "%s '%s': %s missing", teach_topic_name(L->topic), str, want);
    CHECK(strstr(frame, want), "%s '%s': the last frame lacks %s", teach_topic_name(L->topic), str, want);
}

static void check_lesson(teach_topic_t topic, const char *str, rv_alpha_t alpha, const teach_opts_t *o)
{
    lesson_t L;
    int rc = teach_build(&L, topic, str, strlen(str), alpha, o);
    CHECK(rc == 0, "%s on '%s': %s", teach_topic_name(topic), str, L.err);
    if (rc < 0) { teach_free(&L); return; }
    const rv_index_t *x = L.x;
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n;
    CHECK(L.agrees, "%s on '%s': the lesson differs from the engine", teach_topic_name(topic), str);
    CHECK(L.n >= 2, "%s on '%s': only %d frames", teach_topic_name(topic), str, L.n);
    CHECK(strstr(L.f[L.n - 1].caption, "Checked: the same answer as repview's engine"), "%s on '%s': last caption '%s'",
          teach_topic_name(topic), str, L.f[L.n - 1].caption);
    static char frame[1 << 16];
    last_frame(&L, frame, sizeof frame);
    char want[256];
    switch (topic) {
    case TOPIC_SA: {
        CHECK(L.n_ans[0] == n, "sa: %zu entries", L.n_ans[0]);
        for (uint64_t r = 0; r < n && r < L.n_ans[0]; r++) {
            CHECK(L.ans[0][r] == rv_sa(x, r), "sa '%s': SA[%llu] %llu, engine %llu", str, (unsigned long long)r,
                  (unsigned long long)L.ans[0][r], (unsigned long long)rv_sa(x, r));
            if (r) CHECK(b_less(t, n, L.ans[0][r - 1], L.ans[0][r]), "sa '%s': rows %llu, %llu out of order", str,
                         (unsigned long long)r - 1, (unsigned long long)r);
        }
        int k = snprintf(want, sizeof want, "%-*s", LABEL_W, "SA[r]");
        for (uint64_t r = 0; r < n; r++)
            k += snprintf(want + k, sizeof want - (size_t)k, "%*llu", L.cw, (unsigned long long)rv_sa(x, r));
        CHECK(strstr(frame, want), "sa '%s': the last frame does not show '%s'", str, want);
        break;
    }
    case TOPIC_LCP:
        CHECK(L.n_ans[0] == n && L.n_ans[1] == n, "lcp: %zu entries", L.n_ans[0]);
        for (uint64_t r = 0; r < n && L.n_ans[0] == n; r++) {
            uint64_t b = r ? b_lcp(t, n, rv_sa(x, r - 1), rv_sa(x, r)) : 0;
            CHECK(L.ans[0][r] == b && b == rv_lcp(x, r), "lcp '%s': LCP[%llu] %llu, brute %llu", str,
                  (unsigned long long)r, (unsigned long long)L.ans[0][r], (unsigned long long)b);
            CHECK(L.ans[1][rv_sa(x, r)] == b, "lcp '%s': PLCP wrong", str);
        }
        break;
    case TOPIC_SEARCH: {
        uint64_t m = strlen(L.pattern);
        uint8_t pc[64];
        for (uint64_t d = 0; d < m; d++) pc[d] = rv_alpha_code(x->seq->alpha, (unsigned char)L.pattern[d]);
        size_t e0 = 0, ek = 0;
        for (uint64_t p = 0; p + m <= n; p++) {
            uint64_t mm = 0, brk = 0;
            for (uint64_t d = 0; d < m; d++) brk |= t[p + d] == RV_BREAK, mm += t[p + d] != pc[d];
            if (brk || mm > o->k) continue;
            if (!mm) {
                CHECK(e0 < L.n_ans[0] && L.ans[0][e0] == p, "search '%s' for '%s': exact hit %llu missing", str,
                      L.pattern, (unsigned long long)p);
                e0++;
            }
            CHECK(2 * ek + 1 < L.n_ans[1] && L.ans[1][2 * ek] == p && L.ans[1][2 * ek + 1] == mm,
                  "search '%s' for '%s'/%u: hit %llu (%llu) missing", str, L.pattern, o->k, (unsigned long long)p,
                  (unsigned long long)mm);
            ek++;
        }
        CHECK(e0 == L.n_ans[0] && 2 * ek == L.n_ans[1], "search '%s' for '%s': %zu/%zu hits, brute %zu/%zu", str,
              L.pattern, L.n_ans[0], L.n_ans[1] / 2, e0, ek);
        for (size_t i = 0; i < L.n_ans[0]; i++) {
            snprintf(want, sizeof want, " %llu", (unsigned long long)L.ans[0][i]);
            CHECK(strstr(frame, want), "search: the last frame lacks hit %s", want);
        }
        break;
    }
    case TOPIC_LR: {
        CHECK(L.n_ans[0] == n && L.n_ans[1] == n, "lr: %zu entries", L.n_ans[0]);
        for (uint64_t i = 0; i < n && L.n_ans[0] == n; i++) {
            CHECK(L.ans[0][i] == b_llr(t, n, i), "lr '%s': L[%llu] %llu, brute %llu", str, (unsigned long long)i,
                  (unsigned long long)L.ans[0][i], (unsigned long long)b_llr(t, n, i));
            CHECK(L.ans[1][i] == b_lr(t, n, i), "lr '%s': LR at %llu %llu, brute %llu", str, (unsigned long long)i,
                  (unsigned long long)L.ans[1][i], (unsigned long long)b_lr(t, n, i));
        }
        break;
    }
    case TOPIC_PAIRS: {
        size_t k = 0;
        for (uint64_t p = 0; p < n; p++)
            for (uint64_t q = p + 1; q < n; q++) {
                uint64_t l = b_lcp(t, n, p, q);
                if (!l || l < o->min_len) continue;
                if (p && t[p - 1] && t[q - 1] == t[p - 1]) continue; /* grows to the left */
                snprintf(want, sizeof want, "(%llu,%llu,%llu)", (unsigned long long)p, (unsigned long long)q,
                         (unsigned long long)l);
                check_triple(&L, k, (uint64_t[3]){p, q, l}, frame, want, str);
                k += 3;
            }
        CHECK(k == L.n_ans[0], "pairs '%s': %zu pairs, brute %zu", str, L.n_ans[0] / 3, k / 3);
        break;
    }
    case TOPIC_RUNS: {
        size_t k = 0;
        for (uint64_t s = 0; s < n; s++) /* runs in (start, period) order */
            for (uint64_t p = 1; 2 * p <= n - s; p++) {
                if (s && t[s - 1] && t[s - 1] == t[s - 1 + p]) continue; /* extends left */
                uint64_t e = s + p, brk = 0;
                for (uint64_t j = s; j < s + p; j++) brk |= t[j] == RV_BREAK;
                while (e < n && t[e] && t[e] == t[e - p]) e++;
                if (brk || e - s < 2 * p || smallest_period(t, s, e) != p) continue;
                snprintf(want, sizeof want, "[%llu,%llu)  p=%llu", (unsigned long long)s, (unsigned long long)e,
                         (unsigned long long)p);
                check_triple(&L, k, (uint64_t[3]){s, e, p}, frame, want, str);
                k += 3;
            }
        CHECK(k == L.n_ans[0], "runs '%s': %zu runs, brute %zu", str, L.n_ans[0] / 3, k / 3);
        break;
    }
    case N_TOPICS: break;
    }
    teach_free(&L);
}

static const char *const classroom[] = {"mississippi", "banana", "abracadabra", "ACGTNACGTACGTT"};

static void test_classroom(void)
{
    for (int t = 0; t < N_TOPICS; t++) {
        case_begin();
        teach_opts_t o;
        teach_opts_init(&o);
        for (size_t s = 0; s < sizeof classroom / sizeof *classroom; s++) check_lesson((teach_topic_t)t, classroom[s], RV_ALPHA_AUTO, &o);
        o.large = 1; /* the large layout draws the same answer */
        check_lesson((teach_topic_t)t, "banana", RV_ALPHA_AUTO, &o);
        char name[64];
        snprintf(name, sizeof name, "teach_%s_classroom", teach_topic_name((teach_topic_t)t));
        case_end(name);
    }
}

static void test_random(void)
{
    static const char *const alpha[] = {"ACGT", "ACGTN", "AC", "A", "ACDEFGHIKLMNPQRSTVWYX", "ab c."};
    static const rv_alpha_t code[] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN,
                                      RV_ALPHA_TEXT};
    static const char *const letters[] = {"ACGT", "ACGT", "AC", "A", "ACDEFGHIKLMNPQRSTVWY", "ab c."};
    rng_t r = rng_new(16);
    for (int t = 0; t < N_TOPICS; t++) {
        case_begin();
        int iters = check_iters(60);
        for (int it = 0; it < iters && !check_failed_; it++) {
            int kind = (int)rng_below(&r, 6);
            char s[TEACH_MAX_N + 1], pat[8];
            size_t len = 1 + rng_below(&r, TEACH_MAX_N), period = 1 + rng_below(&r, 4);
            for (size_t i = 0; i < len; i++)
                s[i] = i >= period && rng_below(&r, 3) ? s[i - period] : alpha[kind][rng_below(&r, strlen(alpha[kind]))];
            s[len] = 0;
            teach_opts_t o;
            teach_opts_init(&o);
            o.k = (unsigned)rng_below(&r, 3);
            o.min_len = 1 + rng_below(&r, 3);
            if (rng_below(&r, 2)) { /* a pattern given, else picked from the text */
                size_t m = 1 + rng_below(&r, 4);
                for (size_t i = 0; i < m; i++) pat[i] = letters[kind][rng_below(&r, strlen(letters[kind]))];
                pat[m] = 0;
                o.pattern = pat;
            }
            rv_seq_t *q = rv_seq_from_string(s, len, code[kind], "s");
            int empty = q && q->n == 0;
            rv_seq_free(q);
            if (empty) continue; /* all breakers: test_errors */
            check_lesson((teach_topic_t)t, s, code[kind], &o);
        }
        char name[64];
        snprintf(name, sizeof name, "teach_%s_random_vs_brute", teach_topic_name((teach_topic_t)t));
        case_end(name);
    }
}

static void expect_error(const char *str, rv_alpha_t alpha, const teach_opts_t *o, teach_topic_t t, const char *what)
{
    lesson_t L;
    int rc = teach_build(&L, t, str, strlen(str), alpha, o);
    CHECK(rc < 0 && strstr(L.err, what) && !strchr(L.err, '\n'), "'%s': rc %d, err '%s', want '%s'", str, rc, L.err, what);
    teach_free(&L);
}

static void test_errors(void)
{
    case_begin();
    teach_opts_t o;
    teach_opts_init(&o);
    expect_error("", RV_ALPHA_AUTO, &o, TOPIC_SA, "empty");
    expect_error("ACGTACGTACGTACGTACGTA", RV_ALPHA_AUTO, &o, TOPIC_SA, "at most 20");
    o.large = 1;
    expect_error("ACGTACGTACGTA", RV_ALPHA_AUTO, &o, TOPIC_SA, "at most 12 fit a screen with --large");
    o.large = 0;
    expect_error("NNNN", RV_ALPHA_DNA, &o, TOPIC_LCP, "no letter that matches");
    expect_error("ab\tc", RV_ALPHA_TEXT, &o, TOPIC_SA, "cannot be drawn");
    o.pattern = "AN";
    expect_error("ACGTNACGT", RV_ALPHA_DNA, &o, TOPIC_SEARCH, "'N' is a breaker");
    o.pattern = NULL;
    o.at = 4;
    expect_error("ACGTNACGT", RV_ALPHA_DNA, &o, TOPIC_LR, "breaker");
    case_end("teach_bad_input");
}

int main(void)
{
    test_classroom();
    test_random();
    test_errors();
    return check_exit();
}
