/* view_seq.c — the sequence view: title bar, ruler, lines of sequence in blocks of
 * ten with 1-based coordinates, the cursor (reverse video, and marked '>' on its
 * line and 'v' on the ruler so dumps show it too), soft-masked lower case, dimmed
 * breakers, search hits, the visual selection, and under each line a track of the
 * LR length per position once the index is ready, then the rows of the annotation
 * tracks (view_track.c). */
#include <stdlib.h>
#include <string.h>
#include "repview/seq.h"
#include "app.h"
#include "lrlen.h"
#include "tracks.h"
#include "view_track.h"

/* Density glyphs for LR lengths, doubling from the length chance alone gives
 * (view_track_unit): level 1 = up to one unit, 2 = up to 2 units, 3 = 4, ... */
static const char ramp_ascii[] = " .:-=+*#@";
static const char *const ramp_utf8[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584",
                                        "\u2585", "\u2586", "\u2587", "\u2588"};

uint64_t view_track_unit(const app_t *a)
{
    return a->src.x ? lr_chance_len(a->src.x) : 8;
}

static int lr_level(uint64_t len, uint64_t unit)
{
    if (len == 0) return 0;
    int lv = 1;
    for (uint64_t top = unit; len > top && lv < 8; top *= 2) lv++;
    return lv;
}

const rv_record_t *view_record(const app_t *a)
{
    const rv_seq_t *s = a->src.seq;
    return s && s->n_rec ? &s->rec[rv_seq_record_of(s, a->cur)] : NULL;
}

void view_layout(app_t *a)
{
    int cols = dr_cols(), rows = dr_rows();
    const rv_record_t *r = view_record(a);
    char buf[40];
    a->coord_w = (int)strlen(fmt_commas(r ? r->len : 0, buf, sizeof buf)) + 3; /* "> " + number + " " */
    if (a->coord_w < 6) a->coord_w = 6;
    int blocks = (cols - a->coord_w) / 11;
    a->bases_per_line = blocks < 1 ? 10 : blocks * 10;
    int avail = rows - 4, rpl = 2 + view_track_rows(); /* rows per line: bases, LR, tracks */
    int lines = (rpl > 2 ? avail / 2 : avail * 2 / 5) / rpl;
    if (lines < 1) lines = 1;
    if (avail - rpl * lines < 4 && avail >= 4) lines = (avail - 4) / rpl > 0 ? (avail - 4) / rpl : 1;
    a->lines = lines;
    a->r_seq = (rect_t){2, 0, rpl * lines, cols};
    int ph = avail - rpl * lines;
    a->r_panes = (rect_t){2 + rpl * lines, 0, ph > 0 ? ph : 0, cols};
    view_follow(a);
}

void view_follow(app_t *a)
{
    const rv_record_t *r = view_record(a);
    if (!r || a->bases_per_line <= 0) return;
    uint64_t bpl = (uint64_t)a->bases_per_line, screen = bpl * (uint64_t)a->lines;
    uint64_t line = r->off + (a->cur - r->off) / bpl * bpl;
    if (a->top < r->off || a->top >= r->off + (r->len ? r->len : 1) || (a->top - r->off) % bpl)
        a->top = line; /* new record or new width */
    if (a->cur < a->top) a->top = line;
    else if (a->cur >= a->top + screen) a->top = line - (uint64_t)(a->lines - 1) * bpl;
}

static style_t base_style(const app_t *a, unsigned char c)
{
    if (rv_alpha_code(a->src.shown_alpha == RV_ALPHA_AUTO ? RV_ALPHA_TEXT : a->src.shown_alpha, c) ==
        RV_BREAK)
        return ST_BREAK;
    if (c >= 'a' && c <= 'z') return ST_LOWER;
    if (a->src.shown_alpha == RV_ALPHA_DNA) {
        switch (c) {
        case 'A': return ST_BASE_A;
        case 'C': return ST_BASE_C;
        case 'G': return ST_BASE_G;
        case 'T': return ST_BASE_T;
        }
    }
    return ST_NORMAL;
}

