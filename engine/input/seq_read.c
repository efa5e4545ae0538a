/* seq_read.c — the parallel reader: a plain file mapped, or a compressed one
 * inflated (bgzip by htslib's thread pool), then FASTA counted and copied in
 * chunks cut at line ends, and the text encoded in chunks of global positions.
 *
 * Both passes are two-phase: every chunk first counts what it will produce
 * (lines, headers, kept bytes; symbols and segment starts), a prefix sum gives
 * each chunk its place, and a second pass writes there.  The serial reader in
 * seq_serial.c is the reference; t_seq compares the two on inputs cut into tiny chunks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <htslib/bgzf.h>
#include "base/internal.h"
#include "repview/common.h"
#include "seq_internal.h"

enum { MIN_CHUNK = 4 << 20, CHUNKS_PER_THREAD = 8 };

/* ---- FASTA in chunks ------------------------------------------------------------ */

enum { ERR_NONE = 0, ERR_NO_NAME, ERR_BINARY };

typedef struct {
    uint64_t lines, headers, bytes; /* counted in pass 1 */
    uint64_t err_line;              /* 1-based line within the chunk of the first error */
    int err;
} fa_chunk_t;

typedef struct {
    const char *buf;
    const uint64_t *cut; /* chunk c is buf[cut[c], cut[c+1]) */
    fa_chunk_t *ck;
    uint64_t *out_at, *rec_at; /* per chunk: first output byte, first record */
    char *out;
    rv_record_t *rec;
    uint8_t cls[256]; /* 0 keep, 1 drop (CR, blank, tab), 2 binary */
    int pass, oom;
} fa_job_t;

/* Length of a line once its trailing CRs are gone. */
static size_t strip_cr(const char *p, size_t l)
{
    while (l && p[l - 1] == '\r') l--;
    return l;
}

/* Bytes of a sequence line that are kept: printable and not blank (33..126); a
 * plain loop of compares that the compiler turns into vector code. */
static uint64_t count_kept(const unsigned char *p, size_t l)
{
    uint64_t kept = 0;
    size_t i = 0;
    for (; i + 32 <= l; i += 32) {
        unsigned k = 0;
        for (size_t b = 0; b < 32; b++) k += (unsigned char)(p[i + b] - 33) < 94;
        kept += k;
    }
    for (; i < l; i++) kept += (unsigned char)(p[i] - 33) < 94;
    return kept;
}

static int has_binary(const fa_job_t *j, const char *p, size_t l)
{
    for (size_t i = 0; i < l; i++)
        if (j->cls[(unsigned char)p[i]] == 2) return 1;
    return 0;
}

static void fa_count(fa_job_t *j, fa_chunk_t *k, const char *p, const char *end)
{
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e) e = end;
        size_t full = (size_t)(e - p), l = strip_cr(p, full);
        k->lines++;
        if (l == 0) {
        } else if (p[0] == '>') {
            k->headers++;
            if (!k->err && rv_seq_name_len(p + 1, full - 1) == 0) k->err = ERR_NO_NAME, k->err_line = k->lines;
        } else {
            uint64_t kept = count_kept((const unsigned char *)p, l);
            k->bytes += kept;
            if (kept < l && !k->err && has_binary(j, p, l)) k->err = ERR_BINARY, k->err_line = k->lines;
        }
        p = e + 1;
    }
}

static void fa_write(fa_job_t *j, int c, const char *p, const char *end)
{
    char *o = j->out + j->out_at[c];
    rv_record_t *r = j->rec + j->rec_at[c];
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e) e = end;
        size_t full = (size_t)(e - p), l = strip_cr(p, full);
        if (l == 0) {
        } else if (p[0] == '>') {
            size_t nl = rv_seq_name_len(p + 1, full - 1);
            r->name = strndup(p + 1, nl);
            if (!r->name) j->oom = 1;
            r->off = (uint64_t)(o - j->out);
            r++;
        } else {
            for (size_t i = 0; i < l; i++) /* never past this chunk's own bytes */
                if (j->cls[(unsigned char)p[i]] == 0) *o++ = p[i];
        }
        p = e + 1;
    }
}

