/* seq_serial.c — the serial reader: FASTA/FASTQ through htslib (plain, gzip, bgzip, stdin)
 * line by line, and the serial text encoding; the reference of seq_read.c. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <htslib/bgzf.h>
#include <htslib/kstring.h>
#include <htslib/khash_str2int.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "repview/common.h"
#include "repview/seq.h"
#include "seq_internal.h"
#include "base/internal.h"

typedef struct {
    char *buf;
    uint64_t len, cap;
} growbuf_t;

static int grow(growbuf_t *g, uint64_t need)
{
    if (g->len + need <= g->cap) return 0;
    uint64_t cap = g->cap ? g->cap : 1 << 16;
    while (cap < g->len + need) cap *= 2;
    char *p = realloc(g->buf, cap);
    if (!p) return -1;
    g->buf = p;
    g->cap = cap;
    return 0;
}

/* Append the sequence bytes of one line, dropping CR and blanks; -1 on binary data. */
static int append_seq_line(growbuf_t *g, const char *s, size_t l)
{
    if (grow(g, l) < 0) return -2;
    for (size_t i = 0; i < l; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r' || c == ' ' || c == '\t') continue;
        if (c < 32 || c >= 127) return -1;
        g->buf[g->len++] = (char)c;
    }
    return 0;
}

static int add_record(rv_seq_t *s, uint64_t *cap, const char *header, size_t hlen, uint64_t off)
{
    if (s->n_rec == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        rv_record_t *r = realloc(s->rec, *cap * sizeof *r);
        if (!r) return -1;
        s->rec = r;
    }
    size_t l = rv_seq_name_len(header, hlen);
    rv_record_t *r = &s->rec[s->n_rec++];
    r->name = strndup(header, l);
    r->off = off;
    r->len = 0;
    return r->name ? 0 : -1;
}

size_t rv_seq_name_len(const char *header, size_t hlen)
{
    size_t l = 0;
    while (l < hlen && header[l] != ' ' && header[l] != '\t' && header[l] != '\r' && header[l]) l++;
    return l;
}

/* One line at a time from a BGZF stream or from a buffer; 1 = a line, 0 = end,
 * -2 = corrupt compressed data. */
typedef struct {
    BGZF *fp;
    kstring_t ks;
    const char *p, *end;
} line_src_t;

static int next_line(line_src_t *src, const char **line, size_t *len)
{
    if (src->fp) {
        int ret = bgzf_getline(src->fp, '\n', &src->ks);
        if (ret < -1) return -2;
        if (ret < 0) return 0;
        *line = src->ks.s;
        *len = src->ks.l;
        return 1;
    }
    if (src->p >= src->end) return 0;
    const char *e = memchr(src->p, '\n', (size_t)(src->end - src->p));
    if (!e) e = src->end;
    *line = src->p;
    *len = (size_t)(e - src->p);
    src->p = e < src->end ? e + 1 : e;
    return 1;
}

/* Parse every record, one line after the other; FASTQ quality lines are counted,
 * not stored.  The reference reader: the parallel one (seq_read.c) must agree. */
