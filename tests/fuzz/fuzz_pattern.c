/* fuzz_pattern.c — patterns as typed in the explorer ("PATTERN" or "PATTERN/K",
 * IUPAC codes) compiled against a small DNA index and counted on both strands:
 * a message or a count, and every hit of the first page inside the text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "repview/build.h"
#include "repview/find.h"
#include "repview/seq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rv_index_t *x;
    if (!x) {
        static char text[4001];
        uint64_t r = 88172645463325252ull;
        for (int i = 0; i < 4000; i++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            text[i] = i % 500 < 3 ? 'N' : "ACGT"[r % 4];
        }
        rv_build_opts_t o;
        rv_build_opts_init(&o);
        o.backend = RV_BACKEND_CPU;
        o.threads = 1;
        x = rv_build(rv_seq_from_string(text, 4000, RV_ALPHA_DNA, "t"), &o, NULL);
        if (!x) abort();
    }
    if (size > 512) return 0;
    char *line = malloc(size + 1), pat[128];
    memcpy(line, data, size);
    line[size] = 0;
    unsigned k;
    if (rv_find_parse_typed(line, 3, pat, sizeof pat, &k) == 0) {
        rv_pattern_t *p = rv_find_compile(x, pat, strlen(pat), RV_STRAND_BOTH, k);
        if (p) {
            int64_t total = rv_find_count(p);
            rv_hit_t page[16];
            int64_t got = total > 0 ? rv_find_page(p, 0, page, 16) : 0;
            for (int64_t i = 0; i < got; i++)
                if (page[i].pos >= x->n) abort();
            rv_find_free(p);
        }
    }
    free(line);
    return 0;
}
