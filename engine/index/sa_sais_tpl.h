/* sa_sais_tpl.h — the SA-IS reduction of sa_parallel.c for one array width; that
 * file includes it after sa_parallel_tpl.h with the same W, WIDE and FN(name).
 *
 * Types (Nong, Zhang & Chan): suffix i is S when text[i, n) < text[i + 1, n), else
 * L; the empty suffix at n (a virtual sentinel, smaller than every symbol) counts
 * as S, so n - 1 is L.  i is LMS when it is S and i - 1 is L.  Inducing from the
 * LMS suffixes in the right order gives the plain lexicographic order of the byte
 * suffixes, a proper prefix first: the sentinel is never stored, it only induces
 * n - 1 at the start of the L pass.
 *
 * The steps, with the arrays they use (SA and scratch are n words each):
 *   1. types: per thread a piece of the text; counts of symbols, L suffixes and
 *      LMS suffixes per symbol, and the LMS positions as a bit vector.
 *   2. LMS substrings sorted by induction from the LMS suffixes at their buckets'
 *      ends in text order; the S pass marks the SA slots that receive an LMS
 *      suffix, and those slots are gathered into SA[0, n1).
 *   3. names: scratch[p / 2] holds the length of p's LMS substring (LMS positions
 *      are at least two apart) for comparing neighbours in SA[0, n1); SA[0, n1)
 *      gets the reduced suffixes' indices through SA[n1 + p / 2] (free: n1 <=
 *      n / 2); then the rank array scratch[0, n1) gets each one's name, which is
 *      the rank convention of the doubling: the last position of its group in
 *      SA[0, n1) plus one.
 *   4. the reduced suffixes sorted by the doubling rounds from h = 1.
 *   5. LMS positions in sorted order moved to their buckets' ends, then the L and
 *      S passes induce the whole array.
 * Progress: the reduced doubling reports its n1 suffixes, the last two passes the
 * other n - n1 as they go. */

/* The SA-IS state of one construction. */
typedef struct {
    const shared_t *sh;
    const uint8_t *t;
    uint64_t n, nw;
    W *sa, *sc;
    uint64_t *lms;  /* over text positions: LMS positions */
    uint64_t *slot; /* over SA positions: slots that received an LMS suffix (step 2) */
    pool_t *pool;
    int nt;
    uint64_t (*cnt)[3][256]; /* per thread: symbols, L suffixes, LMS suffixes */
    uint64_t start[257], sstart[256], nlms[256]; /* buckets; their S parts; LMS a symbol */
    uint64_t n1;
    uint64_t acc[MAX_THREADS];
    FN(st) *r; /* the doubling of the reduced suffixes */
    uint64_t prog_total, prog_done; /* progress reported by one induction pass */
    uint16_t *ring; /* IND_RING blocks of symbols read ahead */
    uint8_t *pk;    /* with at most 8 symbols present: the text at 3 bits a symbol
                     * (their ranks), which the caches hold better; else NULL */
    uint64_t ist[257], isst[256]; /* buckets and their S parts by the passes'
                                   * symbol: the rank when packed, else the byte */
    uint64_t blk;   /* slots a block (opts' chunk when set, so tests get many) */
    uint8_t code[256]; /* a byte's rank among those present */
} FN(is);

/* Words [k0, k1) of the bit vectors over text positions for thread tid. */
static inline void FN(is_piece)(const FN(is) *x, int tid, uint64_t *k0, uint64_t *k1)
{
    FN(piece)(0, x->nw, tid, x->nt, k0, k1);
}

