/* view_track.c — one row per annotation track under each line of sequence, cell
 * for cell with the bases above it.  A feature is drawn as UCSC draws BED12:
 * thick blocks (coding) '#', thin blocks '=', the gaps between blocks (introns)
 * as arrows of its strand '>' '<' (or '-'); a variant shows its ALT base, 'D' for
 * deleted bases and 'I' where bases are inserted; a bedGraph value is a level of
 * the density ramp between the track's smallest and largest value.  Names go in
 * the blank cells after (or before) their feature.  The characters carry the
 * meaning, so a dump or a terminal without colour shows them as well. */
#include <string.h>
#include "app.h"
#include "tracks.h"
#include "view_track.h"

enum { MAX_CELLS = 1024 };

static const char ramp_ascii[] = " .:-=+*#@";
static const char *const ramp_utf8[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584",
                                        "\u2585", "\u2586", "\u2587", "\u2588"};

enum { NAMES_MAX = 64 };

typedef struct {
    char ch[MAX_CELLS];
    const char *utf8[MAX_CELLS];
    style_t st[MAX_CELLS];
    const char *name[NAMES_MAX]; /* names and their screen offsets, over cells marked '\1' */
    int name_x[NAMES_MAX], n_names;
} cells_t;

int view_track_rows(void)
{
    int rows = 0;
    for (int i = 0; i < tracks_count(); i++) rows += tracks_rows(i);
    return rows;
}

static void put(cells_t *c, uint64_t k, char ch, const char *utf8, style_t st)
{
    c->ch[k] = ch;
    c->utf8[k] = utf8;
    c->st[k] = st;
}

/* Offset rel of the feature: 2 in a thick block, 1 in a thin block, 0 between
 * blocks. */
static int block_at(const rv_feature_t *f, uint64_t rel)
{
    int in = f->block_count == 0;
    for (uint32_t b = 0; b < f->block_count && !in; b++) in = rel >= f->blocks[2 * b] && rel < f->blocks[2 * b + 1];
    if (!in) return 0;
    uint64_t p = f->beg + rel;
    return p >= f->thick_beg && p < f->thick_end ? 2 : 1;
}

static void draw_interval(cells_t *c, const rv_feature_t *f, uint64_t fb, uint64_t lg, uint64_t m, style_t st)
{
    uint64_t from = fb > lg ? fb - lg : 0, to = fb + (f->end - f->beg) - lg;
    if (f->end == f->beg) { /* an empty interval: a point between two bases */
        if (from < m) put(c, from, '|', "\u2502", st);
        return;
    }
    if (to > m) to = m;
    for (uint64_t k = from; k < to; k++) {
        int b = block_at(f, lg + k - fb);
        if (b == 2) put(c, k, '#', "\u2588", st);
        else if (b == 1) put(c, k, '=', "\u2584", st);
        else if (f->strand == '+') put(c, k, '>', "\u203a", st);
        else if (f->strand == '-') put(c, k, '<', "\u2039", st);
        else put(c, k, '-', "\u2500", st);
    }
}

static void draw_variant(cells_t *c, const rv_feature_t *f, uint64_t fb, uint64_t lg, uint64_t m, style_t st)
{
    size_t rl = strlen(f->ref), al = strcspn(f->alt, ",");
    int sv = !strcmp(f->type, "SV");
    for (uint64_t p = fb; p < fb + (f->end - f->beg); p++) {
        if (p < lg || p >= lg + m) continue;
        uint64_t rel = p - fb;
        char ch = sv ? 'S' : rel < al ? f->alt[rel] : 'D';
        if (!sv && rel == 0 && al > rl) ch = 'I'; /* a deletion keeps its ALT base here */
        put(c, p - lg, ch, NULL, st);
    }
}

static void draw_value(cells_t *c, const rv_feature_t *f, uint64_t fb, uint64_t lg, uint64_t m, double lo, double hi)
{
    if (lo > 0) lo = 0;
    int lv = f->value <= lo ? 0 : hi <= lo ? 8 : (int)((f->value - lo) / (hi - lo) * 8 + 0.999);
    if (lv > 8) lv = 8;
    if (lv < 1 && f->value > lo) lv = 1;
    uint64_t from = fb > lg ? fb - lg : 0, to = fb + (f->end - f->beg) - lg;
    if (to > m) to = m;
    for (uint64_t k = from; k < to; k++) put(c, k, ramp_ascii[lv], ramp_utf8[lv], ST_FEATURE);
}

static int cell_x(uint64_t k) { return (int)(k / 10 * 11 + k % 10); } /* blocks of ten, as the bases */

/* The name in the blank cells just after the feature, else just before it: its
 * letters go on consecutive columns (over the gaps between blocks of ten), and
 * the cells under them are taken (c->name holds them for draw_names). */
static void place_name(cells_t *c, const rv_feature_t *f, uint64_t fb, uint64_t lg, uint64_t m)
{
    int n = (int)strlen(f->name);
    if (!n || n > 40 || c->n_names == NAMES_MAX) return;
    uint64_t fe = fb + (f->end > f->beg ? f->end - f->beg : 1);
    int64_t after = (int64_t)fe - (int64_t)lg + 1, before = (int64_t)fb - (int64_t)lg - 2;
    int xs[2] = {after >= 0 && after < (int64_t)m ? cell_x((uint64_t)after) : -1,
                 before >= 0 && before < (int64_t)m ? cell_x((uint64_t)before) - n + 1 : -1};
    for (int t = 0; t < 2; t++) {
        int x = xs[t], free = x >= 0 && x + n <= cell_x(m - 1) + 1;
        uint64_t k0 = 0, k1 = 0; /* the cells under columns [x - 1, x + n] */
        for (uint64_t k = 0; k < m && free; k++) {
            int cx = cell_x(k);
            if (cx < x - 1 || cx > x + n) continue;
            if (c->ch[k] != ' ') free = 0;
            if (cx >= x && cx < x + n) { if (!k1) k0 = k; k1 = k + 1; }
        }
        if (!free) continue;
        memset(c->ch + k0, '\1', k1 - k0); /* taken, drawn by draw_names */
        c->name_x[c->n_names] = x;
        c->name[c->n_names++] = f->name;
        return;
    }
}

