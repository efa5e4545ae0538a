/* rvx.c — reading and verifying the .rvx index file (repview-index(1); layout in
 * rvx_format.h, writing in rvx_write.c).  Little-endian hosts only (x86-64, arm64).
 *
 * Design (format 5, 6 for a file holding SA40; format 4 is read too).  The file is a
 * header (input fingerprint, sizes, and the hashes of the table, of the block hashes
 * and of itself), a section table reserved right after it but written last, the
 * sections in the order the build finished them (each page aligned), and at the end
 * one XXH3 hash per fixed block (8 MiB) of every section.  A writer hashes each
 * block as it writes it, so saving runs at disk speed and overlaps the build.  ISA
 * and LLRc are not stored, and the DNA text, the sequence as read, the runs and the
 * SA of a wide index (64-bit arrays) below 2^40 symbols (SA40, 5 bytes a rank) are
 * stored in the compact forms of rvx_compact.h: rv_index_derive() rebuilds the first
 * two and expands the runs when they are first asked for; the text and the sequence
 * are expanded at open, and so is SA40, into an 8-byte SA the index owns, each block
 * hashed as it is expanded (so SA40 is verified at open: it is read whole then
 * anyway).  A file holding SA40 says format 6; every other file is written as format
 * 5, byte for byte as before, so that the previous repview still reads it.
 *
 * Opening checks the header, the table, the block hashes, the section sizes, the
 * small sections (records, segments) and the file forms, expands the text, the
 * sequence and SA40, and returns.  Big sections are verified lazily by rv_index_verify(),
 * all blocks in parallel: a headless command verifies exactly the sections it is
 * about to use before its first answer (cli_common.c), or only the blocks it reads
 * when they are few (rv_index_verify_part(): `sa --around`); the explorer verifies
 * all of them in a background thread while it already shows the panes
 * ("verifying N%").
 * The O(n) content checks (LLRc order, the runs tree) run on all threads once their
 * sections are verified.  Damage makes rv_index_verify() fail with "corrupt index (checksum
 * mismatch ...)" and marks the file bad for this process: the next rv_index_load()
 * refuses it, so rv_open() reports it in one line and rebuilds.
 *
 * Until a section is verified, reads from it must stay inside the mapping whatever
 * its bytes say, at O(1) cost: SA and ISA values are clamped into [0, n) by
 * rv_sa()/rv_isa(), LCP and LLR lengths to n by rv_lcp()/rv_lr_src_L(), LLRc starts
 * by rv_llrc_start(); the narrow tables bound their escapes by n_big
 * (rv_narrow_val()) and their size is checked at open; runs are clamped into the
 * text by rv_runs_at().  Headless commands never read an unverified section
 * (cli_common.c verifies first); the explorer may, while the background
 * verification runs. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/index.h"
#include "repview/lce.h"
#include "repview/lr.h"
#include "repview/tandem.h"
#include "base/internal.h"
#include "lr_arrays.h"
#include "runs_store.h"
#include "rvx_compact.h"
#include "rvx_format.h"
#include "sa_cpu.h"

/* rv_index_verify_near(): positions and ranks either side of the place, and the
 * largest escape table it verifies whole. */
enum { NEAR_SPAN = 1 << 16, NEAR_ROWS = 1 << 12, NEAR_SMALL = 64 << 20 };

/* What of a mapped file is verified. */
struct rv_rvx_state {
    const unsigned char *base;
    const uint64_t *hashes;
    uint64_t block;
    char *path;
    dev_t dev;
    ino_t ino;
    int64_t mtime_ns;
    int n_sec;
    rvx_entry_t sec[RVX_TABLE_CAP];
    _Atomic int ok[RV_SEC_MAX]; /* 1 once the section's blocks and content passed */
    _Atomic unsigned char *blk_ok; /* per block hash: 1 once it passed */
    _Atomic uint64_t done, total;
    _Atomic int cancel;
    pthread_mutex_t mu;         /* one verification at a time */
    pthread_mutex_t derive_mu;  /* one rv_index_derive() at a time */
    const void *text2;          /* the compact text, when the text is left unexpanded */
    uint64_t text2_bytes;
    const void *runz;           /* the runs in their file form, expanded on demand */
    uint64_t runz_bytes;
};

/* Files this process found damaged (dev, inode, mtime) and why: refused on reload
 * with the same report. */
static struct { dev_t dev; ino_t ino; int64_t mtime_ns; char why[160]; } bad_files[16];
static int n_bad;
static pthread_mutex_t bad_mu = PTHREAD_MUTEX_INITIALIZER;

static void mark_bad(const struct rv_rvx_state *v, const char *why)
{
    pthread_mutex_lock(&bad_mu);
    int k = n_bad < 16 ? n_bad++ : 15;
    bad_files[k].dev = v->dev;
    bad_files[k].ino = v->ino;
    bad_files[k].mtime_ns = v->mtime_ns;
    snprintf(bad_files[k].why, sizeof bad_files[k].why, "%s", why);
    pthread_mutex_unlock(&bad_mu);
}

/* 1 (why filled) when this process found the file damaged. */
static int known_bad(const struct stat *st, char *why, size_t len)
{
    int64_t mt = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    int hit = 0;
    pthread_mutex_lock(&bad_mu);
    for (int i = 0; i < n_bad && !hit; i++)
        if (bad_files[i].dev == st->st_dev && bad_files[i].ino == st->st_ino && bad_files[i].mtime_ns == mt) {
            snprintf(why, len, "%s", bad_files[i].why);
            hit = 1;
        }
    pthread_mutex_unlock(&bad_mu);
    return hit;
}

int rv_file_matches(const char *path, uint64_t size, int64_t mtime_ns, int64_t ctime_ns, uint64_t ino)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    return (uint64_t)st.st_size == size && (uint64_t)st.st_ino == ino &&
           (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec == mtime_ns &&
           (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec == ctime_ns;
}

/* ---- loading ---------------------------------------------------------------- */

static rv_rvx_status_t fail(rv_rvx_status_t st, const char *path, const char *what, void *map,
                            size_t len)
{
    if (map) munmap(map, len);
    rv_error(path, "%s", what);
    return st;
}

static int unpack_records(rv_seq_t *s, const unsigned char *p, uint64_t bytes)
{
    s->rec = calloc(s->n_rec ? s->n_rec : 1, sizeof *s->rec);
    if (!s->rec) return -1;
    uint64_t at = 0, expect_off = 0;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        uint32_t l;
        if (at + 20 > bytes) return -1;
        memcpy(&s->rec[i].len, p + at, 8);
        memcpy(&s->rec[i].off, p + at + 8, 8);
        memcpy(&l, p + at + 16, 4);
        if (at + 20 + l > bytes || s->rec[i].off != expect_off) return -1;
        s->rec[i].name = strndup((const char *)p + at + 20, l);
        if (!s->rec[i].name) return -1;
        expect_off += s->rec[i].len;
        at += 20 + l;
    }
    return at == bytes && expect_off == s->glen ? 0 : -1;
}