static int parse_records(line_src_t *src, const char *ctx, rv_seq_t *s, growbuf_t *raw)
{
    uint64_t cap = 0, lineno = 0, qual_left = 0;
    int state = 0; /* 0 before the first record, 1 FASTA seq, 2 FASTQ seq, 3 FASTQ qual */
    int ret, rc = 0;
    const char *text;
    size_t full;
    while ((ret = next_line(src, &text, &full)) > 0) {
        lineno++;
        size_t l = full;
        while (l && text[l - 1] == '\r') l--;
        if (state == 3) {
            if (l > qual_left) return rv_error(ctx, "line %llu: quality longer than sequence", (unsigned long long)lineno);
            qual_left -= l;
            if (qual_left == 0) state = 0;
            continue;
        }
        if (l == 0) continue;
        char c = text[0];
        if (c == '>' || (c == '@' && state != 1)) {
            if (state == 2) return rv_error(ctx, "line %llu: FASTQ record without '+' line", (unsigned long long)lineno);
            if (add_record(s, &cap, text + 1, full - 1, raw->len) < 0) return rv_oom("record table", cap * sizeof *s->rec);
            if (!s->rec[s->n_rec - 1].name[0])
                return rv_error(ctx, "line %llu: record without a name", (unsigned long long)lineno);
            state = c == '>' ? 1 : 2;
            continue;
        }
        if (state == 0) {
            if (s->n_rec == 0)
                return rv_error(ctx, "not FASTA or FASTQ (line %llu does not start with '>' or '@')", (unsigned long long)lineno);
            return rv_error(ctx, "line %llu: expected a FASTQ header", (unsigned long long)lineno);
        }
        if (state == 2 && c == '+') {
            qual_left = s->rec[s->n_rec - 1].len;
            state = qual_left ? 3 : 0;
            continue;
        }
        uint64_t before = raw->len;
        int a = append_seq_line(raw, text, l);
        if (a == -1) return rv_error(ctx, "line %llu: binary data, not FASTA or FASTQ", (unsigned long long)lineno);
        if (a < 0) return rv_oom("sequence", raw->len + l);
        s->rec[s->n_rec - 1].len += raw->len - before;
    }
    if (ret < 0)
        return lineno ? rv_error(ctx, "truncated or corrupt compressed data after line %llu", (unsigned long long)lineno)
                      : rv_error(ctx, "truncated or corrupt compressed data");
    if (state == 2 || state == 3) return rv_error(ctx, "truncated FASTQ record at the end of the file");
    if (s->n_rec == 0) return rv_error(ctx, lineno ? "no sequence records" : "empty file, no sequences");
    return rc;
}

/* Serial reading of a BGZF stream or a buffer into s (raw owned by s). */
static int parse_into(rv_seq_t *s, line_src_t *src, const char *ctx)
{
    growbuf_t raw = {0};
    int rc = parse_records(src, ctx, s, &raw);
    free(src->ks.s);
    s->owned_raw = raw.buf;
    s->raw = raw.buf ? raw.buf : "";
    s->glen = raw.len;
    return rc;
}

int rv_seq_parse_stream(rv_seq_t *s, BGZF *fp, const char *ctx)
{
    line_src_t src = {.fp = fp};
    return parse_into(s, &src, ctx);
}

int rv_seq_parse_serial(rv_seq_t *s, const char *buf, uint64_t len, const char *ctx)
{
    line_src_t src = {.p = buf, .end = buf + len};
    return parse_into(s, &src, ctx);
}

int rv_seq_index_names(rv_seq_t *s)
{
    s->names = khash_str2int_init();
    if (!s->names) return -1;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        int id;
        if (khash_str2int_get(s->names, s->rec[i].name, &id) == 0) {
            if (!s->warning) {
                char msg[300];
                snprintf(msg, sizeof msg, "duplicate record name '%.200s' (records %d and %llu); regions use the first",
                         s->rec[i].name, id + 1, (unsigned long long)i + 1);
                s->warning = strdup(msg);
            }
            continue;
        }
        khash_str2int_set(s->names, s->rec[i].name, (int)i);
    }
    return 0;
}

rv_seq_t *rv_seq_from_records(const char *const *names, const char *const *seqs, int n_rec,
                              rv_alpha_t alpha)
{
    rv_seq_t *s = calloc(1, sizeof *s);
    growbuf_t raw = {0};
    uint64_t cap = 0;
    if (!s) return NULL;
    for (int i = 0; i < n_rec; i++) {
        size_t l = strlen(seqs[i]);
        if (add_record(s, &cap, names[i], strlen(names[i]), raw.len) < 0 || grow(&raw, l + 1) < 0) goto fail;
        memcpy(raw.buf + raw.len, seqs[i], l);
        raw.len += l;
        s->rec[i].len = l;
    }
    s->owned_raw = raw.buf;
    s->raw = raw.buf ? raw.buf : "";
    s->glen = raw.len;
    if (rv_seq_index_names(s) == 0 && rv_seq_encode_serial(s, alpha) == 0) return s; /* small: no threads */
fail:
    if (!s->owned_raw) free(raw.buf);
    rv_seq_free(s);
    rv_error("sequence", "out of memory");
    return NULL;
}

