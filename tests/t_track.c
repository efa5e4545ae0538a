/* t_track.c — annotation tracks (track.h) against brute force: the interval index
 * on random intervals (several records, narrow and wide ranges, all-same, nested
 * and empty intervals), and random BED12, GFF3, GTF and VCF files, read whole and
 * (bgzipped with a tabix or CSI index made here through htslib) window by window:
 * every query, step and name lookup compared with the answer worked out from the
 * generated features; malformed lines counted and named with their line. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <htslib/bgzf.h>
#include <htslib/hts.h>
#include <htslib/hts_log.h>
#include <htslib/tbx.h>
#include <htslib/vcf.h>
#include "check.h"
#include "repview/common.h"
#include "repview/seq.h"
#include "repview/track.h"
#include "input/track_index.h"

enum { N_REC = 3, REC_LEN = 4000 };

static int cmp_iv(const void *p, const void *q)
{
    const track_iv_t *a = p, *b = q;
    if (a->rid != b->rid) return a->rid < b->rid ? -1 : 1;
    return a->beg < b->beg ? -1 : a->beg > b->beg;
}

static int overlaps(uint64_t b, uint64_t e, uint64_t qb, uint64_t qe)
{
    if (e <= b) e = b + 1; /* an empty interval stands for its position */
    return qb < qe && b < qe && e > qb;
}

static void test_index_oracle(void)
{
    case_begin();
    rng_t r = rng_new(42);
    track_iv_t iv[80];
    size_t *buf = NULL, cap = 0;
    for (int it = 0; it < check_iters(3000) && !check_failed_; it++) {
        int kind = it % 5; /* 0 narrow, 1 wide, 2 all the same, 3 nested, 4 many empty */
        size_t n = rng_below(&r, 80);
        uint64_t span = kind == 0 ? 20 : 1000;
        for (size_t i = 0; i < n; i++) {
            uint32_t rid = (uint32_t)rng_below(&r, 3);
            uint64_t b = rng_below(&r, span), l = rng_below(&r, kind == 1 ? 400 : 12);
            if (kind == 2) { rid = 1; b = 5; l = 4; }
            if (kind == 3) { b = i; l = 2 * (n - i); rid = 0; }
            if (kind == 4 && rng_below(&r, 2)) l = 0;
            iv[i] = (track_iv_t){rid, b, b + l};
        }
        qsort(iv, n, sizeof *iv, cmp_iv);
        track_index_t x;
        CHECK(track_index_build(&x, iv, n) == 0, "build");
        for (int q = 0; q < 40 && !check_failed_; q++) {
            uint32_t rid = (uint32_t)rng_below(&r, 4);
            uint64_t qb = rng_below(&r, span + 20), qe = qb + rng_below(&r, q % 3 ? 30 : 600);
            size_t k = track_index_query(&x, rid, qb, qe, &buf, &cap), m = 0;
            for (size_t i = 0; i < n; i++) {
                if (iv[i].rid != rid || !overlaps(iv[i].beg, iv[i].end, qb, qe)) continue;
                CHECK(m < k && buf[m] == i, "iter %d: query %u:[%llu,%llu) misses interval %zu", it, rid,
                      (unsigned long long)qb, (unsigned long long)qe, i);
                m++;
            }
            CHECK(m == k, "iter %d: %zu answers, brute force %zu", it, k, m);
            size_t lo = track_index_lower(&x, rid, qb), bl = 0;
            while (bl < n && (iv[bl].rid < rid || (iv[bl].rid == rid && iv[bl].beg < qb))) bl++;
            CHECK(lo == bl, "lower %zu, brute force %zu", lo, bl);
        }
        track_index_free(&x);
    }
    free(buf);
    case_end("track_index_oracle");
}

/* The files a case wrote, and their folder. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[400];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') snprintf(p, sizeof p, "%s/%s", dir, e->d_name), unlink(p);
    if (d) closedir(d);
    rmdir(dir);
}

/* ---- generated files ------------------------------------------------------------- */

typedef struct {
    int rid;              /* -1: a record the FASTA lacks */
    uint64_t beg, end, tb, te;
    uint32_t nb, blk[16]; /* [start, end) offsets */
    char strand, name[32], ref[8], alt[8];
    int parts;
} feat_t;

