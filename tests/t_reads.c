/* t_reads.c — the block reader of reads.c against htslib's kseq (the oracle, built
 * here with KSEQ_INIT over BGZF, as reads.c reads stdin, pipes and gzip files).
 *
 * Random inputs of several shapes: FASTA and FASTQ records, one-line and
 * multi-line, LF and CRLF line ends, names with comments (space, tab, CR, VT),
 * empty lines, empty sequences and quality strings, '>' '@' '+' inside quality and
 * at the start of sequence lines, truncated or too long quality, text before the
 * first header, a missing final newline, empty and header-only files, and plain
 * random bytes over the parser's special characters.  Each file is read through
 * blocks of 1-64 bytes (so block cuts fall at every offset of records, between CR
 * and LF) and through the default block; records (name, sequence, length), their
 * count and the error message must be what kseq gives.  So must rv_reads_batch's
 * batches (on 1, 2, 3 and 8 threads, of 1, 2, 7 or any number of records and 1-300
 * bytes, cut into chunks of a byte or more that start at likely or at arbitrary
 * header bytes, alone or mixed with rv_reads_next calls).  Then a gzip and a bgzip
 * copy go through rv_reads_open (the kseq path) and must agree too, in batches too. */
#include <htslib/bgzf.h>
#include <htslib/kseq.h>
#include <unistd.h>
#include "check.h"
#include "text_buf.h"
#include "repview/common.h"
#include "input/reads_internal.h"

KSEQ_INIT(BGZF *, bgzf_read)

static void put_eol(rng_t *r, buf_t *b, int crlf)
{
    puts_(b, crlf || rng_below(r, 20) == 0 ? "\r\n" : "\n");
}

/* One record: a header, sequence lines, and for FASTQ a '+' line and quality. */
static void put_record(rng_t *r, buf_t *b, int fastq, int crlf, const char *alpha)
{
    putc_(b, fastq ? '@' : '>');
    const size_t nl = rng_below(r, 8);
    for (size_t i = 0; i < nl; i++) putc_(b, pick(r, "abcXYZ019_.:|"));
    if (rng_below(r, 3) == 0) {  /* a comment */
        putc_(b, pick(r, " \t\v\f\r"));
        const size_t k = rng_below(r, 6);
        for (size_t i = 0; i < k; i++) putc_(b, pick(r, "ab =\t>@+\r"));
    }
    put_eol(r, b, crlf);
    const size_t lines = rng_below(r, 5) == 0 ? 0 : 1 + rng_below(r, 4);
    size_t seqlen = 0;
    for (size_t i = 0; i < lines; i++) {
        if (rng_below(r, 10) == 0) put_eol(r, b, crlf);  /* an empty line */
        const size_t w = rng_below(r, 14);
        for (size_t j = 0; j < w; j++) putc_(b, j == 0 && rng_below(r, 30) == 0 ? pick(r, ">@+") : pick(r, alpha));
        if (rng_below(r, 40) == 0) putc_(b, '\r');
        seqlen += w;
        put_eol(r, b, crlf);
    }
    if (!fastq) return;
    putc_(b, '+');
    if (rng_below(r, 4) == 0) puts_(b, "name x");
    put_eol(r, b, crlf);
    size_t q = seqlen;
    if (rng_below(r, 8) == 0) q = rng_below(r, seqlen + 3);  /* short or long quality */
    const size_t qlines = q && rng_below(r, 4) == 0 ? 2 : 1;
    for (size_t i = 0; i < qlines; i++) {
        const size_t w = i + 1 < qlines ? rng_below(r, q + 1) : q;
        for (size_t j = 0; j < w; j++) putc_(b, pick(r, "!#I5>@+~"));
        q -= w;
        if (rng_below(r, 40) == 0) putc_(b, '\r');
        put_eol(r, b, crlf);
    }
}

/* A random input of one of several shapes. */
static void make_input(rng_t *r, buf_t *b)
{
    b->len = 0;
    put(b, "", 0);
    const unsigned shape = (unsigned)rng_below(r, 10);
    if (shape == 0) {  /* random bytes over the special characters */
        const size_t n = rng_below(r, 120);
        for (size_t i = 0; i < n; i++) putc_(b, pick(r, "AC>@+\n\n\r \tI"));
        return;
    }
    static const char *alphas[] = {"ACGT", "ACGTN", "acgtnRY", "ARNDCQEGHILKMFPSTWYV", "A", "hello world."};
    const char *alpha = alphas[rng_below(r, 6)];
    const int fastq = shape <= 5 ? 1 : shape <= 8 ? 0 : (int)rng_below(r, 2);
    const int crlf = rng_below(r, 4) == 0;
    if (rng_below(r, 10) == 0) puts_(b, rng_below(r, 2) ? "junk line\n" : "\n\n");
    const size_t n = rng_below(r, 12);
    for (size_t i = 0; i < n; i++) put_record(r, b, shape == 9 ? (int)rng_below(r, 2) : fastq, crlf, alpha);
    if (b->len && rng_below(r, 5) == 0) b->len -= 1 + rng_below(r, b->len < 8 ? b->len : 8);  /* cut the end */
    b->s[b->len] = 0;
}

