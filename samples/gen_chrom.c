/* gen_chrom.c — deterministic synthetic inputs for repview's tests, demos and benches.
 *
 *   gen_chrom [--kind dna|protein|english|collection] [--name NAME] [--records K]
 *             [--width W] [--identity F [--shared L]] LENGTH SEED > out.fa
 *
 * The output is a pure function of (kind, LENGTH, SEED, NAME, K, W, F, L): one xoshiro256**
 * stream seeded from SEED drives every choice in a fixed order, so the same arguments
 * give the same bytes on every machine.  LENGTH (suffixes k, m, g = 10^3, 10^6, 10^9)
 * is the total number of sequence symbols over all records.
 *
 * Model of each kind (percentages are of the record length, reached in expectation):
 *
 * dna — a human-like chromosome (doc/DESIGN.md, "Synthetic chromosome generator"), written
 *   left to right: background stretches (exponential lengths, i.i.d. bases at 40% GC)
 *   alternate with features drawn with probability proportional to coverage / mean size:
 *   - short interspersed repeats (SINE/Alu-like): 8 families, ~300 bp consensus (52% GC
 *     plus a poly-A tail), Zipf-distributed family use, copies on either strand with a
 *     per-copy divergence uniform in 2-20%, ~10% of the sequence;
 *   - long interspersed repeats (LINE-like): 3 families of ~6 kb; copies are 5'-truncated
 *     (10% full length, the rest 300 bp + exponential, mean 1.1 kb), divergence 2-20%,
 *     ~15%;
 *   - microsatellites: period 1-6 (mono- and di-nucleotides most common), 15-160 bp,
 *     0-8% divergence, ~3%;
 *   - segmental duplications: copies of an earlier stretch of the same record, length
 *     log-uniform in 1-100 kb (never more than 5% of the record), 0.5-5% divergence,
 *     either strand, ~4% (less on short records);
 *   - one satellite array (alpha-satellite-like): a 171 bp monomer, a higher-order unit
 *     of 4-16 monomers each 20% diverged, tiled with 1-3% divergence per copy, ~1%,
 *     placed between 30% and 60% of the record and followed by an N gap;
 *   - several N gaps (3 + one per 20 Mbp, at most 12, plus the one next to the
 *     satellite), each up to 0.25% of the record, and a few single IUPAC codes;
 *   - divergence = substitutions (transitions twice as likely as transversions) with
 *     1/8 of the events small indels; interspersed repeats, microsatellites and the
 *     satellite are soft-masked (lower case); duplications keep their source's case.
 *   The total GC content comes out at 41% +- 1.
 * protein — a proteome: proteins of ~100-2000 residues starting with M, background
 *   residues at UniProt frequencies, 0-4 instances per protein of 40 domain families
 *   (30-150 residues, 10-40% diverged), paralogs (5% of proteins copy an earlier one
 *   with 1-30% divergence), low-complexity runs (poly-Q, S/G, P) and rare X.  One
 *   record per protein unless --records K packs them into K records.
 * english — English-like text: words from a built-in list of ~450 words used with Zipf
 *   frequencies, sentences of 4-30 words with a capital first letter, commas and
 *   . ? ! endings, and repeated passages (3% of the sentences are followed by a verbatim
 *   copy of 1-5 earlier sentences).  FASTA readers drop blanks, so a space is written
 *   as '_'.  K records (default 1).
 * collection — K related genomes (default 8, highly repetitive as a whole): record 1 is
 *   a dna chromosome of LENGTH/K; record i > 1 copies an earlier record (the first one
 *   half of the time) with 0.1-1% SNPs, a tenth as many 1-10 bp indels, and 1-4
 *   rearrangements (inversions and transpositions of 1 kb to 2% of the genome), then is
 *   cut or padded with background to exactly LENGTH/K.
 *   With --identity F (the pan-genome case, hard for suffix array builders) a genome
 *   differs from the one it copies only in patches: identical stretches of mean
 *   --shared L bp (default 50 kb) alternate with patches diverged at max(5%, 2(1-F))
 *   per base, long enough on average for an identity F to the copied genome, before
 *   the same rearrangements.  Without --identity no patch is drawn: the output is the
 *   collection above, byte for byte.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers: xoshiro256** seeded by splitmix64 ---------------------------- */

typedef struct { uint64_t s[4]; } rng_t;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n). */
static inline uint64_t rng_below(rng_t *r, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}
static inline double rng_unif(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static inline uint64_t rng_range(rng_t *r, uint64_t lo, uint64_t hi) { return lo + rng_below(r, hi - lo + 1); }
static double rng_exp(rng_t *r, double mean) { return -mean * log1p(-rng_unif(r)); }
static uint64_t rng_loguniform(rng_t *r, double lo, double hi) { return (uint64_t)(lo * exp(rng_unif(r) * log(hi / lo))); }
/* Failures before the next success of a Bernoulli(p) process: gaps between events. */
static uint64_t rng_geom(rng_t *r, double p)
{
    if (p <= 0) return UINT64_MAX;
    if (p >= 1) return 0;
    return (uint64_t)(log1p(-rng_unif(r)) / log1p(-p));
}
/* Index drawn with weights w[0..n): linear scan, n is small. */
static int rng_pick(rng_t *r, const double *w, int n)
{
    double tot = 0;
    for (int i = 0; i < n; i++) tot += w[i];
    double u = rng_unif(r) * tot;
    for (int i = 0; i < n - 1; i++)
        if ((u -= w[i]) < 0) return i;
    return n - 1;
}

/* ---- an output buffer with a hard end --------------------------------------------- */

typedef struct {
    char *s;
    size_t len, cap; /* cap is the exact size wanted: writes past it are dropped */
} buf_t;

static inline void put(buf_t *b, char c) { if (b->len < b->cap) b->s[b->len++] = c; }
static inline size_t room(const buf_t *b) { return b->cap - b->len; }

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "gen_chrom: out of memory\n"); exit(1); }
    return p;
}