static const char *section_name(uint32_t id);
static void damage_report(const struct rv_rvx_state *v, const rvx_entry_t *e, uint64_t b, char *why, size_t len);

/* Sections read whole when the file is opened: verified then. */
static int read_at_open(uint32_t id)
{
    return id == RV_SEC_RECORDS || id == RV_SEC_SEGMENTS || id == RV_SEC_STRANDS || id == RV_SEC_TEXT2 ||
           id == RV_SEC_RAWX;
}

static int section_hashes_ok(const unsigned char *base, const rvx_entry_t *e, const uint64_t *hashes,
                             uint64_t block)
{
    for (uint64_t b = 0, nb = rvx_blocks(e->bytes, block); b < nb; b++) {
        uint64_t at = b * block, len = e->bytes - at < block ? e->bytes - at : block;
        if (rvx_block_hash(base + e->offset + at, len, e->id, b) != hashes[e->first_hash + b]) return 0;
    }
    return 1;
}

/* Header checks, O(1): version, own hash, fingerprint.  RV_RVX_OK or the reason. */
static rv_rvx_status_t check_header(const char *path, const char *input, const unsigned char *base,
                                    size_t len, rvx_header_t *h)
{
    static const unsigned char zeros[8];
    /* zeros where the magic goes, in a file of a page or more: one of ours whose
     * header, written last and not synced, was lost with the machine (rvx_write.c) */
    if (len >= 4096 && memcmp(base, zeros, 8) == 0)
        return rv_error(path, "corrupt index (its header is missing)"), RV_RVX_CORRUPT;
    if (memcmp(base, RVX_MAGIC, 8) != 0) return rv_error(path, "not a repview index"), RV_RVX_FOREIGN;
    if (len < 16) return rv_error(path, "truncated index file"), RV_RVX_TRUNCATED;
    memcpy(h, base, 16);
    if (h->version < RVX_VERSION_OLDEST || h->version > RVX_VERSION)
        return rv_error(path, "index format %u%s", h->version,
                        h->version > RVX_VERSION ? " (a newer repview's)" : ""), RV_RVX_VERSION;
    if (h->header_bytes != sizeof *h) return rv_error(path, "corrupt index header"), RV_RVX_CORRUPT;
    if (len < sizeof *h) return rv_error(path, "truncated index file"), RV_RVX_TRUNCATED;
    memcpy(h, base, sizeof *h);
    uint64_t want = h->header_hash;
    h->header_hash = 0;
    if (XXH3_64bits_withSeed(h, sizeof *h, 2) != want) return rv_error(path, "corrupt index header"), RV_RVX_CORRUPT;
    h->header_hash = want;
    if (input && !rv_file_matches(input, h->src_size, h->src_mtime_ns, h->src_ctime_ns, h->src_ino))
        return rv_error(path, "stale index (the input changed since it was built)"), RV_RVX_STALE;
    return RV_RVX_OK;
}

/* Every byte outside the header, the used table entries, the sections and the
 * block hashes is zero: the writer leaves holes there, and no hash covers them, so
 * damage in them is found this way.  A tail after the block hashes must be zero and
 * shorter than a page.  Reads O(sections) pages; call after check_table(). */
static int padding_zero(const unsigned char *base, size_t len, const rvx_header_t *h)
{
    uint64_t lo[RVX_TABLE_CAP + 2], hi[RVX_TABLE_CAP + 2];
    const rvx_entry_t *table = (const rvx_entry_t *)(base + sizeof *h);
    int m = 0;
    lo[m] = 0, hi[m++] = sizeof *h + (uint64_t)h->n_sections * sizeof *table;
    lo[m] = h->hash_offset, hi[m++] = h->hash_offset + h->n_hashes * 8;
    for (uint32_t i = 0; i < h->n_sections; i++) lo[m] = table[i].offset, hi[m++] = table[i].offset + table[i].bytes;
    for (int i = 1; i < m; i++) /* by start: few entries, mostly in order already */
        for (int k = i; k > 0 && lo[k - 1] > lo[k]; k--) {
            uint64_t a = lo[k], b = hi[k];
            lo[k] = lo[k - 1], hi[k] = hi[k - 1], lo[k - 1] = a, hi[k - 1] = b;
        }
    uint64_t at = 0;
    for (int i = 0; i <= m; i++) {
        uint64_t to = i < m ? lo[i] : len;
        if (i == m && to - at >= RVX_SEC_ALIGN) return 0;
        for (; at < to; at++)
            if (base[at]) return 0;
        if (i < m && hi[i] > at) at = hi[i];
    }
    return 1;
}

