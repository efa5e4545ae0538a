/* reads.c — streaming FASTA/FASTQ records (patterns for `find -f`, queries for
 * `overlap`) through htslib's kseq over BGZF: plain, gzip or bgzip, one record in
 * memory at a time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <htslib/bgzf.h>
#include <htslib/kseq.h>
#include "repview/common.h"
#include "repview/find.h"

KSEQ_INIT(BGZF *, bgzf_read)

struct rv_reads {
    BGZF *fp;
    kseq_t *ks;
    char *ctx;
    uint64_t n;
};

rv_reads_t *rv_reads_open(const char *path)
{
    rv_reads_t *r = calloc(1, sizeof *r);
    if (!r) { rv_error(path, "out of memory"); return NULL; }
    errno = 0;
    r->fp = bgzf_open(path, "r");
    r->ctx = strdup(strcmp(path, "-") == 0 ? "stdin" : path);
    if (!r->fp) {
        rv_error(path, "cannot open: %s", errno ? strerror(errno) : "unknown error");
        rv_reads_close(r);
        return NULL;
    }
    r->ks = kseq_init(r->fp);
    if (!r->ks || !r->ctx) { rv_error(path, "out of memory"); rv_reads_close(r); return NULL; }
    return r;
}

int rv_reads_next(rv_reads_t *r, const char **name, const char **seq, size_t *len)
{
    int l = kseq_read(r->ks);
    if (l == -1) {
        if (r->n == 0) return rv_error(r->ctx, "no FASTA or FASTQ records");
        return 0;
    }
    if (l < -1) {
        return rv_error(r->ctx, "record %llu: %s", (unsigned long long)r->n + 1,
                        l == -2 ? "quality and sequence lengths differ (truncated FASTQ?)"
                                : "truncated or corrupt input");
    }
    r->n++;
    *name = r->ks->name.s;
    *seq = r->ks->seq.s ? r->ks->seq.s : "";
    *len = r->ks->seq.l;
    return 1;
}

void rv_reads_close(rv_reads_t *r)
{
    if (!r) return;
    if (r->ks) kseq_destroy(r->ks);
    if (r->fp) bgzf_close(r->fp);
    free(r->ctx);
    free(r);
}
