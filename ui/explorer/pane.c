/* pane.c — what every pane shares: a list of rows with a selection, caching per
 * cursor position, drawing, and the layout of the pane area (the screen manager
 * part of htop's design).  Each pane_*.c only fills its rows. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "tracks.h"

static rect_t shown[N_PANES]; /* where each pane was drawn last (h = 0: hidden) */

void pane_init(pane_t *p, const pane_ops_t *ops)
{
    memset(p, 0, sizeof *p);
    p->ops = ops;
}

void pane_free(pane_t *p)
{
    free(p->items);
    p->items = NULL;
    p->n = p->cap = 0;
}

void pane_clear(pane_t *p)
{
    p->n = 0;
    p->note[0] = 0;
    p->title_extra[0] = 0;
    p->header[0] = 0;
}

item_t *pane_add(pane_t *p, int64_t target, style_t st, const char *fmt, ...)
{
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 64;
        item_t *it = realloc(p->items, (size_t)cap * sizeof *it);
        if (!it) return NULL;
        p->items = it;
        p->cap = cap;
    }
    item_t *it = &p->items[p->n++];
    memset(it, 0, sizeof *it);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->text, sizeof it->text, fmt, ap);
    va_end(ap);
    it->st = st;
    it->target = target;
    return it;
}

void item_mark(item_t *it, const app_t *a, uint64_t t, uint64_t len)
{
    if (!it || it->n_span >= 2 || !a->src.x) return;
    uint64_t g;
    app_copy(a, t, len, &g); /* a reverse-half copy marks the forward bases it reads */
    it->span[it->n_span][0] = g;
    it->span[it->n_span][1] = g + len;
    it->n_span++;
}

int app_marked(const app_t *a, uint64_t g)
{
    const pane_t *p = &a->panes[a->focus];
    if (p->sel < 0 || p->sel >= p->n) return 0;
    const item_t *it = &p->items[p->sel];
    for (int k = 0; k < it->n_span; k++)
        if (g >= it->span[k][0] && g < it->span[k][1]) return 1;
    return 0;
}

void pane_refresh(pane_t *p, app_t *a, int width)
{
    uint64_t sel_end = a->visual ? a->vis_anchor : UINT64_MAX;
    if (p->key_valid && p->key_cur == a->cur && p->key_gen == a->src.generation && p->key_w == width && p->key_h == p->height &&
        p->key_extra == a->extra_gen && p->key_sel_end == sel_end)
        return;
    pane_clear(p);
    p->sel = p->scroll = 0;
    p->ops->fill(p, a, width);
    p->center = 1;
    p->key_valid = 1;
    p->key_cur = a->cur;
    p->key_gen = a->src.generation;
    p->key_w = width;
    p->key_h = p->height;
    p->key_extra = a->extra_gen;
    p->key_sel_end = sel_end;
}

void pane_move(pane_t *p, long delta)
{
    long s = p->sel + delta;
    if (s >= p->n) s = p->n - 1;
    if (s < 0) s = 0;
    p->sel = (int)s;
}

/* Text cut at w columns ends in a mark ('>' as vi's "extends", '…' on a Unicode
 * terminal), so a cut row never reads as a whole one. */
static void cut_mark(const char *text, int y, int x, int w, style_t st)
{
    if (w > 1 && (int)strlen(text) > w) dr_glyph(y, x + w - 1, st, "\u2026", '>');
}

static void draw_item(const item_t *it, int y, int x, int w, int selected)
{
    dr_fill(y, x, w, selected ? ST_SELROW : ST_NORMAL, ' ');
    dr_char(y, x, selected ? ST_SELROW : ST_NORMAL, selected ? '>' : ' ');
    dr_text(y, x + 1, selected ? ST_SELROW : it->st, it->text, w - 1);
    int tl = (int)strlen(it->text);
    if (it->hl_len && it->hl_beg < tl && !selected)
        dr_restyle(y, x + 1 + it->hl_beg, it->hl_len < w - 1 - it->hl_beg ? it->hl_len : w - 1 - it->hl_beg, it->hl_st);
    if (it->hl2_len && it->hl2_beg < tl && !selected)
        dr_restyle(y, x + 1 + it->hl2_beg, it->hl2_len < w - 1 - it->hl2_beg ? it->hl2_len : w - 1 - it->hl2_beg, it->hl2_st);
    cut_mark(it->text, y, x + 1, w - 1, selected ? ST_SELROW : ST_DIM);
}

