/* seq_internal.h — the reader's pieces shared by seq_serial.c (the serial, line-by-line
 * reader: the reference) and seq_read.c (the parallel reader), exposed so that
 * t_seq can cut small inputs into many chunks and compare the two. */
#ifndef REPVIEW_SEQ_INTERNAL_H
#define REPVIEW_SEQ_INTERNAL_H

#include <stdint.h>
#include <htslib/bgzf.h>
#include "repview/seq.h"

/* Length of a record name: the header up to its first blank, CR or NUL. */
size_t rv_seq_name_len(const char *header, size_t hlen);

/* Serial readers: every line of a BGZF stream or of buf[0, len) through one state
 * machine (FASTA and FASTQ).  Fill s->rec, s->raw (owned), s->glen; 0 or -1 with
 * the message of the first bad line. */
int rv_seq_parse_stream(rv_seq_t *s, BGZF *fp, const char *ctx);
int rv_seq_parse_serial(rv_seq_t *s, const char *buf, uint64_t len, const char *ctx);

/* Parallel reader of a buffer: FASTA (first non-empty line starts with '>') is cut
 * into chunks of at least `chunk` bytes at line ends, counted, then copied, by up to
 * `threads` threads; anything else goes to rv_seq_parse_serial.  Same records, bytes
 * and messages as the serial reader.  chunk 0 = the default (4 MiB). */
int rv_seq_parse_buffer(rv_seq_t *s, const char *buf, uint64_t len, const char *ctx,
                        int threads, uint64_t chunk);

/* Resolve the alphabet (detecting it when AUTO) and fill the code table. */
void rv_seq_set_alpha(rv_seq_t *s, rv_alpha_t alpha, uint8_t code[256]);

/* Text encoding, serially (the reference) or in chunks of at least `chunk` global
 * positions over `threads` threads (0 = defaults); both give the same text and segments. */
int rv_seq_encode_serial(rv_seq_t *s, rv_alpha_t alpha);
int rv_seq_encode_threads(rv_seq_t *s, rv_alpha_t alpha, int threads, uint64_t chunk);
/* 1 when rv_seq_encode_threads() encodes glen bytes of a file in parallel on
 * `threads` (0 = all cores) with its default chunk: the only case in which
 * rv_seq_load_placed() places the text. */
int rv_seq_encodes_in_parallel(uint64_t glen, int threads);

#endif
