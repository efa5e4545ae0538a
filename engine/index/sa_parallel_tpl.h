/* sa_parallel_tpl.h — the construction of sa_parallel.c for one array width; that
 * file includes it twice, with W (uint32_t or uint64_t), WIDE (0 or 1) and FN(name)
 * (a name with the width's suffix) defined. */

/* A key and a suffix: packed in one word for 32-bit arrays. */
#if WIDE
typedef struct {
    uint64_t k, v;
} FN(pair);
static inline FN(pair) FN(mkp)(uint64_t k, uint64_t v)
{
    FN(pair) p = {k, v};
    return p;
}
#define PK(p) ((p).k)
#define PV(p) ((p).v)
#define MKP(k, v) FN(mkp)(k, v)
#else
typedef uint64_t FN(pair);
#define PK(p) ((uint32_t)((p) >> 32))
#define PV(p) ((uint32_t)(p))
#define MKP(k, v) (((uint64_t)(k) << 32) | (uint32_t)(v))
#endif

typedef struct {
    const shared_t *sh;
    const uint8_t *t;
    uint64_t n;
    W *sa, *rk;              /* rk: the scratch array, first the packed keys, then ranks */
    abits_t *b1, *b2, *b3;   /* over SA positions: group starts, unsorted positions, starts
                              * found this round */
    abits_t *un, *todo;      /* over text positions: unsorted suffixes (a sorted one may
                              * linger), those whose group phase 1 has still to meet */
    uint64_t nw;             /* words of each bit vector */
    pool_t *pool;
    int nt;
    uint64_t h;              /* symbols every group's suffixes are known to share */
    uint64_t local_max, chunk, nchunks;
    FN(pair) *buf[MAX_THREADS], *buf2[MAX_THREADS];
    W *temp;                 /* shared buffer of large groups */
    uint64_t temp_len, temp_cap;
    pthread_mutex_t mu;      /* guards big */
    range_t *big;            /* large groups and parts still to sort */
    uint64_t nbig, big_cap;
    range_t *groups;         /* the large groups of this round, for phase 2 */
    uint64_t ngroups, groups_cap;
    uint64_t plast[MAX_THREADS];
    int oom;
    _Atomic uint64_t next;   /* work units handed out */
    uint64_t acc[MAX_THREADS];
    /* first sort */
    uint64_t qb, ql, nb, pb, pl; /* digits in the bucket / the low key; base^(qb-1), base^(ql-1) */
    uint64_t *cnt;           /* nt x nb counts, then offsets */
    /* one large group, sorted by all threads */
    uint64_t lo, hi;
    W kmin[MAX_THREADS], kmax[MAX_THREADS];
    W mn;
    int shift;
    uint64_t *hist;          /* nt x 2^RADIX_BITS */
    uint64_t *dstart;        /* 2^RADIX_BITS + 1 */
    uint64_t ndig;
    W pivot;
    uint64_t part[MAX_THREADS][3];
    uint64_t sw_a, sw_b, sw_m; /* a block swap */
} FN(st);

static inline W FN(key)(const FN(st) *s, W v)
{
    uint64_t p = (uint64_t)v + s->h;
    return p < s->n ? s->rk[p] : 0;
}

static inline void FN(prefetch_key)(const FN(st) *s, W v)
{
    uint64_t p = (uint64_t)v + s->h;
    if (p < s->n) __builtin_prefetch(&s->rk[p]);
}

static inline void FN(piece)(uint64_t lo, uint64_t hi, int tid, int nt, uint64_t *a, uint64_t *b)
{
    uint64_t g = hi - lo;
    *a = lo + g * (uint64_t)tid / (uint64_t)nt;
    *b = lo + g * (uint64_t)(tid + 1) / (uint64_t)nt;
}

/* ---- sorting key/suffix pairs -------------------------------------------------------- */