static void draw_title(app_t *a)
{
    const rv_seq_t *s = a->src.seq;
    const rv_record_t *r = view_record(a);
    char len[40];
    dr_fill(0, 0, dr_cols(), ST_BAR, ' ');
    if (!r) {
        dr_printf(0, 0, ST_BAR, -1, " repview  %s", a->title);
        return;
    }
    if (a->src.partial) {
        dr_printf(0, 0, ST_BAR, -1, " repview  %s  %s  first %s %s (reading the rest...)", a->title, r->name,
                  fmt_commas(r->len, len, sizeof len), app_unit(a));
        return;
    }
    dr_printf(0, 0, ST_BAR, -1, " repview  %s  %s (%llu/%llu)  %s %s  %s", a->title, r->name,
              (unsigned long long)(r - s->rec + 1), (unsigned long long)s->n_rec,
              fmt_commas(r->len, len, sizeof len), app_unit(a),
              a->src.shown_alpha == RV_ALPHA_AUTO ? "" : rv_alpha_name(a->src.shown_alpha));
}

static void draw_ruler(app_t *a)
{
    int bpl = a->bases_per_line, x = a->coord_w;
    for (int b = 0; b * 10 < bpl; b++) dr_printf(1, x + b * 11, ST_RULER, -1, "%10d", (b + 1) * 10);
    const rv_record_t *r = view_record(a);
    if (!r) return;
    int col = (int)((a->cur - r->off) % (uint64_t)bpl);
    dr_char(1, x + col / 10 * 11 + col % 10, ST_CURSOR, 'v');
}

/* LR length per position of the screen, cached per (top, width, lines, source). */
static struct {
    uint64_t top;
    int bpl, lines, gen, valid, fwd;
    uint64_t *len; /* -1 for breakers */
    size_t cap;
} track;

static const uint64_t *track_lengths(app_t *a, uint64_t g0, uint64_t m)
{
    const rv_index_t *x = a->src.x;
    if (!x) return NULL;
    if (track.valid && track.top == a->top && track.bpl == a->bases_per_line &&
        track.lines == a->lines && track.gen == a->src.generation && track.fwd == a->track_fwd)
        return track.len;
    if (track.cap < m) {
        free(track.len);
        track.len = malloc(m * sizeof *track.len);
        track.cap = track.len ? m : 0;
        if (!track.len) return NULL;
    }
    uint64_t j = 0;
    while (j < m) {
        int64_t t = rv_seq_global_to_text(x->seq, g0 + j);
        if (t < 0) { track.len[j++] = UINT64_MAX; continue; }
        uint64_t run = 1; /* consecutive text positions */
        while (j + run < m && rv_seq_global_to_text(x->seq, g0 + j + run) == t + (int64_t)run) run++;
        (a->track_fwd ? lr_lengths_fwd : lr_lengths)(x, (uint64_t)t, run, track.len + j);
        j += run;
    }
    track.top = a->top;
    track.bpl = a->bases_per_line;
    track.lines = a->lines;
    track.gen = a->src.generation;
    track.fwd = a->track_fwd;
    track.valid = 1;
    return track.len;
}

uint64_t view_lr_at_cursor(app_t *a)
{
    int64_t t = app_cursor_text(a);
    uint64_t len = 0;
    if (t >= 0) (a->track_fwd ? lr_lengths_fwd : lr_lengths)(a->src.x, (uint64_t)t, 1, &len);
    return len;
}

typedef struct { const app_t *a; uint64_t lg, m; unsigned char *in_run; } runmask_t;

static int mark_run(void *ud, const rv_run_t *run)
{
    runmask_t *c = ud;
    const rv_seq_t *s = c->a->src.x->seq;
    uint64_t g = rv_seq_text_to_global(s, run->start), e = g + (run->end - run->start);
    for (uint64_t k = g > c->lg ? g - c->lg : 0; k < c->m && c->lg + k < e; k++) c->in_run[k] = 1;
    return 0;
}

/* in_run[k] = 1 where position lg + k lies in a tandem repeat passing the pane's
 * filters (once the runs are computed). */
static void runs_on_line(const app_t *a, uint64_t lg, uint64_t m, unsigned char *in_run)
{
    memset(in_run, 0, m);
    const rv_runs_t *r = tandem_runs_ready(a);
    if (!r || m == 0) return;
    int64_t lo = app_text_after(a, lg), hi = app_text_after(a, lg + m);
    if (lo >= hi) return;
    runmask_t c = {a, lg, m, in_run};
    rv_runs_overlapping(r, (uint64_t)lo, (uint64_t)hi, &a->tfilter, mark_run, &c);
}

