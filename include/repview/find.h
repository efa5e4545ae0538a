/* find.h — pattern matches and longest overlaps on the suffix array
 * (repview-find(1): `find` and `overlap`).
 *
 * A pattern is compiled against an index: its matches (on one or both strands,
 * IUPAC codes, up to k mismatches) are found at once as a short list of SA
 * intervals, so counting touches no occurrence.  Occurrences are produced on
 * demand, in text order, as pages or one at a time (next/previous hit from a
 * cursor).  All positions are TEXT positions (index into rv_seq_t.text); a hit
 * covers text[pos, pos + length) on the forward strand, whatever its strand.
 *
 * Pattern letters are case-insensitive.  DNA: A C G T (U = T) and the IUPAC codes
 * R Y S W K M B D H V N match their sets of bases.  Protein: letters match
 * themselves and X matches any residue.  Text: every byte matches itself (case
 * folded).  Breakers in the text never match anything, not even as a mismatch.
 *
 * A compiled pattern caches its sorted hits; use one pattern from one thread at a
 * time.  Errors: NULL or a negative value with a message (rv_last_error()).
 *
 * The explorer's `/` and n/N, for example:
 *     rv_pattern_t *p = rv_find_compile(x, typed, strlen(typed), RV_STRAND_BOTH, 0);
 *     int64_t total = rv_find_count(p);              // status line "3 of 120"
 *     rv_hit_t page[50];
 *     int64_t k = rv_find_page(p, view_start, page, 50); // hits on screen, in order
 *     rv_hit_t h;
 *     if (rv_find_next(p, (int64_t)cursor, &h) == 1) cursor = h.pos;  // n
 *     if (rv_find_prev(p, cursor, &h) == 1) cursor = h.pos;           // N
 *     rv_find_free(p);
 */
#ifndef REPVIEW_FIND_H
#define REPVIEW_FIND_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "repview/index.h"

typedef enum { RV_STRAND_FWD = 1, RV_STRAND_REV = 2, RV_STRAND_BOTH = 3 } rv_strand_t;

/* Parse "+", "-" or "both"; 0 or -1. */
int rv_strand_parse(const char *s, rv_strand_t *out);

/* One match.  strand is '+' (the pattern) or '-' (its reverse complement). */
typedef struct {
    uint64_t pos;     /* text position of the first matched symbol */
    uint32_t pattern; /* index of the pattern in rv_find_many()'s array, else 0 */
    uint16_t mism;    /* mismatches (Hamming) */
    char strand;      /* '+' or '-' */
} rv_hit_t;

typedef struct rv_pattern rv_pattern_t;

/* Compile pat[0, len) for index x (the search itself runs on first use).  strand RV_STRAND_REV or
 * BOTH needs a DNA index.  k = mismatches allowed.  Returns NULL with a message
 * for an empty pattern, a letter that cannot match, or a strand mode the alphabet
 * does not have.  The pattern keeps a pointer to x (x must outlive it). */
rv_pattern_t *rv_find_compile(const rv_index_t *x, const char *pat, size_t len,
                              rv_strand_t strand, unsigned k);
void rv_find_free(rv_pattern_t *p);

/* Split a pattern as a person types it, "PATTERN" or "PATTERN/K" (K mismatches, at
 * most max_k), into pat (cap bytes, NUL-terminated) and *k.  0, or -1 with a
 * message (empty, too long, too many mismatches). */
int rv_find_parse_typed(const char *line, unsigned max_k, char *pat, size_t cap, unsigned *k);

/* Let another thread stop a long search (a short pattern with many mismatches
 * on a big genome): once *flag is non-zero the search returns -1 with the
 * message "cancelled", and a later call starts it again.  NULL: never. */
void rv_find_set_cancel(rv_pattern_t *p, const _Atomic int *flag);

/* Length of the pattern (every hit covers this many text symbols). */
size_t rv_find_length(const rv_pattern_t *p);

/* Number of hits (a position matched on both strands counts twice); the first
 * call searches (O(m log n) for an exact pattern), later ones are O(1).  -1 when
 * out of memory. */
int64_t rv_find_count(rv_pattern_t *p);

/* Up to max hits with pos >= from, ordered by (pos, strand '+' first).  Returns
 * the number written, or -1 (out of memory). */
int64_t rv_find_page(rv_pattern_t *p, uint64_t from, rv_hit_t *out, size_t max);

/* The first hit with pos > after (after = -1: the first hit), or the last hit
 * with pos < before (before = UINT64_MAX: the last hit).  1 found, 0 none,
 * -1 out of memory.  The caller wraps around for n/N when it wants to. */
int rv_find_next(rv_pattern_t *p, int64_t after, rv_hit_t *hit);
int rv_find_prev(rv_pattern_t *p, uint64_t before, rv_hit_t *hit);

/* Every hit of n patterns (all compiled for x), ordered by (pos, strand,
 * pattern index); hit.pattern is the index in pats.  *out is malloc()ed (the
 * caller frees).  threads > 1 searches patterns in parallel.  Returns the number
 * of hits or -1. */
int64_t rv_find_many(const rv_index_t *x, rv_pattern_t *const *pats, size_t n, int threads,
                     rv_hit_t **out);

