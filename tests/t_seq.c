/* t_seq.c — the parallel reader (seq_read.c) against the serial, line-by-line
 * reader (seq_serial.c), and the chunked text encoding against the serial one.
 *
 * Inputs are random FASTA texts of several shapes: DNA with N runs and IUPAC codes,
 * lower case, protein, one letter, periodic; lines of random width with CR line
 * ends, blank lines, spaces and tabs inside sequence lines, empty records, headers
 * with descriptions, a last line without a newline, and bad files (a header without
 * a name, binary bytes, FASTQ, text before the first header).  Each is parsed with
 * chunks of a few bytes on 1-5 threads, so that chunk cuts fall everywhere: inside
 * records, on headers, between CR and LF.  Records, names, raw bytes, text,
 * segments and error messages must be identical.  Then whole files (plain, gzip,
 * bgzip, empty, FASTQ) go through rv_seq_load_threads with 1 and 4 threads.
 */
#include <htslib/bgzf.h>
#include <htslib/hts_log.h>
#include <unistd.h>
#include "check.h"
#include "text_buf.h"
#include "repview/common.h"
#include "repview/seq.h"
#include "input/seq_internal.h"

/* One symbol of a record of shape `shape`. */
static char symbol(rng_t *r, int shape, size_t i, const char *unit, size_t period)
{
    switch (shape) {
    case 0: return rng_below(r, 12) == 0 ? pick(r, "NNNRYKM") : pick(r, "ACGT");
    case 1: return pick(r, "acgtnACGT");
    case 2: return pick(r, "ACDEFGHIKLMNPQRSTVWYX*-");
    case 3: return 'A';
    default: return unit[i % period];
    }
}

static void end_line(rng_t *r, buf_t *b, int crlf)
{
    if (crlf) putc_(b, '\r');
    putc_(b, '\n');
    if (rng_below(r, 25) == 0) puts_(b, rng_below(r, 2) ? "\n" : "\r\n"); /* blank line */
}

/* A random FASTA text; `bad` != 0 plants one defect of that kind. */
static buf_t random_fasta(rng_t *r, int bad)
{
    buf_t b = {0};
    int shape = (int)rng_below(r, 5), crlf = rng_below(r, 3) == 0;
    char unit[8];
    size_t period = 1 + rng_below(r, 6);
    for (size_t i = 0; i < period; i++) unit[i] = pick(r, "ACGT");
    int n_rec = 1 + (int)rng_below(r, 6);
    int bad_rec = (int)rng_below(r, (uint64_t)n_rec);
    if (rng_below(r, 4) == 0) end_line(r, &b, crlf); /* leading blank lines */
    for (int k = 0; k < n_rec; k++) {
        char head[64];
        if (bad == 1 && k == bad_rec) snprintf(head, sizeof head, ">%s", rng_below(r, 2) ? "" : " desc");
        else snprintf(head, sizeof head, ">rec%d%s", k, rng_below(r, 2) ? " some description\there" : "");
        puts_(&b, head);
        end_line(r, &b, crlf);
        size_t len = rng_below(r, 5) == 0 ? 0 : rng_below(r, 300);
        size_t width = 1 + rng_below(r, 80), col = 0;
        for (size_t i = 0; i < len; i++) {
            putc_(&b, symbol(r, shape, i, unit, period));
            if (rng_below(r, 60) == 0) putc_(&b, rng_below(r, 2) ? ' ' : '\t');
            if (bad == 2 && k == bad_rec && i == len / 2) putc_(&b, rng_below(r, 2) ? '\001' : (char)0xc3);
            if (++col == width && i + 1 < len) { end_line(r, &b, crlf); col = 0; }
        }
        if (bad == 2 && k == bad_rec && len == 0) putc_(&b, '\002');
        if (k + 1 < n_rec || rng_below(r, 3)) end_line(r, &b, crlf);
    }
    if (bad == 3) { /* text before the first header */
        buf_t c = {0};
        puts_(&c, "ACGT\n");
        put(&c, b.s, b.len);
        free(b.s);
        b = c;
    }
    return b;
}

static char *err_copy(void) { return strdup(rv_last_error()); }