static const char *rec_names[N_REC] = {"chr1", "chr2", "contig_3"};

static rv_seq_t *make_seq(void)
{
    static char seqs[N_REC][REC_LEN + 1];
    const char *ss[N_REC];
    for (int i = 0; i < N_REC; i++) {
        for (int j = 0; j < REC_LEN; j++) seqs[i][j] = "ACGT"[(i * 7 + j * 13) % 4];
        ss[i] = seqs[i];
    }
    return rv_seq_from_records(rec_names, ss, N_REC, RV_ALPHA_DNA);
}

/* The name a file gives record rid: as the FASTA does, or without its "chr". */
static const char *file_chrom(int rid, int alias)
{
    if (rid < 0) return "chrUn_missing";
    return alias && !strncmp(rec_names[rid], "chr", 3) ? rec_names[rid] + 3 : rec_names[rid];
}

static int cmp_feat(const void *p, const void *q)
{
    const feat_t *a = p, *b = q;
    if (a->rid != b->rid) return a->rid < b->rid ? -1 : 1;
    return a->beg < b->beg ? -1 : a->beg > b->beg;
}

static void random_feats(rng_t *r, feat_t *f, size_t n, int bed12)
{
    for (size_t i = 0; i < n; i++) {
        feat_t *x = &f[i];
        memset(x, 0, sizeof *x);
        x->rid = rng_below(r, 12) ? (int)rng_below(r, N_REC) : -1;
        x->beg = rng_below(r, REC_LEN - 300);
        x->end = x->beg + 1 + rng_below(r, 250);
        x->strand = "+-."[rng_below(r, 3)];
        snprintf(x->name, sizeof x->name, "feat%zu", i);
        x->tb = x->beg;
        x->te = x->end;
        if (bed12) {
            x->nb = 1 + (uint32_t)rng_below(r, 4);
            uint64_t len = x->end - x->beg, at = 0;
            for (uint32_t k = 0; k < x->nb; k++) {
                uint64_t s = k == 0 ? 0 : at + rng_below(r, len / 8 + 1);
                uint64_t e = k + 1 == x->nb ? len : s + 1 + rng_below(r, len / 4 + 1);
                if (e > len) e = len;
                if (s >= e) { x->nb = k; break; }
                x->blk[2 * k] = (uint32_t)s;
                x->blk[2 * k + 1] = (uint32_t)e;
                at = e;
            }
            if (x->nb == 0) { x->nb = 1; x->blk[0] = 0; x->blk[1] = (uint32_t)len; }
            x->blk[2 * x->nb - 1] = (uint32_t)len; /* BED12: the last block ends the feature */
            x->tb = x->beg + rng_below(r, len / 2 + 1);
            x->te = x->tb + rng_below(r, x->end - x->tb + 1);
        }
    }
    qsort(f, n, sizeof *f, cmp_feat);
}

/* Sorted as tabix wants: by the file's record name, then start. */
static int cmp_file_order(const void *p, const void *q)
{
    const feat_t *a = p, *b = q;
    int c = strcmp(file_chrom(a->rid, 0), file_chrom(b->rid, 0));
    return c ? c : a->beg < b->beg ? -1 : a->beg > b->beg;
}

static void write_bed(const char *path, feat_t *f, size_t n, int bgz, size_t *bad_at, size_t n_bad, uint64_t *bad_lines)
{
    feat_t *o = malloc(n * sizeof *o);
    memcpy(o, f, n * sizeof *o);
    qsort(o, n, sizeof *o, cmp_file_order);
    kstring_t ks = {0, 0, NULL};
    uint64_t line = 0;
    if (!bgz) ksprintf(&ks, "track name=test\n"), line++; /* tabix takes no track line */
    for (size_t i = 0, b = 0; i < n; i++) {
        while (b < n_bad && bad_at[b] == i) { ksprintf(&ks, "%s\t12\tnot_a_number\n", file_chrom(o[i].rid, 0)); bad_lines[b++] = ++line; }
        const feat_t *x = &o[i];
        ksprintf(&ks, "%s\t%llu\t%llu\t%s\t0\t%c\t%llu\t%llu\t0\t%u\t", file_chrom(x->rid, i % 5 == 1 && !bgz),
                 (unsigned long long)x->beg, (unsigned long long)x->end, x->name, x->strand,
                 (unsigned long long)x->tb, (unsigned long long)x->te, x->nb);
        for (uint32_t k = 0; k < x->nb; k++) ksprintf(&ks, "%u,", x->blk[2 * k + 1] - x->blk[2 * k]);
        kputc('\t', &ks);
        for (uint32_t k = 0; k < x->nb; k++) ksprintf(&ks, "%u,", x->blk[2 * k]);
        kputc('\n', &ks);
        line++;
    }
    BGZF *fp = bgzf_open(path, bgz ? "w" : "wu");
    CHECK(bgzf_write(fp, ks.s, ks.l) == (ssize_t)ks.l, "write");
    bgzf_close(fp);
    free(ks.s);
    free(o);
    if (bgz) tbx_index_build(path, 0, &tbx_conf_bed);
}

