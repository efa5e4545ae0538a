/* t_rvx.c — the .rvx file (rvx.c, rvx_write.c): round trips, the incremental
 * writer, and damage found before any answer uses it.
 *
 * Oracle: the in-memory index the file was written from; every section read back
 * must be byte-identical.  Inputs: random DNA with breakers and several records,
 * periodic text (long LCPs, many runs), 32- and 64-bit arrays, and blocks of 4 KiB
 * (REPVIEW_RVX_BLOCK) so that every big section spans many hash blocks.  Damage:
 * one flipped byte in a random block of every section, in the block hashes, the
 * table, the header and the padding, and truncation; the lazy verification must name the
 * section and block, leave the other sections verifiable, and queries made before
 * it must stay inside the mapping (run under ASan by `make asan`).
 */
#include <dirent.h>
#include <htslib/bgzf.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lce.h"
#include "repview/lr.h"
#include "repview/tandem.h"
#include "index/runs_store.h"
#include "index/rvx_compact.h"
#include "index/rvx_format.h"

static char dir[256];

static rv_seq_t *random_seq(rng_t *r, uint64_t max_len)
{
    static const char *const names[] = {"a", "bb", "c c", "d"};
    char *rec[4];
    int nrec = 1 + (int)rng_below(r, 4), periodic = rng_below(r, 3) == 0;
    for (int k = 0; k < nrec; k++) {
        uint64_t len = rng_below(r, max_len + 1);
        rec[k] = malloc(len + 1);
        uint64_t p = 1 + rng_below(r, 7);
        for (uint64_t i = 0; i < len; i++)
            rec[k][i] = periodic && rng_below(r, 50) ? "ACGTTGCA"[i % p] : "ACGTACGTNacgt"[rng_below(r, 13)];
        rec[k][len] = 0;
    }
    rv_seq_t *s = rv_seq_from_records(names, (const char *const *)rec, nrec, RV_ALPHA_DNA);
    for (int k = 0; k < nrec; k++) free(rec[k]);
    return s;
}

static rv_index_t *build(rv_seq_t *s, int wide, rv_rvx_writer_t *w)
{
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = 2;
    o.force_wide = wide;
    o.with_runs = 1;
    o.writer = w;
    return rv_build(s, &o, NULL);
}

/* Every section and the record table of y equal x's. */
static void check_same(const rv_index_t *x, const rv_index_t *y, const char *what)
{
    const rv_seq_t *a = x->seq, *b = y->seq;
    CHECK(y->n == x->n && y->wide == x->wide && b->glen == a->glen && b->n_rec == a->n_rec &&
              b->n_seg == a->n_seg && b->alpha == a->alpha, "%s: sizes differ", what);
    if (check_failed_) return;
    uint64_t w = x->wide ? 8 : 4;
    CHECK(memcmp(a->raw, b->raw, a->glen) == 0 && memcmp(a->text, b->text, a->n) == 0, "%s: sequence", what);
    CHECK(memcmp(x->sa, y->sa, x->n * w) == 0 && memcmp(x->isa, y->isa, x->n * w) == 0, "%s: SA/ISA", what);
    CHECK(a->n_seg == 0 || memcmp(a->seg, b->seg, a->n_seg * sizeof *a->seg) == 0, "%s: segments", what);
    for (uint64_t i = 0; i < a->n_rec && !check_failed_; i++)
        CHECK(strcmp(a->rec[i].name, b->rec[i].name) == 0 && a->rec[i].len == b->rec[i].len, "%s: record %llu",
              what, (unsigned long long)i);
    for (int id = RV_SEC_ISA + 1; id < RV_SEC_MAX; id++)
        CHECK(same_section(x, y, id), "%s: section %d differs", what, id);
    for (uint64_t r = 0; r < x->n && !check_failed_; r++)
        CHECK(rv_lcp(x, r) == rv_lcp(y, r), "%s: LCP[%llu]", what, (unsigned long long)r);
}

static rv_index_t *load_ok(const char *path)
{
    rv_index_t *y = NULL;
    CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK, "load: %s", rv_last_error());
    CHECK(!y || rv_index_verify(y, RV_SEC_ALL_MASK, 2) == 0, "verify: %s", rv_last_error());
    return y;
}

/* No file and no temporary file left under dir but the ones named keep*. */
static int stray_files(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.' && strncmp(e->d_name, "keep", 4) != 0;
    if (d) closedir(d);
    return n;
}

static void round_trips(void)
{
    case_begin();
    rng_t r = rng_new(7);
    char path[300];
    snprintf(path, sizeof path, "%s/keep.rvx", dir);
    for (int it = 0; it < check_iters(20) && !check_failed_; it++) {
        int wide = it % 2;
        rv_index_t *x = build(random_seq(&r, it < 5 ? 3 : 40000), wide, NULL);
        CHECK(x && rv_index_save(x, path) == 0, "save: %s", rv_last_error());
        rv_index_t *y = x ? load_ok(path) : NULL;
        if (y) check_same(x, y, wide ? "64-bit" : "32-bit");
        rv_index_free(y);
        rv_index_free(x);
    }
    CHECK(stray_files() == 0, "files left behind");
    case_end("rvx_round_trips_32_64");
}

/* The overlapped path (the build hands sections over) and sections added in
 * random order, some empty, give the same index. */
