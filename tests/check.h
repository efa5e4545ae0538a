/* check.h — the tiny test harness of repview's C tests.
 *
 * A test program runs named cases; each case ends in exactly one line
 * "PASS name" or "FAIL name: why", which tests/run counts.  Inside a case use
 * CHECK(cond, fmt, ...): on failure it records the first message and the case
 * fails.  Random cases take their seed from RV_SEED (default fixed) so failures
 * reproduce; RV_TEST_QUICK=1 asks for fewer iterations (sanitizer builds).
 */
#ifndef REPVIEW_TESTS_CHECK_H
#define REPVIEW_TESTS_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failed_;
static char check_msg_[512];
static int check_total_fail_;

static inline void check_fail_(const char *file, int line, const char *fmt, ...)
{
    if (check_failed_) return;
    check_failed_ = 1;
    int k = snprintf(check_msg_, sizeof check_msg_, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(check_msg_ + k, sizeof check_msg_ - (size_t)k, fmt, ap);
    va_end(ap);
}

#define CHECK(cond, ...) \
    do { if (!(cond)) check_fail_(__FILE__, __LINE__, __VA_ARGS__); } while (0)

/* Begin a case. */
static inline void case_begin(void) { check_failed_ = 0; check_msg_[0] = 0; }
/* End a case: prints its PASS/FAIL line; returns 1 when it passed. */
static inline int case_end(const char *name)
{
    if (check_failed_) {
        printf("FAIL %s: %s\n", name, check_msg_);
        check_total_fail_++;
    } else {
        printf("PASS %s\n", name);
    }
    fflush(stdout);
    return !check_failed_;
}
/* Exit status of a test program. */
static inline int check_exit(void) { return check_total_fail_ ? 1 : 0; }

/* Iterations scaled down under RV_TEST_QUICK. */
static inline int check_iters(int n)
{
    const char *q = getenv("RV_TEST_QUICK");
    return q && *q && *q != '0' ? (n / 10 > 0 ? n / 10 : 1) : n;
}

/* xorshift64* generator, seeded from RV_SEED or the given default. */
typedef struct { uint64_t s; } rng_t;
static inline rng_t rng_new(uint64_t def)
{
    const char *e = getenv("RV_SEED");
    rng_t r = {e ? strtoull(e, NULL, 10) : def};
    if (!r.s) r.s = 88172645463325252ull;
    return r;
}
static inline uint64_t rng_next(rng_t *r)
{
    r->s ^= r->s >> 12; r->s ^= r->s << 25; r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}
static inline uint64_t rng_below(rng_t *r, uint64_t n) { return n ? rng_next(r) % n : 0; }

/* 1 when two indexes hold byte-identical copies of section id (both absent counts). */
#include "repview/index.h"
static inline int same_section(const rv_index_t *a, const rv_index_t *b, int id)
{
    uint64_t na = 0, nb = 0;
    const void *pa = rv_index_section(a, id, &na), *pb = rv_index_section(b, id, &nb);
    if (!pa || !pb) return !pa && !pb;
    return na == nb && memcmp(pa, pb, na) == 0;
}

#endif
