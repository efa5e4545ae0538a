/* t_part.c — part files (part.h), the container `--buckets I/N` of every command
 * writes and `repview merge` reads:
 *   - rv_part_share against its contract on random sizes (equal ones, zero items,
 *     more slices than items): the slices' shares partition the items, each in the
 *     order given, the same on every call, and the loads of a greedy largest-first
 *     assignment differ by at most the largest item;
 *   - rv_bucket_slice_jobs on real plans (random texts of every kind) partitions
 *     the jobs;
 *   - random parts (kinds, slices, options and bodies of random bytes, inputs of
 *     every kind) read back field for field and byte for byte, through the stream
 *     and at random offsets; every single byte changed, every cut, bytes appended
 *     or prepended: refused; a failed write leaves nothing;
 *   - rv_parts_check on sets in random order, and with a slice missing or repeated,
 *     a part of another kind, N, input or options, against a changed input. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/part.h"
#include "repview/seq.h"
#include "random_seq.h"


static char tmpdir[4096];

/* ---- rv_part_share ------------------------------------------------------------------ */

static void test_share(void)
{
    rng_t r = rng_new(0x9a27);
    case_begin();
    for (int it = 0; it < check_iters(400) && !check_failed_; it++) {
        const uint64_t n = rng_below(&r, 40), n_slices = 1 + rng_below(&r, 12), top = 1 + rng_below(&r, 1000);
        uint64_t size[40], order[40], load[13] = {0}, biggest = 0;
        int seen[40] = {0};
        for (uint64_t i = 0; i < n; i++) size[i] = 1 + rng_below(&r, top), order[i] = i;
        for (uint64_t i = 1; i < n; i++) /* largest first, by insertion */
            for (uint64_t j = i; j > 0 && size[order[j - 1]] < size[order[j]]; j--) {
                uint64_t t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
            }
        for (uint64_t i = 0; i < n; i++) biggest = size[i] > biggest ? size[i] : biggest;
        for (uint64_t q = 0; q < n_slices && !check_failed_; q++) {
            uint64_t m = UINT64_MAX, m2 = UINT64_MAX;
            uint64_t *mine = rv_part_share(order, size, n, q, n_slices, &m), *again = rv_part_share(order, size, n, q, n_slices, &m2);
            CHECK(mine && again, "share: %s", rv_last_error());
            if (!mine || !again) { free(mine), free(again); break; }
            CHECK(m <= n && m == m2 && !memcmp(mine, again, m * sizeof *mine), "slice %llu of %llu: not the same twice",
                  (unsigned long long)q, (unsigned long long)n_slices);
            for (uint64_t i = 0, at = 0; i < m && !check_failed_; i++) {
                uint64_t pos = at; /* in the order given: mine is a subsequence of order */
                while (pos < n && order[pos] != mine[i]) pos++;
                CHECK(pos < n, "slice %llu: item %llu out of order", (unsigned long long)q, (unsigned long long)mine[i]);
                at = pos + 1;
                CHECK(!seen[mine[i]]++, "item %llu in two slices", (unsigned long long)mine[i]);
                load[q] += size[mine[i]];
            }
            free(mine), free(again);
        }
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint64_t q = 0; q < n_slices; q++) {
            lo = load[q] < lo ? load[q] : lo;
            hi = load[q] > hi ? load[q] : hi;
        }
        for (uint64_t i = 0; i < n; i++) CHECK(seen[i] == 1, "item %llu in %d slices", (unsigned long long)i, seen[i]);
        CHECK(hi - lo <= biggest, "%llu items, %llu slices: loads %llu..%llu, largest item %llu", (unsigned long long)n,
              (unsigned long long)n_slices, (unsigned long long)lo, (unsigned long long)hi,
              (unsigned long long)biggest);
    }
    case_end("part_share");
}

