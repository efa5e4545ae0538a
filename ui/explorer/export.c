/* export.c — `:export PATH` (key E): the features of the focused pane, written in
 * the format of the matching subcommand so that the same tools read both
 * (repview-explorer(1)):
 *   Longest repeats  BED6 `chrom start end name len strand`: every LR covering the
 *                    cursor (or the visual selection), named LR1, LR2, ..., and
 *                    every copy of it under the same name;
 *   Maximal pairs    BEDPE as `repview pairs`: the pairs with a copy over the cursor;
 *   Tandem repeats   `chrom start end period copies motif` as `repview tandem`:
 *                    the runs (under the pane's filters) overlapping the screen;
 *   Matches          BED6+ as `repview find`: the hits overlapping the screen.
 * Rows are sorted by chrom (record order) and start, as tabix wants them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/find.h"
#include "repview/lr.h"
#include "repview/pairs.h"
#include "repview/seq.h"
#include "repview/tandem.h"
#include "app.h"
#include "lrlen.h"

enum { MAX_LR = 1000, MAX_COPIES = 100000, MAX_PAIRS = 1000000, PAIRS_WORK = 20000000, HIT_PAGE = 4096 };

/* One row: sort keys and its text. */
typedef struct {
    uint64_t g, end;
    char *line;
} row_t;

typedef struct {
    row_t *v;
    size_t n, cap;
    int oom;
} rows_t;

static void row_add(rows_t *r, uint64_t g, uint64_t end, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void row_add(rows_t *r, uint64_t g, uint64_t end, const char *fmt, ...)
{
    if (r->oom) return;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        row_t *v = realloc(r->v, cap * sizeof *v);
        if (!v) { r->oom = 1; return; }
        r->v = v;
        r->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&r->v[r->n].line, fmt, ap);
    va_end(ap);
    if (n < 0) { r->oom = 1; return; }
    r->v[r->n].g = g;
    r->v[r->n].end = end;
    r->n++;
}

static int row_cmp(const void *p, const void *q)
{
    const row_t *a = p, *b = q;
    if (a->g != b->g) return a->g < b->g ? -1 : 1;
    if (a->end != b->end) return a->end < b->end ? -1 : 1;
    return strcmp(a->line, b->line);
}

static void rows_free(rows_t *r)
{
    for (size_t i = 0; i < r->n; i++) free(r->v[i].line);
    free(r->v);
}

/* Record and record-relative start of global position g. */
static const rv_record_t *where(const app_t *a, uint64_t g, uint64_t *rel)
{
    const rv_seq_t *s = a->src.x->seq;
    const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
    *rel = g - rec->off;
    return rec;
}

static void lr_rows(app_t *a, rows_t *out, char *what, size_t wlen)
{
    const rv_index_t *x = a->src.x;
    rv_lr_t *lr = malloc(MAX_LR * sizeof *lr);
    uint64_t n = 0;
    if (!lr) { out->oom = 1; return; }
    if (a->visual) {
        uint64_t ga = a->vis_anchor < a->cur ? a->vis_anchor : a->cur, gb = a->vis_anchor < a->cur ? a->cur : a->vis_anchor;
        int64_t ta = rv_seq_global_to_text(x->seq, ga), tb = rv_seq_global_to_text(x->seq, gb);
        if (ta >= 0 && tb >= 0 && tb - ta == (int64_t)(gb - ga)) n = rv_lr_interval(x, (uint64_t)ta, (uint64_t)tb + 1, lr, MAX_LR);
    } else if (app_cursor_text(a) >= 0) {
        n = rv_lr_at(x, (uint64_t)app_cursor_text(a), lr, MAX_LR);
    }
    if (n > MAX_LR) n = MAX_LR;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t lo, hi;
        rv_lr_occurrences(x, lr[k].start, lr[k].len, &lo, &hi);
        for (uint64_t q = lo; q < hi && q - lo < MAX_COPIES; q++) {
            uint64_t g, rel;
            int strand = app_copy(a, rv_sa(x, q), lr[k].len, &g);
            const rv_record_t *rec = where(a, g, &rel);
            row_add(out, g, g + lr[k].len, "%s\t%llu\t%llu\tLR%llu\t%llu\t%c\n", rec->name, (unsigned long long)rel,
                    (unsigned long long)(rel + lr[k].len), (unsigned long long)k + 1, (unsigned long long)lr[k].len, strand);
        }
    }
    free(lr);
    snprintf(what, wlen, "%llu longest repeat%s and %s copies (BED)", (unsigned long long)n, n == 1 ? "" : "s",
             n == 1 ? "its" : "their");
}