rv_seq_t *rv_seq_from_string(const char *str, size_t len, rv_alpha_t alpha, const char *name)
{
    char *copy = strndup(str, len);
    if (!copy) return NULL;
    const char *names[1] = {name ? name : "string"};
    const char *seqs[1] = {copy};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 1, alpha);
    free(copy);
    return s;
}

void rv_seq_free(rv_seq_t *s)
{
    if (!s) return;
    for (uint64_t i = 0; i < s->n_rec; i++) free(s->rec[i].name);
    free(s->rec);
    free(s->seg);
    free(s->owned_raw);
    free(s->owned_text);
    if (s->names) khash_str2int_destroy(s->names);
    free(s->path);
    free(s->warning);
    free(s);
}

/* Fill text, segments and sigma: one code per symbol, one RV_BREAK per maximal
 * breaker run between segments, none at the ends (repview(1), doc/DESIGN.md).
 * The reference for the chunked encoder (seq_read.c, which also has rv_seq_encode). */
void rv_seq_set_alpha(rv_seq_t *s, rv_alpha_t alpha, uint8_t code[256])
{
    if (alpha == RV_ALPHA_AUTO)
        alpha = rv_alpha_detect(s->raw, s->glen < (1u << 20) ? s->glen : (1u << 20));
    s->alpha = alpha;
    s->sigma = alpha == RV_ALPHA_DNA ? 4 : alpha == RV_ALPHA_PROTEIN ? 25 : 255;
    for (int c = 0; c < 256; c++) code[c] = rv_alpha_code(alpha, (unsigned char)c);
}

int rv_seq_encode_serial(rv_seq_t *s, rv_alpha_t alpha)
{
    uint8_t code[256];
    rv_seq_set_alpha(s, alpha, code);
    /* a record end adds one breaker even when no breaker byte pays for it */
    uint8_t *t = malloc(s->glen + s->n_rec + 1);
    uint64_t segcap = 16, nseg = 0, n = 0;
    rv_segment_t *seg = malloc(segcap * sizeof *seg);
    if (!t || !seg) { free(t); free(seg); return rv_oom("encoded text", s->glen + s->n_rec + 1); }
    for (uint64_t r = 0; r < s->n_rec; r++) {
        const unsigned char *p = (const unsigned char *)s->raw + s->rec[r].off;
        int open = 0;
        for (uint64_t i = 0; i < s->rec[r].len; i++) {
            uint8_t c = code[p[i]];
            if (c == RV_BREAK) { open = 0; continue; }
            if (!open) {
                if (nseg == segcap) {
                    segcap *= 2;
                    rv_segment_t *g = realloc(seg, segcap * sizeof *g);
                    if (!g) { free(t); free(seg); return rv_oom("segment table", segcap * sizeof *g); }
                    seg = g;
                }
                if (n) t[n++] = RV_BREAK;
                seg[nseg++] = (rv_segment_t){n, s->rec[r].off + i, 0};
                open = 1;
            }
            t[n++] = c;
            seg[nseg - 1].len++;
        }
    }
    s->owned_text = t;
    s->text = t;
    s->n = n;
    s->seg = seg;
    s->n_seg = nseg;
    return 0;
}

/* Last segment whose start (text or global, per `global`) is <= v; 0 when none. */
static uint64_t seg_search(const rv_seq_t *s, uint64_t v, int global)
{
    uint64_t lo = 0, hi = s->n_seg;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint64_t key = global ? s->seg[mid].gpos : s->seg[mid].tpos;
        if (key <= v) lo = mid; else hi = mid;
    }
    return lo;
}

uint64_t rv_seq_segment_of_text(const rv_seq_t *s, uint64_t t)
{
    uint64_t k = seg_search(s, t, 0);
    if (t >= s->seg[k].tpos + s->seg[k].len && k + 1 < s->n_seg) k++;
    return k;
}

