/* track_parse.c — lines of BED, bedGraph, GFF3 and GTF, records of VCF/BCF (read
 * by htslib), as features; and the folding of GFF3/GTF lines into one feature per
 * gene (UCSC's BED12 model: exons are blocks, the CDS span is the thick part). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <htslib/kstring.h>
#include "track_parse.h"

enum { ARENA_CHUNK = 1 << 16, MAX_COLS = 64, MAX_DEPTH = 32 };

void *arena_alloc(track_arena_t *ar, size_t bytes)
{
    bytes = (bytes + 7) & ~(size_t)7;
    if (ar->used + bytes > ar->room) {
        size_t room = bytes > ARENA_CHUNK ? bytes : ARENA_CHUNK;
        if (ar->n == ar->cap) {
            size_t cap = ar->cap ? ar->cap * 2 : 16;
            char **c = realloc(ar->chunk, cap * sizeof *c);
            if (!c) return NULL;
            ar->chunk = c;
            ar->cap = cap;
        }
        char *m = malloc(room);
        if (!m) return NULL;
        ar->chunk[ar->n++] = m;
        ar->used = 0;
        ar->room = room;
    }
    void *p = ar->chunk[ar->n - 1] + ar->used;
    ar->used += bytes;
    return p;
}

const char *arena_str(track_arena_t *ar, const char *s, size_t len)
{
    if (len == 0) return "";
    char *p = arena_alloc(ar, len + 1);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = 0;
    return p;
}

void arena_free(track_arena_t *ar)
{
    for (size_t i = 0; i < ar->n; i++) free(ar->chunk[i]);
    free(ar->chunk);
    memset(ar, 0, sizeof *ar);
}

int track_format_of_name(const char *path)
{
    static const struct { const char *ext; rv_track_format_t f; } ext[] = {
        {".bed", RV_TRACK_BED},       {".bedgraph", RV_TRACK_BEDGRAPH}, {".bdg", RV_TRACK_BEDGRAPH},
        {".bg", RV_TRACK_BEDGRAPH},   {".gff3", RV_TRACK_GFF3},         {".gff", RV_TRACK_GFF3},
        {".gtf", RV_TRACK_GTF},       {".vcf", RV_TRACK_VCF},           {".bcf", RV_TRACK_VCF},
    };
    size_t n = strlen(path);
    if (n > 3 && !strcasecmp(path + n - 3, ".gz")) n -= 3;
    else if (n > 4 && !strcasecmp(path + n - 4, ".bgz")) n -= 4;
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        size_t e = strlen(ext[i].ext);
        if (n > e && !strncasecmp(path + n - e, ext[i].ext, e)) return (int)ext[i].f;
    }
    return -1;
}

/* Split at tabs (or, in a line without one, at runs of blanks: BED files written
 * by hand); returns the number of columns. */
static int split(char *line, char **col, int max, int blanks)
{
    int n = 0;
    char *p = line;
    if (blanks) {
        while (n < max) {
            while (*p == ' ') p++;
            if (!*p) break;
            col[n++] = p;
            while (*p && *p != ' ') p++;
            if (!*p) break;
            *p++ = 0;
        }
        return n;
    }
    col[n++] = p;
    while (n < max && (p = strchr(p, '\t'))) {
        *p++ = 0;
        col[n++] = p;
    }
    return n;
}

static int parse_u64(const char *s, uint64_t *v)
{
    if (!isdigit((unsigned char)*s)) return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno) return -1;
    *v = x;
    return 0;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end == s || *end ? -1 : 0;
}

#define BAD(...) (snprintf(why, why_len, __VA_ARGS__), -1)

static void line_init(track_line_t *out)
{
    memset(out, 0, sizeof *out);
    rv_feature_t *f = &out->f;
    f->name = f->id = f->type = f->ref = f->alt = f->attrs = "";
    out->parent = "";
    f->strand = '.';
    f->value = NAN;
}