static int same_feature(const rv_feature_t *a, const feat_t *x, char *why, size_t wl)
{
    if ((int)a->rid != x->rid || a->beg != x->beg || a->end != x->end)
        return snprintf(why, wl, "%s at %u:%llu-%llu, expected %d:%llu-%llu", a->name, a->rid,
                        (unsigned long long)a->beg, (unsigned long long)a->end, x->rid, (unsigned long long)x->beg,
                        (unsigned long long)x->end), 0;
    if (strcmp(a->name, x->name) || a->strand != x->strand) return snprintf(why, wl, "name/strand of %s", x->name), 0;
    if (a->thick_beg != x->tb || a->thick_end != x->te) return snprintf(why, wl, "thick part of %s", x->name), 0;
    if (a->block_count != x->nb) return snprintf(why, wl, "%s: %u blocks, expected %u", x->name, a->block_count, x->nb), 0;
    for (uint32_t k = 0; k < 2 * x->nb; k++)
        if (a->blocks[k] != x->blk[k]) return snprintf(why, wl, "%s: block %u", x->name, k / 2), 0;
    return 1;
}

/* Every query, step and lookup of t against the features f (sorted by record and
 * start; those of records the FASTA lacks left out). */
static void compare_track(rv_track_t *t, const feat_t *f, size_t n, rng_t *r, const char *what)
{
    char why[200];
    for (int q = 0; q < 60 && !check_failed_; q++) {
        uint32_t rid = (uint32_t)rng_below(r, N_REC);
        uint64_t qb = rng_below(r, REC_LEN), qe = qb + 1 + rng_below(r, q % 2 ? 100 : 1500);
        const rv_feature_t *out;
        size_t k, m = 0;
        CHECK(rv_track_query(t, rid, qb, qe, &out, &k) == 0, "%s: query: %s", what, rv_last_error());
        for (size_t i = 0; i < n && !check_failed_; i++) {
            if (f[i].rid != (int)rid || !overlaps(f[i].beg, f[i].end, qb, qe)) continue;
            int found = 0;
            for (size_t j = 0; j < k && !found; j++) found = !strcmp(out[j].name, f[i].name);
            CHECK(found, "%s: %s missing from %u:[%llu,%llu)", what, f[i].name, rid, (unsigned long long)qb, (unsigned long long)qe);
            for (size_t j = 0; j < k; j++)
                if (!strcmp(out[j].name, f[i].name)) CHECK(same_feature(&out[j], &f[i], why, sizeof why), "%s: %s", what, why);
            m++;
        }
        CHECK(m == k, "%s: %zu features in %u:[%llu,%llu), expected %zu", what, k, rid, (unsigned long long)qb,
              (unsigned long long)qe, m);
        for (size_t j = 1; j < k; j++) CHECK(out[j - 1].beg <= out[j].beg, "%s: answers not sorted", what);
        /* steps from a random position: the nearest start after or before it */
        int dir = q % 2 ? 1 : -1;
        int64_t best = -1;
        for (size_t i = 0; i < n; i++) {
            if (f[i].rid < 0) continue;
            int after = f[i].rid > (int)rid || (f[i].rid == (int)rid && f[i].beg > qb);
            int before = f[i].rid < (int)rid || (f[i].rid == (int)rid && f[i].beg < qb);
            if (dir > 0 && after && best < 0) best = (int64_t)i;
            if (dir < 0 && before) best = (int64_t)i;
        }
        rv_feature_t s;
        int rc = rv_track_step(t, rid, qb, dir, &s);
        CHECK(rc == (best >= 0), "%s: step %d from %u:%llu: %d", what, dir, rid, (unsigned long long)qb, rc);
        if (rc == 1 && best >= 0)
            CHECK((int)s.rid == f[best].rid && s.beg == f[best].beg, "%s: step %d from %u:%llu reached %u:%llu, expected %d:%llu",
                  what, dir, rid, (unsigned long long)qb, s.rid, (unsigned long long)s.beg, f[best].rid,
                  (unsigned long long)f[best].beg);
    }
    for (size_t i = 0; i < n && !check_failed_; i += 7) { /* names: exact, and unique prefixes */
        rv_feature_t hit;
        size_t got;
        int rc = rv_track_find(t, f[i].name, &hit, 1, &got);
        if (f[i].rid < 0) { /* not found, or another name that starts with it */
            CHECK(rc == 0 || strcmp(hit.name, f[i].name), "%s: %s of a missing record found", what, f[i].name);
            continue;
        }
        CHECK(rc == 1 && (int)hit.rid == f[i].rid && hit.beg == f[i].beg, "%s: find %s: %d", what, f[i].name, rc);
    }
}