static void test_slice_jobs(void)
{
    rng_t r = rng_new(0x51ce);
    case_begin();
    for (int it = 0; it < check_iters(60) && !check_failed_; it++) {
        const int kind = (int)rng_below(&r, N_KINDS);
        rv_seq_t *s = random_seq(&r, kind, 1 + rng_below(&r, 300));
        rv_bucket_plan_t plan;
        CHECK(s && rv_bucket_plan(s, 1 + rng_below(&r, 4), 1 + rng_below(&r, 30), 1, &plan) == 0, "plan: %s",
              rv_last_error());
        if (check_failed_) { rv_seq_free(s); break; }
        const uint64_t n_slices = 1 + rng_below(&r, 9);
        char *seen = calloc(plan.n_jobs + 1, 1);
        for (uint64_t q = 0; q < n_slices && !check_failed_; q++) {
            uint64_t m, *mine = rv_bucket_slice_jobs(&plan, q, n_slices, &m);
            CHECK(mine != NULL, "slice: %s", rv_last_error());
            for (uint64_t i = 0; mine && i < m; i++)
                CHECK(mine[i] < plan.n_jobs && !seen[mine[i]]++, "%s: job %llu twice", kinds[kind],
                      (unsigned long long)mine[i]);
            free(mine);
        }
        for (uint64_t j = 0; j < plan.n_jobs; j++)
            CHECK(seen[j] == 1, "%s: job %llu of %llu in no slice of %llu", kinds[kind], (unsigned long long)j,
                  (unsigned long long)plan.n_jobs, (unsigned long long)n_slices);
        free(seen);
        rv_bucket_plan_free(&plan);
        rv_seq_free(s);
    }
    case_end("part_bucket_slice_jobs");
}

/* ---- one part ------------------------------------------------------------------------ */

typedef struct {
    int kind;
    uint64_t slice, n_slices, items;
    unsigned char opts[64], body[3000];
    size_t opts_bytes, body_bytes;
} spec_t;

static void random_spec(rng_t *r, spec_t *p)
{
    p->kind = 1 + (int)rng_below(r, 4);
    p->n_slices = 1 + rng_below(r, 8);
    p->slice = rng_below(r, p->n_slices);
    p->items = rng_below(r, 1000);
    p->opts_bytes = rng_below(r, sizeof p->opts + 1);
    p->body_bytes = rng_below(r, 4) ? rng_below(r, 200) : rng_below(r, sizeof p->body + 1);
    for (size_t i = 0; i < p->opts_bytes; i++) p->opts[i] = (unsigned char)rng_below(r, 256);
    for (size_t i = 0; i < p->body_bytes; i++) p->body[i] = (unsigned char)rng_below(r, 256);
}

static int write_spec(const char *path, const rv_seq_t *s, const spec_t *p)
{
    rv_part_writer_t *w = rv_part_writer_begin(path, p->kind, p->slice, p->n_slices, s, p->opts, p->opts_bytes);
    if (!w) return -1;
    int rc = fwrite(p->body, 1, p->body_bytes, rv_part_writer_file(w)) == p->body_bytes ? 0 : -1;
    return rv_part_writer_end(w, p->items, 0, rc);
}

static int write_bytes(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static unsigned char *read_all(const char *path, size_t *n)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    unsigned char *b = f && stat(path, &st) == 0 ? malloc((size_t)st.st_size + 8) : NULL;
    *n = b ? fread(b, 1, (size_t)st.st_size, f) : 0;
    if (f) fclose(f);
    return b;
}