/* BED blocks from the comma lists of columns 11 and 12 (trailing comma allowed). */
static int bed_blocks(track_arena_t *ar, rv_feature_t *f, const char *count, char *sizes, char *starts,
                      char *why, size_t why_len)
{
    uint64_t n;
    if (parse_u64(count, &n) < 0 || n == 0 || n > 100000) return BAD("bad blockCount '%s'", count);
    uint32_t *b = arena_alloc(ar, 2 * n * sizeof *b);
    if (!b) return BAD("out of memory");
    char *sp = sizes, *tp = starts;
    for (uint64_t k = 0; k < n; k++) {
        char *se = strchr(sp, ','), *te = strchr(tp, ',');
        if (se) *se = 0;
        if (te) *te = 0;
        uint64_t sz, st;
        if (parse_u64(sp, &sz) < 0 || parse_u64(tp, &st) < 0) return BAD("blockSizes/blockStarts do not hold %llu numbers", (unsigned long long)n);
        if (st + sz > f->end - f->beg) return BAD("block %llu ends past the feature", (unsigned long long)k + 1);
        b[2 * k] = (uint32_t)st;
        b[2 * k + 1] = (uint32_t)(st + sz);
        if (k && b[2 * k] < b[2 * k - 2]) return BAD("blockStarts not sorted");
        if (k + 1 < n && (!se || !te)) return BAD("blockSizes/blockStarts do not hold %llu numbers", (unsigned long long)n);
        sp = se ? se + 1 : sp + strlen(sp);
        tp = te ? te + 1 : tp + strlen(tp);
    }
    f->blocks = b;
    f->block_count = (uint32_t)n;
    return 0;
}

static int parse_bed(char **col, int nc, int graph, track_arena_t *ar, track_line_t *out, char *why, size_t why_len)
{
    rv_feature_t *f = &out->f;
    if (nc < (graph ? 4 : 3)) return BAD("expected at least %d columns, found %d", graph ? 4 : 3, nc);
    if (parse_u64(col[1], &f->beg) < 0) return BAD("bad start '%s'", col[1]);
    if (parse_u64(col[2], &f->end) < 0) return BAD("bad end '%s'", col[2]);
    if (f->end < f->beg) return BAD("end %s before start %s", col[2], col[1]);
    out->chrom = col[0];
    f->thick_beg = f->beg;
    f->thick_end = f->end;
    if (graph) {
        if (parse_double(col[3], &f->value) < 0) return BAD("bad value '%s'", col[3]);
        return 1;
    }
    if (nc > 3 && strcmp(col[3], ".") != 0) f->name = col[3];
    if (nc > 4 && strcmp(col[4], ".") != 0 && parse_double(col[4], &f->value) < 0) return BAD("bad score '%s'", col[4]);
    if (nc > 5) {
        if (strlen(col[5]) != 1 || !strchr("+-.", col[5][0])) return BAD("bad strand '%s'", col[5]);
        f->strand = col[5][0];
    }
    if (nc > 7) {
        if (parse_u64(col[6], &f->thick_beg) < 0 || parse_u64(col[7], &f->thick_end) < 0 ||
            f->thick_beg < f->beg || f->thick_end > f->end || f->thick_end < f->thick_beg)
            return BAD("bad thickStart/thickEnd '%s' '%s'", col[6], col[7]);
    }
    if (nc > 9) {
        if (nc < 12) return BAD("blockCount without blockSizes and blockStarts");
        if (bed_blocks(ar, f, col[9], col[10], col[11], why, why_len) < 0) return -1;
    }
    if (nc > 12) { /* extra columns, as they are */
        for (int c = 13; c < nc; c++) col[c][-1] = ' ';
        f->attrs = col[12];
    }
    return 1;
}

/* GFF3 attribute KEY=VALUE (the first of a comma list when first is set). */
static const char *gff_attr(track_arena_t *ar, const char *attrs, const char *key, int first)
{
    size_t kl = strlen(key);
    for (const char *p = attrs; p && *p;) {
        while (*p == ' ') p++;
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            const char *v = p + kl + 1;
            size_t vl = len - kl - 1;
            if (first) {
                const char *comma = memchr(v, ',', vl);
                if (comma) vl = (size_t)(comma - v);
            }
            return arena_str(ar, v, vl);
        }
        p = end ? end + 1 : NULL;
    }
    return "";
}

/* GTF attribute: KEY "VALUE"; (quotes optional). */
static const char *gtf_attr(track_arena_t *ar, const char *attrs, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = attrs; p && *p;) {
        while (*p == ' ') p++;
        if (!strncmp(p, key, kl) && p[kl] == ' ') {
            const char *v = p + kl;
            while (*v == ' ') v++;
            int q = *v == '"';
            v += q;
            const char *e = v;
            while (*e && (q ? *e != '"' : *e != ';' && *e != ' ')) e++;
            return arena_str(ar, v, (size_t)(e - v));
        }
        p = strchr(p, ';');
        if (p) p++;
    }
    return "";
}