static void writer_orders(void)
{
    case_begin();
    rng_t r = rng_new(11);
    char path[300];
    snprintf(path, sizeof path, "%s/keep2.rvx", dir);
    for (int it = 0; it < check_iters(10) && !check_failed_; it++) {
        rv_seq_t *s = random_seq(&r, 30000);
        rv_rvx_writer_t *w = rv_rvx_writer_open(path, 1 + it % 3);
        rv_index_t *x = build(s, it % 2, w);
        CHECK(x && rv_rvx_writer_finish(w) == 0, "overlapped save: %s", rv_last_error());
        rv_index_t *y = x ? load_ok(path) : NULL;
        if (y) check_same(x, y, "overlapped");
        rv_index_free(y);
        /* odd order: the arrays first, backwards, then an empty extra section */
        w = rv_rvx_writer_open(path, 2);
        int ids[RV_SEC_MAX], n = 0;
        for (int id = RV_SEC_MAX - 1; id > RV_SEC_ISA; id--)
            if (x && x->ext[id].ptr) ids[n++] = id;
        for (int i = n - 1; i > 0; i--) { int j = (int)rng_below(&r, (uint64_t)i + 1), t = ids[i]; ids[i] = ids[j]; ids[j] = t; }
        for (int i = 0; i < n; i++) CHECK(rv_rvx_writer_add(w, ids[i], x->ext[ids[i]].ptr, x->ext[ids[i]].bytes) == 0, "add");
        CHECK(rv_rvx_writer_add(w, RV_SEC_LEFTDIV, "", 0) == 0, "empty section");
        CHECK(rv_rvx_writer_add(w, RV_SEC_LEFTDIV, "", 0) < 0, "a section added twice was taken");
        rv_rvx_writer_abort(w); /* the repeated add spoils the file: start again */
        w = rv_rvx_writer_open(path, 2);
        for (int i = 0; i < n; i++) rv_rvx_writer_add(w, ids[i], x->ext[ids[i]].ptr, x->ext[ids[i]].bytes);
        rv_rvx_writer_add(w, RV_SEC_LEFTDIV, "", 0);
        if (x) rv_rvx_writer_add_index(w, x, RV_SEC_ALL_MASK);
        CHECK(rv_rvx_writer_finish(w) == 0, "odd order: %s", rv_last_error());
        y = x ? load_ok(path) : NULL;
        uint64_t b = 1;
        CHECK(!y || (rv_index_section(y, RV_SEC_LEFTDIV, &b) && b == 0), "empty section lost");
        if (y && x) { rv_index_attach(x, RV_SEC_LEFTDIV, NULL, 0); y->ext[RV_SEC_LEFTDIV].ptr = NULL; check_same(x, y, "odd order"); }
        rv_index_free(y);
        rv_index_free(x);
    }
    CHECK(stray_files() == 0, "files left behind");
    case_end("rvx_writer_orders_and_empty_sections");
}

static void writer_abort(void)
{
    case_begin();
    char path[300];
    snprintf(path, sizeof path, "%s/aborted.rvx", dir);
    rng_t r = rng_new(3);
    rv_index_t *x = build(random_seq(&r, 20000), 0, NULL);
    rv_rvx_writer_t *w = rv_rvx_writer_open(path, 2);
    CHECK(w && x, "open: %s", rv_last_error());
    rv_rvx_writer_add_index(w, x, RV_SEC_SEQ_MASK);
    rv_rvx_writer_abort(w);
    CHECK(access(path, F_OK) != 0 && stray_files() == 0, "abort left a file");
    w = rv_rvx_writer_open(path, 1); /* no header fields given: finish refuses */
    rv_rvx_writer_add(w, RV_SEC_RAW, x->seq->raw, x->seq->glen);
    CHECK(rv_rvx_writer_finish(w) < 0 && access(path, F_OK) != 0 && stray_files() == 0, "finish without an index");
    snprintf(path, sizeof path, "%s/no/such/dir.rvx", dir);
    CHECK(rv_rvx_writer_open(path, 1) == NULL && strstr(rv_last_error(), "cannot write"), "missing directory");
    rv_index_free(x);
    case_end("rvx_writer_abort_leaves_nothing");
}

/* ---- damage ------------------------------------------------------------------ */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*len);
    if (b && fread(b, 1, *len, f) != *len) { free(b); b = NULL; }
    fclose(f);
    return b;
}

/* Save x to path and read the file back; NULL (x freed, failure counted) when
 * either fails. */
static unsigned char *save_slurp(rv_index_t *x, const char *path, size_t *len)
{
    unsigned char *good = x && rv_index_save(x, path) == 0 ? slurp(path, len) : NULL;
    CHECK(good != NULL, "save: %s", rv_last_error());
    if (!good) rv_index_free(x);
    return good;
}

static void spit(const char *path, const unsigned char *b, size_t len)
{
    char tmp[320];
    snprintf(tmp, sizeof tmp, "%s.w", path);
    FILE *f = fopen(tmp, "wb");
    fwrite(b, 1, len, f);
    fclose(f);
    rename(tmp, path); /* a new inode: not the one this process found bad */
}

/* Queries that read every kind of section; their answers are not checked (the
 * file is damaged), only that they stay inside the mapping. */
static void touch_everything(rv_index_t *y)
{
    rv_lr_t lr[4];
    uint64_t sum = 0;
    for (uint64_t k = 0; k < y->n; k += 7) sum += rv_lr_at(y, k, lr, 4) + rv_sa(y, k) + rv_lcp(y, rv_isa(y, k));
    rv_runs_t v;
    if (rv_runs_get(y, 1, NULL, &v) == 0)
        for (uint64_t k = 0; k < v.n; k++) { /* clamped into the text until verified */
            rv_run_t u = rv_runs_at(&v, k);
            char motif[4];
            CHECK(u.end <= y->n && u.period <= u.end - u.start, "run %llu leaves the text", (unsigned long long)k);
            sum += 1 + rv_run_motif(y->seq, &u, motif, sizeof motif);
        }
    CHECK(sum || y->n < 8, "no answers");
}