static void test_bed(void)
{
    case_begin();
    rng_t r = rng_new(7);
    rv_seq_t *seq = make_seq();
    char dir[] = "/tmp/t_track.XXXXXX", path[200], gz[200];
    CHECK(seq && mkdtemp(dir), "setup");
    snprintf(path, sizeof path, "%s/a.bed", dir);
    snprintf(gz, sizeof gz, "%s/a.bed.gz", dir);
    for (int it = 0; it < check_iters(20) && !check_failed_; it++) {
        size_t n = 1 + rng_below(&r, 150), bad_at[3];
        uint64_t bad_lines[3];
        feat_t *f = malloc(n * sizeof *f);
        random_feats(&r, f, n, 1);
        size_t n_bad = it % 2 ? 3 : 0;
        for (size_t b = 0; b < n_bad; b++) bad_at[b] = rng_below(&r, n);
        for (size_t a = 1; a < n_bad; a++) /* in file order */
            for (size_t b = a; b > 0 && bad_at[b] < bad_at[b - 1]; b--) {
                size_t x = bad_at[b];
                bad_at[b] = bad_at[b - 1];
                bad_at[b - 1] = x;
            }
        write_bed(path, f, n, 0, bad_at, n_bad, bad_lines);
        write_bed(gz, f, n, 1, NULL, 0, NULL);
        rv_track_t *t = rv_track_open(path, seq), *tz = rv_track_open(gz, seq);
        CHECK(t && tz, "open: %s", rv_last_error());
        if (!t || !tz) { free(f); rv_track_close(t); rv_track_close(tz); break; }
        CHECK(!rv_track_indexed(t) && rv_track_indexed(tz), "indexed: %d %d", rv_track_indexed(t), rv_track_indexed(tz));
        CHECK(rv_track_bad_lines(t) == n_bad, "%zu bad lines, expected %zu", rv_track_bad_lines(t), n_bad);
        if (n_bad) {
            char want[300];
            snprintf(want, sizeof want, "%s:%llu: bad end", path, (unsigned long long)bad_lines[0]);
            CHECK(strstr(rv_track_warnings(t), want), "warning '%s', expected '%s'", rv_track_warnings(t), want);
        }
        int missing = 0;
        for (size_t i = 0; i < n; i++) missing |= f[i].rid < 0;
        CHECK(!missing == !strstr(rv_track_warnings(t), "chrUn_missing"), "missing names: '%s'", rv_track_warnings(t));
        compare_track(t, f, n, &r, "bed");
        size_t cap = 1 + rng_below(&r, 6), deepest = 1; /* rows: the most features over one position */
        for (size_t i = 0; i < n; i++)
            for (uint64_t p = f[i].beg; p < f[i].end && f[i].rid >= 0; p++) {
                size_t d = 0;
                for (size_t j = 0; j < n; j++) d += f[j].rid == f[i].rid && f[j].beg <= p && p < f[j].end;
                if (d > deepest) deepest = d;
            }
        CHECK(rv_track_depth(t, cap) == (deepest < cap ? deepest : cap), "depth %zu, brute force %zu (cap %zu)",
              rv_track_depth(t, cap), deepest, cap);
        compare_track(tz, f, n, &r, "bed.gz");
        rv_track_close(t);
        rv_track_close(tz);
        free(f);
    }
    remove_dir(dir);
    rv_seq_free(seq);
    case_end("track_bed_oracle");
}

