/* track.c — annotation tracks (track.h): opening a file with htslib, and its
 * features by region.  A bgzipped file with an index is read window by window
 * through the index (tbx_itr_queryi for text, bcf_itr_queryi for BCF), the last
 * window kept; any other file is read once.  Either way the features of what was
 * read sit in a store: sorted, with the interval index of track_index.c. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <htslib/hts.h>
#include <htslib/khash_str2int.h>
#include <htslib/kseq.h>
#include <htslib/kstring.h>
#include <htslib/tbx.h>
#include <htslib/vcf.h>
#include "repview/common.h"
#include "repview/track.h"
#include "track_index.h"
#include "track_parse.h"

/* Features sorted by (record, start), their intervals and index, their strings. */
typedef struct {
    rv_feature_t *f;
    size_t n;
    track_iv_t *iv;
    track_index_t ix;
    track_arena_t ar;
} store_t;

/* A name or ID and where its feature is. */
typedef struct {
    const char *key;
    uint32_t rid;
    uint64_t beg, end;
    size_t order;
} name_t;

/* Lines read and not yet stored. */
typedef struct {
    track_line_t *l;
    size_t n, cap;
} lines_t;

struct rv_track {
    char *path;
    rv_track_format_t fmt;
    const rv_seq_t *seq;
    htsFile *fp;
    tbx_t *tbx;          /* indexed text file */
    hts_idx_t *idx;      /* indexed BCF */
    bcf_hdr_t *hdr;      /* VCF/BCF */
    bcf1_t *rec;
    int *tid;            /* per record of seq: its id in the index, -1 when absent */
    store_t mem;         /* every feature (loaded), or the window last read (indexed) */
    uint32_t w_rid;      /* the window: record and [w_beg, w_end) */
    uint64_t w_beg, w_end;
    int w_valid;
    rv_feature_t *out;   /* answers of the last query */
    size_t out_cap, *pos, pos_cap;
    name_t *names;       /* sorted by key, then file order */
    size_t n_names, names_cap;
    int names_read;      /* names (and names_rc) final */
    track_arena_t names_ar;
    pthread_t names_thread; /* an indexed track reads its names in the background */
    int names_thread_on, names_rc;
    atomic_int names_done, names_stop;
    char names_err[300];
    void *missing;       /* record names the FASTA lacks (khash_str2int) */
    size_t n_missing;
    char missing_list[200];
    size_t n_bad;
    char first_bad[300];
    char warn[700];
    double vlo, vhi;
    int has_value;
};

static void store_free(store_t *s)
{
    free(s->f);
    free(s->iv);
    track_index_free(&s->ix);
    arena_free(&s->ar);
    memset(s, 0, sizeof *s);
}

static int cmp_feature(const void *p, const void *q)
{
    const rv_feature_t *a = p, *b = q;
    if (a->rid != b->rid) return a->rid < b->rid ? -1 : 1;
    if (a->beg != b->beg) return a->beg < b->beg ? -1 : 1;
    if (a->end != b->end) return a->end < b->end ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* ---- record names ---------------------------------------------------------------- */

/* The FASTA record of a name as the track writes it: itself, else with "chr" added
 * or removed (UCSC and Ensembl name the same chromosomes both ways); UINT32_MAX
 * (and, when note, the name remembered) when none. */
static uint32_t rid_lookup(rv_track_t *t, const char *chrom, int note)
{
    int64_t r = rv_seq_record_by_name(t->seq, chrom);
    if (r < 0 && !strncmp(chrom, "chr", 3) && chrom[3]) r = rv_seq_record_by_name(t->seq, chrom + 3);
    if (r < 0 && strlen(chrom) < 200) {
        char buf[208];
        snprintf(buf, sizeof buf, "chr%s", chrom);
        r = rv_seq_record_by_name(t->seq, buf);
    }
    if (r >= 0) return (uint32_t)r;
    if (note && !khash_str2int_has_key(t->missing, chrom)) {
        char *dup = strdup(chrom);
        if (dup && khash_str2int_inc(t->missing, dup) >= 0) {
            size_t l = strlen(t->missing_list);
            if (t->n_missing < 3)
                snprintf(t->missing_list + l, sizeof t->missing_list - l, "%s%s", l ? ", " : "", chrom);
            t->n_missing++;
        } else free(dup);
    }
    return UINT32_MAX;
}

static void note_bad(rv_track_t *t, uint64_t line, const char *where, const char *why)
{
    if (!t->n_bad++) {
        if (line) snprintf(t->first_bad, sizeof t->first_bad, "%s:%llu: %s", t->path, (unsigned long long)line, why);
        else snprintf(t->first_bad, sizeof t->first_bad, "%s: a line near %s: %s", t->path, where, why);
    }
}

static void note_value(rv_track_t *t, const rv_feature_t *f)
{
    if (t->fmt != RV_TRACK_BEDGRAPH || isnan(f->value)) return;
    if (!t->has_value || f->value < t->vlo) t->vlo = f->value;
    if (!t->has_value || f->value > t->vhi) t->vhi = f->value;
    t->has_value = 1;
}

static uint32_t rid_of(rv_track_t *t, const char *chrom) { return rid_lookup(t, chrom, 1); }

/* ---- reading lines ---------------------------------------------------------------- */

static track_line_t *lines_push(lines_t *v)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 256;
        track_line_t *l = realloc(v->l, cap * sizeof *l);
        if (!l) return NULL;
        v->l = l;
        v->cap = cap;
    }
    return &v->l[v->n++];
}

