/* screen.c — the screen manager's drawing: layout of the sequence view and the
 * panes, the status bar, the command line, and the overlays (help generated from
 * the key table with a colour legend; the record list, records.c; the marks,
 * marks.c). */
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "tracks.h"

static const char *const commands_help[][2] = {
    {":NAME:POS, :NAME:BEG-END", "go to a position or region (1-based, commas allowed)"},
    {":POS, :12k", "go to a position of the current record"},
    {":+10k, :-2m", "move forward or back (k, m, g suffixes)"},
    {":=POS", "go to a position counted over all records laid end to end"},
    {":CP001236.1:1000", "a record also by any part of its name between '|' that no other name has"},
    {":help, :records, :q", "help, record list (:records WORDS opens it filtered), quit"},
    {":marks", "the marks (m LETTER sets one, ' LETTER goes there)"},
    {":export FILE", "the focused pane's features: LRs and copies (BED6), pairs (BEDPE), runs or hits on the screen"},
    {":screen NAME", "the screen as plain text (NAME.txt) and in colour (NAME.svg)"},
    {":set minpair N", "maximal pairs pane: minimum length (auto: from the text size)"},
    {":set pairs families", "maximal pairs pane: repeat families here, one row each with its copies; :set pairs pairs goes back"},
    {":set minlen V", "tandem pane filters (also minperiod, maxperiod, mincopies; as repview tandem); :set lists them"},
    {":track FILE", "add an annotation track: BED, bedGraph, GFF3, GTF, VCF or BCF (bgzipped with an index: read by region)"},
    {":feature NAME, :NAME", "go to a feature of the tracks by name or ID, or the only one starting with it; Tab completes"},
    {":set strands both", "index both strands (DNA) in the background and keep it in FILE.rvx; :set strands + goes back"},
};

void screen_help_lines(const app_t *a, void (*emit)(void *ud, const char *keys, const char *text), void *ud)
{
    char scale[160] = "none, then levels doubling from the length chance gives (about log_sigma n)";
    uint64_t u = a ? view_track_unit(a) : 8;
    if (a) snprintf(scale, sizeof scale, "none, <=%llu, <=%llu, <=%llu, <=%llu, <=%llu, <=%llu, <=%llu, longer",
             (unsigned long long)u, (unsigned long long)u * 2, (unsigned long long)u * 4,
             (unsigned long long)u * 8, (unsigned long long)u * 16, (unsigned long long)u * 32,
             (unsigned long long)u * 64);
    emit(ud, NULL, "Keys (a count typed first repeats: 20l, 3})");
    for (int i = 0; i < rv_key_table_len; i++) emit(ud, rv_key_table[i].label, rv_key_table[i].help);
    emit(ud, NULL, "");
    emit(ud, NULL, "Commands (after :)");
    for (size_t i = 0; i < sizeof commands_help / sizeof *commands_help; i++)
        emit(ud, commands_help[i][0], commands_help[i][1]);
    emit(ud, NULL, "");
    emit(ud, NULL, "Mouse and the LR track");
    emit(ud, "mouse", "click a base to move there, a pane row to select it; the wheel scrolls");
    emit(ud, " .:-=+*#@", "LR length per position under the sequence (UTF-8: blocks)");
    emit(ud, "", scale);
    emit(ud, "tracks", "one row per track under the LR track: # thick block (CDS), = thin block (UTR), > < intron by strand");
    emit(ud, "", "variants: ALT base, D deleted, I inserted; bedGraph: the density ramp; click a feature to select it");
}

static void count_emit(void *ud, const char *keys, const char *text)
{
    (void)keys;
    (void)text;
    ++*(int *)ud;
}

int screen_help_max_scroll(const app_t *a)
{
    int n = 4 + ST_COUNT / 4; /* the colour legend below the lines */
    screen_help_lines(a, count_emit, &n);
    int rows = dr_rows() - 3;
    return n > rows ? n - rows : 0;
}

typedef struct { int y, skip, rows, x, w; } help_ctx_t;

static void help_emit(void *ud, const char *keys, const char *text)
{
    help_ctx_t *h = ud;
    if (h->skip > 0) { h->skip--; return; }
    if (h->rows <= 0) return;
    if (keys) {
        dr_printf(h->y, h->x, ST_TITLE, h->w, "  %-26s", keys);
        dr_text(h->y, h->x + 28, ST_NORMAL, text, h->w - 28);
    } else {
        dr_text(h->y, h->x, ST_TITLE, text, h->w);
    }
    h->y++;
    h->rows--;
}

static void draw_help(app_t *a)
{
    int rows = dr_rows() - 2, cols = dr_cols();
    for (int y = 0; y < rows; y++) dr_fill(y, 0, cols, ST_NORMAL, ' ');
    dr_fill(0, 0, cols, ST_BAR, ' ');
    dr_text(0, 1, ST_BAR, "repview help  (j/k scroll, q or Esc closes)", cols - 2);
    help_ctx_t h = {1, a->ov_scroll, rows - 1, 1, cols - 2};
    screen_help_lines(a, help_emit, &h);
    /* colour legend: every style drawn in itself, named in words */
    if (h.rows > 1) {
        h.y++;
        h.rows--;
        dr_text(h.y++, 1, ST_TITLE, "Colours (each is also shown by a character or a column):", cols - 2);
        h.rows--;
        int x = 3;
        for (int s = ST_BAR; s < ST_COUNT && h.rows > 0; s++) {
            int w = (int)strlen(dr_style_legend[s]) + 3;
            if (x + w > cols) { x = 3; h.y++; h.rows--; if (h.rows <= 0) break; }
            dr_text(h.y, x, (style_t)s, dr_style_legend[s], -1);
            x += w;
        }
    }
}

