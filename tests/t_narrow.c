/* t_narrow.c — one-byte arrays with a table of big values (narrow.h) against the
 * full arrays they were made from: every entry read back, for 32- and 64-bit
 * sources and tables, empty to dense tables, values at the 254/255/256 edge and
 * beyond 32 bits, block edges, several thread counts; the GPU's route
 * (rv_narrow_big_from32) and the gather through a permutation (rv_narrow_pack_gather)
 * must give the same bytes; broken sections are refused. */
#include "check.h"
#include "repview/common.h"
#include "repview/narrow.h"

static uint64_t value(rng_t *r, int density, int src_wide)
{
    uint64_t k = rng_below(r, 100);
    if ((int)k >= density) return rng_below(r, 255);
    switch (rng_below(r, 4)) {
    case 0: return 255;
    case 1: return 254 + rng_below(r, 4);
    case 2: return 255 + rng_below(r, 100000);
    default: return src_wide ? (1ull << 33) + rng_below(r, 1000) : 0xffffffffu - rng_below(r, 1000);
    }
}

static void one(rng_t *r, uint64_t n, int density, int src_wide, int wide, int threads, const char *what)
{
    size_t w = src_wide ? 8 : 4;
    void *full = malloc(n * w + 8);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = value(r, density, src_wide);
        if (!wide && v > 0xffffffffu) v = 0xffffffffu; /* a 32-bit table holds 32-bit values */
        rv_put(full, src_wide, i, v);
    }
    uint8_t *small = NULL;
    void *big = NULL;
    uint64_t bytes = 0, want_big = 0;
    CHECK(rv_narrow_pack(full, src_wide, n, wide, threads, &small, &big, &bytes) == 0, "%s: pack", what);
    rv_narrow_t a;
    CHECK(rv_narrow_view(&a, small, n, big, bytes, n, wide) == 0, "%s: view refused", what);
    for (uint64_t i = 0; i < n && !check_failed_; i++) {
        uint64_t v = rv_get(full, src_wide, i);
        want_big += v >= RV_NARROW_ESC;
        CHECK(rv_narrow_get(&a, i) == v, "%s: entry %llu = %llu, want %llu", what, (unsigned long long)i,
              (unsigned long long)rv_narrow_get(&a, i), (unsigned long long)v);
    }
    CHECK(a.n_big == want_big, "%s: %llu big values, want %llu", what, (unsigned long long)a.n_big,
          (unsigned long long)want_big);
    if (!src_wide && !check_failed_) { /* the GPU's route from 32-bit lists */
        uint32_t *pos = malloc(a.n_big * 4 + 4), *val = malloc(a.n_big * 4 + 4);
        uint64_t k = 0;
        for (uint64_t i = 0; i < n; i++)
            if (rv_get(full, src_wide, i) >= RV_NARROW_ESC) {
                pos[k] = (uint32_t)i;
                val[k++] = (uint32_t)rv_get(full, src_wide, i);
            }
        uint64_t b2 = 0;
        void *big2 = rv_narrow_big_from32(pos, val, k, n, wide, &b2);
        CHECK(big2 && b2 == bytes && !memcmp(big, big2, bytes), "%s: big section from 32-bit lists differs", what);
        free(big2);
        free(pos);
        free(val);
    }
    if (!check_failed_) { /* gathered through a permutation (LCP from PLCP and SA) */
        void *perm = malloc(n * w + 8), *shuffled = malloc(n * w + 8);
        for (uint64_t i = 0; i < n; i++) rv_put(perm, src_wide, i, i);
        for (uint64_t i = n; i > 1; i--) { /* Fisher-Yates */
            uint64_t j = rng_below(r, i), t = rv_get(perm, src_wide, i - 1);
            rv_put(perm, src_wide, i - 1, rv_get(perm, src_wide, j));
            rv_put(perm, src_wide, j, t);
        }
        for (uint64_t i = 0; i < n; i++) rv_put(shuffled, src_wide, rv_get(perm, src_wide, i), rv_get(full, src_wide, i));
        uint8_t *small2 = NULL;
        void *big2 = NULL;
        uint64_t b2 = 0;
        CHECK(rv_narrow_pack_gather(shuffled, perm, src_wide, n, wide, threads, &small2, &big2, &b2) == 0,
              "%s: gather", what);
        CHECK(b2 == bytes && !memcmp(small, small2, n) && !memcmp(big, big2, bytes),
              "%s: gathered form differs from the form of the gathered array", what);
        free(small2);
        free(big2);
        free(perm);
        free(shuffled);
    }
    /* broken sections are refused, never read */
    CHECK(rv_narrow_view(&a, small, n + 1, big, bytes, n, wide) < 0, "%s: short small part accepted", what);
    CHECK(rv_narrow_view(&a, small, n, big, bytes - 1, n, wide) < 0, "%s: short big part accepted", what);
    CHECK(rv_narrow_view(&a, small, n, big, bytes, n, !wide) < 0 || n == 0, "%s: wrong width accepted", what);
    uint64_t nb;
    memcpy(&nb, big, 8);
    uint64_t bad = nb + 1;
    memcpy(big, &bad, 8);
    CHECK(rv_narrow_view(&a, small, n, big, bytes, n, wide) < 0, "%s: wrong count accepted", what);
    memcpy(big, &nb, 8);
    free(small);
    free(big);
    free(full);
}

int main(void)
{
    rng_t r = rng_new(42);
    static const uint64_t sizes[] = {0, 1, 2, 254, 255, 256, 257, 511, 512, 513, 4096, 100003};
    static const int dens[] = {0, 1, 20, 100};
    case_begin();
    char what[96];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < sizeof dens / sizeof *dens; d++)
            for (int sw = 0; sw < 2; sw++)
                for (int w = 0; w < 2; w++) {
                    int threads = 1 + (int)rng_below(&r, 4);
                    snprintf(what, sizeof what, "n=%llu density=%d%% src%d out%d t%d", (unsigned long long)sizes[s],
                             dens[d], sw ? 64 : 32, w ? 64 : 32, threads);
                    one(&r, sizes[s], dens[d], sw, w, threads, what);
                }
    case_end("narrow_arrays_read_back");

    case_begin();
    for (int it = 0; it < check_iters(40) && !check_failed_; it++) {
        uint64_t n = 1 + rng_below(&r, 3 << 20);
        snprintf(what, sizeof what, "random n=%llu", (unsigned long long)n);
        one(&r, n, (int)rng_below(&r, 101), 0, (int)rng_below(&r, 2), 1 + (int)rng_below(&r, 4), what);
    }
    case_end("narrow_arrays_random_sizes");
    return check_exit();
}