/* Parse one text line into v (skipped, or noted when malformed); 2 at ##FASTA, -1
 * without memory. */
static int add_text_line(rv_track_t *t, char *line, uint64_t no, lines_t *v, track_arena_t *ar)
{
    track_line_t *l = lines_push(v);
    char why[200], where[64] = "";
    if (!l) return -1;
    if (!no) { /* indexed: no line numbers, name where it is */
        const char *tab = strchr(line, '\t');
        snprintf(where, sizeof where, "%.*s", tab ? (int)(tab - line) : 40, line);
        if (tab) snprintf(where + strlen(where), sizeof where - strlen(where), ":%.12s", tab + 1);
        char *t2 = strchr(where + (tab ? tab - line : 0), '\t');
        if (t2) *t2 = 0;
    }
    int rc = track_parse_line(t->fmt, line, ar, l, why, sizeof why);
    if (rc != 1) v->n--;
    if (rc < 0) note_bad(t, no, where, why);
    if (rc == 1) l->f.line = no;
    return rc == 2 ? 2 : 0;
}

static int add_vcf_record(rv_track_t *t, lines_t *v, track_arena_t *ar, uint64_t no)
{
    track_line_t *l = lines_push(v);
    if (!l || track_parse_vcf(t->hdr, t->rec, ar, l) < 0) return -1;
    l->f.line = no;
    return 0;
}

/* Names and IDs of the lines (every line of a GFF gene) into the name table. */
static int add_names(rv_track_t *t, const track_line_t *l, size_t n, track_arena_t *ar)
{
    for (size_t i = 0; i < n; i++) {
        if (l[i].f.rid == UINT32_MAX) continue;
        const char *k[2] = {l[i].f.name, l[i].f.id};
        for (int j = 0; j < 2; j++) {
            if (!*k[j] || (j && !strcmp(k[0], k[1]))) continue;
            if (t->n_names == t->names_cap) {
                size_t cap = t->names_cap ? t->names_cap * 2 : 256;
                name_t *nn = realloc(t->names, cap * sizeof *nn);
                if (!nn) return -1;
                t->names = nn;
                t->names_cap = cap;
            }
            const char *key = ar ? arena_str(ar, k[j], strlen(k[j])) : k[j];
            if (!key) return -1;
            t->names[t->n_names] = (name_t){key, l[i].f.rid, l[i].f.beg, l[i].f.end, t->n_names};
            t->n_names++;
        }
    }
    return 0;
}