/* ---- DNA primitives --------------------------------------------------------------- */

static char complement(char c)
{
    switch (c) {
    case 'A': return 'T'; case 'C': return 'G'; case 'G': return 'C'; case 'T': return 'A';
    case 'a': return 't'; case 'c': return 'g'; case 'g': return 'c'; case 't': return 'a';
    case 'R': return 'Y'; case 'Y': return 'R'; case 'K': return 'M'; case 'M': return 'K';
    default: return c;
    }
}

static char random_base(rng_t *r, double gc)
{
    double u = rng_unif(r);
    if (u < gc) return u < gc / 2 ? 'C' : 'G';
    return u < gc + (1 - gc) / 2 ? 'A' : 'T';
}

static void random_dna(rng_t *r, char *s, size_t n, double gc)
{
    for (size_t i = 0; i < n; i++) s[i] = random_base(r, gc);
}

/* i.i.d. background bases, four per random word (16 bits each) for speed. */
static void put_background(buf_t *b, rng_t *r, size_t n, double gc)
{
    const uint32_t thr = (uint32_t)(gc * 65536);
    if (n > room(b)) n = room(b);
    char *s = b->s + b->len;
    for (size_t i = 0; i < n; i += 4) {
        uint64_t x = rng_next(r);
        for (size_t k = i; k < i + 4 && k < n; k++, x >>= 16) {
            uint32_t v = (uint32_t)(x & 0xffff);
            s[k] = v < thr ? ((v & 1) ? 'C' : 'G') : ((v & 1) ? 'A' : 'T');
        }
    }
    b->len += n;
}

/* A point substitution keeping case; transitions are twice as likely as either
 * transversion (a 2:1 ts/tv ratio as in mammalian genomes). */
static char substitute(rng_t *r, char c)
{
    int low = islower((unsigned char)c);
    char o;
    switch (toupper((unsigned char)c)) {
    case 'A': o = "GGCT"[rng_below(r, 4)]; break;
    case 'G': o = "AACT"[rng_below(r, 4)]; break;
    case 'C': o = "TTAG"[rng_below(r, 4)]; break;
    case 'T': o = "CCAG"[rng_below(r, 4)]; break;
    default: return c;
    }
    return low ? (char)tolower((unsigned char)o) : o;
}

/* Append src[0,n) — reverse complemented when rc — with divergence d: events at rate d
 * per base, 7/8 substitutions, 1/16 deletions, 1/16 insertions.  lower: soft-mask. */
static void put_diverged(buf_t *b, rng_t *r, const char *src, size_t n, int rc, double d, int lower)
{
    uint64_t next = rng_geom(r, d);
    for (size_t i = 0; i < n && b->len < b->cap; i++) {
        char c = rc ? complement(src[n - 1 - i]) : src[i];
        if (next-- == 0) {
            next = rng_geom(r, d);
            uint64_t e = rng_below(r, 16);
            if (e == 0) continue;
            if (e == 1) put(b, lower ? (char)tolower(random_base(r, 0.4)) : random_base(r, 0.4));
            else c = substitute(r, c);
        }
        put(b, lower ? (char)tolower((unsigned char)c) : c);
    }
}

/* ---- the chromosome model (see the comment at the top) ---------------------------- */

enum { N_SHORT = 8, N_LONG = 3, N_FEAT = 4 };
enum { F_SHORT, F_LONG, F_MICRO, F_SEGDUP };

typedef struct { char *s; size_t n; } family_t;

typedef struct {
    rng_t *r;
    buf_t b;
    family_t sfam[N_SHORT], lfam[N_LONG];
    double zipf_s[N_SHORT], zipf_l[N_LONG];
    double feat_w[N_FEAT]; /* choice weights: coverage / mean length */
    double bg_mean;        /* mean background stretch between features */
    size_t sd_max;         /* longest segmental duplication */
} chrom_t;

typedef struct { size_t pos; int kind; size_t size; } fixed_t; /* gaps, satellite, IUPAC */
enum { X_GAP, X_SAT, X_IUPAC };