static void draw_line(app_t *a, int i, const char *bytes, const uint64_t *lens, uint64_t g0)
{
    const rv_record_t *r = view_record(a);
    uint64_t bpl = (uint64_t)a->bases_per_line, lg = a->top + (uint64_t)i * bpl;
    uint64_t end = r->off + r->len;
    if (lg >= end) return;
    int rpl = 2 + view_track_rows(), y = a->r_seq.y + rpl * i;
    uint64_t m = end - lg < bpl ? end - lg : bpl;
    char c[40];
    int here = a->cur >= lg && a->cur < lg + m;
    dr_printf(y, 0, ST_RULER, -1, "%c %*s", here ? '>' : ' ', a->coord_w - 3,
              fmt_commas(lg - r->off + 1, c, sizeof c));
    uint64_t unit = view_track_unit(a);
    unsigned char in_run[1024];
    if (m > sizeof in_run) m = sizeof in_run;
    runs_on_line(a, lg, m, in_run);
    uint64_t vlo = a->vis_anchor < a->cur ? a->vis_anchor : a->cur;
    uint64_t vhi = a->vis_anchor < a->cur ? a->cur : a->vis_anchor;
    for (uint64_t k = 0; k < m; k++) {
        uint64_t g = lg + k;
        int x = a->coord_w + (int)(k / 10 * 11 + k % 10);
        unsigned char ch = bytes ? (unsigned char)bytes[g - g0] : ' ';
        if (g >= a->rc_beg && g < a->rc_end) ch = (unsigned char)app_complement(ch); /* minus strand */
        style_t st = base_style(a, ch);
        if (search_hit_at(a, g)) st = ST_HIT;
        if (app_marked(a, g)) st = ST_MARK;
        if (a->visual && g >= vlo && g <= vhi) st = ST_SELECT;
        if (g == a->cur) st = ST_CURSOR;
        dr_char(y, x, st, bytes ? ch : '.');
        if (!lens || rpl * i + 1 >= a->r_seq.h) continue;
        uint64_t l = lens[g - g0];
        if (l == UINT64_MAX) continue;
        int lv = lr_level(l, unit);
        dr_glyph(y + 1, x, in_run[k] ? ST_RUN : ST_TRACK, ramp_utf8[lv], ramp_ascii[lv]);
    }
    view_track_draw(a, y + 2, lg, m, a->r_seq.y + a->r_seq.h - y - 2);
}

void view_draw(app_t *a)
{
    const rv_record_t *r = view_record(a);
    uint64_t m = 0;
    const char *bytes = NULL;
    if (r) { /* fetch first: the alphabet in the title is detected from these bytes */
        m = (uint64_t)a->bases_per_line * (uint64_t)a->lines;
        if (a->top + m > r->off + r->len) m = r->off + r->len - a->top;
        bytes = m ? src_bytes(&a->src, a->top, m) : NULL;
    }
    draw_title(a);
    if (!r) {
        dr_text(a->r_seq.y, 2, ST_DIM,
                a->src.state != IDX_BUILDING ? "no sequence to show"
                : dr_unicode()             ? "reading\u2026"
                                           : "reading...",
                -1);
        return;
    }
    draw_ruler(a);
    const uint64_t *lens = m ? track_lengths(a, a->top, m) : NULL;
    if (m && a->search) search_window(a, a->top, a->top + m);
    for (int i = 0; i < a->lines; i++) draw_line(a, i, bytes, lens, a->top);
    if (!bytes && m)
        dr_text(a->r_seq.y + 1, a->coord_w, ST_DIM, "reading...", -1);
    tracks_sync(a); /* what the tracks found wrong while drawing, in this frame's message */
}

int view_click(app_t *a, int y, int x)
{
    const rv_record_t *r = view_record(a);
    if (!r || y < a->r_seq.y || y >= a->r_seq.y + a->r_seq.h || x < a->coord_w) return 0;
    int rpl = 2 + view_track_rows(), i = (y - a->r_seq.y) / rpl, row = (y - a->r_seq.y) % rpl, col = x - a->coord_w;
    if (col % 11 == 10) return 1;
    uint64_t g = a->top + (uint64_t)i * (uint64_t)a->bases_per_line + (uint64_t)(col / 11 * 10 + col % 11);
    if (g >= r->off + r->len) return 1;
    uint64_t lg = a->top + (uint64_t)i * (uint64_t)a->bases_per_line, end = r->off + r->len;
    if (row >= 2) /* a track row: its feature */
        view_track_click(a, row - 2, g, lg, end - lg < (uint64_t)a->bases_per_line ? end - lg : (uint64_t)a->bases_per_line);
    else app_set_cursor(a, g);
    return 1;
}