static void FN(isort)(FN(pair) *a, uint64_t g)
{
    for (uint64_t i = 1; i < g; i++) {
        FN(pair) x = a[i];
        uint64_t j = i;
        while (j > 0 && PK(a[j - 1]) > PK(x)) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* Quicksort (Hoare partition, median of three), insertion sort below 24. */
static void FN(qsort)(FN(pair) *a, uint64_t g)
{
    while (g > 24) {
        FN(pair) *x = &a[0], *y = &a[g / 2], *z = &a[g - 1];
        if (PK(*y) < PK(*x)) { FN(pair) t = *x; *x = *y; *y = t; }
        if (PK(*z) < PK(*y)) {
            FN(pair) t = *z; *z = *y; *y = t;
            if (PK(*y) < PK(*x)) { t = *x; *x = *y; *y = t; }
        }
        W pv = PK(*y);
        uint64_t i = 0, j = g - 1;
        for (;;) {
            while (PK(a[i]) < pv) i++;
            while (PK(a[j]) > pv) j--;
            if (i >= j) break;
            FN(pair) t = a[i]; a[i] = a[j]; a[j] = t;
            i++;
            j--;
        }
        /* a[0, j] <= pv <= a[j + 1, g) */
        uint64_t left = j + 1;
        if (left < g - left) {
            FN(qsort)(a, left);
            a += left;
            g -= left;
        } else {
            FN(qsort)(a + left, g - left);
            g = left;
        }
    }
    FN(isort)(a, g);
}

/* Sort a[0, g) by key (keys within [mn, mx]); tmp has room for g.  Returns the array
 * holding the result. */
static FN(pair) *FN(sort_pairs)(FN(pair) *a, FN(pair) *tmp, uint64_t g, W mn, W mx)
{
    if (g < 256) {
        FN(qsort)(a, g);
        return a;
    }
    int r = hibit((uint64_t)(mx - mn)) + 1;
    int passes = (r + 10) / 11, db = (r + passes - 1) / passes;
    uint64_t mask = (1ull << db) - 1;
    uint32_t cnt[1u << 11];
    FN(pair) *src = a, *dst = tmp;
    for (int ps = 0; ps < passes; ps++) {
        int sh = ps * db;
        memset(cnt, 0, sizeof(uint32_t) << db);
        for (uint64_t j = 0; j < g; j++) cnt[((uint64_t)(PK(src[j]) - mn) >> sh) & mask]++;
        if (cnt[((uint64_t)(PK(src[0]) - mn) >> sh) & mask] == g) continue; /* one digit */
        uint32_t sum = 0;
        for (uint64_t d = 0; d <= mask; d++) {
            uint32_t c = cnt[d];
            cnt[d] = sum;
            sum += c;
        }
        for (uint64_t j = 0; j < g; j++) dst[cnt[((uint64_t)(PK(src[j]) - mn) >> sh) & mask]++] = src[j];
        FN(pair) *x = src;
        src = dst;
        dst = x;
    }
    return src;
}

/* Rank writes in flight: each target is prefetched for writing when queued and
 * written WRING queued writes later, so the misses overlap. */
typedef struct {
    W *rk;
    uint64_t n;
    uint64_t pos[WRING];
    W val[WRING];
} FN(wring);

static inline void FN(wr_put)(FN(wring) *r, uint64_t pos, W val)
{
    unsigned i = (unsigned)(r->n++ % WRING);
    if (r->n > WRING) __atomic_store_n(&r->rk[r->pos[i]], r->val[i], __ATOMIC_RELAXED);
    __builtin_prefetch(&r->rk[pos], 1);
    r->pos[i] = pos;
    r->val[i] = val;
}

static inline void FN(wr_flush)(FN(wring) *r)
{
    uint64_t k = r->n < WRING ? r->n : WRING;
    for (uint64_t i = 0; i < k; i++) __atomic_store_n(&r->rk[r->pos[i]], r->val[i], __ATOMIC_RELAXED);
    r->n = 0;
}

/* The opening round's groups read only their own ranks: the sub-group [a, b) gets its
 * rank at once; a single suffix is sorted.  Returns the suffixes sorted. */
static inline uint64_t FN(settle)(FN(st) *s, marks_t *clr, uint64_t a, uint64_t b)
{
    for (uint64_t x = a; x < b; x++) s->rk[s->sa[x]] = (W)b;
    if (b - a > 1) return 0;
    clears_add(s->b2, clr, a);
    return 1;
}

/* Sort SA[lo, hi) (at most local_max suffixes) by key on thread tid, taking the
 * suffixes from src when given, else from SA[lo, hi); mark where the key changes.
 * settle (opening round only): also rank the sub-groups.  Returns the suffixes that
 * became sorted when settling. */
static uint64_t FN(local_sort)(FN(st) *s, int tid, uint64_t lo, uint64_t hi, const W *src, int settle)
{
    uint64_t g = hi - lo;
    FN(pair) *a = s->buf[tid];
    const W *from = src ? src : s->sa + lo;
    W mn = (W)~(W)0, mx = 0;
    for (uint64_t j = 0; j < g; j++) {
        if (j + 16 < g) FN(prefetch_key)(s, from[j + 16]);
        W v = from[j], k = FN(key)(s, v);
        a[j] = MKP(k, v);
        if (k < mn) mn = k;
        if (k > mx) mx = k;
    }
    W *out = s->sa + lo;
    marks_t clr = {UINT64_MAX, 0};
    uint64_t sorted = 0;
    if (mn == mx) {
        if (src) memcpy(out, src, g * sizeof(W));
        if (settle) sorted = FN(settle)(s, &clr, lo, hi);
        clears_flush(s->b2, &clr);
        return sorted;
    }
    FN(pair) *r = FN(sort_pairs)(a, s->buf2[tid], g, mn, mx);
    marks_t m = {UINT64_MAX, 0};
    uint64_t st = lo;
    out[0] = PV(r[0]);
    for (uint64_t j = 1; j < g; j++) {
        out[j] = PV(r[j]);
        if (PK(r[j]) != PK(r[j - 1])) {
            marks_add(s->b3, &m, lo + j);
            if (settle) {
                sorted += FN(settle)(s, &clr, st, lo + j);
                st = lo + j;
            }
        }
    }
    if (settle) sorted += FN(settle)(s, &clr, st, hi);
    marks_flush(s->b3, &m);
    clears_flush(s->b2, &clr);
    return sorted;
}

static void FN(push)(FN(st) *s, range_t **list, uint64_t *len, uint64_t *cap, uint64_t lo, uint64_t hi)
{
    pthread_mutex_lock(&s->mu);
    if (*len == *cap) {
        uint64_t c = *cap ? 2 * *cap : 64;
        range_t *b = realloc(*list, c * sizeof *b);
        if (!b) {
            s->oom = 1;
            pthread_mutex_unlock(&s->mu);
            return;
        }
        *list = b;
        *cap = c;
    }
    (*list)[(*len)++] = (range_t){lo, hi};
    pthread_mutex_unlock(&s->mu);
}

static void FN(push_big)(FN(st) *s, uint64_t lo, uint64_t hi)
{
    FN(push)(s, &s->big, &s->nbig, &s->big_cap, lo, hi);
}

/* A part [lo, hi) of a group that still needs sorting. */
static void FN(sort_part)(FN(st) *s, uint64_t lo, uint64_t hi)
{
    if (hi - lo < 2) return;
    if (hi - lo <= s->local_max) FN(local_sort)(s, 0, lo, hi, NULL, 0);
    else FN(push_big)(s, lo, hi);
}

/* ---- the opening round: counting sort on qb symbols, ql more as the key ----------------- */

#define DIGIT(p) ((p) < n ? (uint64_t)dig[t[p]] : 0)

static void FN(first_pass)(FN(st) *s, int tid, int scatter)
{
    const uint8_t *t = s->t;
    const uint16_t *dig = s->sh->dig;
    const uint64_t n = s->n, b = s->sh->base, qb = s->qb, ql = s->ql, pb = s->pb, pl = s->pl;
    uint64_t i0, i1;
    FN(piece)(0, n, tid, s->nt, &i0, &i1);
    uint64_t *cnt = s->cnt + (uint64_t)tid * s->nb;
    uint64_t kb = 0, kl = 0;
    for (uint64_t k = 0; k < qb; k++) kb = kb * b + DIGIT(i0 + k);
    if (!scatter)
        for (uint64_t k = 0; k < ql; k++) kl = kl * b + DIGIT(i0 + qb + k);
    W *sa = s->sa, *rk = s->rk;
    for (uint64_t i = i0; i < i1; i++) {
        if (scatter) {
            sa[cnt[kb]++] = (W)i;
        } else {
            rk[i] = (W)kl;
            cnt[kb]++;
        }
        uint64_t dq = DIGIT(i + qb);
        if (qb) kb = (kb - DIGIT(i) * pb) * b + dq;
        if (!scatter) kl = (kl - dq * pl) * b + DIGIT(i + qb + ql);
    }
}

static void FN(count_job)(void *arg, int tid) { FN(first_pass)(arg, tid, 0); }
static void FN(scatter_job)(void *arg, int tid) { FN(first_pass)(arg, tid, 1); }

/* Buckets [c0, c1) of a thread: group starts, unsorted positions, ranks of singletons. */
static void FN(mark_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t c0, c1;
    FN(piece)(0, s->nb, tid, s->nt, &c0, &c1);
    const uint64_t *end = s->cnt + (uint64_t)(s->nt - 1) * s->nb; /* bucket ends after the scatter */
    uint64_t st = c0 ? end[c0 - 1] : 0, unsorted = 0;
    for (uint64_t c = c0; c < c1; c++) {
        uint64_t e = end[c];
        if (e == st) continue;
        bit_set(s->b1, st);
        if (e - st == 1) {
            s->rk[s->sa[st]] = (W)(st + 1);
        } else {
            bits_set_range(s->b2, st, e);
            unsorted += e - st;
        }
        st = e;
    }
    s->acc[tid] = unsorted;
}

/* ---- phase 1: sort every unsorted group by rank[i + h] ---------------------------------- */

/* The next chunk of the round for this thread, as words [k0, k1) of the bit
 * vectors: 1, or 0 when every chunk is taken. */
static inline int FN(claim_chunk)(FN(st) *s, uint64_t *k0, uint64_t *k1)
{
    uint64_t c = atomic_fetch_add_explicit(&s->next, 1, memory_order_relaxed);
    if (c >= s->nchunks) return 0;
    *k0 = c * s->chunk >> 6;
    *k1 = (c + 1) * s->chunk >> 6;
    if (*k1 > s->nw) *k1 = s->nw;
    return 1;
}

/* First group start at or after p, or n. */
static uint64_t FN(next_start)(FN(st) *s, uint64_t p)
{
    if (p >= s->n) return s->n;
    uint64_t k = p >> 6, w = bits_ld(s->b1, k) & (~0ull << (p & 63));
    while (!w) {
        if (++k >= s->nw) return s->n;
        w = bits_ld(s->b1, k);
    }
    uint64_t e = (k << 6) + (uint64_t)__builtin_ctzll(w);
    return e < s->n ? e : s->n;
}

static inline void FN(cursor_seek)(FN(st) *s, cursor_t *c, uint64_t p)
{
    c->k = p >> 6;
    c->w = c->k < s->nw ? bits_ld(s->b2, c->k) & (~0ull << (p & 63)) : 0;
}

/* The next unsorted position before word k1, or UINT64_MAX. */
static inline uint64_t FN(cursor_next)(FN(st) *s, cursor_t *c, uint64_t k1)
{
    while (!c->w) {
        if (++c->k >= k1) return UINT64_MAX;
        c->w = bits_ld(s->b2, c->k);
    }
    uint64_t p = (c->k << 6) + (uint64_t)__builtin_ctzll(c->w);
    c->w &= c->w - 1;
    return p;
}

/* Phase 1 in SA order (the opening round, and rounds where large groups hold most
 * unsorted suffixes).  Work units: chunks of positions; a group belongs to the
 * chunk of its start.  The keys of the next LOOKAHEAD unsorted suffixes are
 * prefetched (groups are mostly small: the prefetch inside local_sort would not
 * reach them). */
static void FN(phase1_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    const int settle = s->h == 0;
    uint64_t sorted = 0;
    for (;;) {
        uint64_t k0, k1;
        if (!FN(claim_chunk)(s, &k0, &k1)) break;
        cursor_t cur = {0, 0};
        int64_t ahead = -1; /* prefetched minus consumed; -1: cursor not placed */
        for (uint64_t k = k0; k < k1; k++) {
            uint64_t w = bits_ld(s->b1, k) & bits_ld(s->b2, k);
            while (w) {
                uint64_t p = (k << 6) + (uint64_t)__builtin_ctzll(w);
                w &= w - 1;
                uint64_t e = FN(next_start)(s, p + 1), g = e - p;
                if (g > s->local_max) {
                    FN(push_big)(s, p, e);
                    FN(push)(s, &s->groups, &s->ngroups, &s->groups_cap, p, e);
                    ahead = -1;
                    continue;
                }
                if (ahead < 0) {
                    FN(cursor_seek)(s, &cur, p);
                    ahead = 0;
                }
                int64_t want = (int64_t)(g < 16 ? g : 16) + LOOKAHEAD;
                while (ahead < want) {
                    uint64_t x = FN(cursor_next)(s, &cur, k1); /* this chunk's groups only */
                    if (x == UINT64_MAX) break;
                    FN(prefetch_key)(s, s->sa[x]);
                    ahead++;
                }
                sorted += FN(local_sort)(s, tid, p, e, NULL, settle);
                ahead -= (int64_t)g;
                if (ahead < 0) ahead = -1;
            }
        }
    }
    s->acc[tid] = sorted;
}

/* ---- phase 1 in text order -------------------------------------------------------------------
 * After the opening round phase 1 takes the groups up in the text order of their first
 * unsorted suffix.  The suffixes of a repeat's copies then come up in text order
 * too, so the keys rank[i + h] of consecutive groups lie side by side, one stream
 * per copy, where SA order reads each key from a random place.  todo (a copy of un)
 * holds the suffixes still to meet; taking a group removes all of its suffixes
 * there, and a claim makes the taker unique: the group's start bit in b3, which
 * otherwise marks new starts inside groups only (phase 2 and the merge read it as
 * the start it is).  The todo and un bits are cleared without locked instructions,
 * which would keep the misses from overlapping: a clear lost to a neighbour's
 * store of the same word only brings a suffix up again, and then its group is
 * claimed or found sorted. */

/* The unsorted groups of more than local_max suffixes, found a chunk of starts at a
 * time; they are sorted by all threads, and the walk passes them over (finding the
 * start of such a group from its end would take a long scan for every suffix). */
static void FN(find_large_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    (void)tid;
    for (;;) {
        uint64_t k0, k1;
        if (!FN(claim_chunk)(s, &k0, &k1)) break;
        for (uint64_t k = k0; k < k1; k++) {
            uint64_t w = bits_ld(s->b1, k) & bits_ld(s->b2, k);
            while (w) {
                uint64_t p = (k << 6) + (uint64_t)__builtin_ctzll(w);
                w &= w - 1;
                uint64_t e = FN(next_start)(s, p + 1);
                if (e - p > s->local_max) FN(push)(s, &s->groups, &s->ngroups, &s->groups_cap, p, e);
            }
        }
    }
}

/* 1 when a large group ends before e (groups sorted by position). */
static int FN(large_end)(const FN(st) *s, uint64_t e)
{
    uint64_t a = 0, b = s->ngroups;
    while (a < b) {
        uint64_t m = (a + b) / 2;
        if (s->groups[m].hi < e) a = m + 1;
        else b = m;
    }
    return a < s->ngroups && s->groups[a].hi == e;
}

/* Last group start at or before p. */
static uint64_t FN(prev_start)(FN(st) *s, uint64_t p)
{
    uint64_t k = p >> 6, w = bits_ld(s->b1, k) & (~0ull >> (63 - (p & 63)));
    while (!w) w = bits_ld(s->b1, --k); /* position 0 starts a group */
    return (k << 6) + (uint64_t)hibit(w);
}

static void FN(todo_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(0, s->nw, tid, s->nt, &a, &b);
    for (uint64_t k = a; k < b; k++) bits_st(s->todo, k, bits_ld(s->un, k));
}

/* The text-order walk runs from one group to the next through a chain of misses
 * (rank, SA slot, bits): the group of the suffix LOOK_TEXT places ahead is fetched
 * early. */
static void FN(phase1_text_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    const int claims = s->nt > 1;
    for (;;) {
        uint64_t k0, k1;
        if (!FN(claim_chunk)(s, &k0, &k1)) break;
        cursor_t look = {k0, bits_ld(s->todo, k0)};
        uint64_t ahead = 0;
        for (uint64_t k = k0; k < k1; k++) {
            uint64_t u;
            while ((u = bits_ld(s->todo, k))) {
                for (; ahead < LOOK_TEXT; ahead++) {
                    while (!look.w && ++look.k < k1) look.w = bits_ld(s->todo, look.k);
                    if (!look.w) break;
                    uint64_t x = (look.k << 6) + (uint64_t)__builtin_ctzll(look.w);
                    look.w &= look.w - 1;
                    uint64_t gx = (uint64_t)s->rk[x] - 1; /* the group's last position */
                    __builtin_prefetch(&s->sa[gx], 1);
                    __builtin_prefetch(&s->sa[gx > 16 ? gx - 16 : 0], 1);
                    __builtin_prefetch((const void *)&s->b1[gx >> 6]);
                    __builtin_prefetch((const void *)&s->b3[gx >> 6], 1);
                }
                if (ahead) ahead--;
                uint64_t i = (k << 6) + (uint64_t)__builtin_ctzll(u);
                bits_st(s->todo, k, u & (u - 1));
                uint64_t e = s->rk[i]; /* ranks are group ends */
                if (s->ngroups && FN(large_end)(s, e)) continue;
                uint64_t g = FN(prev_start)(s, e - 1);
                if (e - g < 2) { /* sorted: a lingering bit */
                    clear_plain(s->un, i);
                    continue;
                }
                if (claims) {
                    uint64_t m = 1ull << (g & 63);
                    if ((bits_ld(s->b3, g >> 6) & m) ||
                        (atomic_fetch_or_explicit(&s->b3[g >> 6], m, memory_order_relaxed) & m))
                        continue;
                }
                for (uint64_t j = g; j < e; j++) clear_plain(s->todo, s->sa[j]);
                FN(local_sort)(s, tid, g, e, NULL, 0);
            }
        }
    }
    s->acc[tid] = 0;
}

/* un[i]: suffix i's group is unsorted (after the opening round, when every suffix
 * has its rank: its group's last position plus one). */
static void FN(unsorted_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(0, s->nw, tid, s->nt, &a, &b);
    for (uint64_t k = a; k < b; k++) {
        uint64_t w = 0, i0 = k << 6, i1 = i0 + 64 < s->n ? i0 + 64 : s->n;
        for (uint64_t i = i0; i < i1; i++) {
            uint64_t g = (uint64_t)s->rk[i] - 1; /* the group's last position */
            w |= (bits_ld(s->b2, g >> 6) >> (g & 63) & 1) << (i - i0);
        }
        bits_st(s->un, k, w);
    }
}

/* ---- large groups: MSD radix pass through the shared buffer ----------------------------- */

static void FN(minmax_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(s->lo, s->hi, tid, s->nt, &a, &b);
    W mn = (W)~(W)0, mx = 0;
    for (uint64_t j = a; j < b; j++) {
        if (j + 16 < b) FN(prefetch_key)(s, s->sa[j + 16]);
        W k = FN(key)(s, s->sa[j]);
        if (k < mn) mn = k;
        if (k > mx) mx = k;
    }
    s->kmin[tid] = mn;
    s->kmax[tid] = mx;
}

static void FN(hist_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(s->lo, s->hi, tid, s->nt, &a, &b);
    uint64_t *h = s->hist + ((uint64_t)tid << RADIX_BITS);
    memset(h, 0, sizeof(uint64_t) << RADIX_BITS);
    for (uint64_t j = a; j < b; j++) {
        if (j + 16 < b) FN(prefetch_key)(s, s->sa[j + 16]);
        h[(uint64_t)(FN(key)(s, s->sa[j]) - s->mn) >> s->shift]++;
    }
}

static void FN(scatter_big_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(s->lo, s->hi, tid, s->nt, &a, &b);
    uint64_t *h = s->hist + ((uint64_t)tid << RADIX_BITS);
    for (uint64_t j = a; j < b; j++) {
        if (j + 16 < b) FN(prefetch_key)(s, s->sa[j + 16]);
        W v = s->sa[j];
        s->temp[h[(uint64_t)(FN(key)(s, v) - s->mn) >> s->shift]++] = v;
    }
}

/* Each digit's part back into SA: sorted there when small, else queued. */
static void FN(finish_big_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    for (;;) {
        uint64_t d0 = atomic_fetch_add_explicit(&s->next, 64, memory_order_relaxed);
        if (d0 >= s->ndig) break;
        uint64_t d1 = d0 + 64 < s->ndig ? d0 + 64 : s->ndig;
        for (uint64_t d = d0; d < d1; d++) {
            uint64_t a = s->dstart[d], b = s->dstart[d + 1];
            if (a == b) continue;
            if (a > 0) bit_set(s->b3, s->lo + a);
            if (b - a == 1) {
                s->sa[s->lo + a] = s->temp[a];
            } else if (b - a <= s->local_max) {
                FN(local_sort)(s, tid, s->lo + a, s->lo + b, s->temp + a, 0);
            } else {
                memcpy(s->sa + s->lo + a, s->temp + a, (b - a) * sizeof(W));
                FN(push_big)(s, s->lo + a, s->lo + b);
            }
        }
    }
}

static int FN(temp_ensure)(FN(st) *s, uint64_t g)
{
    if (s->temp_len >= g) return 1;
    uint64_t want = 2 * s->temp_len > g ? 2 * s->temp_len : g;
    if (want > s->temp_cap) want = s->temp_cap;
    free(s->temp);
    s->temp = malloc(want * sizeof(W));
    s->temp_len = s->temp ? want : 0;
    if (!s->temp) s->temp_cap = 0; /* no room: split in place from now on */
    return s->temp != NULL;
}

static void FN(radix_big)(FN(st) *s, uint64_t lo, uint64_t hi)
{
    s->lo = lo;
    s->hi = hi;
    pool_run(s->pool, FN(minmax_job), s);
    W mn = s->kmin[0], mx = s->kmax[0];
    for (int t = 1; t < s->nt; t++) {
        if (s->kmin[t] < mn) mn = s->kmin[t];
        if (s->kmax[t] > mx) mx = s->kmax[t];
    }
    if (mn == mx) return;
    int r = hibit((uint64_t)(mx - mn)) + 1;
    s->mn = mn;
    s->shift = r > RADIX_BITS ? r - RADIX_BITS : 0;
    s->ndig = ((uint64_t)(mx - mn) >> s->shift) + 1;
    pool_run(s->pool, FN(hist_job), s);
    uint64_t sum = 0;
    for (uint64_t d = 0; d < s->ndig; d++) {
        s->dstart[d] = sum;
        for (int t = 0; t < s->nt; t++) {
            uint64_t *h = s->hist + ((uint64_t)t << RADIX_BITS) + d;
            uint64_t c = *h;
            *h = sum;
            sum += c;
        }
    }
    s->dstart[s->ndig] = sum;
    pool_run(s->pool, FN(scatter_big_job), s);
    atomic_store(&s->next, 0);
    pool_run(s->pool, FN(finish_big_job), s);
}

/* ---- large groups: three-way split in place ---------------------------------------------- */

static void FN(partition_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(s->lo, s->hi, tid, s->nt, &a, &b);
    W *sa = s->sa, pv = s->pivot;
    uint64_t lt = a, i = a, gt = b; /* [a, lt) < pivot, [lt, i) = pivot, [gt, b) > pivot */
    while (i < gt) {
        if (i + 16 < gt) FN(prefetch_key)(s, sa[i + 16]);
        W v = sa[i], k = FN(key)(s, v);
        if (k < pv) {
            sa[i++] = sa[lt];
            sa[lt++] = v;
        } else if (k > pv) {
            sa[i] = sa[--gt];
            sa[gt] = v;
        } else {
            i++;
        }
    }
    s->part[tid][0] = lt - a;
    s->part[tid][1] = gt - lt;
    s->part[tid][2] = b - gt;
}

static void FN(swap_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(0, s->sw_m, tid, s->nt, &a, &b);
    W *x = s->sa + s->sw_a, *y = s->sa + s->sw_b;
    for (uint64_t j = a; j < b; j++) {
        W v = x[j];
        x[j] = y[j];
        y[j] = v;
    }
}

/* Adjacent blocks X = [x0, x1) and Y = [x1, x2), each of one class: afterwards Y's
 * elements fill [x0, x0 + |Y|) and X's the rest, moving min(|X|, |Y|) pairs. */
static void FN(exchange)(FN(st) *s, uint64_t x0, uint64_t x1, uint64_t x2)
{
    uint64_t nx = x1 - x0, ny = x2 - x1;
    if (!nx || !ny) return;
    if (nx <= ny) {
        s->sw_a = x0;
        s->sw_b = x2 - nx;
        s->sw_m = nx;
    } else {
        s->sw_a = x0;
        s->sw_b = x1;
        s->sw_m = ny;
    }
    if (s->sw_m >= (1u << 16) && s->nt > 1) {
        pool_run(s->pool, FN(swap_job), s);
    } else {
        W *x = s->sa + s->sw_a, *y = s->sa + s->sw_b;
        for (uint64_t j = 0; j < s->sw_m; j++) {
            W v = x[j];
            x[j] = y[j];
            y[j] = v;
        }
    }
}

static int FN(cmp_w)(const void *a, const void *b)
{
    W x = *(const W *)a, y = *(const W *)b;
    return x < y ? -1 : x > y;
}

/* The most frequent of a sample of keys when it is common, else their median;
 * *dominant: the most frequent is at least half the sample. */
static W FN(pick_pivot)(FN(st) *s, uint64_t lo, uint64_t hi, int *dominant)
{
    W k[PIVOT_SAMPLES];
    uint64_t g = hi - lo, m = g < PIVOT_SAMPLES ? g : PIVOT_SAMPLES;
    for (uint64_t i = 0; i < m; i++) k[i] = FN(key)(s, s->sa[lo + i * g / m]);
    qsort(k, m, sizeof *k, FN(cmp_w));
    W best = k[m / 2];
    uint64_t run = 0, best_run = 0;
    for (uint64_t i = 0; i < m; i++) {
        run = i && k[i] == k[i - 1] ? run + 1 : 1;
        if (run > best_run) {
            best_run = run;
            best = k[i];
        }
    }
    *dominant = best_run * 2 >= m;
    return best_run * 8 >= m ? best : k[m / 2];
}

static void FN(split_big)(FN(st) *s, uint64_t lo, uint64_t hi, W pivot)
{
    s->lo = lo;
    s->hi = hi;
    s->pivot = pivot;
    pool_run(s->pool, FN(partition_job), s);
    /* merge the stripes [L E G][L E G]... pairwise into one [L E G] */
    uint64_t start[MAX_THREADS], cls[MAX_THREADS][3];
    int ns = s->nt;
    for (int t = 0; t < ns; t++) {
        FN(piece)(lo, hi, t, ns, &start[t], &(uint64_t){0});
        memcpy(cls[t], s->part[t], sizeof cls[t]);
    }
    while (ns > 1) {
        int out = 0;
        for (int t = 0; t + 1 < ns; t += 2) {
            uint64_t a = start[t], b = start[t + 1];
            uint64_t la = cls[t][0], ea = cls[t][1], ga = cls[t][2];
            uint64_t lb = cls[t + 1][0], eb = cls[t + 1][1], gb = cls[t + 1][2];
            /* [La Ea Ga Lb Eb Gb] -> [La Ea Lb Ga Eb Gb] -> [La Lb Ea Ga Eb Gb]
             * -> [La Lb Ea Eb Ga Gb] */
            FN(exchange)(s, a + la + ea, b, b + lb);
            FN(exchange)(s, a + la, a + la + ea, a + la + ea + lb);
            FN(exchange)(s, a + la + lb + ea, b + lb, b + lb + eb);
            start[out] = a;
            cls[out][0] = la + lb;
            cls[out][1] = ea + eb;
            cls[out][2] = ga + gb;
            out++;
        }
        if (ns & 1) {
            start[out] = start[ns - 1];
            memcpy(cls[out], cls[ns - 1], sizeof cls[out]);
            out++;
        }
        ns = out;
    }
    uint64_t nl = cls[0][0], ne = cls[0][1];
    if (nl) bit_set(s->b3, lo + nl);
    if (lo + nl + ne < hi) bit_set(s->b3, lo + nl + ne);
    FN(sort_part)(s, lo, lo + nl);
    FN(sort_part)(s, lo + nl + ne, hi);
}

/* A key held by half the group (the runs of a periodic text) is split off in one
 * pass; other groups take the radix pass when the buffer holds them. */
static void FN(sort_big)(FN(st) *s, uint64_t lo, uint64_t hi)
{
    int dominant;
    W pivot = FN(pick_pivot)(s, lo, hi, &dominant);
    if (!dominant && hi - lo <= s->temp_cap && FN(temp_ensure)(s, hi - lo)) FN(radix_big)(s, lo, hi);
    else FN(split_big)(s, lo, hi, pivot);
}

/* ---- phase 2: new ranks, sorted singletons ------------------------------------------------- */

/* First new start in [p, e), or e. */
static inline uint64_t FN(next_new)(FN(st) *s, uint64_t p, uint64_t e)
{
    if (p >= e) return e;
    uint64_t k = p >> 6, w = bits_ld(s->b3, k) & (~0ull << (p & 63));
    while (!w) {
        if (((++k) << 6) >= e) return e;
        w = bits_ld(s->b3, k);
    }
    uint64_t x = (k << 6) + (uint64_t)__builtin_ctzll(w);
    return x < e ? x : e;
}

/* A group's rank is its last SA position plus one (as in LS).  When a group splits,
 * its last sub-group keeps the rank (no writes), so a group that loses a few
 * suffixes at its front each round (the shorter ones, as in a periodic text) keeps
 * its rank round after round. */

/* The groups of up to local_max suffixes that split: new ranks, sorted singletons. */
static void FN(phase2_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t sorted = 0;
    FN(wring) wr = {.rk = s->rk};
    clring_t cr = {.b = s->un};
    marks_t clr = {UINT64_MAX, 0};
    for (;;) {
        uint64_t k0, k1;
        if (!FN(claim_chunk)(s, &k0, &k1)) break;
        for (uint64_t k = k0; k < k1; k++) {
            uint64_t w = bits_ld(s->b1, k) & bits_ld(s->b2, k);
            while (w) {
                uint64_t p = (k << 6) + (uint64_t)__builtin_ctzll(w);
                w &= w - 1;
                uint64_t e = FN(next_start)(s, p + 1);
                if (e - p > s->local_max) continue; /* a large group: phase2_big_job */
                uint64_t x = FN(next_new)(s, p + 1, e);
                if (x == e) continue;
                for (uint64_t a = p; a < e; a = x, x = FN(next_new)(s, x + 1, e)) {
                    if (x < e)
                        for (uint64_t j = a; j < x; j++) FN(wr_put)(&wr, s->sa[j], (W)x);
                    if (x - a == 1) {
                        clears_add(s->b2, &clr, a);
                        cr_put(&cr, s->sa[a]);
                        sorted++;
                    }
                }
            }
        }
    }
    FN(wr_flush)(&wr);
    cr_flush(&cr);
    clears_flush(s->b2, &clr);
    s->acc[tid] = sorted;
}

/* A large group [lo, hi) in pieces: the last new start in each. */
static void FN(last_new_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(s->lo, s->hi, tid, s->nt, &a, &b);
    uint64_t last = UINT64_MAX;
    for (uint64_t x = FN(next_new)(s, a, b); x < b; x = FN(next_new)(s, x + 1, b)) last = x;
    s->plast[tid] = last;
}

/* The sub-groups of a large group that meet the piece [a, b); plast[tid] is the
 * start of the one holding a.  In the opening round every suffix needs its rank. */
static void FN(phase2_big_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b, sorted = 0;
    FN(piece)(s->lo, s->hi, tid, s->nt, &a, &b);
    const uint64_t hi = s->hi;
    const int all = s->h == 0;
    FN(wring) wr = {.rk = s->rk};
    clring_t cr = {.b = s->un};
    marks_t clr = {UINT64_MAX, 0};
    uint64_t start = FN(next_new)(s, a, a + 1) == a ? a : s->plast[tid];
    for (uint64_t j = a; j < b;) {
        uint64_t end = FN(next_new)(s, j + 1, hi), stop = end < b ? end : b;
        if (end < hi || all)
            for (uint64_t x = j; x < stop; x++) FN(wr_put)(&wr, s->sa[x], (W)end);
        if (end - start == 1) {
            clears_add(s->b2, &clr, start);
            cr_put(&cr, s->sa[start]);
            sorted++;
        }
        j = start = stop;
    }
    FN(wr_flush)(&wr);
    cr_flush(&cr);
    clears_flush(s->b2, &clr);
    s->acc[tid] = sorted;
}

/* New starts become group starts. */
static void FN(merge_job)(void *arg, int tid)
{
    FN(st) *s = arg;
    uint64_t a, b;
    FN(piece)(0, s->nw, tid, s->nt, &a, &b);
    for (uint64_t k = a; k < b; k++) {
        uint64_t m = bits_ld(s->b3, k);
        if (m) {
            bits_st(s->b1, k, bits_ld(s->b1, k) | m);
            bits_st(s->b3, k, 0);
        }
    }
}

/* ---- the construction ----------------------------------------------------------------------- */

static void FN(free_st)(FN(st) *s)
{
    for (int t = 0; t < MAX_THREADS; t++) {
        free(s->buf[t]);
        free(s->buf2[t]);
    }
    free((void *)s->b1);
    free((void *)s->b2);
    free((void *)s->b3);
    free((void *)s->un);
    free((void *)s->todo);
    free(s->temp);
    free(s->big);
    free(s->groups);
    free(s->cnt);
    free(s->hist);
    free(s->dstart);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* The state of a construction over n suffixes: SA and the rank array given, the bit
 * vectors and the threads' buffers allocated; NULL when memory ran out. */
static FN(st) *FN(st_new)(const shared_t *sh, void *sa_, void *rk_, uint64_t n)
{
    const rv_sa_opts_t *o = sh->o;
    FN(st) *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_init(&s->mu, NULL);
    s->sh = sh;
    s->t = sh->t;
    s->n = n;
    s->sa = sa_;
    s->rk = rk_;
    s->pool = sh->pool;
    s->nt = sh->pool->nt;
    int nt = s->nt;
    s->nw = (n + 63) >> 6;
    s->local_max = o->local_max ? o->local_max : 1u << 16;
    if (s->local_max > n) s->local_max = n;
    s->temp_cap = (o->temp_bytes ? o->temp_bytes : n - n / 8) / sizeof(W);
    uint64_t chunk = o->chunk;
    if (!chunk) {
        chunk = n / ((uint64_t)nt * 32);
        if (chunk < 4096) chunk = 4096;
        if (chunk > 65536) chunk = 65536;
    }
    s->chunk = (chunk + 63) & ~63ull;
    s->nchunks = (n + s->chunk - 1) / s->chunk;
    size_t wb = (s->nw + 1) * sizeof(uint64_t);
    s->b1 = calloc(1, wb);
    s->b2 = calloc(1, wb);
    s->b3 = calloc(1, wb);
    s->un = calloc(1, wb);
    s->todo = calloc(1, wb);
    s->hist = malloc(((size_t)nt << RADIX_BITS) * sizeof *s->hist);
    s->dstart = malloc(((1u << RADIX_BITS) + 1) * sizeof *s->dstart);
    int ok = s->b1 && s->b2 && s->b3 && s->un && s->todo && s->hist && s->dstart;
    for (int t = 0; ok && t < nt; t++) {
        s->buf[t] = malloc(s->local_max * sizeof(FN(pair)));
        s->buf2[t] = malloc(s->local_max * sizeof(FN(pair)));
        ok = s->buf[t] && s->buf2[t];
    }
    if (!ok) {
        FN(free_st)(s);
        return NULL;
    }
    return s;
}

/* The doubling rounds from h on (0: the opening round's low key, then q, 2q, ...;
 * else h, 2h, ...), while `unsorted` suffixes are in groups of two or more.
 * Returns 0, or -1 when memory ran out. */
static int FN(rounds)(FN(st) *s, uint64_t h, uint64_t q, uint64_t unsorted)
{
    const rv_sa_opts_t *o = s->sh->o;
    const uint64_t n = s->n;
    const int nt = s->nt;
    /* suffixes in large groups last round: when they are most of the unsorted ones
     * (a periodic text), SA order skips them at less cost than the text walk */
    uint64_t in_large = 0;
    int rc = 0;
    while (unsorted) {
        if (h > n) { /* every group is sorted once h reaches n */
            rc = -1;
            break;
        }
        s->h = h;
        atomic_store(&s->next, 0);
        s->ngroups = 0;
        if (h && 2 * in_large < unsorted) {
            /* the large groups first: the walk passes their suffixes over */
            atomic_store(&s->next, 0);
            pool_run(s->pool, FN(find_large_job), s);
            if (s->ngroups > 1) qsort(s->groups, s->ngroups, sizeof *s->groups, cmp_range);
            for (uint64_t i = 0; i < s->ngroups; i++) FN(push_big)(s, s->groups[i].lo, s->groups[i].hi);
            pool_run(s->pool, FN(todo_job), s);
            atomic_store(&s->next, 0);
            pool_run(s->pool, FN(phase1_text_job), s);
        } else {
            pool_run(s->pool, FN(phase1_job), s);
        }
        uint64_t sorted = 0;
        if (h == 0)
            for (int t = 0; t < nt; t++) sorted += s->acc[t];
        TRACE("h=%llu: phase 1, %llu large groups", (unsigned long long)h, (unsigned long long)s->nbig);
        while (s->nbig && !s->oom) {
            range_t r = s->big[--s->nbig];
            FN(sort_big)(s, r.lo, r.hi);
        }
        if (s->oom) {
            rc = -1;
            break;
        }
        TRACE("h=%llu: large groups", (unsigned long long)h);
        if (h) {
            atomic_store(&s->next, 0);
            pool_run(s->pool, FN(phase2_job), s);
            for (int t = 0; t < nt; t++) sorted += s->acc[t];
        }
        for (uint64_t i = 0; i < s->ngroups; i++) {
            s->lo = s->groups[i].lo;
            s->hi = s->groups[i].hi;
            pool_run(s->pool, FN(last_new_job), s);
            uint64_t prev = s->lo;
            for (int t = 0; t < nt; t++) {
                uint64_t x = s->plast[t];
                s->plast[t] = prev;
                if (x != UINT64_MAX) prev = x;
            }
            pool_run(s->pool, FN(phase2_big_job), s);
            for (int t = 0; t < nt; t++) sorted += s->acc[t];
        }
        in_large = 0;
        for (uint64_t i = 0; i < s->ngroups; i++) in_large += s->groups[i].hi - s->groups[i].lo;
        pool_run(s->pool, FN(merge_job), s);
        if (!h) pool_run(s->pool, FN(unsorted_job), s);
        unsorted -= sorted;
        if (o->progress && sorted) o->progress(o->progress_ud, sorted);
        TRACE("h=%llu: phase 2, %llu unsorted left", (unsigned long long)h, (unsigned long long)unsorted);
        h = h ? 2 * h : q;
    }
    return rc;
}

/* Prefix doubling of the text's suffixes from the opening round on. */
static int FN(run)(const shared_t *sh, void *sa_, void *rk_)
{
    const rv_sa_opts_t *o = sh->o;
    FN(st) *s = FN(st_new)(sh, sa_, rk_, sh->n);
    if (!s) return -1;
    const uint64_t n = s->n, b = sh->base;
    int nt = s->nt;
    /* packed keys: ql digits in one array word, qb digits of bucket */
    s->ql = 0;
    uint64_t pw = 1;
    if (WIDE) {
        while (pw <= UINT64_MAX / b) pw *= b, s->ql++;
    } else {
        while (pw * b <= (1ull << 32)) pw *= b, s->ql++;
    }
    uint64_t nbmax = o->buckets;
    if (!nbmax) {
        nbmax = n / (32 * (uint64_t)nt);
        if (nbmax < 16) nbmax = 16;
        if (nbmax > (1u << 18)) nbmax = 1u << 18;
    }
    s->qb = 0;
    s->nb = 1;
    while (s->nb * b <= nbmax) s->nb *= b, s->qb++;
    s->pb = 1;
    for (uint64_t k = 1; k < s->qb; k++) s->pb *= b;
    s->pl = pw / b;
    s->cnt = calloc((size_t)nt * s->nb, sizeof *s->cnt);
    if (!s->cnt) {
        FN(free_st)(s);
        return -1;
    }

    /* opening round: buckets by counting sort */
    TRACE("start: %d threads", nt);
    pool_run(s->pool, FN(count_job), s);
    TRACE("counted");
    uint64_t sum = 0;
    for (uint64_t c = 0; c < s->nb; c++)
        for (int t = 0; t < nt; t++) {
            uint64_t x = s->cnt[(uint64_t)t * s->nb + c];
            s->cnt[(uint64_t)t * s->nb + c] = sum;
            sum += x;
        }
    pool_run(s->pool, FN(scatter_job), s);
    TRACE("scattered");
    pool_run(s->pool, FN(mark_job), s);
    TRACE("marked");
    free(s->cnt);
    s->cnt = NULL;
    uint64_t unsorted = 0;
    for (int t = 0; t < nt; t++) unsorted += s->acc[t];
    if (o->progress && n - unsorted) o->progress(o->progress_ud, n - unsorted);

    /* rounds: h = 0 (the low key), q, 2q, 4q, ... */
    int rc = FN(rounds)(s, 0, s->qb + s->ql, unsorted);
    FN(free_st)(s);
    return rc;
}

#undef DIGIT
#undef PK
#undef PV
#undef MKP