static void fa_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    fa_job_t *j = ctx;
    for (uint64_t c = lo; c < hi; c++) {
        const char *p = j->buf + j->cut[c], *end = j->buf + j->cut[c + 1];
        if (j->pass == 1) fa_count(j, &j->ck[c], p, end);
        else fa_write(j, (int)c, p, end);
    }
}

/* Cut buf into about `want` chunks, each ending just after a newline (or at len). */
static uint64_t cut_lines(const char *buf, uint64_t len, uint64_t want, uint64_t *cut)
{
    uint64_t n = 0;
    cut[0] = 0;
    for (uint64_t c = 1; c < want; c++) {
        uint64_t at = len / want * c;
        if (at <= cut[n]) continue;
        const char *e = memchr(buf + at, '\n', (size_t)(len - at));
        if (!e) break;
        at = (uint64_t)(e - buf) + 1;
        if (at >= len) break;
        if (at > cut[n]) cut[++n] = at;
    }
    cut[++n] = len;
    return n;
}

static int is_fasta(const char *buf, uint64_t len)
{
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e) e = end;
        if (strip_cr(p, (size_t)(e - p))) return p[0] == '>';
        p = e + 1;
    }
    return 0;
}

static int fa_report(const fa_job_t *j, uint64_t nch, const char *ctx)
{
    uint64_t line = 0;
    for (uint64_t c = 0; c < nch; c++) {
        const fa_chunk_t *k = &j->ck[c];
        if (k->err == ERR_NO_NAME)
            return rv_error(ctx, "line %llu: record without a name", (unsigned long long)(line + k->err_line));
        if (k->err == ERR_BINARY)
            return rv_error(ctx, "line %llu: binary data, not FASTA or FASTQ", (unsigned long long)(line + k->err_line));
        line += k->lines;
    }
    return 0;
}

int rv_seq_parse_buffer(rv_seq_t *s, const char *buf, uint64_t len, const char *ctx,
                        int threads, uint64_t chunk)
{
    if (threads <= 0) threads = rv_default_threads();
    if (chunk == 0) chunk = MIN_CHUNK;
    if (threads == 1 || !is_fasta(buf, len)) return rv_seq_parse_serial(s, buf, len, ctx);

    uint64_t want = len / chunk;
    if (want > (uint64_t)threads * CHUNKS_PER_THREAD) want = (uint64_t)threads * CHUNKS_PER_THREAD;
    if (want < 1) want = 1;
    fa_job_t j = {.buf = buf};
    uint64_t *cut = malloc((want + 1) * sizeof *cut);
    j.ck = calloc(want, sizeof *j.ck);
    j.out_at = malloc(want * sizeof *j.out_at);
    j.rec_at = malloc(want * sizeof *j.rec_at);
    int rc = 0;
    if (!cut || !j.ck || !j.out_at || !j.rec_at) { rc = rv_oom("reader's chunks", want * (sizeof *cut + sizeof *j.ck + sizeof *j.out_at + sizeof *j.rec_at)); goto out; }
    uint64_t nch = cut_lines(buf, len, want, cut);
    j.cut = cut;
    for (int c = 0; c < 256; c++)
        j.cls[c] = c == '\r' || c == ' ' || c == '\t' ? 1 : c < 32 || c >= 127 ? 2 : 0;

    double t = rv_now();
    j.pass = 1;
    rv_parallel_dynamic(threads, nch, 1, fa_range, &j);
    rv_trace("read.count", &t);
    if ((rc = fa_report(&j, nch, ctx)) < 0) goto out;
    uint64_t bytes = 0, recs = 0;
    for (uint64_t c = 0; c < nch; c++) {
        j.out_at[c] = bytes;
        j.rec_at[c] = recs;
        bytes += j.ck[c].bytes;
        recs += j.ck[c].headers;
    }
    j.out = rv_big_alloc(bytes + 1);
    j.rec = calloc(recs, sizeof *j.rec);
    if (!j.out || !j.rec) { free(j.out); free(j.rec); rc = rv_oom("sequence", bytes + 1 + recs * sizeof *j.rec); goto out; }
    j.pass = 2;
    rv_parallel_dynamic(threads, nch, 1, fa_range, &j);
    rv_trace("read.copy", &t);
    for (uint64_t r = 0; r < recs; r++) j.rec[r].len = (r + 1 < recs ? j.rec[r + 1].off : bytes) - j.rec[r].off;
    s->rec = j.rec;
    s->n_rec = recs;
    s->owned_raw = j.out;
    s->raw = j.out;
    s->glen = bytes;
    if (j.oom) rc = rv_oom("record names", 4096);
out:
    free(cut);
    free(j.ck);
    free(j.out_at);
    free(j.rec_at);
    return rc;
}