/* The part at path reads back as p. */
static void check_read_back(const char *path, const spec_t *p, const char *what)
{
    rv_part_t *q = NULL;
    CHECK(rv_part_open(path, &q) == 0, "%s: open: %s", what, rv_last_error());
    if (!q) return;
    uint64_t sl, ns;
    size_t ob;
    rv_part_slice(q, &sl, &ns);
    const void *opts = rv_part_opts(q, &ob);
    CHECK(rv_part_kind(q) == p->kind && sl == p->slice && ns == p->n_slices && rv_part_items(q) == p->items,
          "%s: header read back wrong", what);
    CHECK(ob == p->opts_bytes && !memcmp(opts, p->opts, ob), "%s: options read back wrong", what);
    CHECK(!strcmp(rv_part_input(q), "-") && !strcmp(rv_part_path(q), path), "%s: paths '%s' '%s'", what,
          rv_part_input(q), rv_part_path(q));
    CHECK(rv_part_body_bytes(q) == p->body_bytes, "%s: body of %llu bytes, want %zu", what,
          (unsigned long long)rv_part_body_bytes(q), p->body_bytes);
    unsigned char got[sizeof p->body + 8];
    FILE *f = rv_part_body(q);
    size_t n = f ? fread(got, 1, sizeof got, f) : 0;
    CHECK(f && n == p->body_bytes && !memcmp(got, p->body, n), "%s: body stream differs (%zu bytes)", what, n);
    for (int k = 0; k < 5 && p->body_bytes; k++) { /* reads at offsets, some past the end */
        uint64_t off = (uint64_t)(k * 7919) % (p->body_bytes + 10), len = 1 + (uint64_t)k * 613;
        int64_t r = rv_part_read(q, got, len, off);
        uint64_t want = off >= p->body_bytes ? 0 : len < p->body_bytes - off ? len : p->body_bytes - off;
        CHECK(r == (int64_t)want && !memcmp(got, p->body + (off < p->body_bytes ? off : 0), (size_t)want),
              "%s: read at %llu", what, (unsigned long long)off);
    }
    rv_part_close(q);
}

/* Every damaged copy of the part at path is refused. */
static void check_damage(const char *path, rng_t *r, const char *what)
{
    size_t n;
    unsigned char *b = read_all(path, &n), *c = b ? malloc(n + 8) : NULL;
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/damaged.part", tmpdir);
    CHECK(b && c && n > 0, "%s: read the part", what);
    for (size_t i = 0; c && i < n && !check_failed_; i += i < 300 ? 1 : 1 + rng_below(r, 40)) {
        memcpy(c, b, n);
        c[i] ^= (unsigned char)(1u << rng_below(r, 8)); /* one bit of byte i */
        write_bytes(bad, c, n);
        rv_part_t *q = NULL;
        CHECK(rv_part_open(bad, &q) < 0 && !q && rv_last_error()[0], "%s: byte %zu of %zu changed, opened", what, i, n);
        rv_part_close(q);
    }
    for (size_t cut = 1; c && cut <= n && !check_failed_; cut += cut < 200 ? 1 : 1 + rng_below(r, 60)) {
        rv_part_t *q = NULL;
        write_bytes(bad, b, n - cut); /* the end cut */
        CHECK(rv_part_open(bad, &q) < 0 && !q, "%s: cut by %zu of %zu, opened", what, cut, n);
        rv_part_close(q), q = NULL;
        write_bytes(bad, b + cut, n - cut); /* the start cut */
        CHECK(rv_part_open(bad, &q) < 0 && !q, "%s: first %zu of %zu bytes cut, opened", what, cut, n);
        rv_part_close(q);
    }
    if (c) {
        rv_part_t *q = NULL;
        memcpy(c, b, n), memcpy(c + n, "xyz", 3);
        write_bytes(bad, c, n + 3);
        CHECK(rv_part_open(bad, &q) < 0 && !q, "%s: 3 bytes appended, opened", what);
        memcpy(c, "xyz", 3), memcpy(c + 3, b, n);
        write_bytes(bad, c, n + 3);
        CHECK(rv_part_open(bad, &q) < 0 && !q, "%s: 3 bytes prepended, opened", what);
    }
    free(b);
    free(c);
}