/* Step 1 on a piece of the text, right to left. */
static void FN(classify_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    const uint8_t *t = x->t;
    const uint64_t n = x->n;
    uint64_t k0, k1;
    FN(is_piece)(x, tid, &k0, &k1);
    uint64_t(*c)[256] = x->cnt[tid];
    memset(c, 0, sizeof x->cnt[tid]);
    uint64_t lo = k0 << 6, hi = k1 << 6 < n ? k1 << 6 : n;
    if (lo >= hi) return;
    /* the type of hi: from the first symbol after it that differs */
    int s_next = 0;
    if (hi < n) {
        uint64_t y = hi + 1;
        while (y < n && t[y] == t[hi]) y++;
        s_next = y < n && t[hi] < t[y];
    }
    /* one count a symbol, type and LMS flag: a single increment a position */
    uint64_t tab[1024] = {0};
    uint64_t s = (uint64_t)s_next, nx = hi < n ? t[hi] : 0, w = 0;
    if (hi == n) { /* n - 1 is L (the sentinel after it is smaller), never LMS */
        nx = t[--hi];
        s = 0;
        tab[nx * 4]++;
        if ((hi & 63) == 0) x->lms[hi >> 6] = 0;
    }
    for (uint64_t i = hi; i-- > lo;) {
        uint64_t cu = t[i], p = i ? t[i - 1] : 0;
        s = (cu < nx) | ((cu == nx) & s);
        uint64_t lms = s & (p > cu);
        tab[cu * 4 + s * 2 + lms]++;
        w |= lms << (i & 63);
        if ((i & 63) == 0) {
            x->lms[i >> 6] = w;
            w = 0;
        }
        nx = cu;
    }
    for (int k = 0; k < 256; k++) {
        c[0][k] = (uint64_t)tab[k * 4] + tab[k * 4 + 2] + tab[k * 4 + 3];
        c[1][k] = tab[k * 4];
        c[2][k] = tab[k * 4 + 3];
    }
}

/* The packed text: each thread 64 symbols (24 bytes) at a time. */
static void FN(pack_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    uint64_t g = (x->n + 63) / 64, a, b;
    FN(piece)(0, g, tid, x->nt, &a, &b);
    for (uint64_t k = a; k < b; k++) {
        uint64_t i0 = 64 * k, i1 = i0 + 64 < x->n ? i0 + 64 : x->n;
        uint8_t *out = x->pk + 24 * k;
        uint64_t acc = 0;
        int bits = 0;
        for (uint64_t i = i0; i < i1; i++) {
            acc |= (uint64_t)x->code[x->t[i]] << bits;
            bits += 3;
            if (bits >= 8 * 3) { /* 8 symbols: 3 bytes */
                out[0] = (uint8_t)acc;
                out[1] = (uint8_t)(acc >> 8);
                out[2] = (uint8_t)(acc >> 16);
                out += 3;
                acc = 0;
                bits = 0;
            }
        }
        for (; bits > 0; bits -= 8) *out++ = (uint8_t)acc, acc >>= 8;
    }
}

/* Step 2's seeds: each thread's LMS positions at the end of their buckets, below
 * those of the threads after it. */
static void FN(seed_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    uint64_t k0, k1, tail[256];
    FN(is_piece)(x, tid, &k0, &k1);
    for (int c = 0; c < 256; c++) {
        tail[c] = x->start[c + 1];
        for (int u = tid; u < x->nt; u++) tail[c] -= x->cnt[u][2][c];
    }
    const uint8_t *t = x->t;
    W *sa = x->sa;
    for (uint64_t k = k0; k < k1; k++)
        for (uint64_t w = x->lms[k]; w; w &= w - 1) {
            uint64_t p = (k << 6) + (uint64_t)__builtin_ctzll(w);
            sa[tail[t[p]]++] = (W)p;
        }
}

/* Progress of an induction pass that has scanned `done` of n slots. */
static inline void FN(ind_report)(FN(is) *x, uint64_t done)
{
    const rv_sa_opts_t *o = x->sh->o;
    if (!o->progress || !x->prog_total) return;
    uint64_t upto = (uint64_t)((unsigned __int128)x->prog_total * done / x->n);
    if (upto > x->prog_done) o->progress(o->progress_ud, upto - x->prog_done);
    x->prog_done = upto;
}