static void damage_one(const char *path, const unsigned char *good, size_t len, const rvx_entry_t *e,
                       rng_t *r, int *hits)
{
    const rvx_header_t *h = (const rvx_header_t *)good;
    uint64_t nb = rvx_blocks(e->bytes, h->block_bytes), b = rng_below(r, nb);
    uint64_t at = e->offset + b * h->block_bytes + rng_below(r, e->bytes - b * h->block_bytes < h->block_bytes ?
                                                                 e->bytes - b * h->block_bytes : h->block_bytes);
    unsigned char *bad = malloc(len);
    memcpy(bad, good, len);
    bad[at] ^= (unsigned char)(1 + rng_below(r, 255));
    spit(path, bad, len);
    free(bad);
    rv_index_t *y = NULL;
    rv_rvx_status_t st = rv_index_load(path, NULL, &y);
    if (e->id == RV_SEC_RECORDS || e->id == RV_SEC_SEGMENTS || e->id == RV_SEC_TEXT2 ||
        e->id == RV_SEC_RAWX || e->id == RV_SEC_SA40) { /* read whole at open: checked then */
        CHECK(st == RV_RVX_CORRUPT && !y, "damaged section %u opened", e->id);
        (*hits)++;
        rv_index_free(y);
        return;
    }
    if (st != RV_RVX_OK) { /* a damaged LCP directory can fail the O(1) checks at open */
        CHECK(st == RV_RVX_CORRUPT && (e->id == RV_SEC_LCP_BIG), "section %u: status %d", e->id, (int)st);
        return;
    }
    touch_everything(y);
    /* ISA is rebuilt from SA and LLRc from LLR: they are not intact either */
    uint64_t others = RV_SEC_ALL_MASK & ~RV_SEC_BIT(e->id);
    if (e->id == RV_SEC_SA) others &= ~RV_SEC_BIT(RV_SEC_ISA);
    if (e->id == RV_SEC_LLR || e->id == RV_SEC_LLR_BIG) others &= ~RV_SEC_BIT(RV_SEC_LLRC);
    CHECK(rv_index_verify(y, others, 2) == 0, "verifying the intact sections failed: %s", rv_last_error());
    char want[64];
    snprintf(want, sizeof want, "block %llu of", (unsigned long long)b);
    const uint64_t bb = h->block_bytes;
    if (nb > 1) /* partial verification: another block passes, the damaged one not */
        CHECK(rv_index_verify_part(y, (int)e->id, (b + 1) % nb * bb, 1) == 0, "intact block refused: %s",
              rv_last_error());
    const uint64_t blen = e->bytes - b * bb < bb ? e->bytes - b * bb : bb;
    CHECK(rv_index_verify_part(y, (int)e->id, b * bb + rng_below(r, blen), 1) < 0 &&
              strstr(rv_last_error(), want), "partial verification missed section %u block %llu", e->id,
          (unsigned long long)b);
    CHECK(rv_index_verify(y, RV_SEC_BIT(e->id), 2) < 0 && strstr(rv_last_error(), "checksum mismatch") &&
              strstr(rv_last_error(), want), "damage in section %u block %llu: %s", e->id,
          (unsigned long long)b, rv_last_error());
    rv_index_free(y);
    y = NULL;
    CHECK(rv_index_load(path, NULL, &y) == RV_RVX_CORRUPT && !y, "a file found damaged was opened again");
    rv_index_free(y);
    (*hits)++;
}

static void damage(void)
{
    case_begin();
    rng_t r = rng_new(5);
    char path[300];
    snprintf(path, sizeof path, "%s/keep3.rvx", dir);
    int hits = 0, iters = check_iters(6);
    for (int it = 0; it < iters && !check_failed_; it++) {
        rv_index_t *x = build(random_seq(&r, 60000), it % 2, NULL);
        size_t len = 0;
        unsigned char *good = save_slurp(x, path, &len);
        if (!good) break;
        const rvx_header_t *h = (const rvx_header_t *)good;
        const rvx_entry_t *t = (const rvx_entry_t *)(good + sizeof *h);
        for (uint32_t i = 0; i < h->n_sections && !check_failed_; i++)
            if (t[i].bytes) damage_one(path, good, len, &t[i], &r, &hits);
        /* the block hashes, the table, the header, truncation: refused at open */
        static const char *const what[] = {"block hashes", "table", "header", "truncation"};
        for (int k = 0; k < 4 && !check_failed_; k++) {
            unsigned char *bad = malloc(len);
            memcpy(bad, good, len);
            size_t blen = len;
            if (k == 0) bad[h->hash_offset + rng_below(&r, h->n_hashes * 8)] ^= 4;
            if (k == 1) bad[sizeof *h + rng_below(&r, h->n_sections * sizeof *t)] ^= 4;
            if (k == 2) bad[8 + rng_below(&r, sizeof *h - 8)] ^= 4;
            if (k == 3) blen = rng_below(&r, len);
            spit(path, bad, blen);
            free(bad);
            rv_index_t *y = NULL;
            rv_rvx_status_t st = rv_index_load(path, NULL, &y);
            CHECK(st != RV_RVX_OK && !y, "damaged %s opened", what[k]);
            rv_index_free(y);
        }
        free(good);
        rv_index_free(x);
    }
    CHECK(hits >= 6 * iters, "only %d damaged sections tried", hits);
    unlink(path);
    case_end("rvx_damage_found_before_use");
}

/* The padding: every byte of the file that the header, the used table entries, the
 * sections and the block hashes leave uncovered (found by marking a byte map, not
 * by the loader's sort).  A flip in any of them is refused at open, and so is a
 * tail of nonzero bytes appended to the file. */
