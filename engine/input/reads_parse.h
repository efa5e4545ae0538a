/* reads_parse.h — the reader's state and the block parser of reads.c, shared with
 * the batches of reads_batch.c. */
#ifndef REPVIEW_READS_PARSE_H
#define REPVIEW_READS_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <htslib/bgzf.h>
#include "repview/find.h"

enum { NEED_MORE = 2 };  /* parse status: the record runs past the block */
enum { MIN_CHUNK = 256 << 10 };  /* a batch thread's input, at least */

struct rv_reads {
    BGZF *fp;        /* kseq path */
    void *ks;        /* its kseq_t */
    int fd;          /* block path (-1 when kseq) */
    char *buf;       /* block: buf[0, end) read, one spare byte for a final NUL */
    size_t cap, end, pos;  /* pos: where the next record's parse starts */
    uint64_t base;   /* the file offset of buf[0] */
    int last_char;   /* '>' or '@' already consumed before pos, else 0 */
    int eof;         /* end holds the end of the file */
    char *qual;      /* multi-line quality lines, joined as kseq does */
    size_t qual_cap;
    char *ctx;
    uint64_t n;
    /* rv_reads_batch on a plain file: the whole file mapped (map_tried once) */
    const char *map;
    size_t map_size, map_kept;  /* the pages below map_kept were given back */
    int map_tried;
    size_t min_chunk;           /* bytes of input a thread gets at least */
    int any_guess;              /* tests: chunks start at any '>' or '@' byte */
    uint64_t seen_in, seen_recs; /* input bytes and records batches took */
    int pending;                /* an answer a sequential batch kept: 1 none, 0 end, -1 error */
    char pending_msg[512];
};

/* One parsed record: offsets into buf. */
typedef struct {
    size_t name, name_end;
    size_t seq, seq_end;     /* the sequence lines' region */
    size_t first, len;       /* first non-empty line; length kseq gives */
    size_t lines;            /* non-empty sequence lines */
} rec_t;

/* Parse the record at r->pos without changing the block: 1 (record in rec, *next and
 * *next_char where the following one starts), kseq's -1 (end) or -2 (bad quality),
 * NEED_MORE, or -3 (out of memory, message set). */
int reads_parse(rv_reads_t *r, rec_t *rec, size_t *next, int *next_char);
/* The sequence lines from *q (kseq's loop), their length into rec, joined into dst
 * when not NULL; *c the byte that stopped them (-1 at the end).  0 or NEED_MORE. */
int reads_seq_lines(const rv_reads_t *r, size_t *q, int *c, rec_t *rec, char *dst);
/* The answer when the parse of record n + 1 gave l < 0: 0 at the end, else -1 +
 * message (no record at all is an error too). */
int reads_no_record(const rv_reads_t *r, int l);

#endif
