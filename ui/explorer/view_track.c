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

typedef struct {
    char ch[MAX_CELLS];
    const char *utf8[MAX_CELLS];
    style_t st[MAX_CELLS];
} cells_t;

int view_track_rows(void) { return tracks_count(); }

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

/* The name in the blank cells just after the feature, else just before it. */
static void draw_name(cells_t *c, const rv_feature_t *f, uint64_t fb, uint64_t lg, uint64_t m)
{
    size_t n = strlen(f->name);
    if (!n || n > 40) return;
    uint64_t fe = fb + (f->end - f->beg);
    int64_t tries[2] = {(int64_t)fe - (int64_t)lg + 1, (int64_t)fb - (int64_t)lg - (int64_t)n - 1};
    for (int t = 0; t < 2; t++) {
        int64_t at = tries[t];
        if (at < 0 || at + (int64_t)n > (int64_t)m) continue;
        int free = 1;
        for (int64_t k = at - 1; k <= at + (int64_t)n && free; k++)
            if (k >= 0 && k < (int64_t)m && c->ch[k] != ' ') free = 0;
        if (!free) continue;
        for (size_t k = 0; k < n; k++) put(c, (uint64_t)at + k, f->name[k], NULL, ST_DIM);
        return;
    }
}

static void draw_row(app_t *a, int i, int y, uint64_t lg, uint64_t m)
{
    static cells_t c;
    const rv_feature_t *f;
    size_t n;
    memset(c.ch, ' ', m);
    memset(c.utf8, 0, m * sizeof *c.utf8);
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
        uint64_t fb = tracks_global(a, &f[j]);
        style_t st = tracks_selected(i, &f[j]) ? ST_FEAT_SEL : fmt == RV_TRACK_VCF ? ST_VARIANT : ST_FEATURE;
        if (fmt == RV_TRACK_VCF) draw_variant(&c, &f[j], fb, lg, m, st);
        else if (fmt == RV_TRACK_BEDGRAPH) draw_value(&c, &f[j], fb, lg, m, lo, hi);
        else draw_interval(&c, &f[j], fb, lg, m, st);
    }
    if (fmt != RV_TRACK_VCF && fmt != RV_TRACK_BEDGRAPH)
        for (size_t j = 0; j < n; j++) draw_name(&c, &f[j], tracks_global(a, &f[j]), lg, m);
    for (uint64_t k = 0; k < m; k++) {
        if (c.ch[k] == ' ') continue;
        int x = a->coord_w + (int)(k / 10 * 11 + k % 10);
        if (c.utf8[k]) dr_glyph(y, x, c.st[k], c.utf8[k], c.ch[k]);
        else dr_char(y, x, c.st[k], c.ch[k]);
    }
}

void view_track_draw(app_t *a, int y, uint64_t lg, uint64_t m, int max)
{
    if (m > MAX_CELLS) m = MAX_CELLS;
    for (int i = 0; i < tracks_count() && i < max; i++) draw_row(a, i, y + i, lg, m);
}

void view_track_click(app_t *a, int row, uint64_t g)
{
    rv_feature_t f;
    if (row < 0 || row >= tracks_count()) return;
    tracks_set_current(row);
    app_set_cursor(a, g);
    if (tracks_feature_at(a, row, g, &f)) tracks_select(a, row, &f);
    else app_message(a, 0, "track %s: no feature here", tracks_label(row));
}