static void write_file(const char *path, const buf_t *b, const char *mode)
{
    if (strcmp(mode, "wu") == 0) {  /* stdio: htslib syncs the files it closes */
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b->s, 1, b->len, f) != b->len || fclose(f) != 0) CHECK(0, "cannot write %s", path);
        return;
    }
    BGZF *f = bgzf_open(path, mode);
    if (f) {
        if (b->len && bgzf_write(f, b->s, b->len) < 0) CHECK(0, "cannot write %s", path);
        if (bgzf_close(f) < 0) CHECK(0, "cannot close %s", path);
    }
}

/* kseq's reading of PATH: records as "name\tseq\n" lines, then the message
 * rv_reads_next gives (or "" at a clean end). */
static void oracle(const char *path, buf_t *out, char *msg, size_t msg_size)
{
    out->len = 0;
    put(out, "", 0);
    BGZF *f = bgzf_open(path, "r");
    kseq_t *ks = kseq_init(f);
    unsigned long long n = 0;
    int l;
    while ((l = kseq_read(ks)) >= 0) {
        puts_(out, ks->name.s);
        putc_(out, '\t');
        put(out, ks->seq.s, ks->seq.l);
        putc_(out, '\n');
        n++;
    }
    if (l == -1) snprintf(msg, msg_size, "%s", n ? "" : "no FASTA or FASTQ records");
    else snprintf(msg, msg_size, "record %llu: %s", n + 1,
                  l == -2 ? "quality and sequence lengths differ (truncated FASTQ?)"
                          : "truncated or corrupt input");
    kseq_destroy(ks);
    bgzf_close(f);
}

/* rv_reads' reading, in the same form; 0 or -1 when it could not open. */
static int ours(const char *path, size_t block, buf_t *out, char *msg, size_t msg_size)
{
    out->len = 0;
    put(out, "", 0);
    rv_reads_t *rd = block ? rv_reads_open_block(path, block) : rv_reads_open(path);
    if (!rd) return -1;
    const char *name, *seq;
    size_t len;
    int rc;
    while ((rc = rv_reads_next(rd, &name, &seq, &len)) > 0) {
        puts_(out, name);
        putc_(out, '\t');
        put(out, seq, len);
        putc_(out, '\n');
        if (strlen(seq) != len) rc = -2;  /* not NUL-terminated where it ends */
    }
    msg[0] = 0;
    if (rc == -2) snprintf(msg, msg_size, "bad termination");
    else if (rc < 0) {  /* drop the "path: " prefix */
        const char *e = rv_last_error(), *c = strstr(e, ": ");
        snprintf(msg, msg_size, "%s", c ? c + 2 : e);
    }
    rv_reads_close(rd);
    return 0;
}

/* Reading PATH with rv_reads_batch (or, when mix, batches and rv_reads_next calls
 * at random) in the same form as ours(): batches of at most `most` records and a
 * random 1-300 bytes, on `threads` threads, chunks as small as one byte starting at
 * likely headers or (at random) at any '>' or '@'.  Each batch is checked (at least
 * one record, at most `most`, name_len and len as strlen gives) and so is the
 * answer after the last one: another batch repeats it. */
static int ours_batch(rng_t *rg, const char *path, size_t most, int threads, int mix, buf_t *out, char *msg,
                      size_t msg_size)
{
    out->len = 0;
    put(out, "", 0);
    rv_reads_t *rd = mix ? rv_reads_open_block(path, 1 + rng_below(rg, 16)) : rv_reads_open(path);
    if (!rd) return -1;
    rv_reads_batch_test(rd, 1, (int)rng_below(rg, 2));
    rv_read_batch_t b = {0};
    int rc, bad = 0, by_next = 0;
    for (;;) {
        const char *name, *seq;
        size_t len;
        if (mix && rng_below(rg, 2)) {
            b.n = 0;
            by_next = 1;
            if ((rc = rv_reads_next(rd, &name, &seq, &len)) <= 0) break;
            puts_(out, name), putc_(out, '\t'), put(out, seq, len), putc_(out, '\n');
            continue;
        }
        by_next = 0;
        if ((rc = rv_reads_batch(rd, most, 1 + rng_below(rg, 300), threads, &b)) <= 0) break;
        bad |= b.n == 0 || b.n > most;
        for (size_t i = 0; i < b.n; i++) {
            puts_(out, b.name[i]), putc_(out, '\t'), put(out, b.seq[i], b.len[i]), putc_(out, '\n');
            bad |= strlen(b.name[i]) != b.name_len[i] || strlen(b.seq[i]) != b.len[i];
        }
    }
    bad |= b.n != 0;
    msg[0] = 0;
    if (rc < 0) {  /* drop the "path: " prefix */
        const char *e = rv_last_error(), *c = strstr(e, ": ");
        snprintf(msg, msg_size, "%s", c ? c + 2 : e);
    }
    char again[512];
    snprintf(again, sizeof again, "%s", rv_last_error());
    const int rc2 = rv_reads_batch(rd, most, 1 + rng_below(rg, 300), threads, &b);
    if (!by_next || strstr(path, "gz") == NULL)  /* kseq goes on after an error of rv_reads_next */
        bad |= rc2 != rc || b.n != 0 || (rc < 0 && strcmp(again, rv_last_error()) != 0);
    if (bad) snprintf(msg, msg_size, "bad batch");
    rv_read_batch_free(&b);
    rv_reads_close(rd);
    return 0;
}

