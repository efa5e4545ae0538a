/* fm_core.h — the FM-index steps shared by the CPU (fm_index.c) and the GPU (gpu_fm.cu):
 * the occurrence table, backward search and the pigeonhole verification of one
 * candidate.  Plain C that nvcc compiles as device code too, so both backends run
 * the same lines (not part of the public API).
 *
 * Layout (Ferragina & Manzini's occurrence table, cut to one cache line): block b
 * covers BWT ranks [128 b, 128 b + 128) in 64 bytes — the counts of A, C, G, T in
 * BWT[0, 128 b), the 128 symbols of the block in 2 bits each, and a bit per rank
 * whose BWT symbol is a breaker (or the start of the text), stored there as an A.
 * One LF step reads one block (Wang, Baxter & Owens: one memory
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
#define RV_FM_MAX_K 3   /* mismatches the pigeonhole search takes */
#define RV_FM_EXTRA 2   /* pieces cut beyond k + 1 (rv_fm_parts) */
#define RV_FM_MAX_PARTS (RV_FM_MAX_K + 1 + RV_FM_EXTRA)
#define RV_FM_MAX_LEN 1000 /* longest pattern it takes */
#define RV_FM_STOP 4    /* a piece's search stops at this many candidates */

typedef struct {
    uint32_t cnt[4]; /* A C G T in BWT[0, block start) */
    uint64_t bwt[4]; /* 32 symbols a word, low bits first: code - 1 */
    uint64_t brk[2]; /* bit: breaker or text start (bwt holds an A there) */
} rv_fm_block_t;

/* Pattern codes: 1..4 a base (A C G T), 0x10 | set an IUPAC code (set bits:
 * 1 A, 2 C, 4 G, 8 T).  Pieces with a set are not searched (rv_fm_plan); the
 * verification compares sets. */
#define RV_FM_SET 0x10

/* The complement of a pattern code (A <-> T, C <-> G; sets likewise). */
RV_FM_FN uint8_t rv_fm_comp(uint8_t c)
{
    if (!(c & RV_FM_SET)) return (uint8_t)(5 - c);
    return (uint8_t)(RV_FM_SET | (c & 1) << 3 | (c & 2) << 1 | (c & 4) >> 1 | (c & 8) >> 3);
}

/* Does pattern code p match text code c (1..4)? */
RV_FM_FN int rv_fm_match(uint8_t p, uint8_t c)
{
    return p & RV_FM_SET ? p >> (c - 1) & 1 : p == c;
}

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

/* Block b of the table of text[0, n) with SA sa, but for its counts: the BWT
 * symbols, the breaker bits, and in cnt the A, C, G, T inside the block. */
RV_FM_FN void rv_fm_fill_block(rv_fm_block_t *k, const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t b,
                               uint32_t cnt[4])
{
    for (int c = 0; c < 4; c++) cnt[c] = k->cnt[c] = 0;
    for (int w = 0; w < 4; w++) k->bwt[w] = 0;
    k->brk[0] = k->brk[1] = 0;
    for (unsigned i = 0; i < RV_FM_BLOCK && b * RV_FM_BLOCK + i < n; i++) {
        const uint32_t s = sa[b * RV_FM_BLOCK + i];
        const uint8_t sym = s ? text[s - 1] : 0;
        if (sym >= 1 && sym <= 4) {
            k->bwt[i / 32] |= (uint64_t)(sym - 1) << (2 * (i % 32));
            cnt[sym - 1]++;
        } else {
            k->brk[i / 64] |= 1ull << (i % 64);
        }
    }
}

/* The counts an LF step adds: first[c] = rank of the first suffix that starts
 * with code c (c = 1..4, first[5] = n); lf[c] = first[c] + 1 when the text ends
 * with c (that suffix, a single symbol, sorts before every other c-suffix and has
 * no rank in the BWT that would map to it), else first[c]. */
typedef struct {
    uint64_t first[6];
    uint64_t lf[5];
} rv_fm_counts_t;

/* The q-gram table (built on the GPU, gpu_fm.cu): for each code w of q bases,
 * most significant first (A = 0 .. T = 3), tab[2 w] and tab[2 w + 1] bound the SA
 * interval of the suffixes that start with w (both 0 when none does).  One read
 * then stands for the first q LF steps of a backward search. */
typedef struct {
    const uint32_t *tab;
    unsigned q; /* 0: no table */
} rv_fm_qtab_t;

/* Backward search of code[0, m) (codes 1..4, m >= 1; rc: of its reverse
 * complement, code 5 - c read backwards): the SA interval [*lo, *hi) of the
 * suffixes that start with its last *depth symbols.  It stops early, once the
 * interval holds at most `stop` suffixes (stop = 0: only when it empties), since
 * checking that few candidates against the text is cheaper than the LF steps
 * left; *depth = m when it ran to the end.  With a q-gram table (qt, or NULL) and
 * m >= q the last q symbols are looked up there: the interval at depth q, which
 * may be narrower than where the steps would have stopped (the same matches, fewer
 * candidates). */