/* ---- encoding in chunks ---------------------------------------------------------- */

/* Every segment start writes a breaker before it, the first one included, at
 * "virtual" position v; the text position is v - 1, so that first breaker falls
 * off the front (repview(1): no breaker at the ends). */
typedef struct {
    const rv_seq_t *s;
    uint64_t chunk, nch;
    uint64_t *syms, *starts; /* per chunk: virtual positions and segments produced */
    uint8_t *t;
    rv_segment_t *seg;
    uint8_t code[256];
    int pass;
} enc_job_t;

/* First record whose offset is >= g. */
static uint64_t first_rec_at(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_rec;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->rec[mid].off < g) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static void enc_chunk(enc_job_t *j, uint64_t c)
{
    const rv_seq_t *s = j->s;
    const unsigned char *raw = (const unsigned char *)s->raw;
    uint64_t a = c * j->chunk, b = a + j->chunk < s->glen ? a + j->chunk : s->glen;
    uint64_t r = first_rec_at(s, a);
    uint64_t next_start = r < s->n_rec ? s->rec[r].off : UINT64_MAX;
    int prev_break = a == 0 || j->code[raw[a - 1]] == RV_BREAK;
    uint64_t v = 0, k = 0;
    uint8_t *t = NULL;
    rv_segment_t *seg = NULL;
    if (j->pass == 2) {
        v = j->syms[c];
        t = j->t - 1; /* t[v] is text position v - 1 */
        seg = j->seg + j->starts[c];
    }
    for (uint64_t g = a; g < b; g++) {
        uint8_t x = j->code[raw[g]];
        int rec_start = 0;
        if (g == next_start) {
            rec_start = 1;
            while (r < s->n_rec && s->rec[r].off <= g) r++;
            next_start = r < s->n_rec ? s->rec[r].off : UINT64_MAX;
        }
        if (x == RV_BREAK) { prev_break = 1; continue; }
        if (prev_break || rec_start) {
            if (t) {
                if (v) t[v] = RV_BREAK;
                seg[k] = (rv_segment_t){v, g, 0}; /* its first symbol: virtual v + 1 */
            }
            v++;
            k++;
        }
        if (t) t[v] = x;
        v++;
        prev_break = 0;
    }
    if (!t) {
        j->syms[c] = v;
        j->starts[c] = k;
    }
}

static void enc_range(void *ctx, uint64_t lo, uint64_t hi, int tid)
{
    for (uint64_t c = lo; c < hi; c++) enc_chunk(ctx, c);
}

int rv_seq_encodes_in_parallel(uint64_t glen, int threads)
{
    if (threads <= 0) threads = rv_default_threads();
    return threads > 1 && glen > MIN_CHUNK;
}