static void padding(void)
{
    case_begin();
    rng_t r = rng_new(11);
    char path[300];
    snprintf(path, sizeof path, "%s/pad.rvx", dir);
    int tried = 0;
    for (int it = 0; it < 2 && !check_failed_; it++) {
        rv_index_t *x = build(random_seq(&r, 30000), it, NULL);
        size_t len = 0;
        unsigned char *good = save_slurp(x, path, &len);
        if (!good) break;
        const rvx_header_t *h = (const rvx_header_t *)good;
        const rvx_entry_t *t = (const rvx_entry_t *)(good + sizeof *h);
        unsigned char *used = calloc(len + 4096, 1), *bad = malloc(len + 4096);
        memset(used, 1, sizeof *h + h->n_sections * sizeof *t);
        memset(used + h->hash_offset, 1, h->n_hashes * 8);
        for (uint32_t i = 0; i < h->n_sections; i++) memset(used + t[i].offset, 1, t[i].bytes);
        for (size_t at = 0, next = 0; at < len && !check_failed_; at++) {
            if (used[at]) continue;
            CHECK(good[at] == 0, "padding byte %zu of a fresh file is %d", at, good[at]);
            if (at < next) continue;
            next = at + 1 + rng_below(&r, 97); /* a sample of every run of padding */
            memcpy(bad, good, len);
            bad[at] ^= (unsigned char)(1 + rng_below(&r, 255));
            spit(path, bad, len);
            rv_index_t *y = NULL;
            CHECK(rv_index_load(path, NULL, &y) == RV_RVX_CORRUPT && !y, "flip at padding byte %zu opened", at);
            rv_index_free(y);
            tried++;
        }
        memcpy(bad, good, len);
        memset(bad + len, 0, 4096);
        bad[len + rng_below(&r, 4096)] = 1;
        spit(path, bad, len + 4096);
        rv_index_t *y = NULL;
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_CORRUPT && !y, "a nonzero tail opened");
        rv_index_free(y);
        free(used);
        free(bad);
        free(good);
        rv_index_free(x);
    }
    CHECK(tried >= 20, "only %d padding bytes tried", tried);
    unlink(path);
    case_end("rvx_padding_flips_refused");
}

/* Flip one byte of section id at byte off of the file at path (a new inode). */
static void flip_section(const char *path, const unsigned char *good, size_t len, int id, uint64_t off)
{
    const rvx_header_t *h = (const rvx_header_t *)good;
    const rvx_entry_t *t = (const rvx_entry_t *)(good + sizeof *h);
    unsigned char *bad = malloc(len);
    memcpy(bad, good, len);
    for (uint32_t i = 0; i < h->n_sections; i++)
        if (t[i].id == (uint32_t)id) bad[t[i].offset + off] ^= 0x21;
    spit(path, bad, len);
    free(bad);
}

/* rv_index_verify_near: damage where a view of a place reads is found before that
 * view is shown, damage far from it is left to the full verification, which still
 * finds it; an intact file passes at any place. */
static void near(void)
{
    case_begin();
    rng_t r = rng_new(9);
    char path[300];
    snprintf(path, sizeof path, "%s/near.rvx", dir);
    const char *one[] = {"chr"};
    char *text = malloc(400001);
    for (int i = 0; i < 400000; i++) text[i] = "ACGT"[rng_below(&r, 4)];
    text[400000] = 0;
    const char *texts[] = {text};
    rv_index_t *x = build(rv_seq_from_records(one, texts, 1, RV_ALPHA_DNA), 0, NULL);
    free(text);
    size_t len = 0;
    unsigned char *good = x && rv_index_save(x, path) == 0 ? slurp(path, &len) : NULL;
    CHECK(good != NULL, "save: %s", rv_last_error());
    rv_index_t *y = NULL;
    for (uint64_t g = 0; good && g < 400000 && !check_failed_; g += 99991) { /* intact: passes */
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK && rv_index_verify_near(y, g, 2) == 0,
              "intact file refused at %llu: %s", (unsigned long long)g, rv_last_error());
        rv_index_free(y);
        y = NULL;
    }
    /* the first screen's longest repeats before LLRc is rebuilt (the walk over LLR)
     * and after (the walk over LLRc): those of the index built in memory */
    if (good && rv_index_load(path, NULL, &y) == RV_RVX_OK && rv_index_verify_near(y, 1000, 2) == 0) {
        CHECK(!rv_index_section(y, RV_SEC_LLRC, NULL), "LLRc rebuilt for the first screen");
        for (int pass = 0; pass < 2 && !check_failed_; pass++) {
            if (pass) CHECK(rv_index_verify(y, RV_SEC_ALL_MASK, 2) == 0 && rv_index_section(y, RV_SEC_LLRC, NULL),
                            "verification: %s", rv_last_error());
            for (uint64_t k = 0; k < 400000 && !check_failed_; k += 1 + rng_below(&r, 997)) {
                rv_lr_t a[64], b[64];
                uint64_t na = rv_lr_at(x, k, a, 64), nb = rv_lr_at(y, k, b, 64);
                CHECK(na == nb && !memcmp(a, b, (na < 64 ? na : 64) * sizeof *a),
                      "longest repeats at %llu differ %s LLRc is rebuilt", (unsigned long long)k,
                      pass ? "after" : "before");
            }
        }
    }
    rv_index_free(y);
    y = NULL;
    /* the LLR at 300000 and the suffix array at the rank of 200000: found at those
     * places, not at 0, and always by the full verification */
    uint64_t far_rank = rv_isa(x, 200000), w = 4;
    CHECK(far_rank > rv_isa(x, 0) + 20000 || far_rank + 20000 < rv_isa(x, 0), "ranks too close for the test");
    const struct { int id; uint64_t off, g; } cases[] = {{RV_SEC_LLR, 300000, 300000}, {RV_SEC_SA, far_rank * w, 200000}};
    for (int k = 0; good && k < 2 && !check_failed_; k++) {
        flip_section(path, good, len, cases[k].id, cases[k].off);
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK, "load: %s", rv_last_error());
        if (!y) break;
        CHECK(rv_index_verify_near(y, cases[k].g, 2) < 0 && strstr(rv_last_error(), "checksum mismatch"),
              "damage in section %d at the place not found", cases[k].id);
        rv_index_free(y);
        flip_section(path, good, len, cases[k].id, cases[k].off);
        y = NULL;
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK, "load: %s", rv_last_error());
        if (!y) break;
        CHECK(rv_index_verify_near(y, 0, 2) == 0, "damage in section %d far from 0 reported there: %s",
              cases[k].id, rv_last_error());
        CHECK(rv_index_verify(y, RV_SEC_ALL_MASK, 2) < 0 && strstr(rv_last_error(), "checksum mismatch"),
              "damage in section %d missed by the full verification", cases[k].id);
        rv_index_free(y);
        y = NULL;
    }
    free(good);
    rv_index_free(x);
    unlink(path);
    case_end("rvx_near_first_screen");
}