static int cmp_name(const void *p, const void *q)
{
    const name_t *a = p, *b = q;
    int c = strcmp(a->key, b->key);
    return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

/* Map the lines' records, fold genes, keep what the FASTA has, sort and index. */
static int store_build(rv_track_t *t, store_t *s, lines_t *v, int names)
{
    for (size_t i = 0; i < v->n; i++) v->l[i].f.rid = rid_of(t, v->l[i].chrom);
    if (names && add_names(t, v->l, v->n, NULL) < 0) return -1;
    size_t n = track_fold(&v->l, v->n, t->fmt, &s->ar);
    if (n == (size_t)-1) return -1;
    v->n = n;
    s->f = malloc((n ? n : 1) * sizeof *s->f);
    s->iv = malloc((n ? n : 1) * sizeof *s->iv);
    if (!s->f || !s->iv) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v->l[i].f.rid != UINT32_MAX) {
            s->f[k++] = v->l[i].f;
            note_value(t, &v->l[i].f);
        }
    s->n = k;
    qsort(s->f, k, sizeof *s->f, cmp_feature);
    for (size_t i = 0; i < k; i++) s->iv[i] = (track_iv_t){s->f[i].rid, s->f[i].beg, s->f[i].end};
    return track_index_build(&s->ix, s->iv, k);
}

/* Read the whole file into t->mem (a file without index). */
static int load_all(rv_track_t *t)
{
    lines_t v = {0};
    int rc = 0;
    uint64_t no = 0;
    if (t->hdr) {
        while ((rc = bcf_read(t->fp, t->hdr, t->rec)) == 0)
            if (add_vcf_record(t, &v, &t->mem.ar, ++no) < 0) { rc = -2; break; }
        rc = rc < -1 ? rv_error(t->path, "read error or malformed record after record %llu", (unsigned long long)no) : 0;
    } else {
        kstring_t ks = {0, 0, NULL};
        while ((rc = hts_getline(t->fp, KS_SEP_LINE, &ks)) >= 0) {
            int r = add_text_line(t, ks.s, ++no, &v, &t->mem.ar);
            if (r < 0) { rc = -2; break; }
            if (r == 2) break; /* ##FASTA: sequences follow, not features */
        }
        free(ks.s);
        rc = rc < -1 ? rv_error(t->path, "read error at line %llu", (unsigned long long)no) : 0;
    }
    if (rc == 0 && store_build(t, &t->mem, &v, 1) < 0) rc = rv_error(t->path, "out of memory");
    free(v.l);
    if (rc == 0) {
        if (t->n_names) qsort(t->names, t->n_names, sizeof *t->names, cmp_name);
        t->names_read = 1;
    }
    return rc;
}

/* ---- opening ---------------------------------------------------------------------- */

static int open_index(rv_track_t *t)
{
    const htsFormat *hf = hts_get_format(t->fp);
    if (hf->compression != bgzf) return 0;
    if (hf->format == bcf) t->idx = hts_idx_load3(t->path, NULL, HTS_FMT_CSI, HTS_IDX_SILENT_FAIL);
    else t->tbx = tbx_index_load3(t->path, NULL, HTS_IDX_SILENT_FAIL);
    if (!t->idx && !t->tbx) return 0;
    t->tid = malloc((t->seq->n_rec ? t->seq->n_rec : 1) * sizeof *t->tid);
    if (!t->tid) return -1;
    for (uint64_t r = 0; r < t->seq->n_rec; r++) t->tid[r] = -1;
    int n = 0;
    const char **names = t->tbx ? tbx_seqnames(t->tbx, &n) : bcf_index_seqnames(t->idx, t->hdr, &n);
    for (int i = 0; i < n; i++) {
        uint32_t r = rid_of(t, names[i]);
        if (r != UINT32_MAX && t->tid[r] < 0) {
            int id = t->tbx ? tbx_name2id(t->tbx, names[i]) : bcf_hdr_name2id(t->hdr, names[i]);
            t->tid[r] = id;
        }
    }
    free(names);
    return 1;
}

