/* find_pattern.c — compiling a pattern: letters to codes or code sets (IUPAC for
 * DNA, X for protein), the reverse complement strand, then the SA search. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "find_internal.h"

int rv_strand_parse(const char *s, rv_strand_t *out)
{
    if (strcmp(s, "+") == 0) *out = RV_STRAND_FWD;
    else if (strcmp(s, "-") == 0) *out = RV_STRAND_REV;
    else if (strcmp(s, "both") == 0) *out = RV_STRAND_BOTH;
    else return -1;
    return 0;
}

/* IUPAC nucleotide code -> set of DNA codes (bit 1 = A, 2 = C, 3 = G, 4 = T). */
static uint32_t iupac_mask(unsigned char c)
{
    enum { A = 1 << 1, C = 1 << 2, G = 1 << 3, T = 1 << 4 };
    switch (toupper(c)) {
    case 'A': return A;
    case 'C': return C;
    case 'G': return G;
    case 'T': case 'U': return T;
    case 'R': return A | G;
    case 'Y': return C | T;
    case 'S': return C | G;
    case 'W': return A | T;
    case 'K': return G | T;
    case 'M': return A | C;
    case 'B': return C | G | T;
    case 'D': return A | G | T;
    case 'H': return A | C | T;
    case 'V': return A | C | G;
    case 'N': return A | C | G | T;
    default: return 0;
    }
}

/* Complement of a DNA code set: code c <-> 5 - c (A <-> T, C <-> G). */
static uint32_t complement_mask(uint32_t m)
{
    uint32_t r = 0;
    for (unsigned c = 1; c <= 4; c++)
        if (m >> c & 1) r |= 1u << (5 - c);
    return r;
}

/* Set of codes letter ch matches in alphabet a (0 when it matches nothing). */
static uint32_t letter_mask(rv_alpha_t a, unsigned char ch, uint8_t *single)
{
    *single = 0;
    if (a == RV_ALPHA_DNA) {
        uint32_t m = iupac_mask(ch);
        for (unsigned c = 1; c <= 4; c++)
            if (m == 1u << c) *single = (uint8_t)c;
        return m;
    }
    if (a == RV_ALPHA_PROTEIN && toupper(ch) == 'X') return ((1u << 26) - 1) & ~1u;
    *single = rv_alpha_code(a, ch);
    return *single ? 1 : 0;
}

static int strand_alloc(rv_pat_strand_t *s, size_t m)
{
    s->code = calloc(m, 1);
    s->mask = calloc(m, sizeof *s->mask);
    s->exact_from = calloc(m + 1, 1);
    return s->code && s->mask && s->exact_from ? 0 : -1;
}

static void strand_finish(rv_pat_strand_t *s, size_t m)
{
    s->exact_from[m] = 1;
    for (size_t i = m; i-- > 0;) s->exact_from[i] = s->exact_from[i + 1] && s->code[i];
}

/* Fill both strands from the letters; -1 with a message for a bad letter. */
static int encode(rv_pattern_t *p, rv_alpha_t a, const char *pat)
{
    size_t m = p->m;
    for (size_t i = 0; i < m; i++) {
        unsigned char ch = (unsigned char)pat[i];
        uint8_t single;
        uint32_t mask = letter_mask(a, ch, &single);
        if (!mask) {
            char ctx[64];
            snprintf(ctx, sizeof ctx, "pattern '%.*s%s'", (int)(m > 40 ? 40 : m), pat, m > 40 ? "..." : "");
            if (isprint(ch)) return rv_error(ctx, "'%c' matches nothing in a %s index", ch, rv_alpha_name(a));
            return rv_error(ctx, "byte 0x%02x matches nothing in a %s index", ch, rv_alpha_name(a));
        }
        p->s[0].code[i] = single;
        p->s[0].mask[i] = mask;
        if (a == RV_ALPHA_DNA) {
            uint32_t cm = complement_mask(mask);
            p->s[1].code[m - 1 - i] = single ? (uint8_t)(5 - single) : 0;
            p->s[1].mask[m - 1 - i] = cm;
        }
    }
    strand_finish(&p->s[0], m);
    if (a == RV_ALPHA_DNA) strand_finish(&p->s[1], m);
    return 0;
}

rv_pattern_t *rv_find_compile_seq(const rv_seq_t *seq, const char *pat, size_t len, rv_strand_t strand,
                                  unsigned k)
{
    rv_alpha_t a = seq->alpha;
    if (len == 0) { rv_error("pattern", "empty pattern"); return NULL; }
    if (strand < RV_STRAND_FWD || strand > RV_STRAND_BOTH) { rv_error("pattern", "bad strand mode"); return NULL; }
    if ((strand & RV_STRAND_REV) && a != RV_ALPHA_DNA) {
        rv_error("pattern", "strand '-' needs a DNA index (this one is %s)", rv_alpha_name(a));
        return NULL;
    }
    if (k > 65535) k = 65535;
    rv_pattern_t *p = calloc(1, sizeof *p);
    if (!p) { rv_error("pattern", "out of memory"); return NULL; }
    p->m = len;
    p->k = k;
    p->strand = strand;
    p->cache_max = RV_FIND_CACHE_MAX;
    p->filter_max = RV_FIND_FILTER_MAX;
    int bad = strand_alloc(&p->s[0], len) < 0 ||
              (a == RV_ALPHA_DNA && strand_alloc(&p->s[1], len) < 0);
    if (bad) rv_error("pattern", "out of memory");
    if (bad || encode(p, a, pat) < 0) {
        rv_find_free(p);
        return NULL;
    }
    return p;
}

rv_pattern_t *rv_find_compile(const rv_index_t *x, const char *pat, size_t len,
                              rv_strand_t strand, unsigned k)
{
    rv_pattern_t *p = rv_find_compile_seq(x->seq, pat, len, strand, k);
    if (p) p->x = x;
    return p;
}

void rv_find_free(rv_pattern_t *p)
{
    if (!p) return;
    for (int i = 0; i < 2; i++) {
        free(p->s[i].code);
        free(p->s[i].mask);
        free(p->s[i].exact_from);
    }
    free(p->rng);
    free(p->lst);
    free(p->cache);
    free(p);
}

void rv_find_set_cancel(rv_pattern_t *p, const _Atomic int *flag) { p->cancel = flag; }

size_t rv_find_length(const rv_pattern_t *p) { return p->m; }

int64_t rv_find_count(rv_pattern_t *p)
{
    return rv_find_ensure(p) < 0 ? -1 : (int64_t)p->count;
}

int rv_find_parse_typed(const char *line, unsigned max_k, char *pat, size_t cap, unsigned *k)
{
    const char *slash = strrchr(line, '/');
    size_t len = strlen(line);
    *k = 0;
    if (slash && slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1)) {
        len = (size_t)(slash - line);
        if (strlen(slash + 1) > 3 || (unsigned)atoi(slash + 1) > max_k)
            return rv_error("pattern", "at most %u mismatches", max_k);
        *k = (unsigned)atoi(slash + 1);
    }
    if (len == 0) return rv_error("pattern", "empty pattern");
    if (len >= cap) return rv_error("pattern", "pattern too long");
    memcpy(pat, line, len);
    pat[len] = 0;
    return 0;
}