static int pair_cmp(const void *p, const void *q)
{
    const rv_pair_t *a = p, *b = q;
    if (a->p1 != b->p1) return a->p1 < b->p1 ? -1 : 1;
    if (a->p2 != b->p2) return a->p2 < b->p2 ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int pair_rows(app_t *a, rows_t *out, char *what, size_t wlen)
{
    const rv_index_t *x = a->src.x;
    int64_t t = app_cursor_text(a);
    if (t < 0) { app_message(a, 1, "export: the cursor is on a breaker"); return -1; }
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, a->minpair ? a->minpair : lr_min_interesting(x));
    rv_pairs_page_t page = {0};
    if (rv_pairs_covering(x, &o, (uint64_t)t, MAX_PAIRS, PAIRS_WORK, &page) < 0) {
        app_message(a, 1, "export: %s", rv_last_error());
        return -1;
    }
    if (page.n) qsort(page.pairs, page.n, sizeof *page.pairs, pair_cmp);
    const rv_seq_t *s = x->seq;
    for (size_t i = 0; i < page.n; i++) {
        const rv_pair_t *p = &page.pairs[i];
        rv_pair_loc_t loc;
        rv_pair_locate(s, p, &loc);
        char gap[32] = ".";
        if (loc.same_record) snprintf(gap, sizeof gap, "%lld", (long long)loc.gap);
        /* the text order of p1 is the order of (record, start) */
        row_add(out, p->p1, p->p2, "%s\t%llu\t%llu\t%s\t%llu\t%llu\t.\t%llu\t+\t%c\t%s\n", s->rec[loc.rec1].name,
                (unsigned long long)loc.start1, (unsigned long long)(loc.start1 + p->len), s->rec[loc.rec2].name,
                (unsigned long long)loc.start2, (unsigned long long)(loc.start2 + p->len), (unsigned long long)p->len,
                p->inverted ? '-' : '+', gap);
    }
    snprintf(what, wlen, "%s%zu maximal pair%s of %llu+ %s (BEDPE)", page.complete ? "" : "the first ", page.n,
             page.n == 1 ? "" : "s", (unsigned long long)o.min_len, app_unit(a));
    rv_pairs_page_free(&page);
    return 0;
}

typedef struct { app_t *a; rows_t *out; uint64_t nf; } run_ctx_t;

static int run_row(void *ud, const rv_run_t *run)
{
    run_ctx_t *c = ud;
    if (run->start >= c->nf) return 0; /* the reverse half of both strands mirrors the runs */
    char *motif = malloc(run->period + 1);
    if (!motif) { c->out->oom = 1; return 1; }
    rv_run_motif(c->a->src.x->seq, run, motif, run->period + 1);
    uint64_t g = rv_seq_text_to_global(c->a->src.x->seq, run->start), rel;
    const rv_record_t *rec = where(c->a, g, &rel);
    row_add(c->out, g, g + run->end - run->start, "%s\t%llu\t%llu\t%llu\t%.2f\t%s\n", rec->name, (unsigned long long)rel,
            (unsigned long long)(rel + run->end - run->start), (unsigned long long)run->period, rv_run_copies(run), motif);
    free(motif);
    return 0;
}

/* First and last text positions of the screen (half-open). */
static void screen_text(const app_t *a, uint64_t *lo, uint64_t *hi)
{
    *lo = (uint64_t)app_text_after(a, a->top);
    *hi = (uint64_t)app_text_after(a, a->top + (uint64_t)a->bases_per_line * (uint64_t)a->lines);
}

static int tandem_rows(app_t *a, rows_t *out, char *what, size_t wlen)
{
    const rv_runs_t *r = tandem_runs_ready(a);
    if (!r) { app_message(a, 1, "export: the tandem repeats are not computed yet"); return -1; }
    uint64_t lo, hi;
    screen_text(a, &lo, &hi);
    run_ctx_t c = {a, out, app_fwd_len(a)};
    rv_tandem_filter_t f = a->tfilter;
    rv_runs_overlapping(r, lo, hi, &f, run_row, &c);
    snprintf(what, wlen, "%zu tandem repeat%s on the screen", out->n, out->n == 1 ? "" : "s");
    return 0;
}