rv_track_t *rv_track_open(const char *path, const rv_seq_t *seq)
{
    int fmt = track_format_of_name(path);
    if (fmt < 0) {
        rv_error(path, "unknown track format (the name should end in .bed, .bedgraph, .gff3, .gtf, .vcf or .bcf)");
        return NULL;
    }
    rv_track_t *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path)) || !(t->missing = khash_str2int_init())) {
        rv_error(path, "out of memory");
        rv_track_close(t);
        return NULL;
    }
    t->fmt = (rv_track_format_t)fmt;
    t->seq = seq;
    if (!(t->fp = hts_open(path, "r"))) {
        rv_error(path, "cannot open: %s", strerror(errno ? errno : ENOENT));
        rv_track_close(t);
        return NULL;
    }
    int rc = 0;
    if (fmt == RV_TRACK_VCF) {
        enum htsExactFormat hf = hts_get_format(t->fp)->format;
        if ((hf != vcf && hf != bcf) || !(t->hdr = bcf_hdr_read(t->fp)) || !(t->rec = bcf_init()))
            rc = rv_error(path, "not a VCF or BCF file (no header)");
    }
    int ix = rc == 0 ? open_index(t) : 0;
    if (ix < 0) rc = rv_error(path, "out of memory");
    if (rc == 0 && ix == 0) rc = load_all(t);
    if (rc < 0) {
        rv_track_close(t);
        return NULL;
    }
    return t;
}

void rv_track_close(rv_track_t *t)
{
    if (!t) return;
    if (t->names_thread_on) {
        atomic_store(&t->names_stop, 1);
        pthread_join(t->names_thread, NULL);
    }
    store_free(&t->mem);
    if (t->rec) bcf_destroy(t->rec);
    if (t->hdr) bcf_hdr_destroy(t->hdr);
    if (t->tbx) tbx_destroy(t->tbx);
    if (t->idx) hts_idx_destroy(t->idx);
    if (t->fp) hts_close(t->fp);
    if (t->missing) khash_str2int_destroy_free(t->missing);
    arena_free(&t->names_ar);
    free(t->names);
    free(t->tid);
    free(t->out);
    free(t->pos);
    free(t->path);
    free(t);
}

int rv_track_format_of_path(const char *path) { return track_format_of_name(path); }
void rv_track_set_seq(rv_track_t *t, const rv_seq_t *seq) { t->seq = seq; }
rv_track_format_t rv_track_format(const rv_track_t *t) { return t->fmt; }
int rv_track_indexed(const rv_track_t *t) { return t->tbx || t->idx; }
size_t rv_track_size(const rv_track_t *t) { return rv_track_indexed(t) ? 0 : t->mem.n; }
size_t rv_track_bad_lines(const rv_track_t *t) { return t->n_bad; }

const char *rv_track_format_name(rv_track_format_t f)
{
    static const char *const names[] = {"BED", "bedGraph", "GFF3", "GTF", "VCF"};
    return (unsigned)f < sizeof names / sizeof *names ? names[f] : "?";
}

size_t rv_track_depth(const rv_track_t *t, size_t cap)
{
    uint64_t end[64];
    size_t rows = 1;
    if (cap > sizeof end / sizeof *end) cap = sizeof end / sizeof *end;
    memset(end, 0, sizeof end);
    for (size_t i = 0; i < t->mem.n && rows < cap; i++) {
        const rv_feature_t *f = &t->mem.f[i];
        if (i && f->rid != t->mem.f[i - 1].rid) memset(end, 0, rows * sizeof *end); /* a new record */
        size_t r = 0;
        while (r < rows && end[r] > f->beg) r++;
        if (r == rows) rows++;
        end[r] = f->end > f->beg ? f->end : f->beg + 1;
    }
    return rows;
}

int rv_track_value_range(const rv_track_t *t, double *lo, double *hi)
{
    *lo = t->vlo;
    *hi = t->vhi;
    return t->has_value;
}

const char *rv_track_warnings(const rv_track_t *t)
{
    rv_track_t *w = (rv_track_t *)t; /* the text is made on demand */
    size_t l = 0;
    w->warn[0] = 0;
    if (t->n_bad) {
        l = (size_t)snprintf(w->warn, sizeof w->warn, "%s", t->first_bad);
        if (t->n_bad > 1 && l < sizeof w->warn)
            l += (size_t)snprintf(w->warn + l, sizeof w->warn - l, " (%zu malformed lines skipped)", t->n_bad);
    }
    if (t->n_missing && l < sizeof w->warn)
        snprintf(w->warn + l, sizeof w->warn - l, "%s%s: %zu record name%s not in the FASTA: %s%s", l ? "; " : "",
                 t->path, t->n_missing, t->n_missing > 1 ? "s" : "", t->missing_list, t->n_missing > 3 ? ", ..." : "");
    return w->warn;
}

/* ---- queries ---------------------------------------------------------------------- */