/* Table and block hashes, O(sections + blocks); fills ptr/bytes by id. */
static rv_rvx_status_t check_table(const char *path, const unsigned char *base, size_t len,
                                   const rvx_header_t *h, const void **ptr, uint64_t *bytes)
{
    if (h->n_sections > RVX_TABLE_CAP || h->block_bytes < 4096 || h->block_bytes % 4096)
        return rv_error(path, "corrupt section table"), RV_RVX_CORRUPT;
    if (RVX_DATA_START > len || h->hash_offset > len || h->hash_offset % 8 ||
        h->n_hashes > (len - h->hash_offset) / 8)
        return rv_error(path, "truncated index file"), RV_RVX_TRUNCATED;
    const rvx_entry_t *table = (const rvx_entry_t *)(base + sizeof *h);
    if (XXH3_64bits_withSeed(table, h->n_sections * sizeof *table, 1) != h->table_hash)
        return rv_error(path, "corrupt section table"), RV_RVX_CORRUPT;
    const uint64_t *hashes = (const uint64_t *)(base + h->hash_offset);
    if (XXH3_64bits_withSeed(hashes, h->n_hashes * 8, 3) != h->hashes_hash)
        return rv_error(path, "corrupt index (checksum mismatch in the block hashes)"), RV_RVX_CORRUPT;
    for (uint32_t i = 0; i < h->n_sections; i++) {
        const rvx_entry_t *e = &table[i];
        if (e->offset > len || e->bytes > len - e->offset)
            return rv_error(path, "truncated index file"), RV_RVX_TRUNCATED;
        uint64_t nb = rvx_blocks(e->bytes, h->block_bytes);
        if (e->id == 0 || e->id >= RV_SEC_MAX || ptr[e->id] || e->offset % 8 || e->offset < RVX_DATA_START ||
            e->first_hash > h->n_hashes || nb > h->n_hashes - e->first_hash)
            return rv_error(path, "corrupt section table"), RV_RVX_CORRUPT;
        ptr[e->id] = base + e->offset;
        bytes[e->id] = e->bytes;
    }
    const uint64_t w = h->wide ? 8 : 4;
    if (!ptr[RV_SEC_RECORDS] || !ptr[RV_SEC_SEGMENTS] || !ptr[RV_SEC_RAW] == !ptr[RV_SEC_RAWX] ||
        !ptr[RV_SEC_TEXT] == !ptr[RV_SEC_TEXT2] || (ptr[RV_SEC_RUNS] && ptr[RV_SEC_RUNZ]) ||
        !ptr[RV_SEC_SA] == !ptr[RV_SEC_SA40] || (ptr[RV_SEC_RAW] && bytes[RV_SEC_RAW] != h->glen) ||
        (ptr[RV_SEC_TEXT] && bytes[RV_SEC_TEXT] != h->n) ||
        bytes[RV_SEC_SEGMENTS] % sizeof(rv_segment_t) || bytes[RV_SEC_SEGMENTS] / sizeof(rv_segment_t) != h->n_seg ||
        (ptr[RV_SEC_SA] && bytes[RV_SEC_SA] != h->n * w) ||
        (ptr[RV_SEC_SA40] && (h->version < 6 || !h->wide || h->n >= RVX_SA40_LIMIT ||
                              bytes[RV_SEC_SA40] != rvx_sa40_bytes(h->n))) ||
        (ptr[RV_SEC_ISA] && bytes[RV_SEC_ISA] != h->n * w) ||
        (h->version < 5 && (!ptr[RV_SEC_ISA] || !ptr[RV_SEC_RAW] || !ptr[RV_SEC_TEXT])) ||
        h->alpha < RV_ALPHA_DNA || h->alpha > RV_ALPHA_TEXT || h->wide > 1)
        return rv_error(path, "corrupt index (inconsistent sections)"), RV_RVX_CORRUPT;
    if (!padding_zero(base, len, h)) return rv_error(path, "corrupt index (nonzero padding)"), RV_RVX_CORRUPT;
    /* the small sections and the file forms are read whole at once: verify them now */
    for (uint32_t i = 0; i < h->n_sections; i++)
        if (read_at_open(table[i].id) && !section_hashes_ok(base, &table[i], hashes, h->block_bytes))
            return rv_error(path, "corrupt index (checksum mismatch in %s)",
                            table[i].id <= RV_SEC_SEGMENTS || table[i].id == RV_SEC_STRANDS
                                ? "the record table" : section_name(table[i].id)),
                   RV_RVX_CORRUPT;
    return RV_RVX_OK;
}

static struct rv_rvx_state *state_new(const char *path, const struct stat *st, const unsigned char *base,
                                      const rvx_header_t *h)
{
    struct rv_rvx_state *v = calloc(1, sizeof *v);
    if (!v || !(v->path = strdup(path))) { free(v); return NULL; }
    v->base = base;
    v->hashes = (const uint64_t *)(base + h->hash_offset);
    v->block = h->block_bytes;
    v->dev = st->st_dev;
    v->ino = st->st_ino;
    v->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    v->n_sec = (int)h->n_sections;
    v->blk_ok = calloc(h->n_hashes ? h->n_hashes : 1, 1);
    if (!v->blk_ok) { free(v->path); free(v); return NULL; }
    memcpy(v->sec, base + sizeof *h, h->n_sections * sizeof(rvx_entry_t));
    for (int i = 0; i < v->n_sec; i++) /* SA40: verified as it is expanded, before the index is returned */
        if (read_at_open(v->sec[i].id) || v->sec[i].id == RV_SEC_SA40) atomic_store(&v->ok[v->sec[i].id], 1);
    pthread_mutex_init(&v->mu, NULL);
    pthread_mutex_init(&v->derive_mu, NULL);
    return v;
}

static void rv_rvx_state_free(struct rv_rvx_state *v)
{
    if (!v) return;
    pthread_mutex_destroy(&v->mu);
    pthread_mutex_destroy(&v->derive_mu);
    free((void *)v->blk_ok);
    free(v->path);
    free(v);
}

static rv_index_t *index_from_map(const rvx_header_t *h, const void **ptr, const uint64_t *bytes,
                                  const char *input, int *bad)
{
    rv_seq_t *s = calloc(1, sizeof *s);
    rv_index_t *x = calloc(1, sizeof *x);
    if (!s || !x) { free(s); free(x); return NULL; }
    s->alpha = (rv_alpha_t)h->alpha;
    s->sigma = (int)h->sigma;
    s->n_rec = h->n_rec; s->glen = h->glen; s->n = h->n; s->n_seg = h->n_seg;
    s->raw = ptr[RV_SEC_RAW];
    s->text = ptr[RV_SEC_TEXT];
    s->src_size = h->src_size;
    s->src_mtime_ns = h->src_mtime_ns;
    s->src_ctime_ns = h->src_ctime_ns;
    s->src_ino = h->src_ino;
    s->path = input ? strdup(input) : NULL;
    s->seg = malloc(bytes[RV_SEC_SEGMENTS] ? bytes[RV_SEC_SEGMENTS] : 1);
    *bad = !s->seg || unpack_records(s, ptr[RV_SEC_RECORDS], bytes[RV_SEC_RECORDS]) != 0;
    if (s->seg) memcpy(s->seg, ptr[RV_SEC_SEGMENTS], bytes[RV_SEC_SEGMENTS]);
    if (!*bad) *bad = rv_seq_index_names(s);
    x->seq = s;
    x->n = h->n;
    x->wide = (int)h->wide;
    x->sa = (void *)ptr[RV_SEC_SA];
    x->isa = (void *)ptr[RV_SEC_ISA];
    snprintf(x->backend, sizeof x->backend, "index file");
    for (int id = RV_SEC_ISA + 1; id < RV_SEC_MAX; id++)
        if (ptr[id] && id != RV_SEC_TEXT2 && id != RV_SEC_RAWX && id != RV_SEC_RUNZ && id != RV_SEC_SA40)
            x->ext[id] = (rv_section_t){(void *)ptr[id], bytes[id], 0};
    if (ptr[RV_SEC_STRANDS]) { /* both strands: n = 2 nf + 1 of DNA */
        uint64_t nf = 0;
        if (bytes[RV_SEC_STRANDS] == sizeof nf) memcpy(&nf, ptr[RV_SEC_STRANDS], sizeof nf);
        if (bytes[RV_SEC_STRANDS] != sizeof nf || s->alpha != RV_ALPHA_DNA || (nf ? 2 * nf + 1 : 0) != s->n)
            *bad = 1;
        s->strands = 2;
        s->nf = nf;
    }
    return x;
}