/* ours_batch() gives what kseq gives (t_reads checks rv_reads_next against it). */
static int same_batch(rng_t *rg, const char *path, size_t most, int threads, int mix, const buf_t *want,
                      const char *want_msg, buf_t *got)
{
    char msg[512];
    if (ours_batch(rg, path, most, threads, mix, got, msg, sizeof msg) < 0) {
        CHECK(0, "open failed: %s", rv_last_error());
        return 0;
    }
    CHECK(got->len == want->len && memcmp(got->s, want->s, want->len) == 0,
          "batch most %zu threads %d mix %d: records differ:\nkseq:\n%s\nours:\n%s", most, threads, mix, want->s,
          got->s);
    CHECK(strcmp(msg, want_msg) == 0, "batch most %zu threads %d mix %d: message '%s', kseq '%s'", most, threads,
          mix, msg, want_msg);
    return !check_failed_;
}

static int same(const char *path, size_t block, const buf_t *want, const char *want_msg, buf_t *got)
{
    char msg[512];
    if (ours(path, block, got, msg, sizeof msg) < 0) {
        CHECK(0, "open failed: %s", rv_last_error());
        return 0;
    }
    CHECK(got->len == want->len && memcmp(got->s, want->s, want->len) == 0,
          "block %zu: records differ:\nkseq:\n%s\nours:\n%s", block, want->s, got->s);
    CHECK(strcmp(msg, want_msg) == 0, "block %zu: message '%s', kseq '%s'", block, msg, want_msg);
    return !check_failed_;
}

/* `t_reads --bench FILE [MOST [BYTES [THREADS]]]` (not a test): seconds to read FILE
 * with rv_reads_next (bare, then each record copied into an arena as the find
 * command's batches did), and with rv_reads_batch of at most MOST records (default
 * 2^20) and BYTES (default 256 MiB) on 1, 2 and all threads (or only on THREADS). */