static void test_round_trip(void)
{
    rng_t r = rng_new(0x7a47);
    char path[4200], what[128];
    snprintf(path, sizeof path, "%s/one.part", tmpdir);
    case_begin();
    for (int it = 0; it < check_iters(40) && !check_failed_; it++) {
        const int kind = (int)rng_below(&r, N_KINDS);
        rv_seq_t *s = random_seq(&r, kind, 1 + rng_below(&r, 200));
        spec_t p;
        random_spec(&r, &p);
        snprintf(what, sizeof what, "%s kind %d slice %llu/%llu opts %zu body %zu", kinds[kind], p.kind,
                 (unsigned long long)p.slice + 1, (unsigned long long)p.n_slices, p.opts_bytes, p.body_bytes);
        CHECK(write_spec(path, s, &p) == 0, "%s: write: %s", what, rv_last_error());
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
        CHECK(access(tmp, F_OK) != 0, "%s: temporary left", what);
        check_read_back(path, &p, what);
        if (it % 4 == 0) check_damage(path, &r, what);
        rv_seq_free(s);
    }
    /* refusals when writing: slices that do not exist, a failed body, no directory, a FIFO */
    rv_seq_t *s = random_seq(&r, 0, 50);
    spec_t p;
    random_spec(&r, &p);
    unlink(path);
    p.slice = 3, p.n_slices = 3;
    CHECK(write_spec(path, s, &p) < 0 && access(path, F_OK) != 0, "slice 4 of 3 written");
    p.slice = 0, p.n_slices = 0;
    CHECK(write_spec(path, s, &p) < 0 && access(path, F_OK) != 0, "slice of 0 written");
    p.n_slices = 2;
    rv_part_writer_t *w = rv_part_writer_begin(path, RV_PART_LR, 0, 2, s, p.opts, p.opts_bytes);
    CHECK(w && rv_part_writer_end(w, 0, 0, rv_error("test", "failed")) < 0 && access(path, F_OK) != 0,
          "a failed part left a file");
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    CHECK(access(tmp, F_OK) != 0, "a failed part left its temporary");
    snprintf(tmp, sizeof tmp, "%s/no/such/dir/x.part", tmpdir);
    CHECK(write_spec(tmp, s, &p) < 0 && rv_last_error()[0], "written into a missing directory");
    snprintf(tmp, sizeof tmp, "%s/fifo", tmpdir);
    CHECK(mkfifo(tmp, 0600) == 0, "mkfifo: %s", strerror(errno));
    CHECK(write_spec(tmp, s, &p) < 0, "a part written over a FIFO");
    struct stat st;
    CHECK(stat(tmp, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO replaced");
    rv_part_t *q = NULL;
    CHECK(rv_part_open(tmp, &q) < 0 && !q, "a FIFO opened as a part");
    snprintf(tmp, sizeof tmp, "%s/nope.part", tmpdir);
    CHECK(rv_part_open(tmp, &q) < 0 && !q, "a missing file opened");
    CHECK(rv_part_open(tmpdir, &q) < 0 && !q, "a directory opened");
    rv_seq_free(s);
    case_end("part_round_trip_and_damage");
}

/* ---- sets of parts --------------------------------------------------------------------- */

/* Parts TAG.0..TAG.N-1 of one run (kind, opts) of s; opened into parts. */
static int make_set(const char *tag, const rv_seq_t *s, int kind, uint64_t n, const unsigned char *opts,
                    size_t opts_bytes, rv_part_t **parts)
{
    char path[4200];
    for (uint64_t i = 0; i < n; i++) {
        spec_t p = {kind, i, n, i, {0}, {0}, opts_bytes, 1 + i};
        memcpy(p.opts, opts, opts_bytes);
        memset(p.body, (int)i, p.body_bytes);
        snprintf(path, sizeof path, "%s/%s.%llu", tmpdir, tag, (unsigned long long)i);
        if (write_spec(path, s, &p) < 0 || rv_part_open(path, &parts[i]) < 0) return -1;
    }
    return 0;
}

static void test_sets(void)
{
    rng_t r = rng_new(0x5e75);
    case_begin();
    for (int it = 0; it < check_iters(30) && !check_failed_; it++) {
        const int kind = (int)rng_below(&r, N_KINDS);
        rv_seq_t *s = random_seq(&r, kind, 2 + rng_below(&r, 100));
        /* s2: s with its last symbol changed (same lengths: only the text hash tells) */
        char last = s->raw[s->glen - 1], *raw2 = malloc(s->glen + 1);
        memcpy(raw2, s->raw, s->glen), raw2[s->glen] = 0;
        raw2[s->glen - 1] = last == 'A' || last == 'a' ? 'C' : 'A';
        const char *names[3], *seqs[3];
        for (uint64_t i = 0; i < s->n_rec && i < 3; i++) names[i] = s->rec[i].name, seqs[i] = NULL;
        char *cuts[3] = {0};
        for (uint64_t i = 0; i < s->n_rec && i < 3; i++) {
            cuts[i] = strndup(raw2 + s->rec[i].off, (size_t)s->rec[i].len);
            seqs[i] = cuts[i];
        }
        rv_seq_t *s2 = rv_seq_from_records(names, seqs, (int)s->n_rec, s->alpha);
        const uint64_t n = 1 + rng_below(&r, 6);
        unsigned char opts[16], other[16];
        for (int i = 0; i < 16; i++) opts[i] = other[i] = (unsigned char)rng_below(&r, 256);
        other[rng_below(&r, 16)] ^= 1;
        const int k = 1 + (int)rng_below(&r, 4);
        rv_part_t *a[8] = {0}, *b[8] = {0}, *c[8] = {0}, *d[8] = {0}, *e[8] = {0}, *set[9];
        CHECK(s2 && make_set("a", s, k, n, opts, 16, a) == 0 && make_set("b", s, k, n, other, 16, b) == 0 &&
              make_set("c", s, k % 4 + 1, n, opts, 16, c) == 0 && make_set("d", s2, k, n, opts, 16, d) == 0 &&
              make_set("e", s, k, n + 1, opts, 16, e) == 0, "make sets: %s", rv_last_error());
        if (!check_failed_) {
            for (uint64_t i = 0; i < n; i++) set[i] = a[i];
            for (uint64_t i = n; i > 1; i--) { /* any order */
                uint64_t j = rng_below(&r, i);
                rv_part_t *t = set[i - 1]; set[i - 1] = set[j]; set[j] = t;
            }
            CHECK(rv_parts_check(set, n, NULL) == 0 && rv_parts_check(set, n, s) == 0, "complete set refused: %s",
                  rv_last_error());
            CHECK(rv_parts_check(set, n, s2) < 0 && strstr(rv_last_error(), "changed"), "checked against another text");
            CHECK(rv_parts_check(set, 0, NULL) < 0, "no parts accepted");
            const uint64_t x = rng_below(&r, n); /* the part to replace */
            rv_part_t *keep = set[x];
            struct { rv_part_t **from; const char *why; } bad[] = {{b, "options"}, {c, "kind"}, {d, "input"}, {e, "N"}};
            for (size_t m = 0; n > 1 && m < sizeof bad / sizeof *bad; m++) { /* one part alone is a set */
                uint64_t sl, ns;
                rv_part_slice(keep, &sl, &ns);
                set[x] = bad[m].from[sl];
                CHECK(rv_parts_check(set, n, NULL) < 0 && rv_last_error()[0], "a part of another %s accepted",
                      bad[m].why);
            }
            set[x] = keep;
            if (n > 1) {
                CHECK(rv_parts_check(set, n - 1, NULL) < 0 && strstr(rv_last_error(), "missing"), "a slice missing: '%s'",
                      rv_last_error());
                set[n] = set[0];
                CHECK(rv_parts_check(set, n + 1, NULL) < 0 && strstr(rv_last_error(), "twice"), "a slice twice: '%s'",
                      rv_last_error());
                set[x == 0 ? 1 : 0] = set[x];
                CHECK(rv_parts_check(set, n, NULL) < 0, "a slice twice, one missing, accepted");
            }
        }
        for (int i = 0; i < 8; i++) {
            rv_part_close(a[i]), rv_part_close(b[i]), rv_part_close(c[i]);
            rv_part_close(d[i]), rv_part_close(e[i]);
        }
        for (int i = 0; i < 3; i++) free(cuts[i]);
        free(raw2);
        rv_seq_free(s);
        rv_seq_free(s2);
    }
    case_end("part_sets_checked");
}

int main(void)
{
    const char *base = getenv("RV_TMP");
    snprintf(tmpdir, sizeof tmpdir, "%s/t_part.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) { perror(tmpdir); return 1; }
    test_share();
    test_slice_jobs();
    test_round_trip();
    test_sets();
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
    return check_exit();
}