static int parse_gff(char **col, int nc, int gtf, track_arena_t *ar, track_line_t *out, char *why, size_t why_len)
{
    rv_feature_t *f = &out->f;
    uint64_t s, e;
    if (nc != 9) return BAD("expected 9 tab-separated columns, found %d", nc);
    if (parse_u64(col[3], &s) < 0 || s == 0) return BAD("bad start '%s'", col[3]);
    if (parse_u64(col[4], &e) < 0 || e + 1 < s) return BAD("bad end '%s'", col[4]);
    if (strlen(col[6]) != 1 || !strchr("+-.?", col[6][0])) return BAD("bad strand '%s'", col[6]);
    out->chrom = col[0];
    f->type = col[2];
    f->beg = s - 1;
    f->end = e;
    f->thick_beg = f->beg;
    f->thick_end = f->end;
    f->strand = col[6][0] == '?' ? '.' : col[6][0];
    if (strcmp(col[5], ".") != 0 && parse_double(col[5], &f->value) < 0) return BAD("bad score '%s'", col[5]);
    f->attrs = col[8];
    if (!gtf) {
        f->id = gff_attr(ar, col[8], "ID", 0);
        f->name = gff_attr(ar, col[8], "Name", 0);
        out->parent = gff_attr(ar, col[8], "Parent", 1);
    } else {
        const char *gene = gtf_attr(ar, col[8], "gene_id");
        if (!*gene) return BAD("no gene_id attribute");
        f->name = gtf_attr(ar, col[8], "gene_name");
        if (!strcmp(f->type, "gene")) f->id = gene;
        else {
            out->parent = gene;
            if (!strcmp(f->type, "transcript")) f->id = gtf_attr(ar, col[8], "transcript_id");
        }
    }
    if (!f->id || !f->name || !out->parent) return BAD("out of memory");
    return 1;
}

int track_parse_line(rv_track_format_t fmt, char *line, track_arena_t *ar, track_line_t *out,
                     char *why, size_t why_len)
{
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\r' || line[len - 1] == '\n')) line[--len] = 0;
    line_init(out);
    if (!*line || *line == '#') return fmt == RV_TRACK_GFF3 && !strncmp(line, "##FASTA", 7) ? 2 : 0;
    if ((fmt == RV_TRACK_BED || fmt == RV_TRACK_BEDGRAPH) &&
        (!strncmp(line, "track", 5) || !strncmp(line, "browser", 7)) && (!line[5] || isspace((unsigned char)line[5]) || !strncmp(line, "browser", 7)))
        return 0;
    char *col[MAX_COLS];
    int bed = fmt == RV_TRACK_BED || fmt == RV_TRACK_BEDGRAPH;
    int nc = split(line, col, MAX_COLS, bed && !strchr(line, '\t'));
    int rc;
    if (bed) rc = parse_bed(col, nc, fmt == RV_TRACK_BEDGRAPH, ar, out, why, why_len);
    else if (fmt == RV_TRACK_GFF3 || fmt == RV_TRACK_GTF) rc = parse_gff(col, nc, fmt == RV_TRACK_GTF, ar, out, why, why_len);
    else return BAD("not a text format");
    if (rc < 0) return -1;
    /* the strings point into line: copy them into the arena */
    rv_feature_t *f = &out->f;
    const char **strs[] = {&out->chrom, &f->name, &f->type, &f->attrs};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        if ((*strs[i] = arena_str(ar, *strs[i], strlen(*strs[i]))) == NULL) return BAD("out of memory");
    return 1;
}