static const char hint[] = "F1 help  : goto  / search  Tab pane  q quit", short_hint[] = "F1 help";

/* 1 when the message line has no room for the short key hint. */
static int hint_crowded(const app_t *a)
{
    return !a->prompt && a->msg[0] && (int)(strlen(a->msg) + 2 + sizeof short_hint - 1) > dr_cols();
}

static void draw_status(app_t *a)
{
    int y = dr_rows() - 2, cols = dr_cols();
    char pos[200], right[200] = "", left[300];
    dr_fill(y, 0, cols, ST_BAR, ' ');
    if (!a->src.seq) snprintf(left, sizeof left, " %s", a->title);
    else {
        app_fmt_pos(a, a->cur, pos, sizeof pos);
        int n = snprintf(left, sizeof left, " %s", pos);
        if (a->src.x && n > 0 && (size_t)n < sizeof left) {
            if (app_cursor_text(a) < 0) n += snprintf(left + n, sizeof left - (size_t)n, "  breaker");
            else n += snprintf(left + n, sizeof left - (size_t)n, "  LR %llu%s", (unsigned long long)view_lr_at_cursor(a),
                               a->track_fwd && app_both(a) ? " (forward copies)" : "");
        }
        if (a->rc_end > a->rc_beg && n > 0 && (size_t)n < sizeof left) {
            char c1[32], c2[32];
            const rv_record_t *rec = view_record(a);
            n += snprintf(left + n, sizeof left - (size_t)n, "  (-) reverse complement %s-%s",
                          fmt_commas(a->rc_beg - rec->off + 1, c1, sizeof c1), fmt_commas(a->rc_end - rec->off, c2, sizeof c2));
        }
        if (a->visual && n > 0 && (size_t)n < sizeof left) {
            uint64_t d = a->cur > a->vis_anchor ? a->cur - a->vis_anchor : a->vis_anchor - a->cur;
            n += snprintf(left + n, sizeof left - (size_t)n, "  selection %llu %s", (unsigned long long)d + 1, app_unit(a));
        }
        if (a->count && n > 0 && (size_t)n < sizeof left) n += snprintf(left + n, sizeof left - (size_t)n, "  %ld", a->count);
        char feat[240];
        if (n > 0 && (size_t)n < sizeof left && tracks_status(a, feat, sizeof feat)) /* the feature under the cursor */
            snprintf(left + n, sizeof left - (size_t)n, "  %s", feat);
    }
    src_progress(&a->src, right, sizeof right);
    if (!right[0]) {
        const char *st[] = {"no index", "indexing", "index ready", "index failed", "index cancelled"};
        snprintf(right, sizeof right, "%s%s", app_both(a) ? "both strands  " : "", st[a->src.state]);
    }
    if (hint_crowded(a)) { /* the message line is full: the way to help stays on screen, left of
                              * the index state, which keeps its column */
        size_t l = strlen(right), h = sizeof short_hint + 1; /* the hint and two blanks */
        if (l + h < sizeof right) {
            memmove(right + h, right, l + 1);
            memcpy(right, short_hint, h - 2);
            right[h - 2] = right[h - 1] = ' ';
        }
    }
    int rl = (int)strlen(right);
    if ((int)strlen(left) > cols - rl - 2 && cols - rl - 2 > 20) left[cols - rl - 2] = 0; /* the state stays in view */
    dr_text(y, 0, ST_BAR, left, cols);
    int x = cols - rl - 1 > (int)strlen(left) + 1 ? cols - rl - 1 : (int)strlen(left) + 2;
    dr_text(y, x, ST_BAR, right, cols - x);
}

static void draw_command_line(app_t *a)
{
    int y = dr_rows() - 1, cols = dr_cols();
    dr_fill(y, 0, cols, ST_NORMAL, ' ');
    if (a->prompt) {
        int x = dr_printf(y, 0, ST_NORMAL, cols, "%c%s", a->prompt, a->line);
        dr_char(y, x, ST_CURSOR, ' ');
    } else {
        /* a message keeps the key hint on the right while both fit, else the
         * short one; a longer message moves it to the status bar */
        int hl = (int)sizeof hint - 1, sl = (int)sizeof short_hint - 1;
        int x = a->msg[0] ? dr_text(y, 0, a->msg_err ? ST_ERROR : ST_NORMAL, a->msg, cols) : -2;
        if (x + 2 + hl <= cols) dr_text(y, x < 0 ? 0 : cols - hl, ST_DIM, hint, hl);
        else if (x + 2 + sl <= cols) dr_text(y, cols - sl, ST_DIM, short_hint, sl);
    }
}

void screen_draw(app_t *a)
{
    if (a->teach) { teach_draw(a->teach); return; }
    dr_clear();
    view_layout(a);
    if (a->overlay == OV_HELP) draw_help(a);
    else if (a->overlay == OV_RECORDS) records_draw(a);
    else if (a->overlay == OV_MARKS) marks_draw(a);
    else {
        view_draw(a);
        panes_draw(a);
    }
    draw_status(a);
    draw_command_line(a);
    dr_flush();
}