/* Expanding SA40: each task takes one hash block of the section, hashes it in
 * pieces, expanding the ranks that start in each piece while it is in cache, and
 * then lets the block's pages go (the mapping is private and never written: they
 * come back from the file if read again), so the form and the array are not both
 * resident whole. */
typedef struct {
    const unsigned char *sec;
    uint64_t bytes, n, block, first_hash;
    const uint64_t *hashes;
    uint64_t *out;
    _Atomic uint64_t bad;  /* 1 + the damaged block, 0 when none */
    _Atomic int range;     /* a rank of n or more in a block that verified */
    _Atomic int oom;
} sa40_job_t;

enum { SA40_PIECE = 64 << 10 };

static void sa40_expand(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sa40_job_t *j = ctx;
    for (uint64_t b = lo; b < hi && !atomic_load(&j->bad); b++) {
        const uint64_t at = b * j->block, len = j->bytes - at < j->block ? j->bytes - at : j->block;
        XXH3_state_t *st = XXH3_createState();
        if (!st) { atomic_store(&j->oom, 1); return; }
        XXH3_64bits_reset_withSeed(st, rvx_block_seed(RV_SEC_SA40, b)); /* as rvx_block_hash() */
        for (uint64_t p = at; p < at + len; p += SA40_PIECE) {
            const uint64_t q = p + SA40_PIECE < at + len ? p + SA40_PIECE : at + len;
            XXH3_64bits_update(st, j->sec + p, (size_t)(q - p));
            if (rvx_sa40_unpack_bytes(j->sec, j->n, j->n, p, q, j->out) < 0) atomic_store(&j->range, 1);
        }
        const uint64_t got = XXH3_64bits_digest(st);
        XXH3_freeState(st);
        if (got != j->hashes[j->first_hash + b]) {
            uint64_t none = 0;
            atomic_compare_exchange_strong(&j->bad, &none, b + 1);
        }
        /* blocks start on pages (sections and block sizes are page multiples) */
        madvise((void *)(uintptr_t)(j->sec + at), (size_t)len, MADV_DONTNEED);
    }
}

/* SA of a wide index from its SA40 section, verified block by block on `threads`
 * threads.  NULL, or the reason (why, for a damaged block). */
