/* t_ui.c — oracle tests of the explorer's non-drawing parts: the LR lengths of a
 * screenful (ui/explorer/lrlen.c: sliding-window maximum over the LLRs) against brute force
 * on small random texts, the LLR helpers, the key table (every key bound once) and
 * the --keys parser. */
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lr.h"
#include "../ui/explorer/keys.c"
#include "../ui/explorer/lrlen.c"
#include "../ui/explorer/script.c"

/* Brute force: the longest repeat covering text position k (0 when none). */
static uint64_t brute_lr(const rv_seq_t *s, uint64_t k)
{
    const uint8_t *t = s->text;
    uint64_t n = s->n, best = 0;
    if (t[k] == RV_BREAK) return 0;
    for (uint64_t i = k + 1; i-- > 0;) {
        if (t[i] == RV_BREAK) break;
        for (uint64_t j = 0; j < n; j++) { /* another occurrence at j of text[i, ...) */
            if (j == i) continue;
            uint64_t l = 0;
            while (i + l < n && j + l < n && t[i + l] != RV_BREAK && t[i + l] == t[j + l]) l++;
            if (i + l > k && l > best) best = l;
        }
    }
    return best;
}

static rv_seq_t *random_seq(rng_t *r, int kind)
{
    static const char *const alpha[] = {"ACGT", "ACGTN", "AC", "A", "ACDEFGHIKLMNPQRSTVWYX", "ab c."};
    const rv_alpha_t code[] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT};
    int n_rec = 1 + (int)rng_below(r, 3);
    char *seqs[3], names[3][16];
    const char *sp[3], *np[3];
    for (int k = 0; k < n_rec; k++) {
        size_t len = 1 + rng_below(r, 60);
        seqs[k] = malloc(len + 1);
        uint64_t period = 1 + rng_below(r, 5);
        for (size_t i = 0; i < len; i++) /* periodic stretches make long repeats */
            seqs[k][i] = i >= period && rng_below(r, 3) ? seqs[k][i - period]
                                                      : alpha[kind][rng_below(r, strlen(alpha[kind]))];
        seqs[k][len] = 0;
        snprintf(names[k], sizeof names[k], "r%d", k);
        sp[k] = seqs[k];
        np[k] = names[k];
    }
    rv_seq_t *s = rv_seq_from_records(np, sp, n_rec, code[kind]);
    for (int k = 0; k < n_rec; k++) free(seqs[k]);
    return s;
}

static void test_lengths(void)
{
    rng_t r = rng_new(7);
    case_begin();
    int iters = check_iters(300);
    for (int it = 0; it < iters && !check_failed_; it++) {
        rv_seq_t *s = random_seq(&r, it % 6);
        if (!s || s->n == 0) { rv_seq_free(s); continue; }
        rv_build_opts_t o;
        rv_build_opts_init(&o);
        o.force_wide = it % 2;
        o.with_llr = (it / 2) % 2; /* with and without the LLR sections */
        rv_index_t *x = rv_build(s, &o, NULL);
        CHECK(x, "build failed: %s", rv_last_error());
        if (!x) break;
        uint64_t n = x->n, *got = malloc(n * sizeof *got);
        uint64_t t0 = rng_below(&r, n), m = 1 + rng_below(&r, n - t0);
        lr_lengths(x, t0, m, got);
        for (uint64_t j = 0; j < m; j++) {
            uint64_t want = brute_lr(x->seq, t0 + j);
            CHECK(got[j] == want, "iter %d pos %llu: LR %llu, brute force %llu", it, (unsigned long long)(t0 + j),
                  (unsigned long long)got[j], (unsigned long long)want);
        }
        for (uint64_t k = 0; k < n; k++) { /* first covering LLR, usefulness */
            uint64_t first = k + 1;
            for (uint64_t i = 0; i <= k; i++)
                if (i + lr_llr(x, i) > k) { first = i; break; }
            CHECK(lr_first_cover(x, k) == first, "iter %d pos %llu: first cover", it, (unsigned long long)k);
            uint64_t l = lr_llr(x, k), prev = k ? lr_llr(x, k - 1) : 0;
            CHECK(lr_llr_useful(x, k) == (l > 0 && (k == 0 || l >= prev)), "iter %d: useful at %llu", it,
                  (unsigned long long)k);
        }
        uint64_t t = rng_below(&r, n), minlen = 1 + rng_below(&r, 4);
        int64_t want = -1;
        for (uint64_t i = t + 1; i < n && want < 0; i++)
            if (lr_llr(x, i) >= minlen && lr_llr(x, i - 1) < lr_llr(x, i)) want = (int64_t)i;
        CHECK(lr_next_long(x, t, 1, minlen, n) == want, "iter %d: next long repeat after %llu", it,
              (unsigned long long)t);
        free(got);
        rv_index_free(x);
    }
    case_end("ui_lr_lengths_vs_brute_force");
}

static void test_keys(void)
{
    case_begin();
    for (int i = 0; i < rv_key_table_len; i++)
        for (int k = 0; k < 3; k++) {
            int key = rv_key_table[i].keys[k];
            if (!key) continue;
            CHECK(keys_action(key) == rv_key_table[i].act, "key %s bound to two actions", keys_name(key));
            CHECK(!(key >= '1' && key <= '9'), "digit %c is a count, not an action", key);
        }
    CHECK(keys_action(127) == ACT_PAGE_UP, "DEL is Backspace");
    CHECK(keys_action('Q') == ACT_NONE, "Q is unbound");
    case_end("ui_key_table_unique");
}

static void test_script(void)
{
    case_begin();
    int *k = NULL;
    char err[200];
    int n = script_parse("ab<CR><Esc><Tab><S-Tab><C-x><lt><Down><F1><resize:60x20>", &k, err, sizeof err);
    int want[] = {'a', 'b', '\r', 27, '\t', KEY_BTAB, RV_CTRL('x'), '<', KEY_DOWN, KEY_F(1),
                  SCRIPT_RESIZE | 60 << 12 | 20};
    CHECK(n == (int)(sizeof want / sizeof *want), "parsed %d keys", n);
    for (int i = 0; i < n && i < (int)(sizeof want / sizeof *want); i++) CHECK(k[i] == want[i], "key %d", i);
    free(k);
    CHECK(script_parse("<Nope>", &k, err, sizeof err) < 0 && strstr(err, "<Nope>"), "unknown name rejected");
    CHECK(script_parse("a<b", &k, err, sizeof err) == 3, "a lone < is a key");
    free(k);
    case_end("ui_script_keys");
}

int main(void)
{
    test_lengths();
    test_keys();
    test_script();
    return check_exit();
}