/* Read [beg, end) of record rid through the index into t->mem; a gene reaching
 * out of the window widens it, so that every gene comes with all its parts. */
static int read_window_once(rv_track_t *t, uint32_t rid, uint64_t beg, uint64_t end);

static int read_window(rv_track_t *t, uint32_t rid, uint64_t beg, uint64_t end)
{
    for (int k = 0; k < 4; k++) {
        if (read_window_once(t, rid, beg, end) < 0) return -1;
        if (t->fmt != RV_TRACK_GFF3 && t->fmt != RV_TRACK_GTF) return 0;
        uint64_t lo = beg, hi = end;
        for (size_t i = 0; i < t->mem.n; i++) {
            if (t->mem.f[i].beg < lo) lo = t->mem.f[i].beg;
            if (t->mem.f[i].end > hi) hi = t->mem.f[i].end;
        }
        if (lo == beg && hi == end) return 0;
        beg = lo;
        end = hi;
    }
    return 0;
}

static int read_window_once(rv_track_t *t, uint32_t rid, uint64_t beg, uint64_t end)
{
    store_free(&t->mem);
    t->w_valid = 0;
    int tid = t->tid[rid];
    lines_t v = {0};
    int rc = 0;
    if (tid >= 0) {
        hts_itr_t *itr = t->tbx ? tbx_itr_queryi(t->tbx, tid, (hts_pos_t)beg, (hts_pos_t)end)
                                : bcf_itr_queryi(t->idx, tid, (hts_pos_t)beg, (hts_pos_t)end);
        kstring_t ks = {0, 0, NULL};
        if (!itr) rc = -1;
        while (rc == 0) {
            int r = t->tbx ? tbx_itr_next(t->fp, t->tbx, itr, &ks) : bcf_itr_next(t->fp, itr, t->rec);
            if (r < 0) { rc = r < -1 ? -1 : 0; break; }
            if (t->hdr && t->tbx) {
                if (vcf_parse(&ks, t->hdr, t->rec) < 0) { note_bad(t, 0, t->seq->rec[rid].name, "not a VCF record"); continue; }
            }
            if (t->hdr) rc = add_vcf_record(t, &v, &t->mem.ar, 0);
            else if (add_text_line(t, ks.s, 0, &v, &t->mem.ar) < 0) rc = -1;
        }
        free(ks.s);
        hts_itr_destroy(itr);
    }
    if (rc == 0 && store_build(t, &t->mem, &v, 0) < 0) rc = -1;
    free(v.l);
    if (rc < 0) {
        store_free(&t->mem);
        return rv_error(t->path, "cannot read %s:%llu-%llu through the index", t->seq->rec[rid].name,
                        (unsigned long long)beg + 1, (unsigned long long)end);
    }
    t->w_rid = rid;
    t->w_beg = beg;
    t->w_end = end;
    t->w_valid = 1;
    return 0;
}

int rv_track_query(rv_track_t *t, uint32_t rid, uint64_t beg, uint64_t end, const rv_feature_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (rid >= t->seq->n_rec || end <= beg) return 0;
    if (rv_track_indexed(t) && !(t->w_valid && t->w_rid == rid && t->w_beg <= beg && end <= t->w_end)) {
        /* a window around the request, so that the next screens come from memory */
        uint64_t span = end - beg, margin = 4 * span + 1000, len = t->seq->rec[rid].len;
        uint64_t wb = beg > margin ? beg - margin : 0, we = end + margin;
        if (len && we > len && end <= len) we = len;
        if (read_window(t, rid, wb, we) < 0) return -1;
    }
    size_t k = track_index_query(&t->mem.ix, rid, beg, end, &t->pos, &t->pos_cap);
    if (k == (size_t)-1) return rv_error(t->path, "out of memory");
    if (k > t->out_cap) {
        rv_feature_t *o = realloc(t->out, k * sizeof *o);
        if (!o) return rv_error(t->path, "out of memory");
        t->out = o;
        t->out_cap = k;
    }
    for (size_t i = 0; i < k; i++) t->out[i] = t->mem.f[t->pos[i]];
    *out = t->out;
    *n = k;
    return 0;
}

