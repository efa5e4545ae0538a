/* fm_core.h — the FM-index steps shared by the CPU (fm.c) and the GPU (gpu_fm.cu):
 * the occurrence table, backward search and the pigeonhole verification of one
 * candidate.  Plain C that nvcc compiles as device code too, so both backends run
 * the same lines (not part of the public API).
 *
 * Layout (Ferragina & Manzini's occurrence table, cut to one cache line): block b
 * covers BWT ranks [128 b, 128 b + 128) in 64 bytes — the counts of A, C, G, T in
 * BWT[0, 128 b), the 128 symbols of the block in 2 bits each, and a bit per rank
 * whose BWT symbol is a breaker (or the start of the text), stored there as an A.
 * One LF step reads one block (Wang, Baxter & Owens, seeds/004: one memory
 * transaction per step).  32-bit ranks: n < 2^32 - 128. */
#ifndef REPVIEW_ENGINE_FM_CORE_H
#define REPVIEW_ENGINE_FM_CORE_H

#include <stdint.h>

#ifdef __CUDACC__
#define RV_FM_FN static __host__ __device__ __forceinline__
#define RV_FM_POPC(v) rv_fm_popc64(v)
static __host__ __device__ __forceinline__ int rv_fm_popc64(uint64_t v)
{
#ifdef __CUDA_ARCH__
    return __popcll(v);
#else
    return __builtin_popcountll(v);
#endif
}
#else
#define RV_FM_FN static inline
#define RV_FM_POPC(v) rv_fm_popc64(v)
/* Without -mpopcnt __builtin_popcountll is a library call; this is inline. */
static inline int rv_fm_popc64(uint64_t v)
{
    v -= v >> 1 & 0x5555555555555555ull;
    v = (v & 0x3333333333333333ull) + (v >> 2 & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)(v * 0x0101010101010101ull >> 56);
}
#endif

#define RV_FM_BLOCK 128 /* ranks per block */
#define RV_FM_MAX_K 3   /* mismatches the pigeonhole search takes (k + 1 pieces) */
#define RV_FM_MAX_LEN 1000 /* longest pattern it takes */
#define RV_FM_STOP 4    /* a piece's search stops at this many candidates */

typedef struct {
    uint32_t cnt[4]; /* A C G T in BWT[0, block start) */
    uint64_t bwt[4]; /* 32 symbols a word, low bits first: code - 1 */
    uint64_t brk[2]; /* bit: breaker or text start (bwt holds an A there) */
} rv_fm_block_t;

/* Occurrences of DNA code c (1..4) in BWT[0, i). */
RV_FM_FN uint32_t rv_fm_occ(const rv_fm_block_t *blk, unsigned c, uint64_t i)
{
    const rv_fm_block_t *b = &blk[i / RV_FM_BLOCK];
    const unsigned r = (unsigned)(i % RV_FM_BLOCK);
    const uint64_t rep = 0x5555555555555555ull * (c - 1); /* c - 1 in every 2-bit slot */
    uint32_t occ = b->cnt[c - 1];
    for (unsigned w = 0; w < 4; w++) {
        const unsigned from = w * 32;
        if (r <= from) break;
        const unsigned k = r - from >= 32 ? 32 : r - from;
        const uint64_t x = b->bwt[w] ^ rep;
        uint64_t eq = ~(x | x >> 1) & 0x5555555555555555ull;
        if (k < 32) eq &= (1ull << (2 * k)) - 1;
        occ += (uint32_t)RV_FM_POPC(eq);
    }
    if (c == 1) /* breakers are stored as A */
        for (unsigned w = 0; w < 2; w++) {
            const unsigned from = w * 64;
            if (r <= from) break;
            const unsigned k = r - from >= 64 ? 64 : r - from;
            const uint64_t m = k < 64 ? b->brk[w] & ((1ull << k) - 1) : b->brk[w];
            occ -= (uint32_t)RV_FM_POPC(m);
        }
    return occ;
}

/* The counts an LF step adds: first[c] = rank of the first suffix that starts
 * with code c (c = 1..4, first[5] = n); lf[c] = first[c] + 1 when the text ends
 * with c (that suffix, a single symbol, sorts before every other c-suffix and has
 * no rank in the BWT that would map to it), else first[c]. */
typedef struct {
    uint64_t first[6];
    uint64_t lf[5];
} rv_fm_counts_t;

/* Backward search of code[0, m) (codes 1..4, m >= 1; rc: of its reverse
 * complement, code 5 - c read backwards): the SA interval [*lo, *hi) of the
 * suffixes that start with its last *depth symbols.  It stops early, once the
 * interval holds at most `stop` suffixes (stop = 0: only when it empties), since
 * checking that few candidates against the text is cheaper than the LF steps
 * left; *depth = m when it ran to the end. */
RV_FM_FN void rv_fm_backward(const rv_fm_block_t *blk, const rv_fm_counts_t *cn, const uint8_t *code, uint32_t m,
                             int rc, uint64_t stop, uint64_t *lo_out, uint64_t *hi_out, uint32_t *depth)
{
#define RV_FM_AT(i) (rc ? (uint8_t)(5 - code[m - 1 - (i)]) : code[i])
    unsigned c = RV_FM_AT(m - 1);
    uint64_t lo = cn->first[c], hi = cn->first[c + 1];
    uint32_t i = m - 1;
    while (i > 0 && hi - lo > stop) {
        c = RV_FM_AT(i - 1);
        lo = cn->lf[c] + rv_fm_occ(blk, c, lo);
        hi = cn->lf[c] + rv_fm_occ(blk, c, hi);
        i--;
        if (hi <= lo) { hi = lo; break; }
    }
#undef RV_FM_AT
    *lo_out = lo;
    *hi_out = hi;
    *depth = m - i;
}

/* Piece j of k + 1 of a pattern of length m: [off, off + len) (find_filter.c cuts
 * the same way). */
RV_FM_FN void rv_fm_piece(uint32_t m, unsigned k, unsigned j, uint32_t *off, uint32_t *len)
{
    *off = (uint32_t)((uint64_t)j * m / (k + 1));
    *len = (uint32_t)((uint64_t)(j + 1) * m / (k + 1)) - *off;
}

/* Candidate at text position t for a pattern found through its piece j: the
 * mismatches (Hamming, breakers never match) when the pattern matches there with
 * at most k, piece j exactly (its search may have stopped early) and no piece
 * before j exactly (that piece reports it); else -1.
 * code: the pattern's codes (reverse complement when rc), t + m <= n checked by the
 * caller. */
RV_FM_FN int rv_fm_verify(const uint8_t *text, uint64_t t, const uint8_t *code, uint32_t m, int rc, unsigned k,
                          unsigned j)
{
    unsigned mm = 0, piece = 0;
    uint32_t next_cut = (uint32_t)((uint64_t)m / (k + 1)); /* end of piece 0 */
    unsigned clean = 1; /* piece `piece` has no mismatch so far */
    for (uint32_t i = 0; i < m; i++) {
        if (i == next_cut) {
            if (clean ? piece < j : piece == j) return -1; /* an earlier piece reports it */
            piece++;
            clean = 1;
            next_cut = (uint32_t)((uint64_t)(piece + 1) * m / (k + 1));
        }
        const uint8_t c = text[t + i];
        if (c == 0) return -1;
        const uint8_t p = rc ? (uint8_t)(5 - code[m - 1 - i]) : code[i];
        if (c != p) {
            if (++mm > k) return -1;
            clean = 0;
        }
    }
    if (clean ? piece < j : piece == j) return -1;
    return (int)mm;
}

#endif