/* GFF3 genes (gene > mRNA > exon + CDS) and the one feature each should fold into:
 * the union of its exons as blocks, its CDS span as the thick part. */
static size_t write_gff(const char *path, rng_t *r, feat_t *genes, size_t n, int gtf, int bgz)
{
    typedef struct { int rid; uint64_t beg; char text[400]; } line_t;
    line_t *l = malloc(n * 20 * sizeof *l);
    size_t nl = 0;
    for (size_t g = 0; g < n; g++) {
        feat_t *x = &genes[g];
        memset(x, 0, sizeof *x);
        x->rid = (int)rng_below(r, N_REC);
        x->strand = "+-"[rng_below(r, 2)];
        snprintf(x->name, sizeof x->name, "GENE%zu", g);
        uint64_t at = rng_below(r, REC_LEN - 600) + 1, lo = UINT64_MAX, hi = 0, clo = UINT64_MAX, chi = 0;
        int n_tx = 1 + (int)rng_below(r, 2), exon_k = 0;
        uint64_t ex[8][2];
        for (int t = 0; t < n_tx; t++) {
            int ne = 1 + (int)rng_below(r, 3);
            uint64_t p = at + rng_below(r, 20);
            for (int e = 0; e < ne; e++) {
                uint64_t b = p, end = b + 10 + rng_below(r, 60);
                ex[exon_k][0] = b - 1;
                ex[exon_k][1] = end;
                exon_k++;
                p = end + 5 + rng_below(r, 80);
            }
        }
        for (int e = 0; e < exon_k; e++) { lo = ex[e][0] < lo ? ex[e][0] : lo; hi = ex[e][1] > hi ? ex[e][1] : hi; }
        x->beg = lo;
        x->end = hi;
        const char *chr = file_chrom(x->rid, 0);
        int k = 0;
        if (!gtf || bgz) { /* a GTF read by region needs its gene lines (track.h) */
            line_t *gl = &l[nl++];
            gl->rid = x->rid;
            gl->beg = lo;
            if (!gtf) snprintf(gl->text, sizeof gl->text, "%s\ttest\tgene\t%llu\t%llu\t.\t%c\t.\tID=g%zu;Name=%s\n", chr,
                               (unsigned long long)lo + 1, (unsigned long long)hi, x->strand, g, x->name);
            else snprintf(gl->text, sizeof gl->text, "%s\ttest\tgene\t%llu\t%llu\t.\t%c\t.\tgene_id \"g%zu\"; gene_name \"%s\";\n",
                          chr, (unsigned long long)lo + 1, (unsigned long long)hi, x->strand, g, x->name);
        }
        for (int t = 0, e0 = 0; t < n_tx; t++) { /* transcripts in turn: exons split between them */
            int e1 = t + 1 == n_tx ? exon_k : e0 + (exon_k - e0) / 2 + 1;
            if (e1 > exon_k) e1 = exon_k;
            if (e0 >= e1) break;
            uint64_t tlo = ex[e0][0], thi = ex[e0][1];
            for (int e = e0; e < e1; e++) { tlo = ex[e][0] < tlo ? ex[e][0] : tlo; thi = ex[e][1] > thi ? ex[e][1] : thi; }
            line_t *tl = &l[nl++];
            tl->rid = x->rid;
            tl->beg = tlo;
            if (!gtf) snprintf(tl->text, sizeof tl->text, "%s\ttest\tmRNA\t%llu\t%llu\t.\t%c\t.\tID=tx%zu_%d;Parent=g%zu\n",
                               chr, (unsigned long long)tlo + 1, (unsigned long long)thi, x->strand, g, t, g);
            else snprintf(tl->text, sizeof tl->text, "%s\ttest\ttranscript\t%llu\t%llu\t.\t%c\t.\tgene_id \"g%zu\"; transcript_id \"tx%zu_%d\"; gene_name \"%s\";\n",
                          chr, (unsigned long long)tlo + 1, (unsigned long long)thi, x->strand, g, g, t, x->name);
            k++;
            for (int e = e0; e < e1; e++) {
                for (int cds = 0; cds < 2; cds++) {
                    uint64_t b = ex[e][0] + (cds ? 2 : 0), end = ex[e][1] - (cds ? 2 : 0);
                    if (cds && (e % 2 || end <= b)) continue; /* some exons untranslated */
                    if (cds) { clo = b < clo ? b : clo; chi = end > chi ? end : chi; }
                    line_t *el = &l[nl++];
                    el->rid = x->rid;
                    el->beg = b;
                    if (!gtf) snprintf(el->text, sizeof el->text, "%s\ttest\t%s\t%llu\t%llu\t.\t%c\t%s\tParent=tx%zu_%d\n", chr,
                                       cds ? "CDS" : "exon", (unsigned long long)b + 1, (unsigned long long)end, x->strand,
                                       cds ? "0" : ".", g, t);
                    else snprintf(el->text, sizeof el->text, "%s\ttest\t%s\t%llu\t%llu\t.\t%c\t%s\tgene_id \"g%zu\"; transcript_id \"tx%zu_%d\"; gene_name \"%s\";\n",
                                  chr, cds ? "CDS" : "exon", (unsigned long long)b + 1, (unsigned long long)end, x->strand,
                                  cds ? "0" : ".", g, g, t, x->name);
                    k++;
                }
            }
            e0 = e1;
        }
        x->parts = k;
        /* expected blocks: the exons merged */
        for (int a = 1; a < exon_k; a++)
            for (int b = a; b > 0 && ex[b][0] < ex[b - 1][0]; b--) {
                uint64_t t0 = ex[b][0], t1 = ex[b][1];
                ex[b][0] = ex[b - 1][0]; ex[b][1] = ex[b - 1][1];
                ex[b - 1][0] = t0; ex[b - 1][1] = t1;
            }
        for (int e = 0; e < exon_k; e++) {
            if (x->nb && ex[e][0] - lo <= x->blk[2 * x->nb - 1]) {
                if (ex[e][1] - lo > x->blk[2 * x->nb - 1]) x->blk[2 * x->nb - 1] = (uint32_t)(ex[e][1] - lo);
                continue;
            }
            x->blk[2 * x->nb] = (uint32_t)(ex[e][0] - lo);
            x->blk[2 * x->nb + 1] = (uint32_t)(ex[e][1] - lo);
            x->nb++;
        }
        x->tb = clo == UINT64_MAX ? lo : clo;
        x->te = clo == UINT64_MAX ? lo : chi;
    }
    /* sorted by record name and start, as tabix wants (a parent before its parts) */
    for (size_t a = 1; a < nl; a++)
        for (size_t b = a; b > 0; b--) {
            int c = strcmp(file_chrom(l[b].rid, 0), file_chrom(l[b - 1].rid, 0));
            if (c > 0 || (c == 0 && l[b].beg >= l[b - 1].beg)) break;
            line_t tmp = l[b]; l[b] = l[b - 1]; l[b - 1] = tmp;
        }
    BGZF *fp = bgzf_open(path, bgz ? "w" : "wu");
    ssize_t w = gtf ? 0 : bgzf_write(fp, "##gff-version 3\n", 16);
    for (size_t i = 0; i < nl && w >= 0; i++) w = bgzf_write(fp, l[i].text, strlen(l[i].text));
    CHECK(w >= 0, "write");
    bgzf_close(fp);
    if (bgz) tbx_index_build(path, 0, &tbx_conf_gff);
    free(l);
    qsort(genes, n, sizeof *genes, cmp_feat);
    return nl;
}