static int match_rows(app_t *a, rows_t *out, char *what, size_t wlen)
{
    rv_pattern_t *p = search_ready_pattern(a);
    char pat[128];
    unsigned k;
    if (!p || rv_find_parse_typed(a->pattern, 64, pat, sizeof pat, &k) < 0) {
        app_message(a, 1, "export: no search results (/ searches)");
        return -1;
    }
    const rv_seq_t *s = a->src.x->seq;
    uint64_t lo, hi, len = rv_find_length(p), nf = app_fwd_len(a);
    screen_text(a, &lo, &hi);
    uint64_t from = lo >= len - 1 ? lo - (len - 1) : 0;
    rv_hit_t *page = malloc(HIT_PAGE * sizeof *page);
    if (!page) { out->oom = 1; return 0; }
    for (int64_t n; (n = rv_find_page(p, from, page, HIT_PAGE)) > 0;) {
        int64_t i = 0;
        for (; i < n && page[i].pos < hi && page[i].pos < nf; i++) {
            uint64_t g = rv_seq_text_to_global(s, page[i].pos), rel;
            const rv_record_t *rec = where(a, g, &rel);
            row_add(out, g, g + len, "%s\t%llu\t%llu\t%s\t%u\t%c\t%.*s\n", rec->name, (unsigned long long)rel,
                    (unsigned long long)(rel + len), pat, (unsigned)page[i].mism, page[i].strand, (int)len, s->raw + g);
        }
        if (i < n || n < HIT_PAGE) break;
        from = page[n - 1].pos + 1;
    }
    free(page);
    snprintf(what, wlen, "%zu hit%s of %s on the screen", out->n, out->n == 1 ? "" : "s", pat);
    return 0;
}

static const char *const headers[N_PANES] = {
    [PANE_LR] = "#chrom\tstart\tend\tname\tlen\tstrand\n",
    [PANE_PAIRS] = "#chrom1\tstart1\tend1\tchrom2\tstart2\tend2\tname\tscore\tstrand1\tstrand2\tgap\n",
    [PANE_TANDEM] = "#chrom\tstart\tend\tperiod\tcopies\tmotif\n",
    [PANE_FIND] = "#chrom\tstart\tend\tpattern\tmismatches\tstrand\tmatched\n",
};

/* PATH with a leading ~/ read as $HOME/. */
static void expand_home(const char *path, char *out, size_t len)
{
    const char *home = getenv("HOME");
    if (path[0] == '~' && path[1] == '/' && home) snprintf(out, len, "%s%s", home, path + 1);
    else snprintf(out, len, "%s", path);
}

int export_command(app_t *a, const char *args)
{
    if (!args[0]) { app_message(a, 1, "export: which file? (:export FILE.bed)"); return -1; }
    if (!a->src.x) { app_message(a, 1, "export: needs the index (the status bar says when it is ready)"); return -1; }
    if (!headers[a->focus]) {
        app_message(a, 1, "export: the %s pane has no features to write (Tab to another pane)",
                    a->panes[a->focus].ops->name);
        return -1;
    }
    rows_t rows = {0};
    char what[200] = "", path[1024];
    int rc = 0;
    switch (a->focus) {
    case PANE_LR: lr_rows(a, &rows, what, sizeof what); break;
    case PANE_PAIRS: rc = pair_rows(a, &rows, what, sizeof what); break;
    case PANE_TANDEM: rc = tandem_rows(a, &rows, what, sizeof what); break;
    default: rc = match_rows(a, &rows, what, sizeof what); break;
    }
    if (rc < 0 || rows.oom) {
        if (rows.oom) app_message(a, 1, "export: out of memory");
        rows_free(&rows);
        return -1;
    }
    if (rows.n) qsort(rows.v, rows.n, sizeof *rows.v, row_cmp);
    expand_home(args, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(headers[a->focus], f);
        for (size_t i = 0; i < rows.n; i++) fputs(rows.v[i].line, f);
    }
    if (!f || ferror(f) | (fclose(f) != 0)) {
        app_message(a, 1, "export: %s: %s", args, strerror(errno));
        rc = -1;
    } else {
        app_message(a, 0, "wrote %s to %s", what, args);
    }
    rows_free(&rows);
    return rc;
}