static const char *expand_sa40(rv_index_t *x, const void **ptr, const uint64_t *bytes, int threads,
                               char *why, size_t why_len)
{
    const struct rv_rvx_state *v = x->rvx;
    const rvx_entry_t *e = NULL;
    for (int i = 0; i < v->n_sec; i++)
        if (v->sec[i].id == RV_SEC_SA40) e = &v->sec[i];
    uint64_t *sa = malloc((x->n ? x->n : 1) * sizeof *sa);
    if (!sa) return "out of memory (the suffix array)";
    /* every thread's first touches fault per 2 MiB page, not per 4 KiB, where the
     * kernel offers huge pages */
    const uintptr_t huge = (uintptr_t)1 << 21, lo = ((uintptr_t)sa + huge - 1) & ~(huge - 1),
                    hi = ((uintptr_t)(sa + x->n)) & ~(huge - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    x->sa_owned = sa;
    sa40_job_t j = {ptr[RV_SEC_SA40], bytes[RV_SEC_SA40], x->n, v->block, e->first_hash, v->hashes, sa, 0, 0, 0};
    const uint64_t nb = rvx_blocks(j.bytes, j.block);
    rv_parallel_dynamic(threads, nb, 1, sa40_expand, &j);
    if (atomic_load(&j.bad)) {
        damage_report(v, e, atomic_load(&j.bad) - 1, why, why_len);
        return why;
    }
    if (atomic_load(&j.oom)) return "out of memory (the suffix array)";
    /* the magic, n and the padding, once their block is known intact */
    if (atomic_load(&j.range) || rvx_sa40_check(j.sec, j.bytes, j.n) < 0) return "corrupt index (bad SA section)";
    x->sa = sa;
    return NULL;
}

/* The text and the sequence of a file of format 5, from their file forms (verified
 * at open), on `threads` threads: every command reads them.  NULL, or the reason. */
static const char *expand_sequence(rv_index_t *x, const void **ptr, const uint64_t *bytes, int threads)
{
    rv_seq_t *s = x->seq;
    if (!ptr[RV_SEC_TEXT]) {
        uint8_t *t = malloc(s->n ? s->n : 1);
        if (!t) return "out of memory (the text)";
        s->owned_text = t;
        if (rvx_text_unpack(ptr[RV_SEC_TEXT2], bytes[RV_SEC_TEXT2], s->n, t, threads) < 0)
            return "corrupt index (bad text section)";
        s->text = t;
    }
    if (!ptr[RV_SEC_RAW]) {
        char *r = calloc(s->glen ? s->glen : 1, 1); /* no byte left undefined, whatever the form says */
        if (!r) return "out of memory (the sequence)";
        s->owned_raw = r;
        if (rvx_raw_unpack(ptr[RV_SEC_RAWX], bytes[RV_SEC_RAWX], s, r, threads) < 0)
            return "corrupt index (bad sequence section)";
        s->raw = r;
    }
    return NULL;
}

int rv_index_derive(rv_index_t *x, uint64_t mask, int threads)
{
    struct rv_rvx_state *v = x->rvx;
    if (!v) return 0;
    if (threads <= 0) threads = rv_default_threads();
    /* nothing to do: no wait behind another thread's rebuild of ISA (the explorer's
     * panes ask for the runs while its background verification rebuilds ISA) */
    if (!((mask >> RV_SEC_RUNS & 1) && v->runz && !rv_index_section(x, RV_SEC_RUNS, NULL)) &&
        !((mask >> RV_SEC_ISA & 1) && !__atomic_load_n(&x->isa, __ATOMIC_ACQUIRE)) &&
        !((mask >> RV_SEC_LLRC & 1) && !rv_index_section(x, RV_SEC_LLRC, NULL) && rv_index_section(x, RV_SEC_LLR, NULL)))
        return 0;
    int rc = 0;
    pthread_mutex_lock(&v->derive_mu);
    if ((mask >> RV_SEC_RUNS & 1) && v->runz && !rv_index_section(x, RV_SEC_RUNS, NULL)) {
        uint64_t rb = 0;
        void *runs = NULL;
        if (rv_index_verify_part(x, RV_SEC_RUNZ, 0, v->runz_bytes) < 0) { /* read whole: verified first */
            v->runz = NULL; /* the report names the block; rv_runs_get() recomputes the runs */
            rc = -1;
        } else if (!(runs = rvx_runs_unpack(v->runz, v->runz_bytes, x->n, x->wide, threads, &rb)) ||
                   (rv_index_attach(x, RV_SEC_RUNS, runs, rb), rv_runs_check(x, threads) < 0)) {
            rv_index_attach(x, RV_SEC_RUNS, NULL, 0); /* never read */
            v->runz = NULL;
            mark_bad(v, "corrupt index (bad runs section)");
            rc = rv_error(v->path, "corrupt index (bad runs section)");
        }
    }
    if (!rc && (mask >> RV_SEC_ISA & 1) && !__atomic_load_n(&x->isa, __ATOMIC_ACQUIRE)) {
        /* zeroed (fresh pages, no cost), so that a damaged SA leaves no slot undefined */
        rv_index_t scratch = {0}; /* rv_cpu_isa() fills scratch.isa; x->isa is set once it is whole */
        scratch.seq = x->seq;
        scratch.n = x->n;
        scratch.wide = x->wide;
        scratch.sa = x->sa;
        scratch.isa = calloc(x->n ? x->n : 1, x->wide ? 8 : 4);
        if (scratch.isa) {
            rv_cpu_isa(&scratch, threads, NULL);
            x->isa_owned = scratch.isa;
            __atomic_store_n(&x->isa, scratch.isa, __ATOMIC_RELEASE);
        } else {
            rc = rv_error(v->path, "out of memory (%llu MB for the inverse suffix array)",
                          (unsigned long long)((x->n * (x->wide ? 8 : 4)) >> 20));
        }
    }
    if (!rc && (mask >> RV_SEC_LLRC & 1) && !rv_index_section(x, RV_SEC_LLRC, NULL) &&
        rv_index_section(x, RV_SEC_LLR, NULL) && rv_lr_build_llrc(x, threads) < 0) {
        rc = -1;
        if (!strstr(rv_last_error(), "out of memory")) {
            const char *why = "corrupt index (inconsistent sections: bad LLR sections)";
            mark_bad(v, why);
            rv_error(v->path, "%s", why);
        }
    }
    pthread_mutex_unlock(&v->derive_mu);
    return rc;
}

/* ISA[i] before ISA is rebuilt: the rank of suffix i by binary search over SA,
 * comparing the text from the prefix both bounds share (Manber & Myers), so a few
 * ranks cost microseconds on a chromosome.  The search stops at a budget of bytes
 * compared (a text of one repeated letter would cost its length each time) or when
 * SA does not confirm the rank; ISA is then rebuilt whole. */
static uint64_t isa_slow(const rv_index_t *x, uint64_t i)
{
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n;
    if (i >= n) i = n ? n - 1 : 0;
    uint64_t lo = 0, hi = n, llo = 0, lhi = 0, budget = 64u << 20;
    while (lo < hi && budget) {
        const uint64_t mid = lo + (hi - lo) / 2, j = rv_sa(x, mid);
        if (j == i) return mid;
        uint64_t k = llo < lhi ? llo : lhi;
        if (k > n - j) k = n - j; /* a damaged SA breaks the shared-prefix invariant */
        if (k > n - i) k = n - i;
        const uint64_t k0 = k;
        while (i + k < n && j + k < n && t[i + k] == t[j + k]) k++;
        budget = k - k0 < budget ? budget - (k - k0) : 0;
        const int j_less = j + k == n || (i + k < n && t[j + k] < t[i + k]);
        if (j_less) { lo = mid + 1; llo = k; } else { hi = mid; lhi = k; }
    }
    if (lo < n && rv_sa(x, lo) == i) return lo;
    if (rv_index_derive((rv_index_t *)(uintptr_t)x, RV_SEC_BIT(RV_SEC_ISA), 0) < 0) {
        fprintf(stderr, "repview: %s\n", rv_last_error());
        exit(1);
    }
    return rv_isa(x, i);
}

rv_rvx_status_t rv_index_load(const char *path, const char *input, rv_index_t **out)
{
    return rv_index_load_flags(path, input, 0, out);
}

uint64_t rv_index_lce(const rv_index_t *x, uint64_t i, uint64_t j)
{
    if (x->seq->text || !x->rvx || !x->rvx->text2) return x->seq->text ? rv_lce_scan(x->seq, i, j) : 0;
    return rvx_text_lce(x->rvx->text2, x->rvx->text2_bytes, x->n, i, j);
}

rv_rvx_status_t rv_index_load_flags(const char *path, const char *input, int flags, rv_index_t **out)
{
    *out = NULL;
    rv_rvx_sweep_leftovers(path); /* what killed writers of it left */
    /* never block: a FIFO (or a device) in the index's place is refused by fstat */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        rv_error(path, "%s", strerror(errno));
        return errno == ENOENT ? RV_RVX_MISSING : RV_RVX_IOERR;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return fail(RV_RVX_IOERR, path, "not a regular file", NULL, 0); }
    size_t len = (size_t)st.st_size;
    if (len < 8) { close(fd); return fail(len ? RV_RVX_FOREIGN : RV_RVX_TRUNCATED, path, len ? "not a repview index" : "empty index file", NULL, 0); }
    char why[160];
    if (known_bad(&st, why, sizeof why)) { close(fd); return fail(RV_RVX_CORRUPT, path, why, NULL, 0); }
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return fail(RV_RVX_IOERR, path, "cannot map the index file", NULL, 0);
    rvx_header_t h;
    const void *ptr[RV_SEC_MAX] = {0};
    uint64_t bytes[RV_SEC_MAX] = {0};
    rv_rvx_status_t rc = check_header(path, input, map, len, &h);
    if (rc == RV_RVX_OK) rc = check_table(path, map, len, &h, ptr, bytes);
    if (rc != RV_RVX_OK) { munmap(map, len); return rc; }
    int bad = 0;
    rv_index_t *x = index_from_map(&h, ptr, bytes, input, &bad);
    if (!x) return fail(RV_RVX_IOERR, path, "out of memory", map, len);
    x->map = map;
    x->map_len = len;
    x->rvx = state_new(path, &st, map, &h);
    x->rvx_free = rv_rvx_state_free;
    if (!x->rvx) { rv_index_free(x); return fail(RV_RVX_IOERR, path, "out of memory", NULL, 0); }
    if (bad || rv_index_bind_lcp(x) < 0) { /* both O(1) past the small sections */
        rv_index_free(x);
        rv_error(path, bad ? "corrupt index (bad record table)" : "corrupt index (inconsistent sections)");
        return RV_RVX_CORRUPT;
    }
    x->isa_slow = isa_slow;
    x->rvx->runz = ptr[RV_SEC_RUNZ];
    x->rvx->runz_bytes = bytes[RV_SEC_RUNZ];
    const int later = (flags & RV_LOAD_SEQ_LATER) && ptr[RV_SEC_TEXT2] && ptr[RV_SEC_RAWX];
    x->rvx->text2 = ptr[RV_SEC_TEXT2];
    x->rvx->text2_bytes = bytes[RV_SEC_TEXT2];
    char why_sa[160];
    const char *damage = ptr[RV_SEC_SA40] ? expand_sa40(x, ptr, bytes, rv_default_threads(), why_sa, sizeof why_sa) : NULL;
    if (!damage && !later) damage = expand_sequence(x, ptr, bytes, rv_default_threads());
    if (damage) {
        rv_index_free(x);
        rv_error(path, "%s", damage);
        return strncmp(damage, "out of memory", 13) ? RV_RVX_CORRUPT : RV_RVX_IOERR;
    }
    *out = x;
    return RV_RVX_OK;
}