static void test_gff(int gtf)
{
    case_begin();
    rng_t r = rng_new(11 + (uint64_t)gtf);
    rv_seq_t *seq = make_seq();
    char dir[] = "/tmp/t_track.XXXXXX", path[200], gz[200];
    CHECK(seq && mkdtemp(dir), "setup");
    snprintf(path, sizeof path, "%s/a.%s", dir, gtf ? "gtf" : "gff3");
    snprintf(gz, sizeof gz, "%s/a.%s.gz", dir, gtf ? "gtf" : "gff3");
    for (int it = 0; it < check_iters(20) && !check_failed_; it++) {
        size_t n = 1 + rng_below(&r, 40);
        feat_t *g = malloc(n * sizeof *g);
        rng_t r2 = r;
        write_gff(path, &r, g, n, gtf, 0);
        write_gff(gz, &r2, g, n, gtf, 1);
        rv_track_t *t = rv_track_open(path, seq), *tz = rv_track_open(gz, seq);
        CHECK(t && tz, "open: %s", rv_last_error());
        if (!t || !tz) { free(g); rv_track_close(t); rv_track_close(tz); break; }
        CHECK(rv_track_size(t) == n, "%zu features, expected %zu genes", rv_track_size(t), n);
        CHECK(!*rv_track_warnings(t), "warnings: %s", rv_track_warnings(t));
        const rv_feature_t *out;
        size_t k;
        for (size_t i = 0; i < n && !check_failed_; i++) {
            CHECK(rv_track_query(t, (uint32_t)g[i].rid, g[i].beg, g[i].end, &out, &k) == 0, "query");
            int parts = -1;
            for (size_t j = 0; j < k; j++) if (!strcmp(out[j].name, g[i].name)) parts = (int)out[j].n_parts;
            CHECK(parts == g[i].parts, "%s: %d parts folded, expected %d", g[i].name, parts, g[i].parts);
        }
        compare_track(t, g, n, &r, gtf ? "gtf" : "gff3");
        compare_track(tz, g, n, &r, gtf ? "gtf.gz" : "gff3.gz");
        rv_feature_t hit;
        size_t got;
        char tx[32];
        snprintf(tx, sizeof tx, "tx%zu_0", n - 1); /* a transcript's ID leads to it */
        CHECK(rv_track_find(tz, tx, &hit, 1, &got) == 1, "find %s", tx);
        rv_track_close(t);
        rv_track_close(tz);
        free(g);
    }
    remove_dir(dir);
    rv_seq_free(seq);
    case_end(gtf ? "track_gtf_oracle" : "track_gff3_oracle");
}