uint64_t rv_seq_text_to_global(const rv_seq_t *s, uint64_t t)
{
    if (s->n_seg == 0) return 0;
    const rv_segment_t *g = &s->seg[seg_search(s, t, 0)];
    if (t < g->tpos + g->len) return g->gpos + (t - g->tpos);
    return g->gpos + g->len;
}

int64_t rv_seq_global_to_text(const rv_seq_t *s, uint64_t g)
{
    if (s->n_seg == 0) return -1;
    const rv_segment_t *x = &s->seg[seg_search(s, g, 1)];
    if (g >= x->gpos && g < x->gpos + x->len) return (int64_t)(x->tpos + (g - x->gpos));
    return -1;
}

uint64_t rv_seq_record_of(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_rec;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        /* zero-length records share offsets; prefer the last record starting <= g
         * that actually contains g */
        if (s->rec[mid].off <= g) lo = mid; else hi = mid;
    }
    while (lo > 0 && s->rec[lo].len == 0) lo--;
    return lo;
}

int64_t rv_seq_record_by_name(const rv_seq_t *s, const char *name)
{
    int id;
    if (s->names && khash_str2int_get(s->names, name, &id) == 0) return id;
    return -1;
}

/* ---- packed for another process -------------------------------------------------- */

typedef struct {
    uint64_t magic, alpha, sigma, n_rec, glen, n, strands, nf, n_seg;
    uint64_t src_size, src_ino;
    int64_t src_mtime_ns, src_ctime_ns;
    uint64_t names_bytes, path_bytes, warning_bytes; /* each with its NUL; 0 = NULL */
} seq_pack_t;

enum { SEQ_PACK_MAGIC = 0x31715352u }; /* "RSq1" */

int rv_seq_pack(const rv_seq_t *s, void **buf, uint64_t *bytes)
{
    seq_pack_t h = {SEQ_PACK_MAGIC, (uint64_t)s->alpha, (uint64_t)s->sigma, s->n_rec, s->glen, s->n,
                    (uint64_t)s->strands, s->nf, s->n_seg, s->src_size, s->src_ino, s->src_mtime_ns,
                    s->src_ctime_ns, 0, s->path ? strlen(s->path) + 1 : 0,
                    s->warning ? strlen(s->warning) + 1 : 0};
    for (uint64_t i = 0; i < s->n_rec; i++) h.names_bytes += strlen(s->rec[i].name) + 1;
    uint64_t total = sizeof h + s->n_rec * 2 * sizeof(uint64_t) + h.names_bytes + s->n_seg * sizeof *s->seg +
                     h.path_bytes + h.warning_bytes;
    char *p = malloc(total);
    if (!p) return rv_oom("packed sequence", total);
    char *q = p;
    memcpy(q, &h, sizeof h), q += sizeof h;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        uint64_t v[2] = {s->rec[i].off, s->rec[i].len};
        memcpy(q, v, sizeof v), q += sizeof v;
    }
    for (uint64_t i = 0; i < s->n_rec; i++) {
        size_t l = strlen(s->rec[i].name) + 1;
        memcpy(q, s->rec[i].name, l), q += l;
    }
    if (s->n_seg) memcpy(q, s->seg, s->n_seg * sizeof *s->seg), q += s->n_seg * sizeof *s->seg;
    if (h.path_bytes) memcpy(q, s->path, h.path_bytes), q += h.path_bytes;
    if (h.warning_bytes) memcpy(q, s->warning, h.warning_bytes);
    *buf = p;
    *bytes = total;
    return 0;
}

/* The checks of a pack's header: each part no longer than what is left (one by one:
 * a sum of forged lengths could wrap), the counts within the text. */
