/* reads.c — streaming FASTA/FASTQ records (patterns for `find -f`, queries for
 * `overlap`).
 *
 * Two readers behind one API, giving the same records and the same errors:
 *  - a regular, uncompressed file is read in large blocks with read(2) and parsed
 *    in place (memchr over lines; a one-line sequence is handed out where it lies in
 *    the block, a multi-line one is compacted over its own line breaks).  This is
 *    several times faster than kseq, which copies every line byte by byte into its
 *    strings and reads through 16 KiB buffers;
 *  - stdin, pipes and gzip/bgzip files go through htslib's kseq over BGZF.
 * rv_reads_batch (reads_batch.c) runs the block parser in threads over the mapped
 * file; on other inputs it copies what rv_reads_next gives.
 *
 * The block parser implements kseq_read()'s state machine exactly (htslib kseq.h):
 * skip to a '>' or '@'; the name runs to the first isspace() byte, the rest of the
 * header line is the comment; sequence lines follow (empty lines skipped, a '\r'
 * before the '\n' dropped when the string is longer than 1) up to a line starting
 * with '>', '@' or '+'; after '+' the rest of that line is skipped and quality lines
 * are read until they are at least as long as the sequence (at least one line).
 * tests/t_reads.c compares both on random inputs cut into blocks of a few bytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h> /* munmap of a batch's map */
#include <sys/stat.h>
#include <unistd.h>
#include <htslib/bgzf.h>
#include <htslib/kseq.h>
#include "repview/common.h"
#include "repview/find.h"
#include "base/internal.h"
#include "reads_internal.h"
#include "reads_parse.h"

KSEQ_INIT(BGZF *, bgzf_read)

enum { BLOCK_DEFAULT = 16 << 20 };


static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* ---- opening ------------------------------------------------------------------- */

/* A regular file that does not start with the gzip magic: the block path. */
static int open_plain(const char *path)
{
    if (strcmp(path, "-") == 0) return -1;
    const int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    struct stat st;
    unsigned char m[2];
    const ssize_t k = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, m, 2, 0) : -1;
    if (k < 0 || (k == 2 && m[0] == 0x1f && m[1] == 0x8b)) { close(fd); return -1; }
    return fd;
}

rv_reads_t *rv_reads_open_block(const char *path, size_t block)
{
    rv_reads_t *r = calloc(1, sizeof *r);
    if (!r) { rv_oom("query reader", sizeof *r); return NULL; }
    r->fd = -1;
    r->min_chunk = MIN_CHUNK;
    r->pending = 1;
    r->ctx = strdup(strcmp(path, "-") == 0 ? "stdin" : path);
    if (!r->ctx) { rv_oom("query reader", strlen(path) + 1); rv_reads_close(r); return NULL; }
    r->fd = open_plain(path);
    if (r->fd >= 0) {
        (void)posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);  /* a hint: larger read-ahead */
        r->cap = block ? block : 1;
        r->buf = malloc(r->cap + 1);
        if (!r->buf) { rv_oom("query file's buffer", r->cap + 1); rv_reads_close(r); return NULL; }
        return r;
    }
    errno = 0;
    r->fp = bgzf_open(path, "r");
    if (!r->fp) {
        rv_error(path, "cannot open: %s", errno ? strerror(errno) : "unknown error");
        rv_reads_close(r);
        return NULL;
    }
    kseq_t *ks = kseq_init(r->fp);
    r->ks = ks;
    if (!ks) { rv_oom("query reader", 1 << 16); rv_reads_close(r); return NULL; }
    return r;
}

rv_reads_t *rv_reads_open(const char *path) { return rv_reads_open_block(path, BLOCK_DEFAULT); }

/* ---- the block parser ---------------------------------------------------------- */

/* Keep buf[pos, end), doubling the block when it is all one record, and fill the
 * rest from the file.  0, or -1 with a message. */
static int refill(rv_reads_t *r)
{
    memmove(r->buf, r->buf + r->pos, r->end - r->pos);
    r->base += r->pos;
    r->end -= r->pos;
    r->pos = 0;
    if (r->end == r->cap) {
        char *b = realloc(r->buf, 2 * r->cap + 1);
        if (!b) return rv_oom("query file's buffer", 2 * r->cap + 1);
        r->buf = b;
        r->cap *= 2;
    }
    while (r->end < r->cap) {
        const ssize_t k = pread(r->fd, r->buf + r->end, r->cap - r->end, (off_t)(r->base + r->end));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return rv_error(r->ctx, "read error: %s", strerror(errno));
        if (k == 0) { r->eof = 1; break; }
        r->end += (size_t)k;
    }
    return 0;
}