/* VCF: SNVs and indels; read as text, as bgzipped text with tabix, as BCF with CSI. */
static void test_vcf(void)
{
    case_begin();
    rng_t r = rng_new(5);
    rv_seq_t *seq = make_seq();
    char dir[] = "/tmp/t_track.XXXXXX", path[200], gz[200], bcf_path[200];
    CHECK(seq && mkdtemp(dir), "setup");
    snprintf(path, sizeof path, "%s/a.vcf", dir);
    snprintf(gz, sizeof gz, "%s/a.vcf.gz", dir);
    snprintf(bcf_path, sizeof bcf_path, "%s/a.bcf", dir);
    for (int it = 0; it < check_iters(10) && !check_failed_; it++) {
        size_t n = 1 + rng_below(&r, 120);
        feat_t *f = malloc(n * sizeof *f);
        for (size_t i = 0; i < n; i++) {
            feat_t *x = &f[i];
            memset(x, 0, sizeof *x);
            x->rid = (int)rng_below(&r, N_REC);
            x->beg = rng_below(&r, REC_LEN - 10);
            int rl = 1 + (rng_below(&r, 3) ? 0 : (int)rng_below(&r, 4)), al = 1 + (rng_below(&r, 3) ? 0 : (int)rng_below(&r, 4));
            for (int k = 0; k < rl; k++) x->ref[k] = "ACGT"[rng_below(&r, 4)];
            for (int k = 0; k < al; k++) x->alt[k] = "ACGT"[rng_below(&r, 4)];
            x->alt[0] = x->ref[0] == 'A' ? 'C' : 'A';
            x->end = x->beg + (uint64_t)rl;
            x->tb = x->beg;
            x->te = x->end;
            x->strand = '.';
            snprintf(x->name, sizeof x->name, "rs%zu", i + 1);
        }
        qsort(f, n, sizeof *f, cmp_file_order);
        kstring_t ks = {0, 0, NULL};
        ksprintf(&ks, "##fileformat=VCFv4.2\n");
        for (int c = 0; c < N_REC; c++) ksprintf(&ks, "##contig=<ID=%s,length=%d>\n", rec_names[c], REC_LEN);
        ksprintf(&ks, "##INFO=<ID=DP,Number=1,Type=Integer,Description=\"depth\">\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n");
        for (size_t i = 0; i < n; i++)
            ksprintf(&ks, "%s\t%llu\t%s\t%s\t%s\t30\tPASS\tDP=%zu\n", rec_names[f[i].rid], (unsigned long long)f[i].beg + 1,
                     f[i].name, f[i].ref, f[i].alt, i);
        for (int z = 0; z < 2; z++) {
            BGZF *fp = bgzf_open(z ? gz : path, z ? "w" : "wu");
            CHECK(bgzf_write(fp, ks.s, ks.l) == (ssize_t)ks.l, "write");
            bgzf_close(fp);
        }
        free(ks.s);
        tbx_index_build(gz, 0, &tbx_conf_vcf);
        htsFile *in = hts_open(path, "r"), *out = hts_open(bcf_path, "wb");
        bcf_hdr_t *h = bcf_hdr_read(in);
        bcf1_t *rec = bcf_init();
        CHECK(bcf_hdr_write(out, h) == 0, "bcf header");
        while (bcf_read(in, h, rec) == 0) CHECK(bcf_write(out, h, rec) == 0, "bcf write");
        bcf_destroy(rec);
        bcf_hdr_destroy(h);
        hts_close(in);
        hts_close(out);
        CHECK(bcf_index_build(bcf_path, 14) == 0, "bcf index");
        qsort(f, n, sizeof *f, cmp_feat);
        const char *paths[3] = {path, gz, bcf_path};
        for (int p = 0; p < 3 && !check_failed_; p++) {
            rv_track_t *t = rv_track_open(paths[p], seq);
            CHECK(t, "open %s: %s", paths[p], rv_last_error());
            if (!t) break;
            CHECK(rv_track_indexed(t) == (p > 0), "%s: indexed %d", paths[p], rv_track_indexed(t));
            compare_track(t, f, n, &r, paths[p]);
            for (size_t i = 0; i < n && !check_failed_; i++) { /* alleles and the kind of variant */
                const rv_feature_t *o;
                size_t k;
                rv_track_query(t, (uint32_t)f[i].rid, f[i].beg, f[i].beg + 1, &o, &k);
                int seen = 0;
                for (size_t j = 0; j < k; j++) {
                    if (strcmp(o[j].name, f[i].name)) continue;
                    seen = 1;
                    size_t rl = strlen(f[i].ref), al = strlen(f[i].alt);
                    const char *type = rl == 1 && al == 1 ? "SNV" : rl == al ? "MNV" : "indel";
                    CHECK(!strcmp(o[j].ref, f[i].ref) && !strcmp(o[j].alt, f[i].alt) && !strcmp(o[j].type, type),
                          "%s: %s %s>%s, expected %s %s>%s", f[i].name, o[j].type, o[j].ref, o[j].alt, type, f[i].ref, f[i].alt);
                    CHECK(o[j].value == 30 && strstr(o[j].attrs, "DP="), "%s: QUAL %g INFO '%s'", f[i].name, o[j].value, o[j].attrs);
                }
                CHECK(seen, "%s not at its position", f[i].name);
            }
            rv_track_close(t);
        }
        free(f);
    }
    remove_dir(dir);
    rv_seq_free(seq);
    case_end("track_vcf_oracle");
}

static void test_errors(void)
{
    case_begin();
    rv_seq_t *seq = make_seq();
    CHECK(!rv_track_open("/nonexistent/a.bed", seq) && strstr(rv_last_error(), "/nonexistent/a.bed"), "missing file: %s", rv_last_error());
    CHECK(!rv_track_open("/tmp/a.txt", seq) && strstr(rv_last_error(), "unknown track format"), "format: %s", rv_last_error());
    rv_seq_free(seq);
    case_end("track_errors");
}

int main(void)
{
    hts_set_log_level(HTS_LOG_OFF);
    test_index_oracle();
    test_bed();
    test_gff(0);
    test_gff(1);
    test_vcf();
    test_errors();
    return check_exit();
}
