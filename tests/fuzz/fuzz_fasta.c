/* fuzz_fasta.c — the FASTA/FASTQ reader: the input as a file's bytes goes through the
 * serial reader and the parallel one (cut into chunks of a few bytes over two
 * threads), then the text encoding both ways; the two must agree on every record,
 * byte and segment, or fail with the same message.  One input in eight also goes
 * through a real file, plain and gzip-compressed, with 1 and 2 threads. */
#include <htslib/bgzf.h>
#include <htslib/hts_log.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "input/seq_internal.h"

static rv_seq_t *parse(const char *buf, size_t len, int threads, uint64_t chunk, char *err)
{
    rv_seq_t *s = calloc(1, sizeof *s);
    s->path = strdup("fuzz");
    int rc = threads ? rv_seq_parse_buffer(s, buf, len, "fuzz", threads, chunk)
                     : rv_seq_parse_serial(s, buf, len, "fuzz");
    if (rc == 0) return s;
    snprintf(err, 300, "%s", rv_last_error());
    rv_seq_free(s);
    return NULL;
}

static void same(const rv_seq_t *a, const rv_seq_t *b, int encoded)
{
    if (a->n_rec != b->n_rec || a->glen != b->glen || memcmp(a->raw, b->raw, a->glen)) abort();
    for (uint64_t i = 0; i < a->n_rec; i++)
        if (strcmp(a->rec[i].name, b->rec[i].name) || a->rec[i].off != b->rec[i].off || a->rec[i].len != b->rec[i].len)
            abort();
    if (!encoded) return;
    if (a->n != b->n || memcmp(a->text, b->text, a->n) || a->n_seg != b->n_seg || a->alpha != b->alpha) abort();
    for (uint64_t i = 0; i < a->n_seg; i++)
        if (a->seg[i].tpos != b->seg[i].tpos || a->seg[i].gpos != b->seg[i].gpos || a->seg[i].len != b->seg[i].len)
            abort();
}

static void through_files(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_fasta.%d", (int)getpid());
    for (int gz = 0; gz < 2; gz++) {
        if (gz) {
            BGZF *z = bgzf_open(path, "wg");
            if (!z) return;
            if (size) bgzf_write(z, data, size);
            bgzf_close(z);
        } else {
            FILE *f = fopen(path, "wb");
            if (!f) return;
            fwrite(data, 1, size, f);
            fclose(f);
        }
        rv_seq_t *a = rv_seq_load_threads(path, RV_ALPHA_AUTO, 1);
        rv_seq_t *b = rv_seq_load_threads(path, RV_ALPHA_AUTO, 2);
        if (!a != !b) abort();
        if (a) same(a, b, 1);
        rv_seq_free(a);
        rv_seq_free(b);
    }
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    if (!quiet++) hts_set_log_level(HTS_LOG_OFF);
    if (size > (1 << 20)) return 0;
    char ea[300] = "", eb[300] = "";
    const char *buf = (const char *)data;
    uint64_t chunk = size ? 1 + data[0] % 17 : 1;
    rv_seq_t *a = parse(buf, size, 0, 0, ea);
    rv_seq_t *b = parse(buf, size, 2, chunk, eb);
    if (!a != !b) abort();
    if (!a && strcmp(ea, eb)) abort();
    if (a) {
        same(a, b, 0);
        rv_alpha_t alpha = (rv_alpha_t)(size ? data[size - 1] % 4 : 0);
        if (rv_seq_encode_serial(a, alpha) || rv_seq_encode_threads(b, alpha, 2, chunk)) abort();
        same(a, b, 1);
    }
    rv_seq_free(a);
    rv_seq_free(b);
    if (size && data[0] % 8 == 0) through_files(data, size);
    return 0;
}