/* ---- verification ------------------------------------------------------------- */

typedef struct {
    struct rv_rvx_state *v;
    int idx[RVX_TABLE_CAP];   /* table entries to verify */
    uint64_t first[RVX_TABLE_CAP + 1]; /* their first block in the job's numbering */
    int n;
    _Atomic int bad[RVX_TABLE_CAP];
    _Atomic uint64_t bad_block[RVX_TABLE_CAP];
} verify_job_t;

static void verify_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    verify_job_t *j = ctx;
    struct rv_rvx_state *v = j->v;
    int k = 0;
    for (uint64_t g = lo; g < hi && !atomic_load(&v->cancel); g++) {
        while (g >= j->first[k + 1]) k++;
        const rvx_entry_t *e = &v->sec[j->idx[k]];
        uint64_t b = g - j->first[k], at = b * v->block;
        uint64_t len = e->bytes - at < v->block ? e->bytes - at : v->block;
        if (atomic_load(&v->blk_ok[e->first_hash + b])) {
            /* verified already by rv_index_verify_part() */
        } else if (rvx_block_hash(v->base + e->offset + at, len, e->id, b) == v->hashes[e->first_hash + b]) {
            atomic_store(&v->blk_ok[e->first_hash + b], 1);
        } else if (!atomic_exchange(&j->bad[k], 1)) {
            atomic_store(&j->bad_block[k], b);
        }
        atomic_fetch_add(&v->done, len);
    }
}

static const char *section_name(uint32_t id)
{
    switch (id) {
    case RV_SEC_RAW: case RV_SEC_RAWX: return "sequence";
    case RV_SEC_TEXT: case RV_SEC_TEXT2: return "text";
    case RV_SEC_SA: case RV_SEC_SA40: return "SA";
    case RV_SEC_ISA: return "ISA";
    case RV_SEC_LCP: case RV_SEC_LCP_BIG: return "LCP";
    case RV_SEC_LLR: case RV_SEC_LLRC: case RV_SEC_LLR_BIG: return "LLR";
    case RV_SEC_RUNS: case RV_SEC_RUNZ: return "runs";
    default: return "section";
    }
}

/* Content checks (O(n), on `threads` threads) of a group of sections, once the last
 * of the group present in the file is verified (newly: verified by this call). */
static int check_content(rv_index_t *x, uint64_t newly, int threads)
{
    const struct rv_rvx_state *v = x->rvx;
    uint64_t present = 0, verified = newly;
    for (int i = 0; i < v->n_sec; i++) {
        present |= RV_SEC_BIT(v->sec[i].id);
        if (atomic_load(&v->ok[v->sec[i].id])) verified |= RV_SEC_BIT(v->sec[i].id);
    }
    const uint64_t lr = (RV_SEC_BIT(RV_SEC_LLR) | RV_SEC_BIT(RV_SEC_LLRC) | RV_SEC_BIT(RV_SEC_LLR_BIG)) & present;
    if ((newly & lr) && (verified & lr) == lr && rv_lr_check_sections(x, threads) < 0) return -1;
    if ((newly & RV_SEC_BIT(RV_SEC_RUNS)) && rv_runs_check(x, threads) < 0) return -1;
    return 0;
}

static void damage_report(const struct rv_rvx_state *v, const rvx_entry_t *e, uint64_t b, char *why, size_t len)
{
    snprintf(why, len, "corrupt index (checksum mismatch in %s section %u, block %llu of %llu)",
             section_name(e->id), e->id, (unsigned long long)b, (unsigned long long)rvx_blocks(e->bytes, v->block));
}

/* Whether the file has section id. */
static int in_file(const struct rv_rvx_state *v, uint32_t id)
{
    for (int i = 0; i < v->n_sec; i++)
        if (v->sec[i].id == id) return 1;
    return 0;
}

/* The file sections holding what mask names: SA for an ISA rebuilt from it, LLR for
 * an LLRc rebuilt from it (the file forms of the text, the sequence and the runs are
 * verified when the file is opened). */
static uint64_t file_mask(const struct rv_rvx_state *v, uint64_t mask)
{
    if ((mask >> RV_SEC_ISA & 1) && !in_file(v, RV_SEC_ISA)) mask |= RV_SEC_BIT(RV_SEC_SA);
    if ((mask >> RV_SEC_LLRC & 1) && !in_file(v, RV_SEC_LLRC))
        mask |= RV_SEC_BIT(RV_SEC_LLR) | RV_SEC_BIT(RV_SEC_LLR_BIG);
    return mask;
}

