/* marks.c — places to come back to, as in vi: marks a-z (m LETTER sets one at the
 * cursor, ' LETTER or ` LETTER goes there, M or `:marks` lists them) and the
 * history of jumps, back (Ctrl-O) and forward again (Ctrl-N; the Tab that vi
 * uses is the explorer's pane key).  A mark is a global position, so it holds
 * across records and across `:set strands`.  Going to a mark is a jump: Ctrl-O
 * comes back from it. */
#include <stdio.h>
#include <string.h>
#include "app.h"

enum { N_MARKS = 26, CONTEXT = 24 };

static struct {
    uint64_t pos[N_MARKS];
    int set[N_MARKS];
    int sel;                  /* row of the list */
} M;

static void push(uint64_t *stack, int *n, int cap, uint64_t g)
{
    if (*n == cap) {
        memmove(stack, stack + 1, (size_t)(cap - 1) * sizeof *stack);
        (*n)--;
    }
    stack[(*n)++] = g;
}

void history_back(app_t *a)
{
    if (!a->n_jumps) { app_message(a, 1, "no earlier jump"); return; }
    push(a->fwd, &a->n_fwd, (int)(sizeof a->fwd / sizeof *a->fwd), a->cur);
    a->rc_beg = a->rc_end = 0;
    app_set_cursor(a, a->jumps[--a->n_jumps]);
}

void history_forward(app_t *a)
{
    if (!a->n_fwd) { app_message(a, 1, "no later jump (Ctrl-O goes back)"); return; }
    push(a->jumps, &a->n_jumps, (int)(sizeof a->jumps / sizeof *a->jumps), a->cur);
    a->rc_beg = a->rc_end = 0;
    app_set_cursor(a, a->fwd[--a->n_fwd]);
}

static int mark_index(int key)
{
    return key >= 'a' && key <= 'z' ? key - 'a' : -1;
}

static void go_mark(app_t *a, int k)
{
    char where[160];
    if (!M.set[k]) { app_message(a, 1, "mark %c is not set (m%c sets it)", 'a' + k, 'a' + k); return; }
    if (!a->src.seq || M.pos[k] >= a->src.seq->glen) { app_message(a, 1, "mark %c lies outside the records", 'a' + k); return; }
    app_jump(a, M.pos[k]);
    app_message(a, 0, "mark %c: %s", 'a' + k, app_fmt_pos(a, M.pos[k], where, sizeof where));
}

void marks_pending_key(app_t *a, int key)
{
    int kind = a->pending;
    a->pending = 0;
    if (key == 27) return;
    int k = mark_index(key);
    if (k < 0) { app_message(a, 1, "marks are the letters a to z (%s is not one)", keys_name(key)); return; }
    if (kind != 'm') { go_mark(a, k); return; }
    if (!a->src.seq) { app_message(a, 1, "no records yet: the file is still being read"); return; }
    char where[160];
    M.pos[k] = a->cur;
    M.set[k] = 1;
    app_message(a, 0, "mark %c at %s ('%c comes back, M lists the marks)", key, app_fmt_pos(a, a->cur, where, sizeof where), key);
}

static int n_set(void)
{
    int n = 0;
    for (int k = 0; k < N_MARKS; k++) n += M.set[k];
    return n;
}

/* The mark on row `row` of the list, or -1. */
static int mark_on_row(int row)
{
    for (int k = 0, r = 0; k < N_MARKS; k++)
        if (M.set[k] && r++ == row) return k;
    return -1;
}

void marks_open(app_t *a)
{
    if (!n_set()) { app_message(a, 1, "no marks yet: m then a letter sets one"); return; }
    a->overlay = OV_MARKS;
    M.sel = 0;
}

void marks_overlay_key(app_t *a, int key)
{
    action_t act = keys_action(key);
    int n = n_set();
    if (act == ACT_QUIT || act == ACT_ESCAPE || act == ACT_HELP) { a->overlay = OV_NONE; return; }
    if (act == ACT_PANE_DOWN || act == ACT_DOWN) M.sel++;
    else if (act == ACT_PANE_UP || act == ACT_UP) M.sel--;
    else if (act == ACT_JUMP || mark_index(key) >= 0) {
        int k = act == ACT_JUMP ? mark_on_row(M.sel) : mark_index(key);
        a->overlay = OV_NONE;
        if (k >= 0) go_mark(a, k);
        return;
    }
    if (M.sel >= n) M.sel = n - 1;
    if (M.sel < 0) M.sel = 0;
}

void marks_draw(app_t *a)
{
    int rows = dr_rows() - 2, cols = dr_cols();
    for (int y = 0; y < rows; y++) dr_fill(y, 0, cols, ST_NORMAL, ' ');
    dr_fill(0, 0, cols, ST_BAR, ' ');
    dr_printf(0, 1, ST_BAR, cols - 2, "%d mark%s  (j/k move, Enter or the letter goes there, Esc closes)", n_set(),
              n_set() == 1 ? "" : "s");
    for (int i = 0, y = 1; i < N_MARKS && y < rows; i++) {
        if (!M.set[i]) continue;
        int sel = y - 1 == M.sel;
        style_t st = sel ? ST_SELROW : ST_NORMAL;
        char where[160], ctx[CONTEXT + 1] = "";
        const char *b = a->src.seq && M.pos[i] < a->src.seq->glen ? NULL : "";
        if (!b) {
            const rv_record_t *r = &a->src.seq->rec[rv_seq_record_of(a->src.seq, M.pos[i])];
            uint64_t len = r->off + r->len - M.pos[i] < CONTEXT ? r->off + r->len - M.pos[i] : CONTEXT;
            b = src_bytes(&a->src, M.pos[i], len);
            if (b) snprintf(ctx, sizeof ctx, "%.*s", (int)len, b);
        }
        dr_fill(y, 0, cols, st, ' ');
        dr_printf(y, 0, st, cols, "%c %c  %-40s %s", sel ? '>' : ' ', 'a' + i,
                  a->src.seq && M.pos[i] < a->src.seq->glen ? app_fmt_pos(a, M.pos[i], where, sizeof where) : "?", ctx);
        y++;
    }
}
