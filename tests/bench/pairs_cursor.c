/* pairs_cursor.c — bench-only program of tests/bench/pairs.sh (compiled by the
 * script, not part of the test suite): latency of the explorer's pairs pane query,
 * rv_pairs_covering() at random cursor positions, against a 16 ms p99 (one frame at 60 Hz).
 *
 *   pairs_cursor FILE MIN_LEN [QUERIES [PAGE [MAX_WORK]]]
 * prints: min_len queries p50_ms p99_ms max_ms mean_pairs max_pairs incomplete
 */
#include <stdio.h>
#include <stdlib.h>
#include "repview/build.h"
#include "repview/common.h"
#include "repview/pairs.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pairs_cursor FILE MIN_LEN [QUERIES [PAGE [MAX_WORK]]]\n");
        return 2;
    }
    rv_build_opts_t bo;
    rv_build_opts_init(&bo);
    bo.with_llr = 0;
    rv_index_t *x = rv_open(argv[1], RV_ALPHA_AUTO, &bo, 1);
    if (!x || x->n == 0) {
        fprintf(stderr, "pairs_cursor: %s\n", x ? "empty input" : rv_last_error());
        return 1;
    }
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, strtoull(argv[2], NULL, 10));
    o.longest_first = 1;
    int nq = argc > 3 ? atoi(argv[3]) : 2000;
    size_t page = argc > 4 ? strtoull(argv[4], NULL, 10) : 50;
    uint64_t max_work = argc > 5 ? strtoull(argv[5], NULL, 10) : 2000000;
    double *t = malloc((size_t)(nq > 0 ? nq : 1) * sizeof *t);
    uint64_t sum = 0, most = 0, incomplete = 0, seed = 88172645463325252ull;
    for (int i = 0; i < nq; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        uint64_t pos = seed % x->n;
        double t0 = rv_now();
        rv_pairs_page_t pg;
        if (rv_pairs_covering(x, &o, pos, page, max_work, &pg) < 0) {
            fprintf(stderr, "pairs_cursor: %s\n", rv_last_error());
            return 1;
        }
        t[i] = (rv_now() - t0) * 1e3;
        sum += pg.total;
        most = pg.total > most ? pg.total : most;
        incomplete += !pg.complete;
        rv_pairs_page_free(&pg);
    }
    qsort(t, (size_t)nq, sizeof *t, cmp_double);
    printf("%7llu %7d %8.3f %8.3f %8.3f %11.1f %10llu %10llu\n", (unsigned long long)o.min_len, nq,
           t[nq / 2], t[(size_t)nq * 99 / 100], t[nq - 1], (double)sum / nq, (unsigned long long)most,
           (unsigned long long)incomplete);
    free(t);
    rv_index_free(x);
    return 0;
}