/* A rank rebuilt from SA that SA does not confirm: SA is damaged somewhere, so its
 * verification names the block; -1. */
static int rank_damage(rv_index_t *x, int threads)
{
    if (rv_index_verify(x, RV_SEC_BIT(RV_SEC_SA), threads) < 0) return -1;
    const char *why = "corrupt index (SA is not a permutation)";
    mark_bad(x->rvx, why);
    return rv_error(x->rvx->path, "%s", why);
}

int rv_index_verify_part(rv_index_t *x, int id, uint64_t off, uint64_t len)
{
    struct rv_rvx_state *v = x->rvx;
    if (!v || id <= 0 || id >= RV_SEC_MAX || atomic_load(&v->ok[id]) || !len) return 0;
    if (id == RV_SEC_ISA && !in_file(v, RV_SEC_ISA)) {
        /* ISA[i] = r was rebuilt from the whole SA: right when SA[r] = i holds in a
         * verified block, since a verified SA is a permutation */
        const uint64_t w = x->wide ? 8 : 4;
        for (uint64_t i = off / w; i * w < off + len && i < x->n; i++) {
            const uint64_t r = rv_isa(x, i);
            if (rv_index_verify_part(x, RV_SEC_SA, r * w, w) < 0) return -1;
            if (rv_sa(x, r) != i) return rank_damage(x, 0);
        }
        return 0;
    }
    for (int i = 0; i < v->n_sec; i++) {
        const rvx_entry_t *e = &v->sec[i];
        if (e->id != (uint32_t)id || off >= e->bytes) continue;
        uint64_t end = len > e->bytes - off ? e->bytes : off + len;
        for (uint64_t b = off / v->block; b * v->block < end; b++) {
            uint64_t at = b * v->block, bl = e->bytes - at < v->block ? e->bytes - at : v->block;
            if (atomic_load(&v->blk_ok[e->first_hash + b])) continue;
            if (rvx_block_hash(v->base + e->offset + at, bl, e->id, b) != v->hashes[e->first_hash + b]) {
                char why[160];
                damage_report(v, e, b, why, sizeof why);
                mark_bad(v, why);
                return rv_error(v->path, "%s", why);
            }
            atomic_store(&v->blk_ok[e->first_hash + b], 1);
        }
    }
    return 0;
}

/* ---- the blocks of one place ------------------------------------------------ */

/* Blocks to verify, each once: the index of its hash (v->hashes) and its table entry. */
typedef struct {
    struct rv_rvx_state *v;
    uint64_t n, cap;
    uint64_t *hash;
    int *sec;
    int oom;
    _Atomic uint64_t bad; /* 1 + the item found damaged, 0 when none */
} near_job_t;

/* Add the blocks of section id holding bytes [off, off + len) (clipped to it). */
static void near_add(near_job_t *j, int id, uint64_t off, uint64_t len)
{
    const struct rv_rvx_state *v = j->v;
    for (int i = 0; i < v->n_sec; i++) {
        const rvx_entry_t *e = &v->sec[i];
        if (e->id != (uint32_t)id || off >= e->bytes || !len) continue;
        uint64_t end = len > e->bytes - off ? e->bytes : off + len;
        for (uint64_t b = off / v->block; b * v->block < end; b++) {
            uint64_t hb = e->first_hash + b;
            int seen = atomic_load(&v->blk_ok[hb]) != 0;
            for (uint64_t k = 0; k < j->n && !seen; k++) seen = j->hash[k] == hb;
            if (seen) continue;
            uint64_t c1 = j->cap, c2 = j->cap;
            if (rv_grow((void **)&j->hash, &c1, j->n + 1, sizeof *j->hash) < 0 ||
                rv_grow((void **)&j->sec, &c2, j->n + 1, sizeof *j->sec) < 0) {
                j->oom = 1;
                return;
            }
            j->cap = c1;
            j->hash[j->n] = hb;
            j->sec[j->n++] = i;
        }
    }
}

static void near_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    near_job_t *j = ctx;
    struct rv_rvx_state *v = j->v;
    for (uint64_t k = lo; k < hi && !atomic_load(&j->bad); k++) {
        const rvx_entry_t *e = &v->sec[j->sec[k]];
        uint64_t b = j->hash[k] - e->first_hash, at = b * v->block;
        uint64_t len = e->bytes - at < v->block ? e->bytes - at : v->block;
        if (rvx_block_hash(v->base + e->offset + at, len, e->id, b) == v->hashes[j->hash[k]])
            atomic_store(&v->blk_ok[j->hash[k]], 1);
        else
            atomic_store(&j->bad, k + 1);
    }
}

/* First entry of a sorted column of m values (32/64-bit) that is >= key. */
static uint64_t column_lower_bound(const void *col, int wide, uint64_t m, uint64_t key)
{
    uint64_t lo = 0, hi = m;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (rv_get(col, wide, mid) < key) lo = mid + 1; else hi = mid;
    }
    return lo;
}