static void families_init(chrom_t *g)
{
    for (int i = 0; i < N_SHORT; i++) {
        size_t core = rng_range(g->r, 250, 300), tail = rng_range(g->r, 12, 35);
        g->sfam[i].n = core + tail;
        g->sfam[i].s = xmalloc(core + tail);
        random_dna(g->r, g->sfam[i].s, core, 0.52);
        memset(g->sfam[i].s + core, 'A', tail);
        g->zipf_s[i] = 1.0 / (i + 1);
    }
    for (int i = 0; i < N_LONG; i++) {
        g->lfam[i].n = rng_range(g->r, 5500, 6500);
        g->lfam[i].s = xmalloc(g->lfam[i].n);
        random_dna(g->r, g->lfam[i].s, g->lfam[i].n - 20, 0.40);
        memset(g->lfam[i].s + g->lfam[i].n - 20, 'A', 20);
        g->zipf_l[i] = 1.0 / (i + 1);
    }
}

static void families_free(chrom_t *g)
{
    for (int i = 0; i < N_SHORT; i++) free(g->sfam[i].s);
    for (int i = 0; i < N_LONG; i++) free(g->lfam[i].s);
}

/* Feature rates so that each kind reaches its coverage in expectation. */
static void rates_init(chrom_t *g, size_t len)
{
    double cov[N_FEAT] = {0.10, 0.15, 0.03, 0.04};
    double mean[N_FEAT] = {300, 1500, 45, 0};
    g->sd_max = len / 20 < 100000 ? len / 20 : 100000;
    if (g->sd_max > 2000) mean[F_SEGDUP] = (g->sd_max - 1000) / log(g->sd_max / 1000.0);
    else cov[F_SEGDUP] = 0, mean[F_SEGDUP] = 1;
    double covsum = 0, wsum = 0;
    for (int i = 0; i < N_FEAT; i++) {
        g->feat_w[i] = cov[i] / mean[i];
        covsum += cov[i];
        wsum += g->feat_w[i];
    }
    double mean_feat = covsum / wsum, bg = 1 - covsum - 0.015; /* gaps + satellite */
    g->bg_mean = mean_feat * bg / covsum;
}

static void emit_short(chrom_t *g)
{
    family_t *f = &g->sfam[rng_pick(g->r, g->zipf_s, N_SHORT)];
    size_t skip = rng_below(g->r, 4) == 0 ? rng_below(g->r, f->n / 3) : 0;
    double d = 0.02 + 0.18 * rng_unif(g->r);
    put_diverged(&g->b, g->r, f->s + skip, f->n - skip, (int)rng_below(g->r, 2), d, 1);
}

static void emit_long(chrom_t *g)
{
    family_t *f = &g->lfam[rng_pick(g->r, g->zipf_l, N_LONG)];
    size_t keep = rng_below(g->r, 10) == 0 ? f->n : 300 + (size_t)rng_exp(g->r, 1100);
    if (keep > f->n) keep = f->n;
    double d = 0.02 + 0.18 * rng_unif(g->r);
    put_diverged(&g->b, g->r, f->s + f->n - keep, keep, (int)rng_below(g->r, 2), d, 1);
}

static void emit_micro(chrom_t *g)
{
    static const double pw[6] = {0.30, 0.30, 0.10, 0.20, 0.05, 0.05};
    char unit[6], tract[160];
    size_t p = (size_t)rng_pick(g->r, pw, 6) + 1, n = 15 + (size_t)rng_exp(g->r, 30);
    if (n > sizeof tract) n = sizeof tract;
    random_dna(g->r, unit, p, 0.35);
    for (size_t i = 0; i < n; i++) tract[i] = unit[i % p];
    put_diverged(&g->b, g->r, tract, n, 0, 0.08 * rng_unif(g->r), 1);
}

/* A copy of an earlier stretch of this record; the source keeps its case. */
static void emit_segdup(chrom_t *g)
{
    size_t hi = g->b.len / 2 < g->sd_max ? g->b.len / 2 : g->sd_max;
    if (hi < 2000) { emit_short(g); return; }
    size_t n = rng_loguniform(g->r, 1000, (double)hi);
    size_t from = rng_below(g->r, g->b.len - n);
    double d = 0.005 + 0.045 * rng_unif(g->r);
    put_diverged(&g->b, g->r, g->b.s + from, n, (int)rng_below(g->r, 2), d, 0);
}

/* Alpha-satellite-like array: a higher-order unit of h diverged 171 bp monomers,
 * tiled with little divergence between its copies. */
static void emit_satellite(chrom_t *g, size_t size)
{
    char mono[171];
    size_t h = rng_range(g->r, 4, 16);
    buf_t hor = {xmalloc(h * 171), 0, h * 171};
    random_dna(g->r, mono, 171, 0.38);
    for (size_t i = 0; i < h; i++) put_diverged(&hor, g->r, mono, 171, 0, 0.20, 1);
    size_t cap = g->b.cap, end = g->b.len + size;
    if (end < cap) g->b.cap = end;
    while (room(&g->b)) put_diverged(&g->b, g->r, hor.s, hor.len, 0, 0.01 + 0.02 * rng_unif(g->r), 1);
    g->b.cap = cap;
    free(hor.s);
}

static void emit_fixed(chrom_t *g, const fixed_t *x)
{
    static const char iupac[] = "RYKMSW";
    if (x->kind == X_SAT) emit_satellite(g, x->size);
    else if (x->kind == X_IUPAC) put(&g->b, iupac[rng_below(g->r, 6)]);
    else for (size_t i = 0; i < x->size; i++) put(&g->b, 'N');
}

