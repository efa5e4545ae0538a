/* names.c — finding records by what a person types, without drawing anything:
 * a record by any unique token of its name (the parts between '|' of an NCBI
 * name, so "CP001236.1" finds "gi|227014638|gb|CP001236.1|"), a region whose
 * name is such a token rewritten with the full name, and the filter of the
 * record list (every word typed, in any case, in the name or the description).
 * tests/t_ui_names.c checks each against brute force. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "names.h"

int names_has_token(const char *name, const char *tok, size_t len)
{
    if (len == 0) return 0;
    for (const char *p = name;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && memcmp(p, tok, len) == 0) return 1;
        if (!bar) return 0;
        p = bar + 1;
    }
}

int64_t names_by_token(const rv_seq_t *s, const char *tok, size_t len, uint64_t *n_match, int64_t *second)
{
    int64_t first = -1;
    *n_match = 0;
    if (second) *second = -1;
    for (uint64_t r = 0; r < s->n_rec; r++) {
        if (!names_has_token(s->rec[r].name, tok, len)) continue;
        if (++*n_match == 1) first = (int64_t)r;
        else if (*n_match == 2 && second) *second = (int64_t)r;
    }
    return first;
}

/* Does the text after a record name read as coordinates: digits, commas, at most
 * one '-' (samtools' POS, BEG-END, BEG-)? */
static int coords_like(const char *c)
{
    int dash = 0, digits = 0;
    for (; *c; c++) {
        if (*c == '-' && !dash++) continue;
        if (*c == ',') continue;
        if (!isdigit((unsigned char)*c)) return 0;
        digits++;
    }
    return digits > 0;
}

int names_resolve_region(const rv_seq_t *s, const char *region, char *out, size_t outlen, char *err, size_t errlen)
{
    err[0] = 0;
    if (!region[0] || region[0] == '{') return 0;
    size_t len = strlen(region);
    const char *colon = strrchr(region, ':');
    /* the whole text as a token first (names may hold ':'), then NAME:COORDS */
    for (int pass = 0; pass < 2; pass++) {
        size_t tl = pass == 0 ? len : colon ? (size_t)(colon - region) : 0;
        if (pass == 1 && (!colon || !coords_like(colon + 1))) break;
        uint64_t n;
        int64_t second;
        int64_t r = names_by_token(s, region, tl, &n, &second);
        if (n == 1) {
            const char *name = s->rec[r].name;
            int w = strchr(name, '}') ? snprintf(out, outlen, "%s%s", name, pass ? colon : "")
                                      : snprintf(out, outlen, "{%s}%s", name, pass ? colon : "");
            return w > 0 && (size_t)w < outlen ? 1 : 0;
        }
        if (n > 1) {
            snprintf(err, errlen, "%.*s is in %llu record names: %s, %s%s", (int)tl, region,
                     (unsigned long long)n, s->rec[r].name, s->rec[second].name, n > 2 ? ", ..." : "");
            return -1;
        }
    }
    return 0;
}

/* Case-insensitive search of the n bytes at w in text. */
static int contains(const char *text, const char *w, size_t n)
{
    if (!text) return 0;
    for (; *text; text++) {
        size_t k = 0;
        while (k < n && text[k] && tolower((unsigned char)text[k]) == tolower((unsigned char)w[k])) k++;
        if (k == n) return 1;
    }
    return 0;
}

int names_filter_match(const char *name, const char *desc, const char *filter)
{
    for (const char *p = filter; *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n && !contains(name, p, n) && !contains(desc, p, n)) return 0;
        p += n;
    }
    return 1;
}
