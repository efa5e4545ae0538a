/* text_buf.h — a growing NUL-terminated byte string for tests that build inputs,
 * and picking a random byte of a set. */
#ifndef REPVIEW_TESTS_TEXT_BUF_H
#define REPVIEW_TESTS_TEXT_BUF_H

#include "check.h"

typedef struct {
    char *s;
    size_t len, cap;
} buf_t;

static inline void put(buf_t *b, const char *s, size_t l)
{
    if (b->len + l + 1 > b->cap) {
        b->cap = (b->len + l + 1) * 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, l);
    b->len += l;
    b->s[b->len] = 0;
}
static inline void putc_(buf_t *b, char c) { put(b, &c, 1); }
static inline void puts_(buf_t *b, const char *s) { put(b, s, strlen(s)); }

static inline char pick(rng_t *r, const char *set) { return set[rng_below(r, strlen(set))]; }

#endif