static int fixed_cmp(const void *a, const void *b)
{
    size_t x = ((const fixed_t *)a)->pos, y = ((const fixed_t *)b)->pos;
    return (x > y) - (x < y);
}

/* Positions of the satellite, its gap, the other N gaps and the IUPAC codes. */
static fixed_t *fixed_plan(rng_t *r, size_t len, size_t *count)
{
    size_t n_gap = 3 + len / 20000000, n_iu = len / 200000 + (len >= 50000);
    if (n_gap > 12) n_gap = 12;
    fixed_t *x = xmalloc((n_gap + n_iu + 2) * sizeof *x);
    size_t k = 0, gap_hi = len / 400 > 100000 ? 100000 : len / 400 < 10 ? 10 : len / 400;
    size_t sat = len / 100 > 1710 ? len / 100 : len / 10 < 1710 ? len / 10 : 1710;
    size_t at = (size_t)(len * (0.3 + 0.3 * rng_unif(r)));
    x[k++] = (fixed_t){at, X_SAT, sat};
    x[k++] = (fixed_t){at + 1, X_GAP, rng_range(r, gap_hi / 10 + 1, gap_hi)};
    for (size_t i = 0; i < n_gap; i++)
        x[k++] = (fixed_t){rng_below(r, len), X_GAP, rng_range(r, gap_hi / 10 + 1, gap_hi)};
    for (size_t i = 0; i < n_iu; i++) x[k++] = (fixed_t){rng_below(r, len), X_IUPAC, 1};
    qsort(x, k, sizeof *x, fixed_cmp);
    *count = k;
    return x;
}

/* Fill s[0,len) with one chromosome. */
static void chrom_generate(rng_t *r, char *s, size_t len)
{
    chrom_t g = {.r = r, .b = {s, 0, len}};
    families_init(&g);
    rates_init(&g, len);
    size_t n_fixed, fi = 0;
    fixed_t *fx = fixed_plan(r, len, &n_fixed);
    while (g.b.len < len) {
        size_t next = fi < n_fixed ? fx[fi].pos : len;
        if (g.b.len >= next) { emit_fixed(&g, &fx[fi++]); continue; }
        size_t bg = (size_t)rng_exp(r, g.bg_mean);
        put_background(&g.b, r, bg < next - g.b.len ? bg : next - g.b.len, 0.40);
        if (g.b.len >= next) continue;
        switch (rng_pick(r, g.feat_w, N_FEAT)) {
        case F_SHORT: emit_short(&g); break;
        case F_LONG: emit_long(&g); break;
        case F_MICRO: emit_micro(&g); break;
        default: emit_segdup(&g); break;
        }
    }
    free(fx);
    families_free(&g);
}

/* ---- collection: related genomes -------------------------------------------------- */

static void reverse_complement(char *s, size_t n)
{
    for (size_t i = 0, j = n; i < j--; i++) {
        char t = complement(s[i]);
        s[i] = complement(s[j]);
        s[j] = t;
    }
}

static void reverse(char *s, size_t n)
{
    for (size_t i = 0, j = n; i < j--; i++) { char t = s[i]; s[i] = s[j]; s[j] = t; }
}

/* Move s[a,b) behind s[b,c) (a rotation by three reversals). */
static void transpose(char *s, size_t a, size_t b, size_t c)
{
    reverse(s + a, b - a);
    reverse(s + b, c - b);
    reverse(s + a, c - a);
}

/* 1-4 rearrangements of b (an inversion or a transposition of 1 kb to 2% of it each),
 * then dst[0,n) = b cut, or padded with background, to exactly n; frees b. */
static void rearrange_fit(rng_t *r, buf_t *b, char *dst, size_t n)
{
    size_t hi = b->len / 50;
    for (uint64_t k = rng_range(r, 1, 4); hi >= 1000 && k > 0; k--) {
        size_t l = rng_range(r, 1000, hi), a = rng_below(r, b->len - 2 * l);
        if (rng_below(r, 2)) reverse_complement(b->s + a, l);
        else transpose(b->s, a, a + l, a + l + rng_range(r, 1, l));
    }
    size_t keep = b->len < n ? b->len : n;
    memcpy(dst, b->s, keep);
    buf_t rest = {dst, keep, n};
    put_background(&rest, r, n - keep, 0.4);
    free(b->s);
}

/* dst[0,n) = src[0,m) with SNPs at rate snp, indels at rate snp/10, then rearranged. */
static void genome_copy(rng_t *r, const char *src, size_t m, char *dst, size_t n, double snp)
{
    buf_t b = {xmalloc(m + m / 20 + 64), 0, m + m / 20 + 64};
    uint64_t next = rng_geom(r, snp * 1.1);
    for (size_t i = 0; i < m && room(&b); i++) {
        if (next-- == 0) {
            next = rng_geom(r, snp * 1.1);
            if (rng_below(r, 11) == 0) { /* indel of 1-10 bp */
                size_t l = rng_range(r, 1, 10);
                if (rng_below(r, 2)) { i += l - 1; continue; }
                put_background(&b, r, l, 0.4);
            } else {
                put(&b, substitute(r, src[i]));
                continue;
            }
        }
        put(&b, src[i]);
    }
    rearrange_fit(r, &b, dst, n);
}