/* Indexed: the nearest start after (dir 1) or before (-1) pos on record rid,
 * through windows read without margin, from 1 kb doubling: a dense file reads
 * little, a sparse one few windows. */
static int step_indexed(rv_track_t *t, uint32_t rid, uint64_t pos, int dir, rv_feature_t *out)
{
    uint64_t len = t->seq->rec[rid].len;
    for (uint64_t w = 1024;; w *= 2) {
        uint64_t lo = dir > 0 ? pos + 1 : pos > w ? pos - w : 0, hi = dir > 0 ? pos + 1 + w : pos;
        if (lo >= hi || (dir > 0 && lo >= len)) return 0;
        if (read_window(t, rid, lo, hi) < 0) return -1;
        const rv_feature_t *f = t->mem.f;
        int64_t best = -1;
        for (size_t i = 0; i < t->mem.n; i++) { /* starting in the window: those before it may not be the nearest */
            if (dir > 0 ? f[i].beg <= pos : f[i].beg >= pos || f[i].beg < lo) continue;
            if (best < 0 || (dir > 0 ? f[i].beg < f[best].beg : f[i].beg >= f[best].beg)) best = (int64_t)i;
        }
        if (best >= 0) { *out = f[best]; return 1; }
        if (dir > 0 ? hi >= len : lo == 0) return 0;
    }
}

int rv_track_step(rv_track_t *t, uint32_t rid, uint64_t pos, int dir, rv_feature_t *out)
{
    if (!rv_track_indexed(t)) {
        const track_index_t *x = &t->mem.ix;
        size_t i = track_index_lower(x, rid, dir > 0 ? pos + 1 : pos);
        if (dir > 0 ? i >= x->n : i == 0) return 0;
        *out = t->mem.f[dir > 0 ? i : i - 1];
        return 1;
    }
    for (int64_t r = rid; r >= 0 && (uint64_t)r < t->seq->n_rec; r += dir) {
        if (t->tid[r] < 0) continue;
        uint64_t from = r == (int64_t)rid ? pos : dir > 0 ? 0 : t->seq->rec[r].len + 1;
        if (r != (int64_t)rid && dir > 0) { /* a feature may start at 0 */
            const rv_feature_t *f;
            size_t n;
            if (rv_track_query(t, (uint32_t)r, 0, 1, &f, &n) < 0) return -1;
            for (size_t i = 0; i < n; i++) if (f[i].beg == 0) { *out = f[i]; return 1; }
        }
        int rc = step_indexed(t, (uint32_t)r, from, dir, out);
        if (rc) return rc;
    }
    return 0;
}

/* ---- names ------------------------------------------------------------------------ */

/* The names of an indexed track: its whole file read once, on the thread of
 * rv_track_names_start (it touches only the name table, and looks records up
 * without noting the missing ones, which the main thread does). */
static int scan_names(rv_track_t *t)
{
    htsFile *fp = hts_open(t->path, "r");
    if (!fp) return snprintf(t->names_err, sizeof t->names_err, "cannot open"), -1;
    lines_t v = {0};
    track_arena_t scratch = {0};
    kstring_t ks = {0, 0, NULL};
    int rc = 0;
    bcf_hdr_t *hdr = t->hdr ? bcf_hdr_read(fp) : NULL;
    bcf1_t *rec = t->hdr ? bcf_init() : NULL;
    for (uint64_t no = 1; rc == 0; no++) {
        if (v.n >= 4096) { /* the names of a batch go to their own arena */
            if (add_names(t, v.l, v.n, &t->names_ar) < 0) rc = -1;
            v.n = 0;
            arena_free(&scratch);
            if (atomic_load(&t->names_stop)) { rc = -2; break; }
        }
        track_line_t *l = NULL;
        if (t->hdr) {
            if (!hdr || !rec || bcf_read(fp, hdr, rec) != 0) break;
            if (!(l = lines_push(&v)) || track_parse_vcf(hdr, rec, &scratch, l) < 0) rc = -1;
        } else {
            if (hts_getline(fp, KS_SEP_LINE, &ks) < 0) break;
            char why[200];
            if (!(l = lines_push(&v))) { rc = -1; break; }
            int r = track_parse_line(t->fmt, ks.s, &scratch, l, why, sizeof why);
            if (r != 1) { v.n--; l = NULL; }
            if (r == 2) break;
        }
        if (rc == 0 && l) l->f.rid = rid_lookup(t, l->chrom, 0);
    }
    if (rc == 0 && add_names(t, v.l, v.n, &t->names_ar) < 0) rc = -1;
    free(ks.s);
    free(v.l);
    arena_free(&scratch);
    if (rec) bcf_destroy(rec);
    if (hdr) bcf_hdr_destroy(hdr);
    hts_close(fp);
    if (rc < 0) return snprintf(t->names_err, sizeof t->names_err, rc == -2 ? "stopped" : "out of memory"), -1;
    if (t->n_names) qsort(t->names, t->n_names, sizeof *t->names, cmp_name);
    return 0;
}

