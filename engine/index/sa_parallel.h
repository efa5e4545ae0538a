/* sa_parallel.h — parallel suffix-array construction for the CPU build
 * (sa_parallel.c describes the method).
 *
 * The order is plain lexicographic order of the byte suffixes of text[0, n), a
 * proper prefix first, every byte an ordinary symbol (RV_BREAK included): the
 * array equals libdivsufsort's divsufsort / divsufsort64 on the same bytes.
 */
#ifndef REPVIEW_SA_PARALLEL_H
#define REPVIEW_SA_PARALLEL_H

#include <stdint.h>

/* Called on the calling thread with the number of suffixes that reached their final
 * rank since the last call; the calls of one construction add up to n. */
typedef void (*rv_sa_progress_fn)(void *ud, uint64_t sorted);

enum { RV_SA_AUTO, RV_SA_DOUBLING, RV_SA_SAIS };

/* Tuning; a zero field takes its default.  The tests shrink the sizes so that small
 * inputs take every path of the large inputs. */
typedef struct {
    uint64_t local_max; /* largest group sorted by one thread (default 2^16) */
    uint64_t temp_bytes; /* shared buffer for larger groups, in bytes (default 7n/8);
                          * 1 = none: large groups are split in place only */
    uint64_t chunk;     /* text positions per work unit of a round, a multiple of 64;
                         * also SA slots per block of an SA-IS induction pass */
    uint64_t buckets;   /* most buckets of the first counting sort (default 2^18) */
    uint64_t par_min;   /* below this n one thread does everything (default 2^16);
                         * 1 = always use the threads asked for */
    int method;         /* RV_SA_AUTO (by how much the text repeats), RV_SA_DOUBLING
                         * or RV_SA_SAIS (sa_parallel.c) */
    rv_sa_progress_fn progress;
    void *progress_ud;
} rv_sa_opts_t;

/* Suffix array of text[0, n) into sa: n uint32_t (wide = 0, n < 2^32) or n uint64_t
 * (wide = 1).  scratch is a caller-owned array of the same size and width, its
 * contents undefined afterwards.  sigma is the largest code the text may hold (a
 * hint: the codes present are found from the text).  threads <= 0 means one.
 * Beyond sa and scratch the construction allocates at most 1.5 bytes a symbol plus
 * 16 * local_max bytes a thread.  Returns 0, or -1 when memory ran out or n does
 * not fit 32-bit arrays (sa is then undefined). */
int rv_sa_parallel(const uint8_t *text, uint64_t n, int sigma, void *sa, void *scratch, int wide,
                   int threads);
int rv_sa_parallel_opts(const uint8_t *text, uint64_t n, int sigma, void *sa, void *scratch, int wide,
                        int threads, const rv_sa_opts_t *opts);

#endif