/* Sort hits into rv_find_many()'s order, (pos, strand, pattern), on up to
 * `threads` threads (0: every core).  0 or -1 (memory). */
int rv_hits_sort(rv_hit_t *h, uint64_t n, int threads);

/* ---- from the text alone (scale-out; find_text.c) ---------------------
 * Matches found by scanning the text instead of searching an index: each pattern
 * (each strand) is filed under the codes of its first k symbols (its prefix
 * bucket, every code within its mismatches and IUPAC sets: several buckets), and a
 * pass over a range of the text checks, at each position, only the patterns filed
 * under the code of the k symbols there.  Ranges are independent: threads or MPI
 * ranks take them in any order, their hits joined in range order are rv_find_many's
 * answer, in its order. */

/* Compile a pattern for the text of seq (no index: for rv_find_text only; same
 * rules and errors as rv_find_compile). */
rv_pattern_t *rv_find_compile_seq(const rv_seq_t *seq, const char *pat, size_t len, rv_strand_t strand,
                                  unsigned k);

typedef struct rv_find_text rv_find_text_t;
/* File n patterns (from rv_find_compile_seq for s; they must outlive it) under
 * their prefix buckets.  NULL with a message when out of memory. */
rv_find_text_t *rv_find_text_new(const rv_seq_t *s, rv_pattern_t *const *pats, size_t n);
void rv_find_text_free(rv_find_text_t *f);
/* The prefix length in symbols (the shortest pattern's length, at most what 2^22
 * codes allow: 11 for DNA). */
int rv_find_text_k(const rv_find_text_t *f);
/* Every hit starting in text [lo, hi), ordered by (pos, strand, pattern), in a
 * malloc()ed *out (threads: 0 = all).  The number of hits, or -1 with a message. */
int64_t rv_find_text_range(const rv_find_text_t *f, uint64_t lo, uint64_t hi, int threads, rv_hit_t **out);

/* ---- longest overlap (Zhong et al.) ------------------------------------------- */

#define RV_OVERLAP_MAX_OCC 100

/* Longest prefix of a query (or, for RV_STRAND_REV/BOTH on DNA, of its reverse
 * complement) occurring in the text. */
typedef struct {
    uint64_t len;                     /* 0 when not even the first symbol occurs */
    uint64_t n_occ;                   /* occurrences of that prefix (all strands) */
    size_t n_hits;                    /* hits[] filled: the first ones in text order */
    rv_hit_t hits[RV_OVERLAP_MAX_OCC];
} rv_overlap_t;

/* Longest overlap of q[0, len) (bytes as read; letters that are breakers in the
 * index's alphabet stop the prefix).  0, or -1 with a message (strand needs DNA). */
int rv_overlap(const rv_index_t *x, const char *q, size_t len, rv_strand_t strand,
               rv_overlap_t *res);

/* rv_overlap() for n queries, spread over threads (0 = all cores); res[i] for
 * q[i].  0, or -1 with a message. */
int rv_overlap_many(const rv_index_t *x, const char *const *q, const size_t *len, size_t n,
                    rv_strand_t strand, int threads, rv_overlap_t *res);

/* ---- streaming FASTA/FASTQ reader for patterns and queries --------------- */

typedef struct rv_reads rv_reads_t;

/* Open PATH ("-" = stdin; plain, gzip or bgzip; FASTA or FASTQ).  NULL + message. */
rv_reads_t *rv_reads_open(const char *path);
/* Next record: 1 (name and seq valid until the next call), 0 at the end, -1 on a
 * malformed or truncated file (message set). */
int rv_reads_next(rv_reads_t *r, const char **name, const char **seq, size_t *len);
void rv_reads_close(rv_reads_t *r);

/* A batch of records (rv_reads_batch): n records; name[i] (NUL-terminated, name_len[i]
 * bytes, strlen(name[i])) and seq[i] (NUL-terminated, len[i] bytes) stay valid until
 * the next rv_reads_batch() on the same batch or rv_read_batch_free(), the reader's
 * close included.  Start from a zeroed batch; reuse it (its storage is kept). */
typedef struct {
    size_t n;
    const char **name, **seq;
    size_t *name_len, *len;
    void *mem; /* storage, owned by the batch */
} rv_read_batch_t;

/* The next records, the same ones rv_reads_next would give: at most `most` of them
 * and about `bytes` bytes of input (at least one record), parsed by `threads` threads
 * (0 = all cores) where the input is a plain regular file (mapped; it must not change
 * while read); else (stdin, pipes, gzip/bgzip) record by record, `bytes` counting
 * names and sequences.  A batch may hold fewer than `most` records before the end.
 * 1 (b->n >= 1), 0 at the end of the input (b->n == 0), -1 on a malformed or
 * truncated file or no records at all (b->n == 0; the message rv_reads_next would
 * give, record number included).  Calls of rv_reads_next and rv_reads_batch may be
 * mixed: each goes on where the other stopped (a batch ends the validity of what
 * rv_reads_next returned). */
int rv_reads_batch(rv_reads_t *r, size_t most, size_t bytes, int threads, rv_read_batch_t *b);
void rv_read_batch_free(rv_read_batch_t *b);

#endif