/* A DNA sequence with what the file forms must keep: lowercase stretches, N runs
 * (some long), IUPAC codes and other bytes, empty and all-N records, records that
 * meet without a breaker byte between them in global coordinates. */
static rv_seq_t *raw_seq(rng_t *r)
{
    static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
    static const char *const kinds[] = {"ACGT", "acgt", "ACGTacgtN", "NNNNNNNNnn", "RYKMSWrykm-*.", "ACGTRYN"};
    char *rec[6];
    int nrec = 1 + (int)rng_below(r, 6);
    for (int k = 0; k < nrec; k++) {
        uint64_t len = rng_below(r, 4) ? rng_below(r, 3000) : 0;
        rec[k] = malloc(len + 1);
        for (uint64_t i = 0; i < len;) { /* stretches of one kind */
            const char *kind = kinds[rng_below(r, 6)];
            uint64_t run = 1 + rng_below(r, rng_below(r, 8) ? 40 : 700), l = strlen(kind);
            for (; run-- && i < len; i++) rec[k][i] = kind[rng_below(r, l)];
        }
        rec[k][len] = 0;
    }
    rv_seq_t *s = rv_seq_from_records(names, (const char *const *)rec, nrec, RV_ALPHA_DNA);
    for (int k = 0; k < nrec; k++) free(rec[k]);
    return s;
}

/* A stored runs section of m random runs of a text of length n, sorted by (start,
 * period), with starts, periods and lengths both inside and past the two-byte form. */
static void *random_runs(rng_t *r, uint64_t m, uint64_t n, int wide, uint64_t *bytes)
{
    *bytes = rv_runs_section_bytes(m, wide);
    void *sec = calloc(1, *bytes);
    rv_runs_cols_t c = rv_runs_columns(sec, m, wide);
    uint64_t at = 0, p = 1;
    for (uint64_t k = 0; k < m; k++) {
        uint64_t step = rng_below(r, 10) ? rng_below(r, 6) : rng_below(r, 2000);
        if (step || k == 0) p = 0;
        at += step;
        p += 1 + (rng_below(r, 8) ? rng_below(r, 16) : rng_below(r, 300));
        uint64_t len = 2 * p + (rng_below(r, 6) ? rng_below(r, 17) : rng_below(r, 5000));
        if (at + len > n) at = n - len; /* stays sorted: n is far past every start */
        rv_put(c.start, wide, k, at);
        rv_put(c.len, wide, k, len);
        rv_put(c.period, wide, k, p);
    }
    rv_runs_seal(sec, n, m, wide);
    return sec;
}

/* The file forms of the text, the sequence and the runs expand to exactly what they
 * were made from, on 1 to 4 threads, and a damaged size or bound is refused. */
static void compact_forms(void)
{
    case_begin();
    rng_t r = rng_new(11);
    for (int it = 0; it < check_iters(60) && !check_failed_; it++) {
        rv_seq_t *s = raw_seq(&r);
        if (it % 3 == 0) rv_seq_add_reverse(s, 2);
        const int threads = 1 + it % 4;
        uint64_t tb = 0, rb = 0;
        void *t2 = rvx_text_pack(s, threads, &tb), *rx = rvx_raw_pack(s, threads, &rb);
        CHECK(t2 && rx, "DNA not packed");
        uint8_t *text = malloc(s->n + 1);
        char *raw = malloc(s->glen + 1);
        if (t2 && rx) {
            CHECK(rvx_text_unpack(t2, tb, s->n, text, 5 - threads) == 0 && !memcmp(text, s->text, s->n),
                  "text differs (n %llu)", (unsigned long long)s->n);
            memset(raw, 'x', s->glen);
            CHECK(rvx_raw_unpack(rx, rb, s, raw, 5 - threads) == 0 && !memcmp(raw, s->raw, s->glen),
                  "sequence differs (glen %llu)", (unsigned long long)s->glen);
            CHECK(rvx_text_unpack(t2, tb - 8, s->n, text, 1) < 0 && rvx_raw_unpack(rx, rb + 8, s, raw, 1) < 0,
                  "a form of the wrong size was taken");
            for (int q = 0; q < 200 && s->n && !check_failed_; q++) { /* LCE read from the packed text */
                uint64_t i = rng_below(&r, s->n), j = q % 4 ? rng_below(&r, s->n) : i;
                if (q % 5 == 0 && i + 7 < s->n) j = i + 1 + rng_below(&r, 6); /* periodic stretches */
                CHECK(rvx_text_lce(t2, tb, s->n, i, j) == rv_lce_scan(s, i, j), "LCE(%llu, %llu)",
                      (unsigned long long)i, (unsigned long long)j);
            }
            uint64_t tb2 = 0, rb2 = 0;
            void *t3 = rvx_text_pack(s, 1, &tb2), *r3 = rvx_raw_pack(s, 1, &rb2);
            CHECK(tb2 == tb && rb2 == rb && !memcmp(t3, t2, tb) && !memcmp(r3, rx, rb),
                  "the form depends on the thread count");
            free(t3);
            free(r3);
        }
        free(t2);
        free(rx);
        free(text);
        free(raw);
        const int wide = it % 2;
        const uint64_t m = rng_below(&r, 4) ? rng_below(&r, 3000) : 70000 + rng_below(&r, 70000), n = 1ull << 31;
        void *runs = random_runs(&r, m, n, wide, &rb);
        uint64_t zb = 0, ob = 0;
        void *z = rvx_runs_pack(runs, rb, n, wide, threads, &zb);
        void *back = z ? rvx_runs_unpack(z, zb, n, wide, 5 - threads, &ob) : NULL;
        CHECK(back && ob == rb && !memcmp(back, runs, rb), "runs differ (m %llu, wide %d)", (unsigned long long)m,
              wide);
        CHECK(!z || !rvx_runs_unpack(z, zb - 8, n, wide, 1, &ob), "runs of the wrong size were taken");
        free(back);
        free(z);
        free(runs);
        rv_seq_free(s);
    }
    /* not DNA: stored as it is */
    rv_seq_t *p = rv_seq_from_string("MKVLAAGIX", 9, RV_ALPHA_PROTEIN, "p");
    uint64_t b = 0;
    CHECK(!rvx_text_pack(p, 1, &b) && !rvx_raw_pack(p, 1, &b), "protein packed in 2 bits");
    rv_seq_free(p);
    case_end("rvx_compact_forms_exact");
}

