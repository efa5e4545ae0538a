/* t_ui_names.c — oracle tests of how the explorer finds records by what a person
 * types (ui/explorer/names.c), on random record names made of a few letters,
 * digits, '.', ':' and '|' (so tokens repeat, are empty, or hold a colon):
 *   - a token of a name, and the records holding one, against splitting every
 *     name at '|' by brute force;
 *   - a region by token: a resolved one parses to a record holding the token and
 *     the coordinates typed; an unresolved one names no record's token; an
 *     ambiguous one names a token of two records or more;
 *   - the record list's filter against lower-casing and strstr() per word. */
#include <ctype.h>
#include "check.h"
#include "repview/common.h"
#include "repview/seq.h"
#include "../ui/explorer/names.c"

/* Brute force: the number of records whose name, cut at every '|', has a part
 * equal to tok[0, len). */
static uint64_t brute_count(const rv_seq_t *s, const char *tok, size_t len)
{
    uint64_t n = 0;
    for (uint64_t r = 0; r < s->n_rec; r++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s->rec[r].name);
        int has = 0;
        for (char *p = buf, *bar;; p = bar + 1) {
            bar = strchr(p, '|');
            if (bar) *bar = 0;
            if (len && strlen(p) == len && !strncmp(p, tok, len)) has = 1;
            if (!bar) break;
        }
        n += (uint64_t)has;
    }
    return n;
}

static void random_word(rng_t *r, char *out, size_t max, const char *alpha)
{
    size_t n = 1 + rng_below(r, max - 1);
    for (size_t i = 0; i < n; i++) out[i] = alpha[rng_below(r, strlen(alpha))];
    out[n] = 0;
}

static rv_seq_t *random_records(rng_t *r, int *n_out, char names[][24])
{
    int n = 1 + (int)rng_below(r, 6);
    const char *np[8], *sp[8];
    for (int k = 0; k < n; k++) {
        int unique;
        do { /* '|'-joined tokens from a small pool, so records share some */
            names[k][0] = 0;
            int parts = 1 + (int)rng_below(r, 4);
            for (int q = 0; q < parts; q++) {
                char w[8];
                random_word(r, w, 4, rng_below(r, 3) ? "ab1." : "a:");
                if (rng_below(r, 6) == 0) w[0] = 0; /* an empty part: "a||b" */
                strcat(names[k], w);
                if (q + 1 < parts) strcat(names[k], "|");
            }
            unique = names[k][0] != 0;
            for (int j = 0; j < k; j++) unique &= strcmp(names[j], names[k]) != 0;
        } while (!unique);
        np[k] = names[k];
        sp[k] = "ACGTACGTAC";
    }
    if (n_out) *n_out = n;
    return rv_seq_from_records(np, sp, n, RV_ALPHA_DNA); /* with its name lookup */
}

static void test_tokens(void)
{
    rng_t r = rng_new(41);
    case_begin();
    int iters = check_iters(2000);
    for (int it = 0; it < iters && !check_failed_; it++) {
        char names[8][24];
        rv_seq_t *s = random_records(&r, NULL, names);
        CHECK(s, "records");
        for (int q = 0; q < 20 && s && !check_failed_; q++) {
            char tok[8];
            random_word(&r, tok, 4, "ab1.:");
            uint64_t got_n, want = brute_count(s, tok, strlen(tok));
            int64_t second, first = names_by_token(s, tok, strlen(tok), &got_n, &second);
            CHECK(got_n == want, "'%s': %llu records, brute %llu", tok, (unsigned long long)got_n, (unsigned long long)want);
            CHECK(want == 0 ? first == -1 : first >= 0 && names_has_token(s->rec[first].name, tok, strlen(tok)),
                  "'%s': first %lld", tok, (long long)first);
            CHECK(want < 2 ? second == -1 : second > first && names_has_token(s->rec[second].name, tok, strlen(tok)),
                  "'%s': second %lld", tok, (long long)second);
        }
        rv_seq_free(s);
    }
    case_end("names_token_vs_brute");
}