int rv_seq_encode_threads(rv_seq_t *s, rv_alpha_t alpha, int threads, uint64_t chunk)
{
    if (threads <= 0) threads = rv_default_threads();
    if (chunk == 0) chunk = MIN_CHUNK;
    if (threads == 1 || s->glen <= chunk) return rv_seq_encode_serial(s, alpha);
    enc_job_t j = {.s = s};
    rv_seq_set_alpha(s, alpha, j.code);
    uint64_t nch = (s->glen + chunk - 1) / chunk;
    if (nch > (uint64_t)threads * CHUNKS_PER_THREAD) {
        nch = (uint64_t)threads * CHUNKS_PER_THREAD;
        chunk = (s->glen + nch - 1) / nch;
        nch = (s->glen + chunk - 1) / chunk;
    }
    j.chunk = chunk;
    j.nch = nch;
    uint64_t want = nch * (sizeof *j.syms + sizeof *j.starts); /* what a failure asked for */
    j.syms = malloc(nch * sizeof *j.syms);
    j.starts = malloc(nch * sizeof *j.starts);
    if (!j.syms || !j.starts) goto oom;
    double t = rv_now();
    j.pass = 1;
    rv_parallel_dynamic(threads, nch, 1, enc_range, &j);
    rv_trace("read.encode.count", &t);
    uint64_t vtot = 0, stot = 0;
    for (uint64_t c = 0; c < nch; c++) {
        uint64_t a = j.syms[c], b = j.starts[c];
        j.syms[c] = vtot;
        j.starts[c] = stot;
        vtot += a;
        stot += b;
    }
    uint64_t n = vtot ? vtot - 1 : 0, room = 0;
    want = (stot ? stot : 1) * sizeof *j.seg;
    j.seg = malloc(want);
    if (!j.seg) goto oom;
    if (s->place) { /* t[v] for v <= n: n bytes, the caller's */
        if (!(j.t = s->place(s->place_ud, n, &room))) {
            free(j.seg), free(j.syms), free(j.starts);
            return -1;
        }
    } else if (!(j.t = rv_big_alloc(n + 1))) {
        free(j.seg);
        want = n + 1;
        goto oom;
    }
    j.pass = 2;
    rv_parallel_dynamic(threads, nch, 1, enc_range, &j);
    rv_trace("read.encode.write", &t);
    for (uint64_t k = 0; k < stot; k++)
        j.seg[k].len = (k + 1 < stot ? j.seg[k + 1].tpos - 1 : n) - j.seg[k].tpos;
    free(j.syms);
    free(j.starts);
    s->owned_text = s->place ? NULL : j.t;
    s->text_room = s->place ? room : 0;
    s->text = j.t;
    s->n = n;
    s->seg = j.seg;
    s->n_seg = stot;
    return 0;
oom:
    free(j.syms);
    free(j.starts);
    return rv_oom("encoded text", want);
}

/* ---- files ----------------------------------------------------------------------- */

/* Inflate a whole gzip/bgzip file into memory (bgzip with `threads` inflaters).
 * NULL with a message, or with *damaged set and no message when the compressed
 * data is truncated or corrupt: bgzf_read() does not say how much of a failed
 * read it delivered, so the caller lets the serial reader name the last good line. */
static char *inflate_all(const char *path, int threads, uint64_t size_hint, uint64_t *len, int *damaged)
{
    *damaged = 0;
    BGZF *fp = bgzf_open(path, "r");
    if (!fp) { rv_error(path, "cannot open: %s", errno ? strerror(errno) : "unknown error"); return NULL; }
    if (threads > 1 && bgzf_compression(fp) == 2) bgzf_mt(fp, threads, 256);
    /* a first guess (FASTA inflates about 3-4 times), capped so that a huge file asks
     * for no absurd block up front; growing by half moves pages, not bytes (mremap) */
    uint64_t cap = size_hint * 4 + (16 << 20), n = 0;
    if (cap > (1ull << 30)) cap = 1ull << 30;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) { bgzf_close(fp); rv_oom("input's buffer", cap); return NULL; }
        if (n == cap) {
            cap += cap / 2;
            char *b = realloc(buf, cap);
            if (!b) free(buf);
            buf = b;
            continue;
        }
        size_t want = cap - n < (4u << 20) ? cap - n : (4u << 20);
        ssize_t got = bgzf_read(fp, buf + n, want);
        if (got < 0) *damaged = 1;
        if (got <= 0) break;
        n += (uint64_t)got;
    }
    if (bgzf_close(fp) < 0) *damaged = 1;
    if (*damaged) { free(buf); return NULL; }
    *len = n;
    return buf;
}

static rv_seq_t *new_seq(const char *path, const struct stat *st)
{
    rv_seq_t *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) { free(s); rv_oom("sequence", sizeof *s); return NULL; }
    if (st) {
        s->src_size = (uint64_t)st->st_size;
        s->src_mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
        s->src_ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
        s->src_ino = (uint64_t)st->st_ino;
    }
    return s;
}

static rv_seq_t *finish(rv_seq_t *s, int rc, rv_alpha_t alpha, int threads)
{
    if (rc == 0) rc = rv_seq_index_names(s) < 0 ? rv_oom("record names' table", s->n_rec * 2 * sizeof(uint64_t)) : 0;
    if (rc == 0) rc = rv_seq_encode_threads(s, alpha, threads, 0);
    s->place = NULL, s->place_ud = NULL;
    if (rc != 0) { rv_seq_free(s); return NULL; }
    return s;
}