/* dst[0,n) = src[0,m) at identity `ident`, its differences gathered in patches, as
 * between real related bacteria: identical stretches (exponential, mean `shared` bp)
 * alternate with diverged patches (recombined or hypervariable regions; substitutions
 * and 1 bp indels at rate dp = max(5%, 2 (1 - ident)) per base) whose mean length
 * makes the expected divergence 1 - ident; then rearranged like genome_copy.  The
 * long identical stretches shared by many genomes are what make such a collection
 * hard for a suffix array / LCP builder (long LCPs everywhere). */
static void genome_related(rng_t *r, const char *src, size_t m, char *dst, size_t n, double ident,
                           double shared)
{
    double d = 1 - ident, dp = 2 * d > 0.05 ? 2 * d : 0.05;
    double patch = d * shared / (dp - d); /* d = patch dp / (shared + patch) */
    buf_t b = {xmalloc(m + m / 20 + 64), 0, m + m / 20 + 64};
    for (size_t i = 0; i < m && room(&b);) {
        size_t same = 1 + (size_t)rng_exp(r, shared), pl = (size_t)rng_exp(r, patch);
        if (same > m - i) same = m - i;
        if (same > room(&b)) same = room(&b);
        memcpy(b.s + b.len, src + i, same);
        b.len += same;
        i += same;
        if (pl > m - i) pl = m - i;
        put_diverged(&b, r, src + i, pl, 0, dp, 0);
        i += pl;
    }
    rearrange_fit(r, &b, dst, n);
}

/* ---- protein ---------------------------------------------------------------------- */

static const char aa[] = "LAGVESIKRDTPNQFYMHCW";
static const double aa_freq[20] = {9.9, 8.3, 7.1, 6.9, 6.8, 6.6, 5.9, 5.8, 5.5, 5.5,
                                   5.3, 4.7, 4.1, 3.9, 3.9, 2.9, 2.4, 2.3, 1.4, 1.1};

static char random_residue(rng_t *r) { return aa[rng_pick(r, aa_freq, 20)]; }

/* Append src[0,n) with divergence d (7/8 substitutions, 1/8 single-residue indels). */
static void put_diverged_protein(buf_t *b, rng_t *r, const char *src, size_t n, double d)
{
    uint64_t next = rng_geom(r, d);
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (next-- == 0) {
            next = rng_geom(r, d);
            uint64_t e = rng_below(r, 16);
            if (e == 0) continue;
            if (e == 1) put(b, random_residue(r));
            else if (c != 'X' && c != 'M') c = random_residue(r);
        }
        put(b, c);
    }
}

enum { N_DOMAIN = 40 };

/* One protein appended to b; starts[] collects protein starts. */
static void protein_one(buf_t *b, rng_t *r, family_t *dom, const size_t *starts, size_t n_prot)
{
    size_t start = b->len, len = 100 + (size_t)rng_exp(r, 250);
    if (len > 2000) len = 2000;
    if (n_prot > 1 && rng_below(r, 20) == 0) { /* paralog of an earlier protein */
        size_t k = rng_below(r, n_prot - 1);
        put_diverged_protein(b, r, b->s + starts[k], starts[k + 1] - starts[k], 0.01 + 0.29 * rng_unif(r));
        return;
    }
    put(b, 'M');
    size_t n_dom = rng_below(r, 5);
    while (b->len - start < len && room(b)) {
        uint64_t what = rng_below(r, 100);
        if (n_dom && what < 8) {
            family_t *f = &dom[rng_below(r, N_DOMAIN) * rng_below(r, N_DOMAIN) / N_DOMAIN];
            put_diverged_protein(b, r, f->s, f->n, 0.10 + 0.30 * rng_unif(r));
            n_dom--;
        } else if (what == 8) { /* low-complexity run */
            static const char *const lc[] = {"Q", "SG", "P", "E", "A", "GGS"};
            const char *u = lc[rng_below(r, 6)];
            size_t n = rng_range(r, 10, 40), p = strlen(u);
            for (size_t i = 0; i < n; i++) put(b, u[i % p]);
        } else if (what == 9 && rng_below(r, 40) == 0) {
            for (size_t n = rng_range(r, 1, 5); n > 0; n--) put(b, 'X');
        } else {
            for (int i = 0; i < 10; i++) put(b, random_residue(r));
        }
    }
}