static void test_regions(void)
{
    rng_t r = rng_new(42);
    case_begin();
    int iters = check_iters(2000), resolved = 0, ambiguous = 0;
    for (int it = 0; it < iters && !check_failed_; it++) {
        char names[8][24];
        int n;
        rv_seq_t *s = random_records(&r, &n, names);
        if (!s) { CHECK(0, "records"); break; }
        for (int q = 0; q < 20 && !check_failed_; q++) {
            char tok[24], region[64], out[128], err[200];
            if (rng_below(&r, 2)) { /* a part of a name, or a random word */
                const char *nm = names[rng_below(&r, (uint64_t)n)];
                const char *p = nm;
                for (uint64_t skip = rng_below(&r, 3); skip && strchr(p, '|'); skip--) p = strchr(p, '|') + 1;
                snprintf(tok, sizeof tok, "%.*s", (int)strcspn(p, "|"), p);
            } else {
                random_word(&r, tok, 4, "ab1.:");
            }
            uint64_t b = 1 + rng_below(&r, 10), e = b + rng_below(&r, 10 - b + 1);
            int form = (int)rng_below(&r, 3);
            if (form == 0) snprintf(region, sizeof region, "%s", tok);
            else if (form == 1) snprintf(region, sizeof region, "%s:%llu", tok, (unsigned long long)b);
            else snprintf(region, sizeof region, "%s:%llu-%llu", tok, (unsigned long long)b, (unsigned long long)e);
            int rc = names_resolve_region(s, region, out, sizeof out, err, sizeof err);
            /* NAME:COORDS read by hand: the text before the last ':' when digits
             * (and one '-') follow it */
            const char *colon = strrchr(region, ':');
            unsigned long long cb = 0, ce = 10;
            char tail;
            int coords = colon && (sscanf(colon + 1, "%llu-%llu%c", &cb, &ce, &tail) == 2 ||
                                   (sscanf(colon + 1, "%llu%c", &cb, &tail) == 1 && (ce = 10)));
            size_t pl = coords ? (size_t)(colon - region) : 0;
            uint64_t whole = brute_count(s, region, strlen(region)), part = coords ? brute_count(s, region, pl) : 0;
            if (rc == 1) {
                resolved++;
                uint64_t rid, beg, end;
                CHECK(rv_seq_parse_region(s, out, &rid, &beg, &end) == 0, "'%s' -> '%s': %s", region, out, rv_last_error());
                int by_whole = whole == 1 && names_has_token(s->rec[rid].name, region, strlen(region));
                int by_part = whole == 0 && part == 1 && names_has_token(s->rec[rid].name, region, pl);
                CHECK(by_whole || by_part, "'%s' -> %s, whole %llu part %llu", region, s->rec[rid].name,
                      (unsigned long long)whole, (unsigned long long)part);
                if (by_part) CHECK(beg == cb - 1 && end == ce, "'%s': [%llu, %llu)", region, (unsigned long long)beg,
                                   (unsigned long long)end);
            } else if (rc == 0) {
                CHECK(whole == 0 && part == 0, "'%s' unresolved, whole %llu part %llu", region, (unsigned long long)whole,
                      (unsigned long long)part);
            } else {
                ambiguous++;
                CHECK(whole > 1 || (whole == 0 && part > 1), "'%s' ambiguous, whole %llu part %llu", region,
                      (unsigned long long)whole, (unsigned long long)part);
            }
        }
        rv_seq_free(s);
    }
    CHECK(resolved > iters && ambiguous > 0, "too few cases: %d resolved, %d ambiguous", resolved, ambiguous);
    case_end("names_region_by_token");
}

/* Brute force: every word of filter is in lower(name) or lower(desc). */
static int brute_filter(const char *name, const char *desc, const char *filter)
{
    char n[64], d[64], f[64];
    snprintf(n, sizeof n, "%s", name);
    snprintf(d, sizeof d, "%s", desc ? desc : "");
    snprintf(f, sizeof f, "%s", filter);
    for (char *p = n; *p; p++) *p = (char)tolower((unsigned char)*p);
    for (char *p = d; *p; p++) *p = (char)tolower((unsigned char)*p);
    for (char *p = f; *p; p++) *p = (char)tolower((unsigned char)*p);
    for (char *w = strtok(f, " "); w; w = strtok(NULL, " "))
        if (!strstr(n, w) && !strstr(d, w)) return 0;
    return 1;
}

static void test_filter(void)
{
    rng_t r = rng_new(43);
    case_begin();
    int iters = check_iters(50000), hits = 0;
    for (int it = 0; it < iters && !check_failed_; it++) {
        char name[16], desc[24], filter[16];
        random_word(&r, name, 8, "aAbB|1");
        random_word(&r, desc, 12, "aAbB c");
        random_word(&r, filter, 8, "abAB  ");
        const char *d = rng_below(&r, 4) ? desc : NULL; /* a record without description too */
        int got = names_filter_match(name, d, filter), want = brute_filter(name, d, filter);
        CHECK(got == want, "name '%s' desc '%s' filter '%s': %d, brute %d", name, desc, filter, got, want);
        hits += got;
    }
    CHECK(hits > 0 && hits < iters, "the filter always %s", hits ? "matches" : "fails");
    case_end("names_filter_vs_brute");
}

int main(void)
{
    test_tokens();
    test_regions();
    test_filter();
    return check_exit();
}