void pane_draw(pane_t *p, app_t *a, rect_t r, int focused)
{
    if (r.h <= 0 || r.w <= 2) return;
    p->height = r.h - 1;
    pane_refresh(p, a, r.w - 1);
    char title[420];
    snprintf(title, sizeof title, "%c %s %s", focused ? '*' : '-', p->ops->name, p->title_extra);
    int x = dr_text(r.y, r.x, focused ? ST_FOCUS : ST_TITLE, title, r.w - 1);
    dr_fill(r.y, x, r.x + r.w - x - 1, ST_TITLE, '-');
    cut_mark(title, r.y, r.x, r.w - 1, focused ? ST_FOCUS : ST_TITLE);
    int rows = r.h - 1;
    if (p->header[0] && rows > 1) {
        dr_text(r.y + 1, r.x + 1, ST_DIM, p->header, r.w - 2);
        cut_mark(p->header, r.y + 1, r.x + 1, r.w - 2, ST_DIM);
        r.y++;
        rows--;
    }
    if (p->n == 0) {
        dr_text(r.y + 1, r.x + 1, ST_DIM, p->note, r.w - 2);
        cut_mark(p->note, r.y + 1, r.x + 1, r.w - 2, ST_DIM);
        return;
    }
    if (p->center) { /* fresh rows: the selection in the middle */
        p->scroll = p->sel >= rows ? p->sel - rows / 2 : 0;
        p->center = 0;
    }
    if (p->sel < p->scroll) p->scroll = p->sel;
    if (p->sel >= p->scroll + rows) p->scroll = p->sel - rows + 1;
    for (int i = 0; i < rows && p->scroll + i < p->n; i++)
        draw_item(&p->items[p->scroll + i], r.y + 1 + i, r.x, r.w - 1, focused && p->scroll + i == p->sel);
}

/* Normal layout: suffix array and longest repeats side by side on top, the other
 * panes below; small screens and presentation mode show the focused pane only. */
void panes_draw(app_t *a)
{
    rect_t r = a->r_panes;
    memset(shown, 0, sizeof shown);
    if (r.h < 2) return;
    if (a->zoom || r.h < 12 || r.w < 80) {
        shown[a->focus] = r;
        pane_draw(&a->panes[a->focus], a, r, 1);
        return;
    }
    int h1 = r.h / 2 + 1, h2 = r.h - h1, w1 = r.w * 3 / 5;
    shown[PANE_SA] = (rect_t){r.y, r.x, h1, w1};
    shown[PANE_LR] = (rect_t){r.y, r.x + w1, h1, r.w - w1};
    int nb = tracks_count() ? 4 : 3, w3 = r.w / nb; /* with tracks: the Tracks pane on the right */
    shown[PANE_FIND] = (rect_t){r.y + h1, r.x, h2, w3};
    shown[PANE_TANDEM] = (rect_t){r.y + h1, r.x + w3, h2, w3};
    shown[PANE_PAIRS] = (rect_t){r.y + h1, r.x + 2 * w3, h2, nb == 4 ? w3 : r.w - 2 * w3};
    if (nb == 4) shown[PANE_TRACK] = (rect_t){r.y + h1, r.x + 3 * w3, h2, r.w - 3 * w3};
    for (int i = 0; i < N_PANES; i++) pane_draw(&a->panes[i], a, shown[i], i == a->focus);
}

int panes_click(app_t *a, int y, int x)
{
    for (int i = 0; i < N_PANES; i++) {
        rect_t r = shown[i];
        if (r.h == 0 || y < r.y || y >= r.y + r.h || x < r.x || x >= r.x + r.w) continue;
        a->focus = i;
        pane_t *p = &a->panes[i];
        int first = r.y + 1 + (p->header[0] != 0); /* below the title and the column header */
        if (y >= first && p->n) pane_move(p, p->scroll + (y - first) - p->sel);
        return 1;
    }
    return 0;
}

static void feature(app_t *a, pane_t *p, int dir, long n)
{
    if (!p->ops->feature) { app_message(a, 1, "the %s pane has no features to step through", p->ops->name); return; }
    uint64_t g = a->cur, start = a->cur;
    for (long k = 0; k < n; k++) {
        if (!p->ops->feature(p, a, dir, &g)) break;
        a->cur = g; /* the next step starts here */
    }
    a->cur = start;
    if (g != start) app_jump(a, g);
}

int pane_act(app_t *a, pane_t *p, action_t act, long n)
{
    switch (act) {
    case ACT_PANE_DOWN:
        while (p->ops->more && p->sel + n >= p->n && p->ops->more(p, a, 1) > 0) {}
        pane_move(p, n);
        return 1;
    case ACT_PANE_UP:
        while (p->ops->more && p->sel - n < 0 && p->ops->more(p, a, -1) > 0) {}
        pane_move(p, -n);
        return 1;
    case ACT_NEXT_FEAT: feature(a, p, 1, n); return 1;
    case ACT_PREV_FEAT: feature(a, p, -1, n); return 1;
    case ACT_JUMP:
        if (p->n && p->items[p->sel].target >= 0) {
            const item_t *it = &p->items[p->sel];
            if (it->strand == '-') app_jump_rc(a, (uint64_t)it->target, it->len);
            else app_jump(a, (uint64_t)it->target);
        } else app_message(a, 1, "nothing to jump to in this row");
        return 1;
    default: return 0;
    }
}