/* Fill s[0,len); returns the protein starts (n_prot of them, plus len at the end). */
static size_t *protein_generate(rng_t *r, char *s, size_t len, size_t *n_prot)
{
    family_t dom[N_DOMAIN];
    for (int i = 0; i < N_DOMAIN; i++) {
        dom[i].n = rng_range(r, 30, 150);
        dom[i].s = xmalloc(dom[i].n);
        for (size_t k = 0; k < dom[i].n; k++) dom[i].s[k] = random_residue(r);
    }
    size_t cap = 1024, n = 0;
    size_t *starts = xmalloc(cap * sizeof *starts);
    buf_t b = {s, 0, len};
    while (b.len < len) {
        if (n + 2 >= cap) starts = realloc(starts, (cap *= 2) * sizeof *starts);
        if (!starts) { fprintf(stderr, "gen_chrom: out of memory\n"); exit(1); }
        starts[n++] = b.len;
        starts[n] = b.len; /* sentinel while the protein grows */
        protein_one(&b, r, dom, starts, n);
        if (b.len == starts[n - 1]) put(&b, 'M'); /* never an empty record */
        starts[n] = b.len;
    }
    for (int i = 0; i < N_DOMAIN; i++) free(dom[i].s);
    *n_prot = n;
    return starts;
}

/* ---- english ---------------------------------------------------------------------- */

/* Roughly by frequency in running English text, so rank-based Zipf weights fit. */
static const char *const words[] = {
    "the", "of", "and", "to", "a", "in", "is", "it", "you", "that", "he", "was", "for", "on",
    "are", "with", "as", "I", "his", "they", "be", "at", "one", "have", "this", "from", "or",
    "had", "by", "not", "word", "but", "what", "some", "we", "can", "out", "other", "were",
    "all", "there", "when", "up", "use", "your", "how", "said", "an", "each", "she", "which",
    "do", "their", "time", "if", "will", "way", "about", "many", "then", "them", "write",
    "would", "like", "so", "these", "her", "long", "make", "thing", "see", "him", "two",
    "has", "look", "more", "day", "could", "go", "come", "did", "number", "sound", "no",
    "most", "people", "my", "over", "know", "water", "than", "call", "first", "who", "may",
    "down", "side", "been", "now", "find", "any", "new", "work", "part", "take", "get",
    "place", "made", "live", "where", "after", "back", "little", "only", "round", "man",
    "year", "came", "show", "every", "good", "me", "give", "our", "under", "name", "very",
    "through", "just", "form", "sentence", "great", "think", "say", "help", "low", "line",
    "differ", "turn", "cause", "much", "mean", "before", "move", "right", "boy", "old",
    "too", "same", "tell", "does", "set", "three", "want", "air", "well", "also", "play",
    "small", "end", "put", "home", "read", "hand", "port", "large", "spell", "add", "even",
    "land", "here", "must", "big", "high", "such", "follow", "act", "why", "ask", "men",
    "change", "went", "light", "kind", "off", "need", "house", "picture", "try", "us",
    "again", "animal", "point", "mother", "world", "near", "build", "self", "earth",
    "father", "head", "stand", "own", "page", "should", "country", "found", "answer",
    "school", "grow", "study", "still", "learn", "plant", "cover", "food", "sun", "four",
    "between", "state", "keep", "eye", "never", "last", "let", "thought", "city", "tree",
    "cross", "farm", "hard", "start", "might", "story", "saw", "far", "sea", "draw", "left",
    "late", "run", "while", "press", "close", "night", "real", "life", "few", "north",
    "open", "seem", "together", "next", "white", "children", "begin", "got", "walk",
    "example", "ease", "paper", "group", "always", "music", "those", "both", "mark",
    "often", "letter", "until", "mile", "river", "car", "feet", "care", "second", "book",
    "carry", "took", "science", "eat", "room", "friend", "began", "idea", "fish",
    "mountain", "stop", "once", "base", "hear", "horse", "cut", "sure", "watch", "color",
    "face", "wood", "main", "enough", "plain", "girl", "usual", "young", "ready", "above",
    "ever", "red", "list", "though", "feel", "talk", "bird", "soon", "body", "dog",
    "family", "direct", "pose", "leave", "song", "measure", "door", "product", "black",
    "short", "numeral", "class", "wind", "question", "happen", "complete", "ship", "area",
    "half", "rock", "order", "fire", "south", "problem", "piece", "told", "knew", "pass",
    "since", "top", "whole", "king", "space", "heard", "best", "hour", "better", "true",
    "during", "hundred", "five", "remember", "step", "early", "hold", "west", "ground",
    "interest", "reach", "fast", "verb", "sing", "listen", "six", "table", "travel", "less",
    "morning", "ten", "simple", "several", "vowel", "toward", "war", "lay", "against",
    "pattern", "slow", "center", "love", "person", "money", "serve", "appear", "road",
    "map", "rain", "rule", "govern", "pull", "cold", "notice", "voice", "unit", "power",
    "town", "fine", "certain", "fly", "fall", "lead", "cry", "dark", "machine", "note",
    "wait", "plan", "figure", "star", "box", "noun", "field", "rest", "correct", "able",
    "pound", "done", "beauty", "drive", "stood", "contain", "front", "teach", "week",
    "final", "gave", "green", "oh", "quick", "develop", "ocean", "warm", "free", "minute",
    "strong", "special", "mind", "behind", "clear", "tail", "produce", "fact", "street"};
enum { N_WORDS = sizeof words / sizeof *words };

typedef struct { double cum[N_WORDS]; } zipf_t;

static void zipf_init(zipf_t *z)
{
    double s = 0;
    for (int i = 0; i < N_WORDS; i++) z->cum[i] = s += 1.0 / (i + 2.7); /* Zipf-Mandelbrot */
}