static void *names_main(void *arg)
{
    rv_track_t *t = arg;
    t->names_rc = scan_names(t);
    atomic_store(&t->names_done, 1);
    return NULL;
}

int rv_track_names_start(rv_track_t *t)
{
    if (t->names_read || t->names_thread_on) return 0;
    sigset_t all, old; /* signals stay with the thread that handles them */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&t->names_thread, NULL, names_main, t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) return rv_error(t->path, "cannot start a thread: %s", strerror(rc));
    t->names_thread_on = 1;
    return 0;
}

/* Take the names once their thread is done (wait: until it is); 1 when final. */
static int names_join(rv_track_t *t, int wait)
{
    if (t->names_read) return 1;
    if (!t->names_thread_on || (!wait && !atomic_load(&t->names_done))) return 0;
    pthread_join(t->names_thread, NULL);
    t->names_thread_on = 0;
    t->names_read = 1;
    return 1;
}

int rv_track_names_ready(rv_track_t *t) { return names_join(t, 0); }

/* The names, read on this thread when no other has read them. */
static int read_names(rv_track_t *t)
{
    if (!t->names_read && rv_track_names_start(t) < 0) return -1;
    names_join(t, 1);
    return t->names_rc < 0 ? rv_error(t->path, "reading the names: %s", t->names_err) : 0;
}

static size_t names_lower(const rv_track_t *t, const char *key)
{
    size_t lo = 0, hi = t->n_names;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(t->names[mid].key, key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void name_feature(const name_t *m, rv_feature_t *out)
{
    memset(out, 0, sizeof *out);
    out->rid = m->rid;
    out->beg = m->beg;
    out->end = m->end;
    out->name = m->key;
    out->id = out->type = out->ref = out->alt = out->attrs = "";
    out->strand = '.';
    out->value = NAN;
}

int rv_track_find(rv_track_t *t, const char *name, rv_feature_t *out, size_t max, size_t *n_out)
{
    *n_out = 0;
    if (read_names(t) < 0) return -1;
    size_t i = names_lower(t, name), pl = strlen(name);
    if (i < t->n_names && !strcmp(t->names[i].key, name)) {
        if (max) name_feature(&t->names[i], out), *n_out = 1;
        return 1;
    }
    size_t distinct = 0;
    for (size_t j = i; j < t->n_names && !strncmp(t->names[j].key, name, pl); j++) {
        if (j > i && !strcmp(t->names[j].key, t->names[j - 1].key)) continue;
        if (distinct < max) name_feature(&t->names[j], &out[distinct]);
        distinct++;
    }
    *n_out = distinct < max ? distinct : max;
    return distinct == 0 ? 0 : distinct == 1 ? 1 : 2;
}

size_t rv_track_complete(rv_track_t *t, const char *prefix, char *buf, size_t len)
{
    if (len) snprintf(buf, len, "%s", prefix);
    if (read_names(t) < 0) return 0;
    size_t i = names_lower(t, prefix), pl = strlen(prefix), n = 0, common = 0;
    const char *first = NULL;
    for (size_t j = i; j < t->n_names && !strncmp(t->names[j].key, prefix, pl); j++) {
        const char *k = t->names[j].key;
        if (!first) { first = k; common = strlen(k); }
        else {
            size_t c = 0;
            while (c < common && first[c] == k[c]) c++;
            common = c;
        }
        if (j == i || strcmp(k, t->names[j - 1].key)) n++;
    }
    if (first && len) snprintf(buf, len, "%.*s", (int)common, first);
    return n;
}