/* Parse with the serial reader; returns the sequence (NULL + *err on failure). */
static rv_seq_t *parse_with(const buf_t *b, int threads, uint64_t chunk, char **err)
{
    rv_seq_t *s = calloc(1, sizeof *s);
    s->path = strdup("mem");
    int rc = threads ? rv_seq_parse_buffer(s, b->s, b->len, "mem", threads, chunk)
                     : rv_seq_parse_serial(s, b->s, b->len, "mem");
    *err = rc ? err_copy() : NULL;
    if (rc) { rv_seq_free(s); return NULL; }
    return s;
}

/* 1 when records, raw, and (if encoded) text and segments agree. */
static int same_seq(const rv_seq_t *a, const rv_seq_t *b, int encoded, char *why, size_t wl)
{
    if (a->n_rec != b->n_rec) return snprintf(why, wl, "records %llu vs %llu", (unsigned long long)a->n_rec, (unsigned long long)b->n_rec), 0;
    for (uint64_t i = 0; i < a->n_rec; i++)
        if (strcmp(a->rec[i].name, b->rec[i].name) || a->rec[i].off != b->rec[i].off || a->rec[i].len != b->rec[i].len)
            return snprintf(why, wl, "record %llu differs", (unsigned long long)i), 0;
    if (a->glen != b->glen || memcmp(a->raw, b->raw, a->glen)) return snprintf(why, wl, "raw bytes differ"), 0;
    if (!encoded) return 1;
    if (a->alpha != b->alpha || a->sigma != b->sigma) return snprintf(why, wl, "alphabet differs"), 0;
    if (a->n != b->n || memcmp(a->text, b->text, a->n)) return snprintf(why, wl, "text differs (n %llu vs %llu)", (unsigned long long)a->n, (unsigned long long)b->n), 0;
    if (a->n_seg != b->n_seg) return snprintf(why, wl, "segments %llu vs %llu", (unsigned long long)a->n_seg, (unsigned long long)b->n_seg), 0;
    for (uint64_t i = 0; i < a->n_seg; i++)
        if (a->seg[i].tpos != b->seg[i].tpos || a->seg[i].gpos != b->seg[i].gpos || a->seg[i].len != b->seg[i].len)
            return snprintf(why, wl, "segment %llu differs", (unsigned long long)i), 0;
    return 1;
}

static void case_parse_random(void)
{
    case_begin();
    rng_t r = rng_new(11);
    int iters = check_iters(3000), compared = 0, errors = 0;
    for (int it = 0; it < iters && !check_failed_; it++) {
        int bad = rng_below(&r, 5) == 0 ? 1 + (int)rng_below(&r, 3) : 0;
        buf_t b = random_fasta(&r, bad);
        char *e_ref, *e_par;
        rv_seq_t *ref = parse_with(&b, 0, 0, &e_ref);
        int threads = 1 + (int)rng_below(&r, 5);
        uint64_t chunk = 1 + rng_below(&r, 64);
        rv_seq_t *par = parse_with(&b, threads == 1 ? 2 : threads, chunk, &e_par);
        char why[200] = "";
        CHECK(!ref == !par, "it %d: serial %s, parallel %s", it, e_ref ? e_ref : "ok", e_par ? e_par : "ok");
        if (ref && par) CHECK(same_seq(ref, par, 0, why, sizeof why), "it %d (chunk %llu): %s", it, (unsigned long long)chunk, why);
        if (!ref && !par) {
            CHECK(strcmp(e_ref, e_par) == 0, "it %d: messages differ: '%s' vs '%s'", it, e_ref, e_par);
            errors++;
        }
        if (ref && par) compared++;
        CHECK(bad == 0 || !ref, "it %d: defect %d not found", it, bad);
        rv_seq_free(ref);
        rv_seq_free(par);
        free(e_ref);
        free(e_par);
        free(b.s);
    }
    CHECK(compared > iters / 2 && errors > iters / 20, "too few cases: %d compared, %d errors", compared, errors);
    case_end("parse_parallel_vs_serial");
}