static const char *zipf_word(const zipf_t *z, rng_t *r)
{
    double u = rng_unif(r) * z->cum[N_WORDS - 1];
    int lo = 0, hi = N_WORDS - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (z->cum[mid] > u) hi = mid; else lo = mid + 1;
    }
    return words[lo];
}

static void put_str(buf_t *b, const char *s) { while (*s) put(b, *s++); }

static void english_sentence(buf_t *b, rng_t *r, const zipf_t *z)
{
    size_t n = rng_range(r, 4, 30);
    for (size_t i = 0; i < n; i++) {
        const char *w = zipf_word(z, r);
        if (i == 0) { put(b, (char)toupper((unsigned char)*w)); w++; }
        put_str(b, w);
        if (i + 1 < n && rng_below(r, 12) == 0) put(b, ',');
        if (i + 1 < n) put(b, '_');
    }
    uint64_t e = rng_below(r, 100);
    put(b, e < 88 ? '.' : e < 95 ? '?' : '!');
    put(b, '_');
}

/* Fill s[0,len) with sentences; 3% of them are followed by an earlier passage again. */
static void english_generate(rng_t *r, char *s, size_t len)
{
    zipf_t z;
    zipf_init(&z);
    size_t cap = 1024, n = 0;
    size_t *sent = xmalloc(cap * sizeof *sent);
    buf_t b = {s, 0, len};
    while (b.len < len) {
        if (n == cap) sent = realloc(sent, (cap *= 2) * sizeof *sent);
        if (!sent) { fprintf(stderr, "gen_chrom: out of memory\n"); exit(1); }
        sent[n++] = b.len;
        english_sentence(&b, r, &z);
        if (n > 10 && rng_below(r, 100) < 3) {
            size_t k = rng_range(r, 1, 5), from = rng_below(r, n - k);
            size_t a = sent[from], e = sent[from + k];
            for (size_t i = a; i < e; i++) put(&b, s[i]); /* source ends before b.len */
        }
    }
    free(sent);
}

/* ---- output ----------------------------------------------------------------------- */

typedef struct {
    FILE *out;
    char *buf;
    size_t len, cap;
    int width;
} writer_t;

static void w_flush(writer_t *w)
{
    if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len) {
        fprintf(stderr, "gen_chrom: write error: %s\n", strerror(errno));
        exit(1);
    }
    w->len = 0;
}

/* One FASTA record: the header, then the sequence in lines of w->width. */
static void w_record(writer_t *w, const char *name, const char *s, size_t n)
{
    if (w->cap - w->len < strlen(name) + 4) w_flush(w);
    w->len += (size_t)snprintf(w->buf + w->len, w->cap - w->len, ">%s\n", name);
    for (size_t i = 0; i < n; i += (size_t)w->width) {
        size_t l = n - i < (size_t)w->width ? n - i : (size_t)w->width;
        if (w->cap - w->len < l + 1) w_flush(w);
        memcpy(w->buf + w->len, s + i, l);
        w->len += l;
        w->buf[w->len++] = '\n';
    }
}

static void record_name(char *dst, size_t cap, const char *name, size_t i, size_t k)
{
    if (k == 1) snprintf(dst, cap, "%s", name);
    else snprintf(dst, cap, "%s_%zu", name, i + 1);
}

/* Record boundaries: n_rec records cutting [0,len) evenly (the first ones one longer). */
static size_t even_cut(size_t len, size_t k, size_t i) { return i * (len / k) + (i < len % k ? i : len % k); }

/* ---- command line ----------------------------------------------------------------- */

static const char usage[] =
    "Usage: gen_chrom [--kind dna|protein|english|collection] [--name NAME] [--records K]\n"
    "                 [--width W] [--identity F [--shared L]] LENGTH SEED > out.fa\n"
    "Deterministic synthetic FASTA: the same arguments always give the same bytes.\n"
    "LENGTH = total symbols (suffix k, m or g), SEED = any unsigned integer.\n"
    "  dna         human-like chromosome: interspersed repeats, microsatellites,\n"
    "              segmental duplications, a satellite array, N gaps, soft-masking\n"
    "  protein     proteome: one record per protein unless --records K\n"
    "  english     English-like text, '_' for spaces (FASTA drops blanks)\n"
    "  collection  K related genomes (default 8) of LENGTH/K each\n"
    "--records K splits dna/english/protein into K records; --width W line width (60).\n"
    "--identity F  collection: each genome at identity F (0.8-1) to the one it copies,\n"
    "              its differences in patches between identical stretches of mean\n"
    "--shared L    bp (default 50k): the pan-genome case with long shared segments\n"
    "The model is described in samples/README.md and at the top of gen_chrom.c.\n";

static int parse_length(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    double mul = 1;
    if (*end && !end[1]) {
        switch (tolower((unsigned char)*end)) {
        case 'k': mul = 1e3; end++; break;
        case 'm': mul = 1e6; end++; break;
        case 'g': mul = 1e9; end++; break;
        }
    }
    if (end == s || *end || errno || !(v > 0) || v * mul > 1e12) return -1;
    *out = (size_t)(v * mul + 0.5);
    return *out > 0 ? 0 : -1;
}