RV_FM_FN void rv_fm_backward(const rv_fm_block_t *blk, const rv_fm_counts_t *cn, const rv_fm_qtab_t *qt,
                             const uint8_t *code, uint32_t m, int rc, uint64_t stop, uint64_t *lo_out,
                             uint64_t *hi_out, uint32_t *depth)
{
#define RV_FM_AT(i) (rc ? (uint8_t)(5 - code[m - 1 - (i)]) : code[i])
    uint64_t lo, hi;
    uint32_t i;
    unsigned c;
    if (qt && qt->q && m >= qt->q) {
        uint64_t w = 0;
        for (i = m - qt->q; i < m; i++) w = w << 2 | (uint64_t)(RV_FM_AT(i) - 1);
        i = m - qt->q;
        lo = qt->tab[2 * w], hi = qt->tab[2 * w + 1];
        if (hi <= lo) hi = lo;
    } else {
        c = RV_FM_AT(m - 1);
        lo = cn->first[c], hi = cn->first[c + 1];
        i = m - 1;
    }
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

/* Pieces a pattern of length m with k mismatches is cut into.  A match leaves at
 * least parts - k pieces intact, so the candidates of any k + 1 of them find it:
 * cut k + 1 + RV_FM_EXTRA pieces (when they are at least 8 long) and skip the
 * RV_FM_EXTRA most frequent ones — a read that runs into a microsatellite or a
 * satellite then still has pieces with few occurrences. */
RV_FM_FN unsigned rv_fm_parts(uint32_t m, unsigned k)
{
    const unsigned p = k + 1 + RV_FM_EXTRA;
    return k > 0 && m >= 8 * p ? p : k + 1;
}

/* Piece j of `parts`: [off, off + len) (find_filter.c cuts the same way). */
RV_FM_FN void rv_fm_piece(uint32_t m, unsigned parts, unsigned j, uint32_t *off, uint32_t *len)
{
    *off = (uint32_t)((uint64_t)j * m / parts);
    *len = (uint32_t)((uint64_t)(j + 1) * m / parts) - *off;
}

/* The pieces of one strand of code[0, m) (rc: its reverse complement): for each
 * piece j, the SA interval [lo[j], lo[j] + width[j]) whose suffixes start at
 * pattern position + shift[j] (rv_fm_backward, stopped at `stop` candidates, RV_FM_STOP
 * unless a q-gram table qt makes going deeper cheap).  Returns the mask
 * of the k + 1 pieces whose candidates are checked (the others' width set to 0);
 * *wide is set when one of them has more than cap or an IUPAC code.  The pattern
 * is cut into `parts` pieces (rv_fm_plan_cut; rv_fm_plan: rv_fm_parts(m, k)). */
RV_FM_FN unsigned rv_fm_plan_cut(const rv_fm_block_t *blk, const rv_fm_counts_t *cn, const rv_fm_qtab_t *qt,
                                 uint64_t stop, const uint8_t *code, uint32_t m, int rc, unsigned k, unsigned parts,
                                 uint64_t cap, uint64_t *lo, uint64_t *width, uint32_t *shift, int *wide)
{
    for (unsigned j = 0; j < parts; j++) {
        uint32_t off, len, depth;
        uint64_t hi;
        rv_fm_piece(m, parts, j, &off, &len);
        /* piece j of the reverse complement is the reverse complement of the
         * letters code[m - off - len, m - off) */
        const uint8_t *src = rc ? code + (m - off - len) : code + off;
        unsigned sets = 0;
        for (uint32_t i = 0; i < len; i++) sets |= src[i] & RV_FM_SET;
        if (sets) { /* not searchable: the widest of all, skipped first */
            lo[j] = 0, width[j] = UINT64_MAX, shift[j] = 0;
            continue;
        }
        rv_fm_backward(blk, cn, qt, src, len, rc, stop, &lo[j], &hi, &depth);
        width[j] = hi - lo[j];
        shift[j] = off + len - depth;
    }
    unsigned used = (1u << parts) - 1;
    for (unsigned e = parts - (k + 1); e > 0; e--) { /* drop the widest (the last of equals) */
        unsigned worst = 0;
        uint64_t most = 0;
        for (unsigned j = 0; j < parts; j++)
            if (used >> j & 1 && width[j] >= most) most = width[j], worst = j;
        used &= ~(1u << worst);
        width[worst] = 0;
    }
    for (unsigned j = 0; j < parts; j++)
        if (width[j] > cap) *wide = 1;
    return used;
}

RV_FM_FN unsigned rv_fm_plan(const rv_fm_block_t *blk, const rv_fm_counts_t *cn, const rv_fm_qtab_t *qt,
                             uint64_t stop, const uint8_t *code, uint32_t m, int rc, unsigned k, uint64_t cap, uint64_t *lo,
                             uint64_t *width, uint32_t *shift, int *wide)
{
    return rv_fm_plan_cut(blk, cn, qt, stop, code, m, rc, k, rv_fm_parts(m, k), cap, lo, width, shift, wide);
}

/* Candidate at text position t for a pattern found through its piece j: the
 * mismatches (Hamming, breakers never match) when the pattern matches there with
 * at most k, piece j exactly (its search may have stopped early) and no used
 * piece before j exactly (that piece reports it); else -1.  code: the pattern's
 * codes (rc: compared as its reverse complement); t + m <= n checked by the
 * caller. */
RV_FM_FN int rv_fm_verify(const uint8_t *text, uint64_t t, const uint8_t *code, uint32_t m, int rc, unsigned k,
                          unsigned parts, unsigned used, unsigned j)
{
    unsigned mm = 0, piece = 0;
    uint32_t next_cut = (uint32_t)((uint64_t)m / parts); /* end of piece 0 */
    unsigned clean = 1; /* piece `piece` has no mismatch so far */
    for (uint32_t i = 0; i < m; i++) {
        if (i == next_cut) {
            if (used >> piece & 1 && (clean ? piece < j : piece == j)) return -1;
            piece++;
            clean = 1;
            next_cut = (uint32_t)((uint64_t)(piece + 1) * m / parts);
        }
        const uint8_t c = text[t + i];
        if (c == 0) return -1;
        const uint8_t p = rc ? rv_fm_comp(code[m - 1 - i]) : code[i];
        if (!rv_fm_match(p, c)) {
            if (++mm > k) return -1;
            clean = 0;
        }
    }
    if (used >> piece & 1 && (clean ? piece < j : piece == j)) return -1;
    return (int)mm;
}

#endif