/* The end of the line starting at q (its '\n', or end at the end of the file);
 * SIZE_MAX when the block ends first. */
static size_t line_end(const rv_reads_t *r, size_t q)
{
    const char *nl = memchr(r->buf + q, '\n', r->end - q);
    if (nl) return (size_t)(nl - r->buf);
    return r->eof ? r->end : SIZE_MAX;
}

/* The sequence lines from *q: kseq's loop.  Counts the length into rec (and with
 * dst, writes the joined lines there); *q ends after the line-start byte that
 * stopped it, *c is that byte or -1 at the end of the file.  0 or NEED_MORE. */
int reads_seq_lines(const rv_reads_t *r, size_t *q, int *c, rec_t *rec, char *dst)
{
    const char *b = r->buf;
    size_t p = *q, l = 0;
    rec->lines = 0;
    for (;;) {
        if (p >= r->end) {
            if (!r->eof) return NEED_MORE;
            *c = -1;
            break;
        }
        *c = (unsigned char)b[p++];
        if (*c == '>' || *c == '+' || *c == '@') break;
        if (*c == '\n') continue;
        const size_t e = line_end(r, p);
        if (e == SIZE_MAX) return NEED_MORE;
        if (rec->lines++ == 0) rec->first = p - 1;
        const char last = e > p ? b[e - 1] : (char)*c;
        if (dst) {  /* writes stay below p: the bytes still to be read are intact */
            dst[l] = (char)*c;
            memmove(dst + l + 1, b + p, e - p);
        }
        l += 1 + (e - p);
        const int gotany = p < r->end;  /* kseq's getuntil found bytes after c */
        p = e < r->end ? e + 1 : e;
        if (gotany && l > 1 && last == '\r') l--;
    }
    *q = p;
    rec->len = l;
    return 0;
}

/* Append qual bytes to r->qual (grown as needed).  0 or -1. */
static int qual_put(rv_reads_t *r, size_t at, const char *s, size_t k)
{
    if (k == 0) return 0;
    if (at + k > r->qual_cap) {
        size_t cap = r->qual_cap ? r->qual_cap : 256;
        while (cap < at + k) cap *= 2;
        char *q = realloc(r->qual, cap);
        if (!q) return rv_oom("query qualities", cap);
        r->qual = q;
        r->qual_cap = cap;
    }
    memcpy(r->qual + at, s, k);
    return 0;
}

/* Quality lines from *q until they hold at least len bytes: kseq's loop, the
 * lines joined in r->qual only when there are several.  Sets *qlen.  0,
 * NEED_MORE, or -1 (out of memory). */
static int qual_lines(rv_reads_t *r, size_t *q, size_t len, size_t *qlen)
{
    size_t p = *q, l = 0;
    int lines = 0;
    do {
        if (p >= r->end) {
            if (!r->eof) return NEED_MORE;
            break;
        }
        const size_t e = line_end(r, p);
        if (e == SIZE_MAX) return NEED_MORE;
        if (lines++ == 0) {
            l = e - p;
            if (l > 1 && r->buf[e - 1] == '\r') l--;
            if (l >= len) { p = e < r->end ? e + 1 : e; break; }
            if (qual_put(r, 0, r->buf + p, l) < 0) return -1;
        } else {
            if (qual_put(r, l, r->buf + p, e - p) < 0) return -1;
            l += e - p;
            if (l > 1 && r->qual[l - 1] == '\r') l--;
        }
        p = e < r->end ? e + 1 : e;
    } while (l < len);
    *q = p;
    *qlen = l;
    return 0;
}

/* Parse the record at r->pos without changing the block.  1 (record in rec, *next
 * and *next_char where the following one starts), kseq's -1 (end) or -2 (bad
 * quality), NEED_MORE, or -3 (out of memory, message set). */