int track_parse_vcf(const bcf_hdr_t *hdr, bcf1_t *rec, track_arena_t *ar, track_line_t *out)
{
    line_init(out);
    rv_feature_t *f = &out->f;
    if (bcf_unpack(rec, BCF_UN_STR) < 0) return -1;
    out->chrom = bcf_hdr_id2name(hdr, rec->rid);
    f->beg = (uint64_t)rec->pos;
    f->end = f->beg + (uint64_t)(rec->rlen > 0 ? rec->rlen : 1);
    f->thick_beg = f->beg;
    f->thick_end = f->end;
    if (!bcf_float_is_missing(rec->qual)) f->value = rec->qual;
    if (rec->d.id && strcmp(rec->d.id, ".") != 0) f->name = f->id = arena_str(ar, rec->d.id, strlen(rec->d.id));
    f->ref = rec->n_allele ? arena_str(ar, rec->d.allele[0], strlen(rec->d.allele[0])) : "";
    kstring_t ks = {0, 0, NULL};
    size_t rl = strlen(f->ref ? f->ref : "");
    int snv = rl == 1, same = 1, sym = 0;
    for (int k = 1; k < rec->n_allele; k++) {
        const char *al = rec->d.allele[k];
        if (k > 1) kputc(',', &ks);
        kputs(al, &ks);
        sym |= al[0] == '<' || strchr(al, '[') || strchr(al, ']');
        snv &= strlen(al) == 1;
        same &= strlen(al) == rl;
    }
    f->alt = arena_str(ar, ks.s ? ks.s : "", ks.l);
    f->type = sym ? "SV" : snv ? "SNV" : same ? "MNV" : "indel";
    ks.l = 0;
    if (vcf_format(hdr, rec, &ks) == 0) { /* INFO is the 8th column */
        char *p = ks.s;
        for (int c = 0; c < 7 && p; c++) if ((p = strchr(p, '\t'))) p++;
        if (p) {
            size_t l = strcspn(p, "\t\n");
            if (!(l == 1 && *p == '.')) f->attrs = arena_str(ar, p, l);
        }
    }
    free(ks.s);
    return f->ref && f->alt && f->attrs ? 1 : -1;
}

/* ---- folding GFF3/GTF lines into genes -------------------------------------------- */

static int cmp_id(const void *p, const void *q, void *lines)
{
    const track_line_t *l = lines;
    return strcmp(l[*(const size_t *)p].f.id, l[*(const size_t *)q].f.id);
}

static size_t *id_index(const track_line_t *l, size_t n, size_t *n_ids)
{
    size_t *ix = malloc((n ? n : 1) * sizeof *ix), k = 0;
    if (!ix) return NULL;
    for (size_t i = 0; i < n; i++)
        if (*l[i].f.id) ix[k++] = i;
    qsort_r(ix, k, sizeof *ix, cmp_id, (void *)l);
    *n_ids = k;
    return ix;
}

