/* fm.h — many DNA patterns at once through an FM-index (Wang, Baxter &
 * Owens, Wang, Baxter & Owens), on the GPU or in CPU threads.
 *
 * The BWT and its occurrence table are derived from an index's text and SA (on
 * the device when the GPU runs it).  A DNA pattern with k <= 3 mismatches is cut
 * into k + 1 pieces (k + 3 when it is long enough, the two most frequent then
 * skipped); a match leaves one of the pieces searched intact (pigeonhole), so
 * each is searched exactly by backward search and each of its occurrences is
 * checked against the text at the pattern's alignment — accepted only through the
 * first searched piece that is exact there, so no match is counted twice.  Pieces
 * with IUPAC codes are not searched (they count as the most frequent); the check
 * compares the codes' sets.  The answer is the one of rv_find_count() and
 * rv_find_many() (find.h) for the same pattern: same hits, same mismatches.
 *
 * Patterns this search does not take (too short or too long, k too large) are
 * for find.h; patterns with a searched piece of more than `cap` occurrences or
 * with IUPAC codes in it are left to the caller (`left[i]` = 1), who searches them
 * with find.h.
 *
 *     rv_fm_t *f = rv_fm_open(x, RV_BACKEND_AUTO, threads);
 *     rv_fm_search(f, &batch, RV_STRAND_BOTH, 2, first, counts, NULL, left);
 *     rv_fm_close(f);
 */
#ifndef REPVIEW_FM_H
#define REPVIEW_FM_H

#include <stddef.h>
#include <stdint.h>
#include "repview/build.h"
#include "repview/find.h"
#include "repview/index.h"

/* Patterns of one batch: pattern i is code[off[i], off[i + 1]) (codes 1..4 of the
 * DNA alphabet; rv_fm_encode()). */
typedef struct {
    size_t n;
    const uint8_t *code;
    const uint64_t *off;
} rv_fm_batch_t;

typedef struct rv_fm rv_fm_t;

/* 1 when x can have an FM-index: DNA, 32-bit arrays, n < 2^32 - 256. */
int rv_fm_usable(const rv_index_t *x);

/* The codes of pat[0, len) into out (len bytes) when every letter is a base or an
 * IUPAC code (A C G T U R Y S W K M B D H V N, any case): 1; 0 otherwise (out
 * undefined).  Bases are 1..4; a code stands for its set of bases (fm_core.h). */
int rv_fm_encode(const char *pat, size_t len, uint8_t *out);

/* 1 when a pattern of length m with k mismatches is one rv_fm_search() takes. */
int rv_fm_takes(size_t m, unsigned k);

/* The FM-index of x (x must outlive it): on the GPU for RV_BACKEND_GPU, on the GPU
 * when one is usable for RV_BACKEND_AUTO, else on the CPU with threads (0 = all).
 * NULL with a message (RV_BACKEND_GPU without a usable GPU or room on it; x not
 * rv_fm_usable()). */
rv_fm_t *rv_fm_open(const rv_index_t *x, rv_backend_t backend, int threads);
void rv_fm_close(rv_fm_t *f);

/* "GPU <name>" or "CPU, N threads"; seconds the table took to build. */
const char *rv_fm_backend(const rv_fm_t *f);
double rv_fm_build_seconds(const rv_fm_t *f);

/* Default of `cap`: a pattern with a piece of more occurrences is left (on the
 * CPU, where the SA search counts such patterns faster; the GPU checks up to
 * RV_FM_CAP_GPU candidates a piece). */
#define RV_FM_CAP 4096
#define RV_FM_CAP_GPU (1u << 20)
/* The cap for f: RV_FM_CAP or RV_FM_CAP_GPU, or REPVIEW_FM_CAP from the
 * environment (benchmarks). */
uint32_t rv_fm_cap(const rv_fm_t *f);

/* Search the batch b with k mismatches on strand: pattern i is numbered first + i
 * in the hits.  count (b->n entries, or NULL) receives the number of hits of each
 * pattern (a position matched on both strands counts twice, as rv_find_count());
 * hits (or NULL) receives every hit, unsorted, in a malloc()ed *hits of *n_hits;
 * left[i] = 1 marks the patterns not searched (their count 0, no hits).  0, or -1
 * with a message. */
int rv_fm_search(rv_fm_t *f, const rv_fm_batch_t *b, rv_strand_t strand, unsigned k, uint32_t first,
                 uint32_t cap, uint64_t *count, rv_hit_t **hits, uint64_t *n_hits, uint8_t *left);

/* The SA interval [*lo, *hi) of the suffixes starting with code[0, m) (m >= 1),
 * by backward search on the CPU table (tests). */
void rv_fm_range(const rv_fm_t *f, const uint8_t *code, size_t m, uint64_t *lo, uint64_t *hi);

/* ---- a batch of patterns as letters (find_batch.c) --------------------------- */

/* What a batch took where (added to by each call). */
typedef struct {
    uint64_t n_fm, n_sa; /* patterns searched through the FM-index, through find.h */
    double fm_s, sa_s;   /* seconds of each */
    double prep_s;       /* encoding the batch and sorting out the results */
} rv_find_batch_stats_t;

/* Counts and/or hits of n patterns pats[i][0, lens[i]) (letters as typed) with k
 * mismatches on strand, numbered first + i in the hits: those rv_fm_takes() and
 * rv_fm_encode() accepts through fm (NULL: none), the others and those fm leaves
 * through find.h's SA search in threads (0 = all).  count (n entries, or NULL);
 * hits (or NULL): a malloc()ed, unsorted *hits of *n_hits.  st (or NULL) is added
 * to.  0, or -1 with a message; *bad = the first pattern that does not compile
 * (find.h's message), else SIZE_MAX. */
/* scratch (or NULL): arrays kept from one batch to the next
 * (rv_find_scratch_new; freed by rv_find_scratch_free). */
typedef struct rv_find_scratch rv_find_scratch_t;
rv_find_scratch_t *rv_find_scratch_new(void);
void rv_find_scratch_free(rv_find_scratch_t *scratch);
/* The scratch's pattern codes in page-locked memory from now on (the GPU's
 * uploads of a batch take a third of the time), where that can be had. */
void rv_find_scratch_pin(rv_find_scratch_t *scratch);
/* Code a batch for the FM-index ahead (a reading thread does it while the batch
 * before is searched): rv_find_batch with the same pats, n and k and this
 * scratch then skips that step.  0, or -1 with a message. */
int rv_find_prepare(rv_find_scratch_t *scratch, const char *const *pats, const size_t *lens, size_t n, unsigned k,
                    int threads);
int rv_find_batch(const rv_index_t *x, rv_fm_t *fm, const char *const *pats, const size_t *lens, size_t n,
                  rv_strand_t strand, unsigned k, int threads, uint32_t first, uint64_t *count, rv_hit_t **hits,
                  uint64_t *n_hits, size_t *bad, rv_find_batch_stats_t *st, rv_find_scratch_t *scratch);

#endif
