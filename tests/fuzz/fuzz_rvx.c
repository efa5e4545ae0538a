/* fuzz_rvx.c — the .rvx loader on damaged files.  A small index (DNA with N runs,
 * two records, LLR arrays and tandem runs) is saved once with 32-bit and once with
 * 64-bit arrays; each input is a list of edits to a copy of one of them: 4-byte
 * offset, 1-byte xor, and a first byte that may cut the file short.  A byte left
 * over after the edits picks the 64-bit file, whose SA is stored in 5 bytes a rank
 * (SA40): the hashes of the SA40 blocks the edits touch are then made again (when no
 * edit touched the header, the table or the hashes), so that the damage reaches the
 * SA40 decoder instead of stopping at the block hash.  The copy is loaded; what loads is read through the clamped
 * accessors over every rank (what the explorer does before verification ends), then
 * verified; only what verifies is queried further (longest repeats, tandem runs).
 * A crash, a sanitizer report or a read outside the mapping is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/build.h"
#include "repview/index.h"
#include "repview/lr.h"
#include "repview/seq.h"
#include "repview/tandem.h"
#include "index/rvx_format.h"

static unsigned char *bases[2];
static size_t base_lens[2];

static void make_base(int wide)
{
    static char a[3001], b[1201];
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 3000; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        a[i] = i % 700 < 5 ? 'N' : "ACGT"[r % 4];
    }
    for (int i = 0; i < 1200; i++) b[i] = a[(i * 7) % 3000] == 'N' ? 'A' : a[(i * 7) % 3000];
    const char *names[] = {"one", "two"}, *seqs[] = {a, b};
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = 1;
    o.with_llr = o.with_runs = 1;
    o.force_wide = wide;
    rv_index_t *x = rv_build(rv_seq_from_records(names, seqs, 2, RV_ALPHA_DNA), &o, NULL);
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_rvx_base.%d.%d.rvx", (int)getpid(), wide);
    if (!x || rv_index_save(x, path) < 0) abort();
    rv_index_free(x);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    size_t base_len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *base = malloc(base_len);
    if (fread(base, 1, base_len, f) != base_len) abort();
    bases[wide] = base;
    base_lens[wide] = base_len;
    fclose(f);
    unlink(path);
}

static volatile uint64_t sink;

/* Hash again the SA40 blocks holding the edited offsets of copy (layout from the
 * intact base), then the block hashes' and the header's own hashes; nothing when
 * an edit fell outside the sections. */
static void reseal_sa40(unsigned char *copy, const unsigned char *base, size_t len, const uint32_t *offs, size_t k)
{
    rvx_header_t h;
    memcpy(&h, base, sizeof h);
    const rvx_entry_t *t = (const rvx_entry_t *)(base + sizeof h), *e = NULL;
    for (uint32_t i = 0; i < h.n_sections; i++)
        if (t[i].id == RV_SEC_SA40) e = &t[i];
    if (!e || h.hash_offset + h.n_hashes * 8 > len) return;
    for (size_t i = 0; i < k; i++)
        if (offs[i] < RVX_DATA_START || offs[i] >= h.hash_offset) return;
    uint64_t *hashes = (uint64_t *)(copy + h.hash_offset);
    for (size_t i = 0; i < k; i++) {
        if (offs[i] < e->offset || offs[i] >= e->offset + e->bytes) continue;
        const uint64_t b = (offs[i] - e->offset) / h.block_bytes, at = b * h.block_bytes;
        const uint64_t bl = e->bytes - at < h.block_bytes ? e->bytes - at : h.block_bytes;
        hashes[e->first_hash + b] = rvx_block_hash(copy + e->offset + at, bl, e->id, b);
    }
    h.hashes_hash = XXH3_64bits_withSeed(hashes, h.n_hashes * 8, 3);
    h.header_hash = 0;
    h.header_hash = XXH3_64bits_withSeed(&h, sizeof h, 2);
    memcpy(copy, &h, sizeof h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned serial;
    const int wide = size > 1 && (size - 1) % 5 != 0;
    if (!bases[wide]) make_base(wide);
    const unsigned char *base = bases[wide];
    const size_t base_len = base_lens[wide];
    size_t len = base_len;
    if (size && data[0] & 0x80) len = base_len * (data[0] & 0x7f) / 128; /* cut short */
    unsigned char *copy = malloc(base_len);
    uint32_t *offs = malloc((size / 5 + 1) * sizeof *offs);
    size_t k = 0;
    memcpy(copy, base, base_len);
    for (size_t i = 1; i + 5 <= size; i += 5) {
        uint32_t off;
        memcpy(&off, data + i, 4);
        copy[off % base_len] ^= data[i + 4];
        offs[k++] = (uint32_t)(off % base_len);
    }
    if (wide) reseal_sa40(copy, base, base_len, offs, k);
    free(offs);
    char path[80];
    /* a fresh name each time: a file found damaged is refused for the rest of the process */
    snprintf(path, sizeof path, "/tmp/fuzz_rvx.%d.%u.rvx", (int)getpid(), serial++);
    FILE *f = fopen(path, "wb");
    fwrite(copy, 1, len, f);
    fclose(f);
    free(copy);
    rv_index_t *x = NULL;
    if (rv_index_load(path, NULL, &x) == RV_RVX_OK) {
        uint64_t acc = 0;
        for (uint64_t r = 0; r < x->n; r++) acc += rv_sa(x, r) + rv_isa(x, r) + rv_lcp(x, r) + x->seq->text[rv_sa(x, r)];
        for (uint64_t g = 0; g < x->seq->glen; g++) acc += (unsigned char)x->seq->raw[g];
        sink = acc;
        if (rv_index_verify(x, RV_SEC_ALL_MASK, 1) == 0) {
            rv_lr_t lr[8];
            for (uint64_t t = 0; t < x->n; t += 7) acc += rv_lr_at(x, t, lr, 8);
            rv_runs_t runs;
            if (rv_runs_get(x, 1, NULL, &runs) == 0) acc += runs.n;
            sink = acc;
        }
        rv_index_free(x);
    }
    unlink(path);
    return 0;
}