static void case_encode_random(void)
{
    case_begin();
    rng_t r = rng_new(12);
    int iters = check_iters(3000);
    for (int it = 0; it < iters && !check_failed_; it++) {
        buf_t b = random_fasta(&r, 0);
        char *e;
        rv_seq_t *a = parse_with(&b, 0, 0, &e), *c = parse_with(&b, 0, 0, &e);
        CHECK(a && c, "it %d: parse failed", it);
        if (!a || !c) break;
        rv_alpha_t alpha = (rv_alpha_t)rng_below(&r, 4);
        int threads = 2 + (int)rng_below(&r, 4);
        uint64_t chunk = 1 + rng_below(&r, 40);
        CHECK(rv_seq_encode_serial(a, alpha) == 0 && rv_seq_encode_threads(c, alpha, threads, chunk) == 0,
              "it %d: encode failed", it);
        char why[200] = "";
        CHECK(same_seq(a, c, 1, why, sizeof why), "it %d (alpha %d, chunk %llu): %s", it, (int)alpha, (unsigned long long)chunk, why);
        /* the text never starts or ends with a breaker, and breakers never touch */
        for (uint64_t i = 0; i < c->n; i++)
            CHECK(c->text[i] != RV_BREAK || (i > 0 && i + 1 < c->n && c->text[i + 1] != RV_BREAK), "it %d: breaker at %llu", it, (unsigned long long)i);
        rv_seq_free(a);
        rv_seq_free(c);
        free(b.s);
    }
    case_end("encode_chunked_vs_serial");
}

/* ---- whole files through rv_seq_load_threads ------------------------------------------ */

static int write_file(const char *path, const buf_t *b, const char *mode)
{
    if (!mode) {
        FILE *f = fopen(path, "wb");
        if (!f) return -1;
        fwrite(b->s, 1, b->len, f);
        return fclose(f);
    }
    BGZF *z = bgzf_open(path, mode);
    if (!z) return -1;
    if (bgzf_write(z, b->s, b->len) < 0) { bgzf_close(z); return -1; }
    return bgzf_close(z);
}

static void case_files(void)
{
    case_begin();
    char dir[] = "/tmp/t_seq.XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    rng_t r = rng_new(13);
    const char *modes[3] = {NULL, "wg", "w"}; /* plain, gzip, bgzip */
    const char *kinds[3] = {"plain", "gzip", "bgzip"};
    char path[64];
    for (int it = 0; it < check_iters(60) && !check_failed_; it++) {
        /* big enough that several 4 MiB chunks exist now and then */
        buf_t b = {0};
        int reps = it % 10 == 0 ? 40000 : 1 + (int)rng_below(&r, 50);
        for (int k = 0; k < reps; k++) {
            buf_t one = random_fasta(&r, 0);
            char *h = strchr(one.s, '>');
            if (h) h[1] = (char)('a' + k % 26); /* keep names distinct enough */
            put(&b, one.s, one.len);
            if (b.len && b.s[b.len - 1] != '\n') putc_(&b, '\n');
            free(one.s);
        }
        int m = it % 3;
        snprintf(path, sizeof path, "%s/in.fa", dir);
        CHECK(write_file(path, &b, modes[m]) == 0, "write %s", kinds[m]);
        rv_seq_t *a = rv_seq_load_threads(path, RV_ALPHA_AUTO, 1);
        rv_seq_t *c = rv_seq_load_threads(path, RV_ALPHA_AUTO, 4);
        char why[200] = "";
        CHECK(a && c, "%s: load failed: %s", kinds[m], rv_last_error());
        if (a && c) CHECK(same_seq(a, c, 1, why, sizeof why), "%s (%zu bytes): %s", kinds[m], b.len, why);
        if (a && c) CHECK(a->src_size == c->src_size && a->src_mtime_ns == c->src_mtime_ns &&
                             a->src_ctime_ns == c->src_ctime_ns && a->src_ino == c->src_ino && a->src_ino, "fingerprint differs");
        rv_seq_free(a);
        rv_seq_free(c);
        free(b.s);
    }
    /* FASTQ, empty, only blank lines, truncated gzip: same answer or same message */
    const char *texts[] = {"@r1\nACGT\n+\nIIII\n@r2\nGG\n+r2\nII\n", "", "\n\n\r\n", "ACGT\n", ">\nACGT\n", ">a\nAC\001GT\n"};
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        buf_t b = {0};
        put(&b, texts[k], strlen(texts[k]));
        for (int m = 0; m < 3; m++) {
            snprintf(path, sizeof path, "%s/odd.fa", dir);
            write_file(path, &b, modes[m]);
            rv_seq_t *a = rv_seq_load_threads(path, RV_ALPHA_AUTO, 1);
            char *ea = err_copy();
            rv_seq_t *c = rv_seq_load_threads(path, RV_ALPHA_AUTO, 4);
            char *ec = err_copy();
            char why[200] = "";
            CHECK(!a == !c, "text %zu %s: serial %s, parallel %s", k, kinds[m], a ? "ok" : ea, c ? "ok" : ec);
            if (a && c) CHECK(same_seq(a, c, 1, why, sizeof why), "text %zu %s: %s", k, kinds[m], why);
            if (!a && !c) CHECK(strcmp(ea, ec) == 0, "text %zu %s: '%s' vs '%s'", k, kinds[m], ea, ec);
            rv_seq_free(a);
            rv_seq_free(c);
            free(ea);
            free(ec);
        }
        free(b.s);
    }
    /* a truncated bgzip file is reported by both readers */
    buf_t b = random_fasta(&r, 0);
    for (int k = 0; k < 2000; k++) puts_(&b, "ACGTTGCAACGGTACCATGA\n");
    snprintf(path, sizeof path, "%s/cut.fa.gz", dir);
    write_file(path, &b, "w");
    FILE *f = fopen(path, "r+b");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    CHECK(ftruncate(fileno(f), size / 2) == 0, "truncate");
    fclose(f);
    hts_set_log_level(HTS_LOG_OFF);
    char first[300] = "";
    for (int t = 1; t <= 4; t += 3) { /* the same message, naming the last good line */
        rv_seq_t *a = rv_seq_load_threads(path, RV_ALPHA_AUTO, t);
        CHECK(!a && strstr(rv_last_error(), "truncated or corrupt"), "threads %d: truncated file: %s", t, a ? "loaded" : rv_last_error());
        if (t == 1) snprintf(first, sizeof first, "%s", rv_last_error());
        else CHECK(strcmp(first, rv_last_error()) == 0, "messages differ: '%s' vs '%s'", first, rv_last_error());
        rv_seq_free(a);
    }
    free(b.s);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    CHECK(system(path) == 0, "cleanup");
    case_end("load_files_threads_1_vs_4");
}