/* A file of the previous format (4: ISA, LLRc, the text, the sequence and the runs
 * stored as they are), committed with its FASTA: read as it is, every section
 * equal to a build of that FASTA.  A format older than 4 is refused and named. */
static void old_format(void)
{
    case_begin();
    const char *top = getenv("RV_TOP") ? getenv("RV_TOP") : ".";
    char in[600], fa[600], path[300];
    snprintf(in, sizeof in, "%s/tests/data/v4/old.fa.rvx.gz", top);
    snprintf(fa, sizeof fa, "%s/tests/data/v4/old.fa", top);
    snprintf(path, sizeof path, "%s/old.rvx", dir);
    BGZF *z = bgzf_open(in, "r");
    CHECK(z != NULL, "cannot open %s", in);
    if (!z) { case_end("rvx_format_4_read"); return; }
    unsigned char *buf = malloc(1 << 20);
    ssize_t len = bgzf_read(z, buf, 1 << 20);
    bgzf_close(z);
    CHECK(len > 0, "cannot read %s", in);
    if (len > 0) spit(path, buf, (size_t)len);
    const rvx_header_t *h = (const rvx_header_t *)buf;
    CHECK(len > 0 && h->version == 4, "the committed file is not of format 4");
    rv_index_t *y = len > 0 ? load_ok(path) : NULL;
    rv_index_t *x = build(rv_seq_load(fa, RV_ALPHA_DNA), 0, NULL);
    CHECK(x != NULL, "build: %s", rv_last_error());
    if (x && y) check_same(x, y, "format 4");
    rv_index_free(y);
    if (len > 0) {
        buf[8] = 3;
        spit(path, buf, (size_t)len);
        y = NULL;
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_VERSION && !y && strstr(rv_last_error(), "index format 3"),
              "format 3 not named: %s", rv_last_error());
    }
    rv_index_free(x);
    free(buf);
    unlink(path);
    case_end("rvx_format_4_read");
}

/* ---- the suffix array of a wide index in 5 bytes ------------------------------ */

/* The SA40 form of values around 2^32 and up to 2^40 - 1 gives them back exactly;
 * any byte range of it made alone equals the same bytes of the whole form (the
 * writer threads make it block by block); a damaged size, magic, n or padding, or a
 * rank of n or more, is refused. */