static int fail_usage(const char *what)
{
    fprintf(stderr, "gen_chrom: %s\n%s", what, usage);
    return 2;
}

typedef struct {
    const char *kind, *name;
    size_t len, records; /* records 0 = the kind's default */
    uint64_t seed;
    int width;
    double identity, shared; /* identity < 0: the classic collection model */
} args_t;

static int parse_args(int argc, char **argv, args_t *a)
{
    static const struct option opts[] = {
        {"kind", 1, 0, 'k'}, {"name", 1, 0, 'n'}, {"records", 1, 0, 'r'},
        {"width", 1, 0, 'w'}, {"identity", 1, 0, 'i'}, {"shared", 1, 0, 's'},
        {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    char *end;
    size_t shared = 50000;
    int has_shared = 0;
    *a = (args_t){"dna", NULL, 0, 0, 0, 60, -1, 0};
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'k': a->kind = optarg; break;
        case 'n': a->name = optarg; break;
        case 'r':
            a->records = strtoull(optarg, &end, 10);
            if (*end || !a->records || a->records > 1000000) return fail_usage("--records wants 1..1000000");
            break;
        case 'w':
            a->width = atoi(optarg);
            if (a->width < 1 || a->width > 100000) return fail_usage("--width wants 1..100000");
            break;
        case 'i':
            a->identity = strtod(optarg, &end);
            if (*end || !(a->identity >= 0.8 && a->identity <= 1)) return fail_usage("--identity wants 0.8..1");
            break;
        case 's':
            if (parse_length(optarg, &shared) < 0) return fail_usage("bad --shared length");
            has_shared = 1;
            break;
        case 'h': fputs(usage, stdout); return 0;
        default: return fail_usage("bad option");
        }
    }
    if (argc - optind != 2) return fail_usage("expected LENGTH and SEED");
    if (parse_length(argv[optind], &a->len) < 0) return fail_usage("bad LENGTH");
    a->seed = strtoull(argv[optind + 1], &end, 10);
    if (!*argv[optind + 1] || *end) return fail_usage("bad SEED (an unsigned integer)");
    if (strcmp(a->kind, "dna") && strcmp(a->kind, "protein") && strcmp(a->kind, "english") &&
        strcmp(a->kind, "collection"))
        return fail_usage("--kind is dna, protein, english or collection");
    if (a->records > a->len) return fail_usage("more records than symbols");
    if ((a->identity >= 0 || has_shared) && strcmp(a->kind, "collection"))
        return fail_usage("--identity and --shared are for --kind collection");
    if (has_shared && a->identity < 0) return fail_usage("--shared needs --identity");
    a->shared = (double)shared;
    return -1;
}

/* Generate every record of the kind into s[0,len) and write them. */
static void generate(const args_t *a, rng_t *r, char *s, writer_t *w)
{
    const char *def = !strcmp(a->kind, "dna") ? "chrSyn" : !strcmp(a->kind, "protein") ? "prot"
                      : !strcmp(a->kind, "english") ? "text" : "genome";
    const char *name = a->name ? a->name : def;
    int coll = !strcmp(a->kind, "collection");
    size_t k = a->records ? a->records : coll ? 8 : 1, n_prot = 0, *starts = NULL;
    char rn[512];
    if (k > a->len) k = a->len;
    if (!strcmp(a->kind, "protein")) {
        starts = protein_generate(r, s, a->len, &n_prot);
        if (!a->records) k = n_prot;
    } else if (!strcmp(a->kind, "english")) {
        english_generate(r, s, a->len);
    }
    for (size_t i = 0; i < k; i++) {
        size_t beg = starts && !a->records ? starts[i] : even_cut(a->len, k, i);
        size_t end = starts && !a->records ? starts[i + 1] : even_cut(a->len, k, i + 1);
        if (!strcmp(a->kind, "dna") || (coll && i == 0)) {
            chrom_generate(r, s + beg, end - beg);
        } else if (coll) {
            size_t parent = rng_below(r, 2) ? 0 : rng_below(r, i);
            size_t pb = even_cut(a->len, k, parent), pe = even_cut(a->len, k, parent + 1);
            if (a->identity >= 0)
                genome_related(r, s + pb, pe - pb, s + beg, end - beg, a->identity, a->shared);
            else
                genome_copy(r, s + pb, pe - pb, s + beg, end - beg, 0.001 + 0.009 * rng_unif(r));
        }
        record_name(rn, sizeof rn, name, i, k);
        w_record(w, rn, s + beg, end - beg);
    }
    free(starts);
}

int main(int argc, char **argv)
{
    args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) return rc;
    rng_t r;
    rng_seed(&r, a.seed);
    char *s = xmalloc(a.len);
    writer_t w = {stdout, xmalloc(1 << 20), 0, 1 << 20, a.width};
    generate(&a, &r, s, &w);
    w_flush(&w);
    free(w.buf);
    free(s);
    if (fflush(stdout) != 0) { fprintf(stderr, "gen_chrom: write error: %s\n", strerror(errno)); return 1; }
    return 0;
}