static int bench(const char *path, size_t most, size_t bytes, int only)
{
    buf_t arena = {0};
    for (int way = -2; way <= 2; way++) {  /* -2 bare, -1 copied, then 1, 2, all threads */
        const int threads = way == 0 ? 1 : way == 1 ? 2 : way == 2 ? rv_default_threads() : 1;
        if ((way == 2 && threads <= 2) || (only && (way < 0 || threads != only))) continue;
        rv_reads_t *rd = rv_reads_open(path);
        if (!rd) { fprintf(stderr, "%s\n", rv_last_error()); return 1; }
        rv_read_batch_t b = {0};
        const char *name, *seq;
        size_t len, n = 0, sum = 0, batches = 0;
        int rc;
        const double t0 = rv_now();
        if (way < 0) {
            while ((rc = rv_reads_next(rd, &name, &seq, &len)) > 0) {
                if (way == -1) {
                    if (n % most == 0) arena.len = 0, batches++;
                    puts_(&arena, name), putc_(&arena, 0), put(&arena, seq, len), putc_(&arena, 0);
                }
                n++, sum += len;
            }
        } else {
            while ((rc = rv_reads_batch(rd, most, bytes, threads, &b)) > 0) {
                n += b.n, batches++;
                for (size_t i = 0; i < b.n; i++) sum += b.len[i];
            }
        }
        const double t = rv_now() - t0;
        if (rc < 0) { fprintf(stderr, "%s\n", rv_last_error()); return 1; }
        static const char *what[] = {"rv_reads_next, bare", "rv_reads_next + copy", "rv_reads_batch"};
        printf("%-22s threads %2d  %8.3f s  %zu records  %zu bases  %zu batches\n", what[way < 0 ? way + 2 : 2],
               threads, t, n, sum, batches);
        rv_read_batch_free(&b);
        rv_reads_close(rd);
    }
    free(arena.s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--bench") == 0)
        return bench(argv[2], argc > 3 ? (size_t)atoll(argv[3]) : 1u << 20, argc > 4 ? (size_t)atoll(argv[4]) : 256u << 20,
                     argc > 5 ? atoi(argv[5]) : 0);
    char dir[] = "/tmp/t_reads.XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char plain[64], gz[64], bgz[64];
    snprintf(plain, sizeof plain, "%s/in.fq", dir);
    snprintf(gz, sizeof gz, "%s/in.fq.gz", dir);
    snprintf(bgz, sizeof bgz, "%s/in.fq.bgz", dir);
    rng_t r = rng_new(20261124);
    buf_t in = {0}, want = {0}, got = {0};
    char want_msg[512];

    case_begin();  /* fixed files: empty, header only, one record each way */
    static const char *fixed[] = {"", "\n", ">", "@", ">a", ">a\n", "@r\nAC\n+\nII", "@r\nAC\n+",
                                  "@r\nAC\n+\nI\n", "@r\n+", "@r\n\n+\r", ">\n+\n", "@r\n\n+\n\n@s\nA\n+\nI\n", ">a b\r\nAC\r\nGT\r\n>b",
                                  "x\n>a\n\r\n\r\nA\r\r\n", "@a\nACGT\n+\nII\r\nII\r\n@b\n"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed && !check_failed_; i++) {
        in.len = 0;
        puts_(&in, fixed[i]);
        write_file(plain, &in, "wu");
        oracle(plain, &want, want_msg, sizeof want_msg);
        for (size_t block = 1; block <= 16 && same(plain, block, &want, want_msg, &got); block++) {}
        same(plain, 0, &want, want_msg, &got);
    }
    case_end("reads_fixed_files");

    case_begin();  /* random files, small blocks */
    const int iters = check_iters(4000);
    for (int it = 0; it < iters && !check_failed_; it++) {
        make_input(&r, &in);
        write_file(plain, &in, "wu");
        oracle(plain, &want, want_msg, sizeof want_msg);
        const size_t blocks[] = {1 + rng_below(&r, 8), 1 + rng_below(&r, 64), 0};
        for (size_t k = 0; k < 3; k++)
            if (!same(plain, blocks[k], &want, want_msg, &got)) {
                fprintf(stderr, "input %d:\n%s\n", it, in.s);
                break;
            }
    }
    case_end("reads_random_vs_kseq");

    case_begin();  /* batches in threads over tiny chunks: the same records and answer */
    static const size_t mosts[] = {1, 2, 7, SIZE_MAX};
    static const int threads[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed && !check_failed_; i++) {
        in.len = 0;
        puts_(&in, fixed[i]);
        write_file(plain, &in, "wu");
        oracle(plain, &want, want_msg, sizeof want_msg);
        for (size_t k = 0; k < 16 && same_batch(&r, plain, mosts[k % 4], threads[k / 4], 0, &want, want_msg, &got); k++) {}
    }
    for (int it = 0; it < check_iters(2000) && !check_failed_; it++) {
        make_input(&r, &in);
        write_file(plain, &in, "wu");
        oracle(plain, &want, want_msg, sizeof want_msg);
        for (int k = 0; k < 3; k++)
            if (!same_batch(&r, plain, mosts[rng_below(&r, 4)], threads[rng_below(&r, 4)], k == 2, &want, want_msg, &got)) {
                fprintf(stderr, "input %d:\n%s\n", it, in.s);
                break;
            }
    }
    case_end("reads_batch_vs_kseq");

    case_begin();  /* gzip and bgzip copies go through kseq and agree */
    for (int it = 0; it < check_iters(100) && !check_failed_; it++) {
        make_input(&r, &in);
        write_file(plain, &in, "wu");
        oracle(plain, &want, want_msg, sizeof want_msg);
        write_file(gz, &in, "wg");
        write_file(bgz, &in, "w");
        same(gz, 0, &want, want_msg, &got);
        same(bgz, 0, &want, want_msg, &got);
        same_batch(&r, gz, mosts[rng_below(&r, 4)], 2, 0, &want, want_msg, &got);
        same_batch(&r, bgz, mosts[rng_below(&r, 4)], 2, it % 2, &want, want_msg, &got);
    }
    case_end("reads_compressed_same");

    case_begin();  /* a file that cannot be opened */
    CHECK(rv_reads_open("/nonexistent/reads.fq") == NULL, "opened a missing file");
    CHECK(strstr(rv_last_error(), "cannot open") != NULL, "message '%s'", rv_last_error());
    case_end("reads_missing_file");

    unlink(plain), unlink(gz), unlink(bgz), rmdir(dir);
    free(in.s), free(want.s), free(got.s);
    return check_exit();
}