/* rv_seq_load_placed (the text of the MPI ranks of a host, encoded into their
 * window): the same sequence as rv_seq_load_threads, its text in the placer's
 * buffer and not past its room, both strands grown there; the placer called at
 * most once and never by the serial reader; a placer that fails fails the load. */
typedef struct {
    int calls, strands, fail;
    uint64_t asked, room;
    uint8_t *buf;
} placer_t;

enum { CANARY = 64 };

static uint8_t *placer(void *ud, uint64_t n, uint64_t *room)
{
    placer_t *p = ud;
    p->calls++;
    p->asked = n;
    if (p->fail) return rv_error("placer", "no room"), NULL;
    p->room = p->strands && n ? 2 * n + 1 : n ? n : 1;
    p->buf = malloc(p->room + CANARY);
    if (!p->buf) return NULL;
    memset(p->buf, 0xA5, p->room + CANARY);
    *room = p->room;
    return p->buf;
}

/* DNA of path placed with room for both strands or for one: both strands equal
 * rv_seq_add_reverse of the unplaced load, in the placed buffer exactly when it has
 * the room, and nothing written past the room. */
static void both_strands_placed(const char *path, int room_both)
{
    rv_seq_t *ref = rv_seq_load_threads(path, RV_ALPHA_AUTO, 4);
    placer_t pl = {0, room_both, 0, 0, 0, NULL};
    rv_seq_t *s = rv_seq_load_placed(path, RV_ALPHA_AUTO, 4, placer, &pl);
    CHECK(ref && s && ref->alpha == RV_ALPHA_DNA && pl.calls == 1 && s->text_room == pl.room,
          "DNA placed (room for %s): %s", room_both ? "both" : "one", rv_last_error());
    if (ref && s && pl.calls == 1) {
        CHECK(rv_seq_add_reverse(ref, 2) == 0 && rv_seq_add_reverse(s, 2) == 0, "both strands: %s", rv_last_error());
        int in_buf = s->text == pl.buf;
        CHECK(ref->n == s->n && memcmp(ref->text, s->text, ref->n) == 0 && in_buf == room_both &&
                  (room_both ? s->n == pl.room : s->owned_text && s->text_room == 0),
              "both strands (room for %s): n %llu vs %llu, %s the placed buffer", room_both ? "both" : "one",
              (unsigned long long)ref->n, (unsigned long long)s->n, in_buf ? "in" : "not in");
        for (int k = 0; k < CANARY; k++) CHECK(pl.buf[pl.room + k] == 0xA5, "both strands written past the room");
    }
    rv_seq_free(ref);
    rv_seq_free(s);
    free(pl.buf);
}

