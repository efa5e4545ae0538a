/* fuzz_region.c — region and position strings ("chr:beg-end", "{a:b}:1,000-2k",
 * "+250", bare numbers) against a small sequence of four records, one of them
 * empty and one with colons in its name: either a message, or a range inside its
 * record. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "repview/seq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rv_seq_t *s;
    if (!s) {
        const char *names[] = {"chr1", "chr2", "a:b", "empty"};
        const char *seqs[] = {"ACGTACGTNNNNACGTTTGACCA", "GGGCCCAAATTT", "ACGT", ""};
        s = rv_seq_from_records(names, seqs, 4, RV_ALPHA_DNA);
        if (!s) abort();
    }
    if (size > 4096) return 0;
    char *str = malloc(size + 1);
    memcpy(str, data, size);
    str[size] = 0;
    uint64_t rid = 0, beg = 0, end = 0;
    if (rv_seq_parse_region(s, str, &rid, &beg, &end) == 0)
        if (rid >= s->n_rec || beg > end || end > s->rec[rid].len) abort();
    int64_t g = rv_seq_parse_pos(s, str);
    if (g >= 0 && (uint64_t)g >= s->glen) abort();
    free(str);
    return 0;
}