int rv_index_verify_near(rv_index_t *x, uint64_t g, int threads)
{
    struct rv_rvx_state *v = x->rvx;
    const rv_seq_t *s = x->seq;
    if (!v || !x->n) return 0;
    /* the view reads the runs: unpacked now (one pass).  LLRc is left to the full
     * verification, which rebuilds it first: until then a longest-repeat query walks
     * the LLR array (lr_query.c), and the few ranks the view reads come from SA until
     * ISA is rebuilt (isa_slow) */
    if (rv_index_derive(x, RV_SEC_BIT(RV_SEC_RUNS), threads) < 0) return -1;
    near_job_t *j = calloc(1, sizeof *j);
    if (!j) return rv_error(v->path, "out of memory");
    j->v = v;
    const uint64_t w = x->wide ? 8 : 4, span = NEAR_SPAN, rows = NEAR_ROWS;
    if (g >= s->glen) g = s->glen ? s->glen - 1 : 0;
    int64_t tt = rv_seq_global_to_text(s, g);
    uint64_t t = x->n - 1;
    if (tt >= 0) t = (uint64_t)tt;
    else /* a breaker: its separator, just before the next segment */
        for (uint64_t k = 0; k < s->n_seg; k++)
            if (s->seg[k].gpos > g) { t = s->seg[k].tpos ? s->seg[k].tpos - 1 : 0; break; }
    if (t >= x->n) t = x->n - 1;
    const uint64_t g0 = g > span ? g - span : 0, t0 = t > span ? t - span : 0;
    near_add(j, RV_SEC_RAW, g0, 2 * span);
    near_add(j, RV_SEC_TEXT, t0, 2 * span);
    near_add(j, RV_SEC_ISA, t0 * w, 2 * span * w);
    near_add(j, RV_SEC_LLR, t0, 2 * span);
    /* the rank of t, read before its block is verified (clamped); verified with it */
    const uint64_t r = rv_isa(x, t), r0 = r > rows ? r - rows : 0;
    near_add(j, RV_SEC_SA, r0 * w, 2 * rows * w);
    near_add(j, RV_SEC_LCP, r0, 2 * rows);
    static const int escapes[] = {RV_SEC_LCP_BIG, RV_SEC_LLR_BIG}; /* read anywhere: whole when small */
    for (int k = 0; k < 2; k++) {
        uint64_t bytes = 0;
        if (rv_index_section(x, escapes[k], &bytes) && bytes <= NEAR_SMALL) near_add(j, escapes[k], 0, bytes);
    }
    uint64_t bytes = 0;
    const void *c = rv_index_section(x, RV_SEC_LLRC, &bytes);
    if (c) { /* the useful LLRs starting around t */
        uint64_t m = bytes / w, k = column_lower_bound(c, x->wide, m, t0);
        near_add(j, RV_SEC_LLRC, (k ? k - 1 : 0) * w, 2 * rows * w);
    }
    const void *sec = rv_index_section(x, RV_SEC_RUNS, &bytes);
    rv_runs_t runs;
    if (sec && rv_runs_view(sec, bytes, x->n, x->wide, &runs) == 0) { /* the runs starting around t */
        uint64_t k = column_lower_bound(runs.start, x->wide, runs.n, t0), k0 = k ? k - 1 : 0;
        const uint64_t col = runs.n * w;
        near_add(j, RV_SEC_RUNS, 0, RV_RUNS_HEAD);
        for (int f = 0; f < 3; f++) near_add(j, RV_SEC_RUNS, RV_RUNS_HEAD + f * col + k0 * w, 2 * rows * w);
        near_add(j, RV_SEC_RUNS, RV_RUNS_HEAD + 3 * col, rv_runs_blocks(runs.n) * w);
    }
    if (threads <= 0) threads = rv_default_threads();
    if ((uint64_t)threads > j->n) threads = j->n ? (int)j->n : 1;
    if (!j->oom) rv_parallel_dynamic(threads, j->n, 1, near_range, j);
    uint64_t bad = atomic_load(&j->bad);
    int rc = j->oom ? rv_error(v->path, "out of memory") : 0;
    if (bad) {
        char why[160];
        const rvx_entry_t *e = &v->sec[j->sec[bad - 1]];
        damage_report(v, e, j->hash[bad - 1] - e->first_hash, why, sizeof why);
        mark_bad(v, why);
        rc = rv_error(v->path, "%s", why);
    } else if (!rc && !in_file(v, RV_SEC_ISA) && rv_sa(x, r) != t) {
        rc = rank_damage(x, threads); /* the rank came from a damaged SA elsewhere */
    }
    free(j->hash);
    free(j->sec);
    free(j);
    return rc;
}

int rv_index_verify(rv_index_t *x, uint64_t mask, int threads)
{
    struct rv_rvx_state *v = x->rvx;
    if (!v) return 0;
    pthread_mutex_lock(&v->mu);
    static verify_job_t zero;
    verify_job_t *j = malloc(sizeof *j);
    if (!j) { pthread_mutex_unlock(&v->mu); return rv_error(v->path, "out of memory"); }
    *j = zero;
    j->v = v;
    if (rv_index_derive(x, mask, threads) < 0) {
        free(j);
        pthread_mutex_unlock(&v->mu);
        return -1;
    }
    mask = file_mask(v, mask);
    uint64_t total = 0, bytes = 0;
    for (int i = 0; i < v->n_sec; i++) {
        uint32_t id = v->sec[i].id;
        if (!(mask >> id & 1) || atomic_load(&v->ok[id])) continue;
        j->idx[j->n] = i;
        j->first[j->n++] = total;
        total += rvx_blocks(v->sec[i].bytes, v->block);
        bytes += v->sec[i].bytes;
    }
    j->first[j->n] = total;
    atomic_store(&v->done, 0);
    atomic_store(&v->total, bytes);
    if (threads <= 0) threads = rv_default_threads();
    if (total) rv_parallel_dynamic(threads, total, 1, verify_range, j);
    int rc = 0;
    uint64_t newly = 0;
    char why[160] = "";
    for (int k = 0; k < j->n && !why[0]; k++) {
        const rvx_entry_t *e = &v->sec[j->idx[k]];
        if (atomic_load(&j->bad[k])) damage_report(v, e, atomic_load(&j->bad_block[k]), why, sizeof why);
        newly |= RV_SEC_BIT(e->id);
    }
    if (!why[0] && atomic_load(&v->cancel)) {
        rc = rv_error(v->path, "verification cancelled");
    } else {
        if (!why[0] && check_content(x, newly, threads) < 0)
            snprintf(why, sizeof why, "corrupt index (inconsistent sections: %s)", rv_last_error());
        if (why[0]) { rc = rv_error(v->path, "%s", why); mark_bad(v, why); }
    }
    if (!rc)
        for (int k = 0; k < j->n; k++) atomic_store(&v->ok[v->sec[j->idx[k]].id], 1);
    free(j);
    pthread_mutex_unlock(&v->mu);
    return rc;
}

void rv_index_verify_progress(const rv_index_t *x, uint64_t *done, uint64_t *total)
{
    *done = x->rvx ? atomic_load(&x->rvx->done) : 0;
    *total = x->rvx ? atomic_load(&x->rvx->total) : 0;
}

void rv_index_verify_cancel(rv_index_t *x)
{
    if (x->rvx) atomic_store(&x->rvx->cancel, 1);
}

int rv_index_check_file(const char *path, const char *input, int threads, int *sections, uint64_t *bytes)
{
    rv_index_t *x = NULL;
    if (rv_index_load(path, input, &x) != RV_RVX_OK) return -1;
    *sections = x->rvx->n_sec;
    *bytes = x->map_len;
    int rc = rv_index_verify(x, RV_SEC_ALL_MASK, threads);
    rv_index_free(x);
    return rc;
}