/* stdin, pipes, threads = 1, and damaged compressed files (for the exact message):
 * the serial line reader over a BGZF stream. */
static rv_seq_t *load_stream(const char *path, const struct stat *st, rv_alpha_t alpha, int threads)
{
    int is_stdin = strcmp(path, "-") == 0;
    BGZF *fp = bgzf_open(path, "r");
    if (!fp) { rv_error(path, "cannot open: %s", errno ? strerror(errno) : "unknown error"); return NULL; }
    /* one inflater: htslib's thread pool reports a truncated stream as an empty one,
     * and this reader must name the last good line (it is the reference) */
    rv_seq_t *s = new_seq(path, is_stdin ? NULL : st);
    if (!s) { bgzf_close(fp); return NULL; }
    int rc = rv_seq_parse_stream(s, fp, is_stdin ? "stdin" : path);
    if (bgzf_close(fp) < 0 && rc == 0) rc = rv_error(path, "truncated or corrupt compressed data");
    return finish(s, rc, alpha, threads);
}

static rv_seq_t *load_file(const char *path, rv_alpha_t alpha, int threads, rv_seq_place_fn place, void *ud);

rv_seq_t *rv_seq_load_threads(const char *path, rv_alpha_t alpha, int threads)
{
    return load_file(path, alpha, threads, NULL, NULL);
}

rv_seq_t *rv_seq_load_placed(const char *path, rv_alpha_t alpha, int threads, rv_seq_place_fn place, void *ud)
{
    return load_file(path, alpha, threads, place, ud);
}

static rv_seq_t *load_file(const char *path, rv_alpha_t alpha, int threads, rv_seq_place_fn place, void *ud)
{
    struct stat st;
    if (threads <= 0) threads = rv_default_threads();
    if (strcmp(path, "-") == 0) return load_stream(path, NULL, alpha, threads);
    if (stat(path, &st) != 0) { rv_error(path, "%s", strerror(errno)); return NULL; }
    if (S_ISDIR(st.st_mode)) { rv_error(path, "is a directory"); return NULL; }
    if (!S_ISREG(st.st_mode) || threads == 1) return load_stream(path, &st, alpha, threads);

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { rv_error(path, "cannot open: %s", strerror(errno)); return NULL; }
    unsigned char magic[2] = {0, 0};
    ssize_t got = pread(fd, magic, 2, 0);
    rv_seq_t *s = new_seq(path, &st);
    if (!s) { close(fd); return NULL; }
    s->place = place, s->place_ud = ud; /* the parallel encoder's (finish) */
    int rc;
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        close(fd);
        uint64_t len = 0;
        int damaged;
        char *buf = inflate_all(path, threads, (uint64_t)st.st_size, &len, &damaged);
        if (!buf) {
            rv_seq_free(s);
            return damaged ? load_stream(path, &st, alpha, threads) : NULL;
        }
        rc = len ? rv_seq_parse_buffer(s, buf, len, path, threads, 0) : rv_error(path, "empty file, no sequences");
        free(buf);
    } else if (st.st_size == 0) {
        close(fd);
        rc = rv_error(path, "empty file, no sequences");
    } else {
        size_t len = (size_t)st.st_size;
        void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (map == MAP_FAILED) { rv_seq_free(s); return load_stream(path, &st, alpha, threads); }
        double t = rv_now();
        madvise(map, len, MADV_SEQUENTIAL);
        madvise(map, len, MADV_WILLNEED);
        rv_trace("read.map", &t);
        rc = rv_seq_parse_buffer(s, map, len, path, threads, 0);
        munmap(map, len);
        rv_trace("read.unmap", &t);
    }
    return finish(s, rc, alpha, threads);
}

rv_seq_t *rv_seq_load(const char *path, rv_alpha_t alpha)
{
    return rv_seq_load_threads(path, alpha, 0);
}

int rv_seq_encode(rv_seq_t *s, rv_alpha_t alpha)
{
    return rv_seq_encode_threads(s, alpha, 0, 0);
}