static int pack_fits(const seq_pack_t *h, uint64_t left, uint64_t text_bytes)
{
    const uint64_t part[5] = {h->n_rec <= left / 16 ? h->n_rec * 16 : UINT64_MAX, h->names_bytes,
                              h->n_seg <= left / sizeof(rv_segment_t) ? h->n_seg * sizeof(rv_segment_t) : UINT64_MAX,
                              h->path_bytes, h->warning_bytes};
    for (int i = 0; i < 5; i++) {
        if (part[i] > left) return 0;
        left -= part[i];
    }
    return h->magic == SEQ_PACK_MAGIC && h->n <= text_bytes && h->sigma >= 1 && h->sigma <= 255 &&
           h->alpha >= RV_ALPHA_DNA && h->alpha <= RV_ALPHA_TEXT && h->strands <= 2 &&
           (h->strands != 2 || 2 * h->nf + 1 == h->n || (h->nf == 0 && h->n == 0));
}

rv_seq_t *rv_seq_unpack(const void *buf, uint64_t bytes, const uint8_t *text, uint64_t text_bytes)
{
    seq_pack_t h;
    const char *q = buf;
    if (bytes < sizeof h) goto bad;
    memcpy(&h, q, sizeof h), q += sizeof h;
    if (!pack_fits(&h, bytes - sizeof h, text_bytes)) goto bad;
    rv_seq_t *s = calloc(1, sizeof *s);
    if (!s) { rv_oom("sequence", sizeof *s); return NULL; }
    s->alpha = (rv_alpha_t)h.alpha, s->sigma = (int)h.sigma, s->glen = h.glen, s->n = h.n;
    s->strands = (int)h.strands, s->nf = h.nf, s->src_size = h.src_size, s->src_ino = h.src_ino;
    s->src_mtime_ns = h.src_mtime_ns, s->src_ctime_ns = h.src_ctime_ns;
    s->text = text;
    s->rec = calloc(h.n_rec ? h.n_rec : 1, sizeof *s->rec);
    s->seg = malloc((h.n_seg ? h.n_seg : 1) * sizeof *s->seg);
    int ok = s->rec && s->seg;
    const char *names = q + h.n_rec * 16, *np = names;
    for (uint64_t i = 0; ok && i < h.n_rec; i++, s->n_rec++) {
        uint64_t v[2];
        memcpy(v, q + i * 16, sizeof v);
        size_t l = strnlen(np, (size_t)(names + h.names_bytes - np));
        if (np + l >= names + h.names_bytes) { free(s->rec[i].name); ok = 0; break; }
        s->rec[i] = (rv_record_t){strdup(np), v[1], v[0]};
        ok = s->rec[i].name != NULL;
        np += l + 1;
    }
    for (uint64_t i = 0; ok && i < s->n_rec; i++) /* records in order, inside glen */
        ok = s->rec[i].off <= h.glen && s->rec[i].len <= h.glen - s->rec[i].off &&
             (i == 0 || s->rec[i].off >= s->rec[i - 1].off + s->rec[i - 1].len);
    q = names + h.names_bytes;
    if (ok && h.n_seg) memcpy(s->seg, q, h.n_seg * sizeof *s->seg);
    s->n_seg = h.n_seg;
    for (uint64_t i = 0; ok && i < s->n_seg; i++) /* segments inside the text and glen */
        ok = s->seg[i].tpos <= h.n && s->seg[i].len <= h.n - s->seg[i].tpos && s->seg[i].gpos <= h.glen &&
             s->seg[i].len <= h.glen - s->seg[i].gpos;
    q += h.n_seg * sizeof *s->seg;
    if (ok && h.path_bytes) ok = q[h.path_bytes - 1] == 0 && (s->path = strdup(q)) != NULL;
    q += h.path_bytes;
    if (ok && h.warning_bytes) ok = q[h.warning_bytes - 1] == 0 && (s->warning = strdup(q)) != NULL;
    if (ok && rv_seq_index_names(s) == 0) return s;
    rv_seq_free(s);
bad:
    rv_error("sequence", "damaged sequence message");
    return NULL;
}

/* ---- the text's digest ------------------------------------------------------------ */

enum { DIGEST_PIECE = 64u << 20 };