static void case_placed(void)
{
    case_begin();
    char dir[] = "/tmp/t_seq.XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    rng_t r = rng_new(17);
    const char *modes[3] = {NULL, "wg", "w"};
    char path[64];
    int placed = 0, serial = 0;
    for (int it = 0; it < check_iters(24) && !check_failed_; it++) {
        buf_t b = {0};
        int reps = it % 4 == 0 ? 40000 : 1 + (int)rng_below(&r, 30);
        for (int k = 0; k < reps; k++) {
            buf_t one = random_fasta(&r, 0);
            put(&b, one.s, one.len);
            if (b.len && b.s[b.len - 1] != '\n') putc_(&b, '\n');
            free(one.s);
        }
        snprintf(path, sizeof path, "%s/in.fa", dir);
        CHECK(write_file(path, &b, modes[it % 3]) == 0, "write");
        int threads = it % 6 == 5 ? 1 : 4;
        rv_seq_t *ref = rv_seq_load_threads(path, RV_ALPHA_AUTO, 4);
        placer_t pl = {0, it % 8 == 0 || it % 2 == 1, 0, 0, 0, NULL};
        rv_seq_t *s = rv_seq_load_placed(path, RV_ALPHA_AUTO, threads, placer, &pl);
        char why[200] = "";
        CHECK(!ref == !s, "iteration %d: %s", it, rv_last_error());
        if (ref && s) {
            CHECK(same_seq(ref, s, 1, why, sizeof why), "iteration %d (%zu bytes): %s", it, b.len, why);
            CHECK(pl.calls <= 1, "placer called %d times", pl.calls);
            if (threads == 1) CHECK(pl.calls == 0, "the serial reader placed the text");
            if (pl.calls) {
                placed++;
                CHECK(pl.asked == ref->n && s->text == pl.buf && !s->owned_text && s->text_room == pl.room,
                      "iteration %d: asked %llu for n %llu, text %s the placer's, room %llu", it,
                      (unsigned long long)pl.asked, (unsigned long long)ref->n, s->text == pl.buf ? "is" : "is not",
                      (unsigned long long)s->text_room);
            } else {
                serial++;
                CHECK(s->owned_text && s->text_room == 0, "a text not placed is owned");
            }
            if (pl.strands && ref->alpha == RV_ALPHA_DNA) {
                CHECK(rv_seq_add_reverse(ref, 2) == 0 && rv_seq_add_reverse(s, 2) == 0, "both strands: %s", rv_last_error());
                CHECK(ref->n == s->n && memcmp(ref->text, s->text, ref->n) == 0, "both strands differ");
                if (pl.calls) CHECK(s->text == pl.buf, "both strands left the placed buffer");
            }
            for (int k = 0; pl.buf && k < CANARY; k++) CHECK(pl.buf[pl.room + k] == 0xA5, "written past the room");
        }
        rv_seq_free(ref);
        rv_seq_free(s); /* leaves the placed text: freed here (a double free otherwise) */
        free(pl.buf);
        free(b.s);
    }
    CHECK(placed > 0 && serial > 0, "placed %d, serial %d: both paths must run", placed, serial);
    /* DNA past the serial reader's size: both strands grow in the placed buffer */
    buf_t b = {0};
    for (int k = 0; k < 300000; k++) {
        if (k % 1000 == 0) puts_(&b, ">r\n");
        for (int i = 0; i < 20; i++) putc_(&b, pick(&r, k % 7 ? "ACGT" : "ACGTN"));
        putc_(&b, '\n');
    }
    snprintf(path, sizeof path, "%s/big.fa", dir);
    write_file(path, &b, NULL);
    both_strands_placed(path, 1); /* in the placed buffer */
    both_strands_placed(path, 0); /* room for one strand only: in a buffer of their own */
    /* a placer without room fails the load with its message */
    placer_t pl = {0, 0, 1, 0, 0, NULL};
    rv_seq_t *s = rv_seq_load_placed(path, RV_ALPHA_AUTO, 4, placer, &pl);
    CHECK(!s && pl.calls == 1 && strstr(rv_last_error(), "no room"), "a failing placer: %s",
          s ? "loaded" : rv_last_error());
    rv_seq_free(s);
    free(b.s);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    CHECK(system(path) == 0, "cleanup");
    case_end("load_placed_vs_threads");
}