/* ---- the induction passes ----------------------------------------------------------
 * L pass: SA left to right; a suffix j (an LMS seed or an L suffix placed earlier)
 * places j - 1 at the front of its bucket when j - 1 is L, that is when text[j - 1]
 * >= text[j] (an LMS suffix's predecessor is L by definition).  S pass: right to
 * left; j - 1 is S when text[j - 1] < text[j], or when they are equal and j is S,
 * that is when j lies in its bucket's S part; it goes to the back of its bucket.
 * Every slot is filled before the scan reaches it, and slots still empty hold 0,
 * whose suffix induces nothing.
 *
 * Nearly all the time goes to reading text[j - 1] at random.  The pass is cut into
 * blocks of IND_BLOCK slots: thread 0 places, in SA order; the other threads claim
 * blocks ahead of it and read the symbols of the suffixes already there into a
 * ring of IND_RING blocks (a slot still 0 is left to the placer).  The placer
 * itself takes a block no one has claimed yet, and while it waits for a block a
 * helper reads, it reads a later one, so all threads share the reading.  What
 * the helpers read is final: the placer writes each slot once, and a slot not yet
 * written holds 0, so the pass starts with every slot but the seeds at 0. */

typedef struct {
    FN(is) *x;
    int right, mark;    /* S pass (right to left); mark LMS slots */
    uint64_t nblocks;
    _Atomic uint64_t claim, consumed;
    _Atomic uint64_t ready[IND_RING]; /* block + 1 whose symbols a slot holds */
    uint16_t *sym;
} FN(ind);