static uint64_t piece_hash(const rv_seq_t *s, uint64_t i)
{
    const uint64_t at = i * DIGEST_PIECE, len = s->n - at < DIGEST_PIECE ? s->n - at : DIGEST_PIECE;
    return XXH3_64bits(s->text + at, (size_t)len);
}

typedef struct {
    const rv_seq_t *s;
    uint64_t *piece;
} digest_job_t;

static void digest_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    const digest_job_t *j = ctx;
    for (uint64_t i = lo; i < hi; i++) j->piece[i] = piece_hash(j->s, i);
}

uint64_t rv_seq_text_digest(const rv_seq_t *s, int threads)
{
    const uint64_t pieces = (s->n + DIGEST_PIECE - 1) / DIGEST_PIECE;
    uint64_t *piece = malloc((pieces ? pieces : 1) * sizeof *piece);
    if (piece) {
        digest_job_t j = {s, piece};
        rv_parallel_for(threads > 0 ? threads : rv_default_threads(), pieces, digest_range, &j);
    }
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    for (uint64_t i = 0; i < pieces; i++) { /* without memory for them: one at a time */
        const uint64_t h = piece ? piece[i] : piece_hash(s, i);
        XXH3_64bits_update(&st, &h, sizeof h);
    }
    XXH3_64bits_update(&st, &s->n, sizeof s->n);
    free(piece);
    return XXH3_64bits_digest(&st);
}

/* ---- counts per record ------------------------------------------------------------ */

enum { COUNT_PIECE = 4u << 20 };

typedef struct {
    const rv_seq_t *s;
    uint8_t cls[256]; /* bit 0: a breaker, bit 1: lower case */
    uint64_t *out;
} count_job_t;

/* Pieces [lo, hi) of the sequence as read: each adds what it holds of every record
 * it meets (a breaker run is counted where it starts, so a run cut by a piece's
 * edge counts once). */
static void count_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    count_job_t *j = ctx;
    const rv_seq_t *s = j->s;
    const unsigned char *raw = (const unsigned char *)s->raw;
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t a = i * COUNT_PIECE, b = a + COUNT_PIECE < s->glen ? a + COUNT_PIECE : s->glen;
        for (uint64_t r = rv_seq_record_of(s, a); r < s->n_rec && s->rec[r].off < b; r++) {
            const rv_record_t *rec = &s->rec[r];
            uint64_t from = a > rec->off ? a : rec->off, to = rec->off + rec->len < b ? rec->off + rec->len : b;
            if (from >= to) continue;
            uint64_t brk = 0, runs = 0, lower = 0;
            unsigned prev = from > rec->off ? j->cls[raw[from - 1]] & 1 : 0;
            for (uint64_t k = from; k < to; k++) {
                const unsigned c = j->cls[raw[k]];
                brk += c & 1;
                runs += c & 1 & ~prev;
                lower += c >> 1;
                prev = c & 1;
            }
            __atomic_fetch_add(&j->out[4 * r], (to - from) - brk, __ATOMIC_RELAXED);
            __atomic_fetch_add(&j->out[4 * r + 1], brk, __ATOMIC_RELAXED);
            __atomic_fetch_add(&j->out[4 * r + 2], runs, __ATOMIC_RELAXED);
            __atomic_fetch_add(&j->out[4 * r + 3], lower, __ATOMIC_RELAXED);
        }
    }
}

void rv_seq_record_counts(const rv_seq_t *s, int threads, uint64_t *out)
{
    count_job_t j = {s, {0}, out};
    for (int c = 0; c < 256; c++)
        j.cls[c] = (uint8_t)((rv_alpha_code(s->alpha, (unsigned char)c) == RV_BREAK) | (islower(c) != 0) << 1);
    memset(out, 0, s->n_rec * 4 * sizeof *out);
    const uint64_t pieces = (s->glen + COUNT_PIECE - 1) / COUNT_PIECE;
    rv_parallel_for(threads > 0 ? threads : rv_default_threads(), pieces, count_range, &j);
}