/* rv_seq_pack / rv_seq_unpack (the records MPI ranks of a host receive): every
 * field but raw survives, lookups by name work, damage is refused. */
static void case_pack_random(void)
{
    case_begin();
    rng_t r = rng_new(13);
    int iters = check_iters(500);
    for (int it = 0; it < iters && !check_failed_; it++) {
        buf_t b = random_fasta(&r, 0);
        char *e;
        rv_seq_t *a = parse_with(&b, 0, 0, &e);
        CHECK(a, "it %d: parse failed", it);
        if (!a) break;
        CHECK(rv_seq_encode_serial(a, (rv_alpha_t)rng_below(&r, 4)) == 0, "it %d: encode", it);
        if (rng_below(&r, 3) == 0) a->warning = strdup("a warning");
        a->src_size = rng_next(&r), a->src_mtime_ns = (int64_t)rng_below(&r, 1000000), a->src_ino = 77;
        void *pk = NULL;
        uint64_t bytes = 0;
        CHECK(rv_seq_pack(a, &pk, &bytes) == 0, "it %d: pack: %s", it, rv_last_error());
        rv_seq_t *c = pk ? rv_seq_unpack(pk, bytes, a->text, a->n) : NULL;
        CHECK(c, "it %d: unpack: %s", it, rv_last_error());
        if (c) {
            char why[200] = "";
            c->raw = a->raw; /* not sent: the ranks share the text only */
            CHECK(same_seq(a, c, 1, why, sizeof why), "it %d: %s", it, why);
            CHECK(c->raw == a->raw && c->src_size == a->src_size && c->src_mtime_ns == a->src_mtime_ns &&
                  c->src_ino == 77 && c->strands == a->strands &&
                  !strcmp(c->warning ? c->warning : "-", a->warning ? a->warning : "-"),
                  "it %d: fingerprint or warning lost", it);
            for (uint64_t i = 0; i < c->n_rec && !check_failed_; i++)
            {
                int64_t j = rv_seq_record_by_name(c, c->rec[i].name); /* the first of that name */
                CHECK(j >= 0 && (uint64_t)j <= i && !strcmp(c->rec[j].name, c->rec[i].name),
                      "it %d: record %llu not found by name", it, (unsigned long long)i);
            }
            c->raw = NULL;
            rv_seq_free(c);
            /* truncated or foreign buffers */
            uint64_t cut = rng_below(&r, bytes);
            rv_seq_t *d = rv_seq_unpack(pk, cut, a->text, a->n);
            CHECK(!d && rv_last_error()[0], "it %d: a pack cut at %llu of %llu accepted", it,
                  (unsigned long long)cut, (unsigned long long)bytes);
            rv_seq_free(d);
            /* a text shorter than the pack says; lengths forged to wrap their sum */
            d = a->n ? rv_seq_unpack(pk, bytes, a->text, a->n - 1) : NULL;
            CHECK(!d, "it %d: a text shorter than n accepted", it);
            rv_seq_free(d);
            uint64_t forged[2] = {~0ull - (1ull << 40) + 1, (1ull << 40) + 1}, keep[2];
            memcpy(keep, (char *)pk + 13 * 8, sizeof keep); /* names_bytes, path_bytes */
            memcpy((char *)pk + 13 * 8, forged, sizeof forged);
            d = rv_seq_unpack(pk, bytes, a->text, a->n);
            CHECK(!d, "it %d: forged lengths accepted", it);
            rv_seq_free(d);
            memcpy((char *)pk + 13 * 8, keep, sizeof keep);
            ((unsigned char *)pk)[0] ^= 0x55;
            d = rv_seq_unpack(pk, bytes, a->text, a->n);
            CHECK(!d, "it %d: a damaged pack accepted", it);
            rv_seq_free(d);
        }
        free(pk);
        rv_seq_free(a);
        free(b.s);
    }
    case_end("pack_unpack");
}

int main(void)
{
    case_pack_random();
    case_parse_random();
    case_encode_random();
    case_files();
    case_placed();
    return check_exit();
}