static int64_t find_id(const track_line_t *l, const size_t *ix, size_t n, const char *id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(l[ix[mid]].f.id, id);
        if (c == 0) return (int64_t)ix[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static int cmp_str(const void *p, const void *q) { return strcmp(*(char *const *)p, *(char *const *)q); }

/* GTF: a gene named by gene_id but without a gene line gets one, made from its
 * first line. */
static int add_missing_genes(track_line_t **pl, size_t *pn, track_arena_t *ar)
{
    track_line_t *l = *pl;
    size_t n = *pn, n_ids, k = 0;
    size_t *ix = id_index(l, n, &n_ids);
    const char **miss = malloc((n ? n : 1) * sizeof *miss);
    if (!ix || !miss) { free(ix); free(miss); return -1; }
    for (size_t i = 0; i < n; i++)
        if (*l[i].parent && find_id(l, ix, n_ids, l[i].parent) < 0) miss[k++] = l[i].parent;
    qsort(miss, k, sizeof *miss, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || strcmp(miss[u - 1], miss[i])) miss[u++] = miss[i];
    free(ix);
    char *made = calloc(u ? u : 1, 1);
    track_line_t *nl = u && made ? realloc(l, (n + u) * sizeof *nl) : l;
    if (!made || (u && !nl)) { free(miss); free(made); return -1; }
    l = *pl = nl;
    for (size_t i = 0, n0 = n; i < n0 && u; i++) { /* the first line of each gene makes it, in file order */
        const char **m = *l[i].parent ? bsearch(&l[i].parent, miss, u, sizeof *miss, cmp_str) : NULL;
        if (!m || made[m - miss]) continue;
        made[m - miss] = 1;
        track_line_t *g = &l[n++];
        *g = l[i];
        g->f.type = "gene";
        g->f.id = *m;
        g->f.block_count = 0;
        g->parent = "";
    }
    *pn = n;
    free(made);
    free(miss);
    return 0;
}

typedef struct { size_t root; uint64_t beg, end; int kind; } part_t;

static int cmp_part(const void *p, const void *q)
{
    const part_t *a = p, *b = q;
    if (a->root != b->root) return a->root < b->root ? -1 : 1;
    if (a->kind != b->kind) return a->kind - b->kind;
    return a->beg < b->beg ? -1 : a->beg > b->beg;
}

/* Blocks of root r from its parts of one kind (merged where they overlap: the
 * exons of several transcripts). */
static int set_blocks(rv_feature_t *r, const part_t *p, size_t n, track_arena_t *ar)
{
    uint32_t *b = arena_alloc(ar, 2 * n * sizeof *b);
    if (!b) return -1;
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t s = (uint32_t)(p[i].beg - r->beg), e = (uint32_t)(p[i].end - r->beg);
        if (k && s <= b[2 * k - 1]) { if (e > b[2 * k - 1]) b[2 * k - 1] = e; continue; }
        b[2 * k] = s;
        b[2 * k + 1] = e;
        k++;
    }
    r->blocks = b;
    r->block_count = k;
    return 0;
}

static size_t root_of(const track_line_t *l, const size_t *ix, size_t n_ids, size_t i)
{
    size_t r = i;
    for (int d = 0; d < MAX_DEPTH && *l[r].parent; d++) {
        int64_t p = find_id(l, ix, n_ids, l[r].parent);
        if (p < 0 || (size_t)p == r || strcmp(l[p].chrom, l[r].chrom)) break;
        r = (size_t)p;
    }
    return r;
}

size_t track_fold(track_line_t **pl, size_t n, rv_track_format_t fmt, track_arena_t *ar)
{
    if (fmt != RV_TRACK_GFF3 && fmt != RV_TRACK_GTF) return n;
    if (fmt == RV_TRACK_GTF && add_missing_genes(pl, &n, ar) < 0) return (size_t)-1;
    track_line_t *l = *pl;
    size_t n_ids, np = 0;
    size_t *ix = id_index(l, n, &n_ids), *root = malloc((n ? n : 1) * sizeof *root);
    part_t *parts = malloc((n ? n : 1) * sizeof *parts);
    if (!ix || !root || !parts) { free(ix); free(root); free(parts); return (size_t)-1; }
    for (size_t i = 0; i < n; i++) root[i] = root_of(l, ix, n_ids, i);
    for (size_t i = 0; i < n; i++) { /* extents first: the blocks are offsets from the start */
        rv_feature_t *r = &l[root[i]].f;
        if (root[i] == i) continue;
        if (l[i].f.beg < r->beg) r->beg = l[i].f.beg;
        if (l[i].f.end > r->end) r->end = l[i].f.end;
        r->n_parts++;
        int kind = !strcasecmp(l[i].f.type, "exon") ? 0 : !strcasecmp(l[i].f.type, "CDS") ? 1 : -1;
        if (kind >= 0) parts[np++] = (part_t){root[i], l[i].f.beg, l[i].f.end, kind};
    }
    qsort(parts, np, sizeof *parts, cmp_part);
    for (size_t i = 0, j; i < np; i = j) {
        rv_feature_t *r = &l[parts[i].root].f;
        for (j = i; j < np && parts[j].root == parts[i].root; j++) {}
        size_t ex = i;
        while (ex < j && parts[ex].kind == 0) ex++; /* [i, ex) exons, [ex, j) CDS */
        if (set_blocks(r, parts + i, ex > i ? ex - i : j - i, ar) < 0) { np = (size_t)-1; break; }
        if (ex < j) {
            r->thick_beg = parts[ex].beg;
            r->thick_end = parts[ex].end;
            for (size_t k = ex; k < j; k++) if (parts[k].end > r->thick_end) r->thick_end = parts[k].end;
        } else r->thick_beg = r->thick_end = r->beg; /* exons and no CDS: non-coding */
    }
    size_t k = 0;
    if (np != (size_t)-1)
        for (size_t i = 0; i < n; i++) {
            if (root[i] != i) continue;
            if (!l[i].f.block_count) l[i].f.thick_beg = l[i].f.beg, l[i].f.thick_end = l[i].f.end;
            l[k++] = l[i];
        }
    free(ix);
    free(root);
    free(parts);
    return np == (size_t)-1 ? (size_t)-1 : k;
}