int reads_parse(rv_reads_t *r, rec_t *rec, size_t *next, int *next_char)
{
    const char *b = r->buf;
    size_t p = r->pos;
    if (!r->last_char) {  /* skipping to a header is final: commit it */
        while (p < r->end && b[p] != '>' && b[p] != '@') p++;
        r->pos = p;
        if (p == r->end) return r->eof ? -1 : NEED_MORE;
        r->last_char = b[p];
        r->pos = ++p;
    }
    rec->name = p;
    while (p < r->end && !is_space((unsigned char)b[p])) p++;
    if (p == r->end && !r->eof) return NEED_MORE;
    if (p == rec->name && p == r->end) return -1;  /* kseq: no name bytes left */
    rec->name_end = p;
    if (p < r->end) {  /* the rest of the header line */
        const size_t e = b[p] == '\n' ? p : line_end(r, p + 1);
        if (e == SIZE_MAX) return NEED_MORE;
        p = e < r->end ? e + 1 : e;
    }
    rec->seq = p;
    int c;
    if (reads_seq_lines(r, &p, &c, rec, NULL) == NEED_MORE) return NEED_MORE;
    rec->seq_end = p;
    *next_char = c == '>' || c == '@' ? c : 0;
    if (c == '+') {
        const size_t e = line_end(r, p);
        if (e == SIZE_MAX) return NEED_MORE;
        if (e == r->end) return -2;  /* kseq: no newline after '+' */
        p = e + 1;
        size_t qlen;
        const int rc = qual_lines(r, &p, rec->len, &qlen);
        if (rc != 0) return rc < 0 ? -3 : rc;
        if (qlen != rec->len) return -2;
    }
    *next = p;
    return 1;
}

static int block_next(rv_reads_t *r, const char **name, const char **seq, size_t *len)
{
    rec_t rec;
    size_t next;
    int next_char, rc;
    while ((rc = reads_parse(r, &rec, &next, &next_char)) == NEED_MORE)
        if (refill(r) < 0) return -3;
    if (rc != 1) return rc;
    /* The record is whole: now write into the block (the bytes written are its
     * own separators, or the spare byte past the end). */
    char *b = r->buf;
    size_t s = rec.first;
    if (rec.lines > 1) {
        size_t q = rec.seq;
        int c;
        reads_seq_lines(r, &q, &c, &rec, b + rec.seq);
        s = rec.seq;
    }
    b[rec.name_end] = 0;
    *name = b + rec.name;
    if (rec.lines == 0) *seq = "";
    else { b[s + rec.len] = 0; *seq = b + s; }
    *len = rec.len;
    r->pos = next;
    r->last_char = next_char;
    return 1;
}

/* ---- the API --------------------------------------------------------------------- */

/* What the reader answers when the parse of record n + 1 gave l < 0 (kseq's codes:
 * -1 the end, -2 bad quality, -3 a read error): 0 at the end, else -1 + message. */
int reads_no_record(const rv_reads_t *r, int l)
{
    if (l == -1) {
        if (r->n == 0) return rv_error(r->ctx, "no FASTA or FASTQ records");
        return 0;
    }
    return rv_error(r->ctx, "record %llu: %s", (unsigned long long)r->n + 1,
                    l == -2 ? "quality and sequence lengths differ (truncated FASTQ?)"
                            : "truncated or corrupt input");
}

int rv_reads_next(rv_reads_t *r, const char **name, const char **seq, size_t *len)
{
    int l;
    if (r->pending < 1) return r->pending < 0 ? rv_error(NULL, "%s", r->pending_msg) : 0;  /* a batch's */
    if (r->fd >= 0) {
        l = block_next(r, name, seq, len);
        if (l == -3) return -1;  /* message set */
    } else {
        kseq_t *ks = r->ks;
        l = kseq_read(ks);
        if (l >= 0) {
            *name = ks->name.s;
            *seq = ks->seq.s ? ks->seq.s : "";
            *len = ks->seq.l;
        }
    }
    if (l < 0) return reads_no_record(r, l);
    r->n++;
    return 1;
}

void rv_reads_close(rv_reads_t *r)
{
    if (!r) return;
    if (r->ks) kseq_destroy((kseq_t *)r->ks);
    if (r->fp) bgzf_close(r->fp);
    if (r->fd >= 0) close(r->fd);
    if (r->map) munmap((void *)r->map, r->map_size);
    free(r->buf);
    free(r->qual);
    free(r->ctx);
    free(r);
}