static void sa40_forms(void)
{
    case_begin();
    rng_t r = rng_new(40);
    const uint64_t edge[] = {0, 1, (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, (1ull << 40) - 1,
                             (1ull << 40) - 2, (1ull << 39), 0xffffffffffull, 0x0102030405ull};
    for (int it = 0; it < check_iters(80) && !check_failed_; it++) {
        const uint64_t n = it < 10 ? (uint64_t)it : rng_below(&r, it % 7 ? 5000 : 300000);
        const int threads = 1 + it % 4;
        uint64_t *sa = malloc((n + 1) * 8), *back = malloc((n + 1) * 8);
        for (uint64_t k = 0; k < n; k++)
            sa[k] = rng_below(&r, 3) ? edge[rng_below(&r, 10)] : rng_below(&r, 1ull << 40);
        uint64_t bytes = 0;
        uint8_t *sec = rvx_sa40_pack(sa, n, threads, &bytes);
        CHECK(sec && bytes == rvx_sa40_bytes(n) && bytes % 8 == 0 && bytes == 16 + (5 * n + 7) / 8 * 8,
              "form of %llu ranks", (unsigned long long)n);
        if (!sec) { free(sa); free(back); break; }
        CHECK(rvx_sa40_check(sec, bytes, n) == 0, "a fresh form refused");
        for (uint64_t k = 0; k < n && !check_failed_; k++) { /* little-endian, 5 bytes a rank */
            uint64_t v = 0;
            memcpy(&v, sec + 16 + 5 * k, 5);
            CHECK(v == sa[k], "rank %llu stored as %llx, not %llx", (unsigned long long)k,
                  (unsigned long long)v, (unsigned long long)sa[k]);
        }
        /* expanded in random pieces, every rank in the piece its first byte is in */
        memset(back, 0xee, (n + 1) * 8);
        int bad = 0;
        for (uint64_t lo = 0; lo < bytes;) {
            uint64_t hi = lo + 1 + rng_below(&r, 97);
            if (hi > bytes) hi = bytes;
            bad |= rvx_sa40_unpack_bytes(sec, n, 1ull << 40, lo, hi, back) < 0;
            lo = hi;
        }
        CHECK(!bad && !memcmp(back, sa, n * 8) && back[n] == 0xeeeeeeeeeeeeeeeeull,
              "values differ after the round trip (n %llu)", (unsigned long long)n);
        int top = 0; /* the bound is exact: 2^40 - 1 is refused only under a bound of itself */
        for (uint64_t k = 0; k < n; k++) top |= sa[k] == (1ull << 40) - 1;
        CHECK((rvx_sa40_unpack_bytes(sec, n, (1ull << 40) - 1, 0, bytes, back) < 0) == top, "bound not exact");
        /* pieces made alone */
        uint8_t *piece = malloc(bytes + 1);
        for (int q = 0; q < 40 && !check_failed_; q++) {
            const uint64_t off = rng_below(&r, bytes + 1), len = rng_below(&r, bytes - off + 1);
            piece[len] = 0xab;
            rvx_sa40_pack_range(sa, n, off, len, piece);
            CHECK(!memcmp(piece, sec + off, len) && piece[len] == 0xab, "bytes %llu+%llu made alone differ",
                  (unsigned long long)off, (unsigned long long)len);
        }
        free(piece);
        /* a suffix array: a permutation of [0, n) expands on any thread count */
        for (uint64_t k = 0; k < n; k++) sa[k] = k;
        for (uint64_t k = n; k > 1; k--) { uint64_t j = rng_below(&r, k), t = sa[k - 1]; sa[k - 1] = sa[j]; sa[j] = t; }
        free(sec);
        sec = rvx_sa40_pack(sa, n, threads, &bytes);
        CHECK(rvx_sa40_unpack(sec, bytes, n, back, 5 - threads) == 0 && !memcmp(back, sa, n * 8),
              "permutation of %llu differs", (unsigned long long)n);
        CHECK(rvx_sa40_unpack(sec, bytes - 8, n, back, 1) < 0 && rvx_sa40_unpack(sec, bytes, n + 1, back, 1) < 0,
              "a form of the wrong size or n was taken");
        sec[0] ^= 1;
        CHECK(rvx_sa40_check(sec, bytes, n) < 0, "a bad magic was taken");
        sec[0] ^= 1;
        if (16 + 5 * n < bytes) {
            sec[bytes - 1] = 1;
            CHECK(rvx_sa40_check(sec, bytes, n) < 0, "nonzero padding was taken");
            sec[bytes - 1] = 0;
        }
        if (n) { /* a rank of n: refused wherever it is */
            const uint64_t k = rng_below(&r, n), v = rng_below(&r, 2) ? n : (1ull << 40) - 1;
            memcpy(sec + 16 + 5 * k, &v, 5);
            CHECK(rvx_sa40_unpack(sec, bytes, n, back, threads) < 0, "rank %llu past the text taken",
                  (unsigned long long)k);
        }
        free(sec);
        free(sa);
        free(back);
    }
    uint64_t b = 0;
    CHECK(rvx_sa40_check("", 0, 1ull << 40) < 0, "n of 2^40 taken");
    CHECK(rvx_sa40_pack(NULL, 1ull << 40, 1, &b) == NULL, "a form of 2^40 ranks made");
    case_end("rvx_sa40_form_exact");
}

/* A text of one of several alphabets and shapes, with breakers. */
static rv_seq_t *shaped_seq(rng_t *r, int shape, uint64_t max_len)
{
    static const char *const names[] = {"a", "b", "c"};
    static const char *const alpha[] = {"ACGT", "ACGTN", "ACDEFGHIKLMNPQRSTVWYX", "ab \n"};
    const rv_alpha_t kind[] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT};
    const int a = (int)rng_below(r, 4), nrec = 1 + (int)rng_below(r, 3);
    char *rec[3];
    for (int k = 0; k < nrec; k++) {
        const uint64_t len = rng_below(r, max_len + 1), l = strlen(alpha[a]), p = 1 + rng_below(r, 9);
        rec[k] = malloc(len + 1);
        for (uint64_t i = 0; i < len; i++) {
            const uint64_t c = shape == 0 ? rng_below(r, l) : shape == 1 ? 0 : (i % p) % l;
            rec[k][i] = alpha[a][c];
            if (shape == 2 && !rng_below(r, 200)) rec[k][i] = alpha[a][rng_below(r, l)]; /* near-periodic */
        }
        rec[k][len] = 0;
    }
    rv_seq_t *s = rv_seq_from_records(names, (const char *const *)rec, nrec, kind[a]);
    for (int k = 0; k < nrec; k++) free(rec[k]);
    return s;
}

/* Whether the file image f has section id. */
static int file_has(const unsigned char *f, uint32_t id)
{
    const rvx_header_t *h = (const rvx_header_t *)f;
    const rvx_entry_t *t = (const rvx_entry_t *)(f + sizeof *h);
    for (uint32_t i = 0; i < h->n_sections; i++)
        if (t[i].id == id) return 1;
    return 0;
}

/* Wide indexes of random texts (random, all one letter, periodic; DNA with and
 * without N, protein, text) saved and loaded: SA (stored in 5 bytes), LCP, the runs,
 * the longest repeats at every position and the text equal the index built in
 * memory; the file is of format 6 with SA40 and no SA, a 32-bit one of format 5
 * with SA and no SA40.  Then SA is overwritten as soon as the writer lets it go. */