static inline W FN(ld)(const W *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void FN(stw)(W *p, W v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

/* A wait's step: a short spin, then the core is given up (a machine busy with
 * other work must not find us spinning on a thread that waits for its turn). */
static inline void FN(pause)(unsigned *spins)
{
    if (++*spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        sched_yield();
    }
}

/* Slots [a, b) of block k. */
static inline void FN(ind_block)(const FN(ind) *d, uint64_t k, uint64_t *a, uint64_t *b)
{
    const uint64_t n = d->x->n, bl = d->x->blk, lo = k * bl, hi = lo + bl < n ? lo + bl : n;
    if (d->right) {
        *a = n - hi;
        *b = n - lo;
    } else {
        *a = lo;
        *b = hi;
    }
}

/* The passes' symbols of text[j - 2], text[j - 1] and text[j] (those before the
 * text's start are arbitrary). */
static inline void FN(syms)(const FN(is) *x, uint64_t j, uint64_t *cm, uint64_t *c0, uint64_t *c1)
{
    if (x->pk) {
        uint64_t p = j >= 2 ? j - 2 : 0, d = j - p, b = 3 * p, w;
        memcpy(&w, x->pk + (b >> 3), sizeof w);
        w >>= b & 7;
        *cm = w & 7;
        *c0 = w >> 3 * (d ? d - 1 : 0) & 7;
        *c1 = w >> 3 * d & 7;
    } else {
        const uint8_t *t = x->t;
        *cm = t[j >= 2 ? j - 2 : 0];
        *c0 = t[j ? j - 1 : 0];
        *c1 = t[j];
    }
}

static inline void FN(prefetch_sym)(const FN(is) *x, uint64_t q)
{
    if (q >= x->n) return;
    if (x->pk) __builtin_prefetch(x->pk + (3 * q >> 3));
    else __builtin_prefetch(x->t + q);
}

/* A slot's entry in the ring: SYM_NONE, or the symbol of text[j - 1] with SYM_TAKE
 * when j - 1 goes to its bucket and SYM_LMS when it is LMS. */
static inline uint16_t FN(ind_sym)(const FN(is) *x, int right, uint64_t i, uint64_t j)
{
    if (j == 0) return SYM_NONE;
    uint64_t cm, c0, c1;
    FN(syms)(x, j, &cm, &c0, &c1);
    if (!right) return (uint16_t)(c0 >= c1 ? SYM_TAKE | c0 : c0);
    if (c0 < c1 || (c0 == c1 && i >= x->isst[c1]))
        return (uint16_t)(SYM_TAKE | c0 | (j >= 2 && cm > c0 ? SYM_LMS : 0));
    return (uint16_t)c0;
}

/* Read the symbols of block k into its place in the ring. */
static void FN(ind_read)(FN(ind) *d, uint64_t k)
{
    FN(is) *x = d->x;
    const W *sa = x->sa;
    uint64_t a, b;
    FN(ind_block)(d, k, &a, &b);
    uint16_t *out = d->sym + (k % IND_RING) * x->blk;
    for (uint64_t i = a; i < b; i++) {
        if (i + IND_AHEAD < b) FN(prefetch_sym)(x, (uint64_t)FN(ld)(&sa[i + IND_AHEAD]) - 2);
        out[i - a] = FN(ind_sym)(x, d->right, i, FN(ld)(&sa[i]));
    }
    atomic_store_explicit(&d->ready[k % IND_RING], k + 1, memory_order_release);
}

static void FN(ind_helper)(FN(ind) *d)
{
    for (;;) {
        uint64_t k = atomic_fetch_add_explicit(&d->claim, 1, memory_order_relaxed);
        if (k >= d->nblocks) break;
        unsigned spins = 0;
        while (k >= atomic_load_explicit(&d->consumed, memory_order_acquire) + IND_RING) FN(pause)(&spins);
        FN(ind_read)(d, k);
    }
}

/* Place the suffixes of block [a, b) (in the pass's direction), from the ring
 * when sym is given.  With branches on the symbols: a branch-free form (a dummy
 * write for a slot that takes nothing) measured slower, its stores waiting on the
 * symbol reads, where predicted branches let the reads of later slots overlap. */
static void FN(ind_place)(FN(ind) *d, uint64_t *ptr, uint64_t a, uint64_t b, const uint16_t *sym)
{
    FN(is) *x = d->x;
    W *sa = x->sa;
    const int right = d->right, mark = d->mark;
    for (uint64_t m = 0; m < b - a; m++) {
        uint64_t i = right ? b - 1 - m : a + m;
        uint16_t v;
        if (sym && sym[i - a] != SYM_NONE) {
            v = sym[i - a];
        } else {
            if (m + IND_AHEAD < b - a) FN(prefetch_sym)(x, (uint64_t)sa[right ? i - IND_AHEAD : i + IND_AHEAD] - 2);
            v = FN(ind_sym)(x, right, i, sa[i]);
            if (v == SYM_NONE) continue;
        }
        if (!(v & SYM_TAKE)) continue;
        uint64_t c0 = v & 0xff, k = right ? --ptr[c0] : ptr[c0]++;
        FN(stw)(&sa[k], (W)(sa[i] - 1));
        if (mark && (v & SYM_LMS)) x->slot[k >> 6] |= 1ull << (k & 63);
    }
}

static void FN(ind_job)(void *arg, int tid)
{
    FN(ind) *d = arg;
    if (tid) {
        FN(ind_helper)(d);
        return;
    }
    FN(is) *x = d->x;
    const uint64_t n = x->n;
    uint64_t ptr[256];
    if (d->right) {
        memcpy(ptr, x->ist + 1, sizeof ptr);
    } else {
        memcpy(ptr, x->ist, sizeof ptr);
        uint64_t cm, c0, c1;
        FN(syms)(x, n - 1, &cm, &c0, &c1);
        FN(stw)(&x->sa[ptr[c1]++], (W)(n - 1)); /* the sentinel's predecessor */
    }
    uint64_t next_report = IND_REPORT;
    for (uint64_t k = 0; k < d->nblocks; k++) {
        const uint16_t *sym = NULL;
        _Atomic uint64_t *r = &d->ready[k % IND_RING];
        if (atomic_load_explicit(r, memory_order_acquire) == k + 1) {
            sym = d->sym + (k % IND_RING) * x->blk;
        } else {
            uint64_t want = k;
            if (!atomic_compare_exchange_strong(&d->claim, &want, k + 1)) {
                /* a helper reads block k: read a later one meanwhile, if the ring
                 * has room for it */
                unsigned spins = 0;
                while (atomic_load_explicit(r, memory_order_acquire) != k + 1) {
                    uint64_t c = atomic_load_explicit(&d->claim, memory_order_relaxed);
                    if (c < d->nblocks && c < k + IND_RING &&
                        atomic_compare_exchange_strong(&d->claim, &c, c + 1))
                        FN(ind_read)(d, c);
                    else
                        FN(pause)(&spins);
                }
                sym = d->sym + (k % IND_RING) * x->blk;
            }
        }
        uint64_t a, b;
        FN(ind_block)(d, k, &a, &b);
        FN(ind_place)(d, ptr, a, b, sym);
        atomic_store_explicit(&d->consumed, k + 1, memory_order_release);
        uint64_t done = (k + 1) * x->blk;
        if (done >= next_report) {
            FN(ind_report)(x, done < n ? done : n);
            next_report = done + IND_REPORT;
        }
    }
    FN(ind_report)(x, n);
}

/* One pass; the ring is x->ring. */
static void FN(induce)(FN(is) *x, int right, int mark)
{
    FN(ind) d = {.x = x, .right = right, .mark = mark, .sym = x->ring};
    d.nblocks = (x->n + x->blk - 1) / x->blk;
    atomic_store(&d.claim, 0);
    atomic_store(&d.consumed, 0);
    for (int i = 0; i < IND_RING; i++) atomic_store(&d.ready[i], 0);
    pool_run(x->pool, FN(ind_job), &d);
}

/* Zero the slots [lo[c], hi[c]) of every bucket c, the work split evenly. */
typedef struct {
    FN(is) *x;
    const uint64_t *lo, *hi;
    uint64_t total;
} FN(zero);

static void FN(zero_job)(void *arg, int tid)
{
    FN(zero) *z = arg;
    uint64_t a, b, off = 0;
    FN(piece)(0, z->total, tid, z->x->nt, &a, &b);
    for (int c = 0; c < 256; c++) {
        uint64_t len = z->hi[c] - z->lo[c], s0 = off > a ? off : a, s1 = off + len < b ? off + len : b;
        if (s0 < s1) memset(z->x->sa + z->lo[c] + (s0 - off), 0, (s1 - s0) * sizeof(W));
        off += len;
    }
}

static void FN(zero_ranges)(FN(is) *x, const uint64_t *lo, const uint64_t *hi)
{
    FN(zero) z = {x, lo, hi, 0};
    for (int c = 0; c < 256; c++) z.total += hi[c] - lo[c];
    pool_run(x->pool, FN(zero_job), &z);
}

/* Before the L pass: every slot 0 but the seeds at the buckets' ends. */
static void FN(clear_for_l)(FN(is) *x)
{
    uint64_t hi[256];
    for (int c = 0; c < 256; c++) hi[c] = x->start[c + 1] - x->nlms[c];
    FN(zero_ranges)(x, x->start, hi);
}

/* Before the S pass: the S parts 0 (the seeds are induced again). */
static void FN(clear_for_s)(FN(is) *x) { FN(zero_ranges)(x, x->sstart, x->start + 1); }

/* The first LMS position at or after word k, or UINT64_MAX. */
static uint64_t FN(lms_from)(const FN(is) *x, uint64_t k)
{
    for (; k < x->nw; k++)
        if (x->lms[k]) return (k << 6) + (uint64_t)__builtin_ctzll(x->lms[k]);
    return UINT64_MAX;
}

/* Step 3: each LMS substring's length (to the next LMS position, both included)
 * at scratch[p / 2]; the last one's 0 (it holds the sentinel). */
static void FN(length_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    uint64_t k0, k1;
    FN(is_piece)(x, tid, &k0, &k1);
    uint64_t prev = UINT64_MAX;
    for (uint64_t k = k0; k < k1; k++)
        for (uint64_t w = x->lms[k]; w; w &= w - 1) {
            uint64_t p = (k << 6) + (uint64_t)__builtin_ctzll(w);
            if (prev != UINT64_MAX) x->sc[prev >> 1] = (W)(p - prev + 1);
            prev = p;
        }
    if (prev != UINT64_MAX) {
        uint64_t p = FN(lms_from)(x, k1);
        x->sc[prev >> 1] = (W)(p == UINT64_MAX ? 0 : p - prev + 1);
    }
}

/* The LMS positions in the pieces of the threads before tid (classify_job's counts). */
static uint64_t FN(lms_before)(const FN(is) *x, int tid)
{
    uint64_t k = 0;
    for (int u = 0; u < tid; u++)
        for (int c = 0; c < 256; c++) k += x->cnt[u][2][c];
    return k;
}

/* Step 3: the reduced index k of each LMS position p at SA[n1 + p / 2]. */
static void FN(map_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    uint64_t k0, k1, k = FN(lms_before)(x, tid);
    FN(is_piece)(x, tid, &k0, &k1);
    W *map = x->sa + x->n1;
    for (uint64_t kw = k0; kw < k1; kw++)
        for (uint64_t w = x->lms[kw]; w; w &= w - 1) map[((kw << 6) + (uint64_t)__builtin_ctzll(w)) >> 1] = (W)k++;
}

/* Step 3, first part: group starts of the sorted LMS substrings in the reduced
 * doubling's b1; each thread owns whole words. */
static void FN(name_start_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    FN(st) *r = x->r;
    const uint8_t *t = x->t;
    const W *sa = x->sa, *sc = x->sc;
    const uint64_t n1 = x->n1;
    uint64_t k0, k1;
    FN(piece)(0, r->nw, tid, x->nt, &k0, &k1);
    uint64_t lo = k0 << 6, hi = k1 << 6 < n1 ? k1 << 6 : n1;
    for (uint64_t k = k0; k < k1; k++) bits_st(r->b1, k, 0);
    if (lo >= hi) return;
    uint64_t w = 0;
    uint64_t q = lo ? sa[lo - 1] : 0, lq = lo ? sc[q >> 1] : 0;
    for (uint64_t i = lo; i < hi; i++) {
        if (i + IND_AHEAD < hi) {
            uint64_t a = sa[i + IND_AHEAD];
            __builtin_prefetch(&t[a]);
            __builtin_prefetch(&sc[a >> 1]);
        }
        uint64_t p = sa[i], lp = sc[p >> 1];
        /* a length of 0: the last LMS substring, which holds the sentinel */
        int diff = i == 0 || lp != lq || lp == 0 || memcmp(t + p, t + q, lp) != 0;
        w |= (uint64_t)diff << (i & 63);
        if ((i & 63) == 63 || i + 1 == hi) {
            bits_st(r->b1, i >> 6, w);
            w = 0;
        }
        q = p;
        lq = lp;
    }
}

/* Step 3, last part: each reduced suffix's name, its group's end, into the rank
 * array; unsorted positions (groups of two or more) in b2. */
static void FN(name_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    FN(st) *r = x->r;
    const W *sa = x->sa;
    W *sc = x->sc;
    uint64_t k0, k1, unsorted = 0;
    FN(piece)(0, r->nw, tid, x->nt, &k0, &k1);
    uint64_t lo = k0 << 6, hi = k1 << 6 < x->n1 ? k1 << 6 : x->n1;
    if (lo < hi) {
        uint64_t e = FN(next_start)(r, hi);
        for (uint64_t i = hi; i-- > lo;) {
            if (i >= lo + IND_AHEAD) __builtin_prefetch(&sc[sa[i - IND_AHEAD]], 1);
            sc[sa[i]] = (W)e;
            if (bits_ld(r->b1, i >> 6) >> (i & 63) & 1) {
                if (e - i > 1) {
                    bits_set_range(r->b2, i, e);
                    unsorted += e - i;
                }
                e = i;
            }
        }
    }
    x->acc[tid] = unsorted;
}

/* Step 3, last part: SA[i] = SA[n1 + SA[i] / 2], the reduced index of each
 * sorted LMS position. */
static void FN(reduce_sa_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    W *sa = x->sa;
    const W *map = x->sa + x->n1;
    uint64_t a, b;
    FN(piece)(0, x->n1, tid, x->nt, &a, &b);
    for (uint64_t i = a; i < b; i++) {
        if (i + IND_AHEAD < b) __builtin_prefetch(&map[sa[i + IND_AHEAD] >> 1]);
        sa[i] = map[sa[i] >> 1];
    }
}

/* Step 5: the LMS positions in text order into scratch[0, n1), each thread its
 * own words' positions. */
static void FN(lms_list_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    uint64_t k0, k1, k = FN(lms_before)(x, tid);
    FN(is_piece)(x, tid, &k0, &k1);
    for (uint64_t kw = k0; kw < k1; kw++)
        for (uint64_t w = x->lms[kw]; w; w &= w - 1) x->sc[k++] = (W)((kw << 6) + (uint64_t)__builtin_ctzll(w));
}

/* Step 5: scratch[n1 + i] = scratch[SA[i]], from reduced indices to text
 * positions, beside the list (n1 <= n / 2). */
static void FN(expand_sa_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    const W *sa = x->sa;
    W *sc = x->sc;
    uint64_t a, b;
    FN(piece)(0, x->n1, tid, x->nt, &a, &b);
    for (uint64_t i = a; i < b; i++) {
        if (i + IND_AHEAD < b) __builtin_prefetch(&sc[sa[i + IND_AHEAD]]);
        sc[x->n1 + i] = sc[sa[i]];
    }
}

/* Step 5: the sorted LMS positions from scratch[n1, 2 n1) to their buckets' ends,
 * the work split evenly. */
static void FN(seed_sorted_job)(void *arg, int tid)
{
    FN(is) *x = arg;
    uint64_t a, b, off = 0;
    FN(piece)(0, x->n1, tid, x->nt, &a, &b);
    for (int c = 0; c < 256; c++) {
        uint64_t len = x->nlms[c], s0 = off > a ? off : a, s1 = off + len < b ? off + len : b;
        if (s0 < s1) memcpy(x->sa + x->start[c + 1] - len + (s0 - off), x->sc + x->n1 + s0, (s1 - s0) * sizeof(W));
        off += len;
    }
}

/* Sort the reduced suffixes: steps 3 and 4.  SA[0, n1) holds the LMS positions in
 * the order of their LMS substrings; afterwards the reduced indices in the order
 * of their suffixes. */
static int FN(sort_reduced)(FN(is) *x)
{
    const uint64_t n1 = x->n1;
    W *sa = x->sa, *sc = x->sc;
    pool_run(x->pool, FN(length_job), x);
    TRACE("sais: lengths");
    shared_t sh1 = *x->sh;
    sh1.t = NULL;
    sh1.n = n1;
    FN(st) *r = x->r = FN(st_new)(&sh1, sa, sc, n1);
    if (!r) return -1;
    pool_run(x->pool, FN(name_start_job), x);
    TRACE("sais: substrings compared");
    pool_run(x->pool, FN(map_job), x);
    pool_run(x->pool, FN(reduce_sa_job), x);
    TRACE("sais: reduced string");
    pool_run(x->pool, FN(name_job), x);
    uint64_t unsorted = 0;
    for (int t = 0; t < x->nt; t++) unsorted += x->acc[t];
    TRACE("sais: named, %llu of %llu in groups", (unsigned long long)unsorted, (unsigned long long)n1);
    const rv_sa_opts_t *o = x->sh->o;
    if (o->progress && n1 - unsorted) o->progress(o->progress_ud, n1 - unsorted);
    int rc = 0;
    if (unsorted) {
        pool_run(x->pool, FN(unsorted_job), r);
        rc = FN(rounds)(r, 1, 0, unsorted);
    }
    FN(free_st)(r);
    x->r = NULL;
    return rc;
}

static int FN(run_sais)(const shared_t *sh, void *sa_, void *sc_)
{
    const uint64_t n = sh->n;
    FN(is) x = {.sh = sh, .t = sh->t, .n = n, .sa = sa_, .sc = sc_, .pool = sh->pool, .nt = sh->pool->nt};
    x.nw = (n + 63) >> 6;
    x.lms = malloc(x.nw * sizeof *x.lms);
    x.slot = calloc(x.nw, sizeof *x.slot);
    x.cnt = malloc((size_t)x.nt * sizeof *x.cnt);
    x.blk = sh->o->chunk ? sh->o->chunk : IND_BLOCK;
    x.ring = x.nt > 1 ? malloc((size_t)IND_RING * x.blk * sizeof *x.ring) : NULL;
    int rc = -1;
    if (!x.lms || !x.slot || !x.cnt || (x.nt > 1 && !x.ring)) goto out;
    TRACE("sais: start, %d threads", x.nt);
    pool_run(x.pool, FN(classify_job), &x);
    uint64_t nl = 0;
    x.start[0] = 0;
    for (int c = 0; c < 256; c++) {
        uint64_t m = 0, l = 0, s = 0;
        for (int t = 0; t < x.nt; t++) {
            m += x.cnt[t][0][c];
            l += x.cnt[t][1][c];
            s += x.cnt[t][2][c];
        }
        x.start[c + 1] = x.start[c] + m;
        x.sstart[c] = x.start[c] + l;
        x.nlms[c] = s;
        x.n1 += s;
        nl += l;
    }
    const uint64_t n1 = x.n1;
    TRACE("sais: types, %llu LMS", (unsigned long long)n1);
    /* the passes' symbols: ranks packed at 3 bits when few, else the bytes */
    int present = 0;
    for (int c = 0; c < 256; c++) present += x.start[c + 1] > x.start[c];
    uint64_t pk_bytes = (n + 7) / 8 * 3 + 16;
    if (present <= 8) x.pk = malloc(pk_bytes);
    int r = 0;
    for (int c = 0; c < 256; c++) {
        int k = x.pk ? r : c;
        x.code[c] = (uint8_t)r;
        if (!x.pk || x.start[c + 1] > x.start[c]) {
            x.ist[k] = x.start[c];
            x.isst[k] = x.sstart[c];
            x.ist[k + 1] = x.start[c + 1];
        }
        r += x.start[c + 1] > x.start[c];
    }
    if (x.pk) {
        for (int k = r; k < 256; k++) x.ist[k + 1] = x.isst[k] = n;
        uint64_t tail = pk_bytes < 48 ? pk_bytes : 48; /* the bits after the last symbol */
        memset(x.pk + pk_bytes - tail, 0, tail);
        pool_run(x.pool, FN(pack_job), &x);
        TRACE("sais: packed");
    }
    W *sa = x.sa;
    if (n1 > 1) {
        /* step 2 */
        FN(clear_for_l)(&x);
        pool_run(x.pool, FN(seed_job), &x);
        TRACE("sais: seeds");
        FN(induce)(&x, 0, 0);
        TRACE("sais: L pass");
        FN(clear_for_s)(&x);
        FN(induce)(&x, 1, 1);
        TRACE("sais: S pass");
        uint64_t m = 0;
        for (uint64_t k = 0; k < x.nw; k++)
            for (uint64_t w = x.slot[k]; w; w &= w - 1) sa[m++] = sa[(k << 6) + (uint64_t)__builtin_ctzll(w)];
        free(x.slot);
        x.slot = NULL;
        if (m != n1) goto out;
        TRACE("sais: gathered");
        if (FN(sort_reduced)(&x) != 0) goto out;
        TRACE("sais: reduced sorted");
        pool_run(x.pool, FN(lms_list_job), &x);
        pool_run(x.pool, FN(expand_sa_job), &x);
    } else {
        const rv_sa_opts_t *o = sh->o;
        if (n1 == 1) {
            x.sc[1] = (W)FN(lms_from)(&x, 0);
            if (o->progress) o->progress(o->progress_ud, 1);
        }
    }
    /* step 5: every slot emptied but the sorted LMS suffixes at their buckets' ends */
    FN(clear_for_l)(&x);
    pool_run(x.pool, FN(seed_sorted_job), &x);
    TRACE("sais: placed");
    x.prog_total = nl;
    x.prog_done = 0;
    FN(induce)(&x, 0, 0);
    TRACE("sais: L pass");
    FN(clear_for_s)(&x);
    x.prog_total = n - nl - n1;
    x.prog_done = 0;
    FN(induce)(&x, 1, 0);
    TRACE("sais: S pass");
    rc = 0;
out:
    free(x.lms);
    free(x.slot);
    free(x.cnt);
    free(x.ring);
    free(x.pk);
    return rc;
}