/* The row of a feature drawn over columns [from, to) of the line: the first whose
 * features all end before it (with a blank between), else the last. */
static int pack(uint64_t *end, int rows, uint64_t from, uint64_t to)
{
    int r = 0;
    while (r < rows - 1 && end[r] > from) r++;
    end[r] = to + 1;
    return r;
}

/* Track i's rows from screen row y (at most max) for the line [lg, lg + m). */
static void draw_track(app_t *a, int i, int y, uint64_t lg, uint64_t m, int max)
{
    static cells_t c[TRACKS_ROWS];
    const rv_feature_t *f;
    size_t n;
    int rows = tracks_rows(i) < max ? tracks_rows(i) : max;
    uint64_t end[TRACKS_ROWS] = {0};
    int row_of[512];
    for (int r = 0; r < rows; r++) {
        memset(c[r].ch, ' ', m);
        memset(c[r].utf8, 0, m * sizeof *c[r].utf8);
        c[r].n_names = 0;
    }
    dr_text(y, 0, i == tracks_current() ? ST_TITLE : ST_DIM, tracks_label(i), a->coord_w - 1);
    if (tracks_query(a, i, lg, lg + m, &f, &n) < 0) {
        dr_text(y, a->coord_w, ST_ERROR, rv_last_error(), dr_cols() - a->coord_w);
        return;
    }
    rv_track_t *t = tracks_get(i);
    rv_track_format_t fmt = rv_track_format(t);
    double lo = 0, hi = 0;
    rv_track_value_range(t, &lo, &hi);
    for (size_t j = 0; j < n; j++) {
        uint64_t fb = tracks_global(a, &f[j]), fe = fb + (f[j].end > f[j].beg ? f[j].end - f[j].beg : 1);
        int r = pack(end, rows, fb > lg ? fb - lg : 0, fe - lg);
        cells_t *cr = &c[r];
        if (j < sizeof row_of / sizeof *row_of) row_of[j] = r;
        style_t st = tracks_selected(i, &f[j]) ? ST_FEAT_SEL : fmt == RV_TRACK_VCF ? ST_VARIANT : ST_FEATURE;
        if (fmt == RV_TRACK_VCF) draw_variant(cr, &f[j], fb, lg, m, st);
        else if (fmt == RV_TRACK_BEDGRAPH) draw_value(cr, &f[j], fb, lg, m, lo, hi);
        else draw_interval(cr, &f[j], fb, lg, m, st);
    }
    if (fmt != RV_TRACK_VCF && fmt != RV_TRACK_BEDGRAPH)
        for (size_t j = 0; j < n && j < sizeof row_of / sizeof *row_of; j++)
            place_name(&c[row_of[j]], &f[j], tracks_global(a, &f[j]), lg, m);
    for (int r = 0; r < rows; r++) {
        for (uint64_t k = 0; k < m; k++) {
            if (c[r].ch[k] == ' ' || c[r].ch[k] == '\1') continue;
            int x = a->coord_w + cell_x(k);
            if (c[r].utf8[k]) dr_glyph(y + r, x, c[r].st[k], c[r].utf8[k], c[r].ch[k]);
            else dr_char(y + r, x, c[r].st[k], c[r].ch[k]);
        }
        for (int k = 0; k < c[r].n_names; k++) dr_text(y + r, a->coord_w + c[r].name_x[k], ST_DIM, c[r].name[k], -1);
    }
}

void view_track_draw(app_t *a, int y, uint64_t lg, uint64_t m, int max)
{
    if (m > MAX_CELLS) m = MAX_CELLS;
    for (int i = 0; i < tracks_count() && max > 0; i++) {
        draw_track(a, i, y, lg, m, max);
        y += tracks_rows(i);
        max -= tracks_rows(i);
    }
}

/* The feature of track i drawn at global g in sub-row `row`: the one the packing
 * put there, else the one at g. */
static int feature_in_row(app_t *a, int i, int row, uint64_t g, uint64_t lg, uint64_t m, rv_feature_t *out)
{
    const rv_feature_t *f;
    size_t n;
    uint64_t end[TRACKS_ROWS] = {0};
    int found = 0;
    if (tracks_query(a, i, lg, lg + m, &f, &n) < 0) return 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t fb = tracks_global(a, &f[j]), fe = fb + (f[j].end > f[j].beg ? f[j].end - f[j].beg : 1);
        int r = pack(end, tracks_rows(i), fb > lg ? fb - lg : 0, fe - lg);
        if (r == row && g >= fb && g < fe) { *out = f[j]; found = 1; }
    }
    return found || tracks_feature_at(a, i, g, out);
}

void view_track_click(app_t *a, int row, uint64_t g, uint64_t lg, uint64_t m)
{
    rv_feature_t f;
    int i = 0;
    while (i < tracks_count() && row >= tracks_rows(i)) row -= tracks_rows(i++);
    if (i >= tracks_count()) return;
    tracks_set_current(i);
    app_set_cursor(a, g);
    if (feature_in_row(a, i, row, g, lg, m, &f)) tracks_select(a, i, &f);
    else app_message(a, 0, "track %s: no feature here", tracks_label(i));
}
