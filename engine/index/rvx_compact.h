/* rvx_compact.h — the compact file forms of the text, the sequence as read, the
 * runs and the SA of a wide index (rvx_compact.c).  A .rvx file stores these
 * instead of the arrays the engine reads; the reader expands them once when it
 * opens the file, on all cores.
 *
 *   RV_SEC_TEXT2  DNA text in 2 bits a symbol:
 *                 uint64_t magic, n, n_break; uint64_t breaks[n_break] (the text
 *                 positions holding RV_BREAK, increasing); then ceil(n / 4) bytes,
 *                 symbol i in bits 2(i % 4)..2(i % 4)+1 of byte i / 4 as code - 1
 *                 (0 at a breaker).
 *   RV_SEC_RAWX   the DNA sequence as read, given the text and the segments:
 *                 uint64_t magic, glen, n_lower, n_gap; then n_lower pairs (gpos,
 *                 len) of lowercase letters inside segments; then n_gap triples
 *                 (gpos, len, byte) of the bytes outside every segment, one run of
 *                 equal bytes each.  Inside a segment a byte is the letter of its
 *                 code, upper case unless a lowercase pair covers it.
 *   RV_SEC_RUNZ   the runs (tandem.h) in two bytes a run:
 *                 uint64_t magic, n_text, m, n_esc; uint64_t ckpt[ceil(m / 2^16)]
 *                 (the start of run k 2^16); then m bytes d (start minus the previous
 *                 start, RUNZ_ESC when it does not fit) and m bytes f
 *                 ((period - 1) << 4 | (len - 2 period), RUNZ_ESC when it does not
 *                 fit); then n_esc quadruples (k, start, len, period) of the runs
 *                 with an escaped byte, increasing in k.
 *   RV_SEC_SA40   the SA of a wide index of n < 2^40 symbols in 5 bytes a rank:
 *                 uint64_t magic, n; then n entries of 5 bytes, SA[r] little-endian
 *                 in bytes 16 + 5r .. 16 + 5r + 4.  Written block by block by the
 *                 writer threads straight from the 8-byte array (rvx_sa40_pack_range),
 *                 so no copy of the whole form is ever held.
 * Every form is padded to a multiple of 8 bytes.  Decoding checks every size and
 * bound (a damaged section gives -1, never a read outside it). */
#ifndef REPVIEW_ENGINE_RVX_COMPACT_H
#define REPVIEW_ENGINE_RVX_COMPACT_H

#include <stdint.h>
#include "repview/seq.h"

/* The compact form of s's text, or NULL when s is not DNA (or out of memory: then
 * the caller stores the text as it is).  *bytes receives its size. */
void *rvx_text_pack(const rv_seq_t *s, int threads, uint64_t *bytes);
/* Expand a TEXT2 section into out (n bytes).  0, or -1 when it is not one of n. */
int rvx_text_unpack(const void *sec, uint64_t bytes, uint64_t n, uint8_t *out, int threads);

/* The longest common extension of text positions a and b (< n) read from a TEXT2
 * section (stopping at a breaker or the end), without expanding it; 0 when the
 * section is not one of n. */
uint64_t rvx_text_lce(const void *sec, uint64_t bytes, uint64_t n, uint64_t a, uint64_t b);

/* The compact form of s's sequence as read (needs its text and segments), or NULL
 * when s is not DNA or a byte inside a segment is not its code's letter. */
void *rvx_raw_pack(const rv_seq_t *s, int threads, uint64_t *bytes);
/* Expand a RAWX section into out (s->glen bytes), given s's text and segments. */
int rvx_raw_unpack(const void *sec, uint64_t bytes, const rv_seq_t *s, char *out, int threads);

/* The compact form of a RUNS section (runs_store.h) of an index over n_text. */
void *rvx_runs_pack(const void *runs, uint64_t runs_bytes, uint64_t n_text, int wide, int threads,
                    uint64_t *bytes);
/* A new RUNS section (malloc()ed, sealed) from a RUNZ section, or NULL. */
void *rvx_runs_unpack(const void *sec, uint64_t bytes, uint64_t n_text, int wide, int threads,
                      uint64_t *out_bytes);

/* SA40 holds ranks below this: the SA of a wide index of fewer symbols. */
#define RVX_SA40_LIMIT (1ull << 40)
/* The size of the SA40 form of n ranks. */
uint64_t rvx_sa40_bytes(uint64_t n);
/* Bytes [off, off + len) of the SA40 form of sa (n 64-bit values) into out: any
 * piece of the form, so that each writer thread makes the block it writes. */
void rvx_sa40_pack_range(const uint64_t *sa, uint64_t n, uint64_t off, uint64_t len, uint8_t *out);
/* The whole form (malloc()ed), made on `threads` threads, or NULL. */
void *rvx_sa40_pack(const uint64_t *sa, uint64_t n, int threads, uint64_t *bytes);
/* 0 when sec is an SA40 section of n ranks (size, magic, n, zero padding), else -1. */
int rvx_sa40_check(const void *sec, uint64_t bytes, uint64_t n);
/* The ranks of a checked section of n whose first byte lies in bytes [lo, hi) of
 * it, into out (all n ranks): -1 when one of them is `bound` or more (n for a
 * suffix array). */
int rvx_sa40_unpack_bytes(const void *sec, uint64_t n, uint64_t bound, uint64_t lo, uint64_t hi, uint64_t *out);
/* Check and expand a whole SA40 section into out (n values) on `threads` threads. */
int rvx_sa40_unpack(const void *sec, uint64_t bytes, uint64_t n, uint64_t *out, int threads);

#endif