static void wide_answers(void)
{
    case_begin();
    rng_t r = rng_new(41);
    char path[300];
    snprintf(path, sizeof path, "%s/wide.rvx", dir);
    for (int it = 0; it < check_iters(24) && !check_failed_; it++) {
        const int wide = it % 4 != 3;
        rv_index_t *x = build(shaped_seq(&r, it % 3, it < 6 ? 5 : 20000), wide, NULL);
        size_t len = 0;
        unsigned char *f = save_slurp(x, path, &len);
        if (!f) break;
        const rvx_header_t *h = (const rvx_header_t *)f;
        CHECK(wide ? h->version == 6 && file_has(f, RV_SEC_SA40) && !file_has(f, RV_SEC_SA)
                   : h->version == 5 && file_has(f, RV_SEC_SA) && !file_has(f, RV_SEC_SA40),
              "%s file: format %u", wide ? "wide" : "32-bit", h->version);
        rv_index_t *y = load_ok(path);
        if (y) {
            check_same(x, y, wide ? "wide" : "32-bit");
            for (uint64_t t = 0; t < x->n && !check_failed_; t++) {
                rv_lr_t a[8], b[8];
                uint64_t na = rv_lr_at(x, t, a, 8), nb = rv_lr_at(y, t, b, 8);
                CHECK(na == nb && !memcmp(a, b, (na < 8 ? na : 8) * sizeof *a), "longest repeats at %llu",
                      (unsigned long long)t);
            }
            rv_runs_t u, v;
            CHECK(rv_runs_get(x, 1, NULL, &u) == 0 && rv_runs_get(y, 1, NULL, &v) == 0 && u.n == v.n,
                  "runs: %s", rv_last_error());
            for (uint64_t k = 0; k < u.n && !check_failed_; k++) {
                rv_run_t p = rv_runs_at(&u, k), q = rv_runs_at(&v, k);
                CHECK(p.start == q.start && p.end == q.end && p.period == q.period, "run %llu",
                      (unsigned long long)k);
            }
        }
        rv_index_free(y);
        free(f);
        /* `repview index` frees SA once the writer lets it go: SA40, made from it block
         * by block, must be whole in the file by then (SA is overwritten here) */
        rv_rvx_writer_t *w = rv_rvx_writer_open(path, 1 + it % 3);
        CHECK(w && rv_rvx_writer_add_index(w, x, RV_SEC_ALL_MASK) == 0, "writer: %s", rv_last_error());
        const uint64_t sa_bytes = x->n * (x->wide ? 8 : 4);
        void *keep = malloc(sa_bytes + 1);
        memcpy(keep, x->sa, sa_bytes);
        CHECK(rv_rvx_writer_release(w, RV_SEC_BIT(RV_SEC_SA), 1) == RV_SEC_BIT(RV_SEC_SA), "SA not let go");
        memset(x->sa, 0xa5, sa_bytes);
        CHECK(rv_rvx_writer_finish(w) == 0, "finish: %s", rv_last_error());
        y = NULL;
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK && !memcmp(y->sa, keep, sa_bytes),
              "SA read after it was let go: %s", rv_last_error());
        memcpy(x->sa, keep, sa_bytes);
        free(keep);
        rv_index_free(y);
        rv_index_free(x);
    }
    unlink(path);
    case_end("rvx_wide_sa40_answers");
}

/* Rewrite the header's hash of a file image after an edit. */
static void reseal_header(unsigned char *f)
{
    rvx_header_t h;
    memcpy(&h, f, sizeof h);
    h.header_hash = 0;
    h.header_hash = XXH3_64bits_withSeed(&h, sizeof h, 2);
    memcpy(f, &h, sizeof h);
}

/* Files that hold SA and SA40, neither, SA40 in a file that says format 5, or an
 * SA40 whose hashes pass but that holds a rank past the text: refused at open in
 * one line, never a crash. */
static void sa40_inconsistent(void)
{
    case_begin();
    rng_t r = rng_new(42);
    char path[300];
    snprintf(path, sizeof path, "%s/sa40bad.rvx", dir);
    rv_index_t *x = build(random_seq(&r, 30000), 1, NULL), *y = NULL;
    CHECK(x != NULL, "build: %s", rv_last_error());
    uint64_t bytes = 0;
    uint8_t *form = x ? rvx_sa40_pack(x->sa, x->n, 2, &bytes) : NULL;
    for (int k = 0; form && k < 4 && !check_failed_; k++) {
        rv_rvx_writer_t *w = rv_rvx_writer_open(path, 2);
        if (k == 0) { /* both */
            rv_rvx_writer_add(w, RV_SEC_SA, x->sa, x->n * 8);
            rv_rvx_writer_add(w, RV_SEC_SA40, form, bytes);
        }
        if (k == 3) { /* a rank of n in a sealed section */
            const uint64_t at = rng_below(&r, x->n), v = x->n;
            memcpy(form + 16 + 5 * at, &v, 5);
            rv_rvx_writer_add(w, RV_SEC_SA40, form, bytes);
            rv_rvx_writer_add(w, RV_SEC_SA, "", 0); /* keeps the writer from adding its own; dropped below */
        }
        rv_rvx_writer_add_index(w, x, k == 1 ? ~RV_SEC_BIT(RV_SEC_SA) : RV_SEC_ALL_MASK);
        CHECK(rv_rvx_writer_finish(w) == 0, "write case %d: %s", k, rv_last_error());
        size_t len = 0;
        unsigned char *f = slurp(path, &len);
        if (k == 2 && f) { /* format 5 says no SA40 */
            ((rvx_header_t *)f)->version = 5;
            reseal_header(f);
        }
        if (k == 3 && f) { /* drop the empty SA entry: the table is sealed again too */
            rvx_header_t *h = (rvx_header_t *)f;
            rvx_entry_t *t = (rvx_entry_t *)(f + sizeof *h);
            for (uint32_t i = 0; i < h->n_sections; i++)
                if (t[i].id == RV_SEC_SA) {
                    t[i] = t[h->n_sections - 1];
                    memset(&t[--h->n_sections], 0, sizeof *t);
                    break;
                }
            h->table_hash = XXH3_64bits_withSeed(t, h->n_sections * sizeof *t, 1);
            reseal_header(f);
        }
        if (f) spit(path, f, len);
        free(f);
        static const char *const why[] = {"inconsistent sections", "inconsistent sections", "inconsistent sections",
                                          "bad SA section"};
        y = NULL;
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_CORRUPT && !y && strstr(rv_last_error(), why[k]) &&
                  !strchr(rv_last_error(), '\n'),
              "case %d: %s", k, rv_last_error());
        rv_index_free(y);
    }
    free(form);
    rv_index_free(x);
    unlink(path);
    case_end("rvx_sa40_inconsistent_refused");
}

int main(void)
{
    setenv("REPVIEW_RVX_BLOCK", "4096", 1);
    snprintf(dir, sizeof dir, "/tmp/t_rvx_%d", (int)getpid());
    mkdir(dir, 0755);
    compact_forms();
    sa40_forms();
    wide_answers();
    sa40_inconsistent();
    old_format();
    round_trips();
    writer_orders();
    writer_abort();
    damage();
    padding();
    near();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_exit();
}
