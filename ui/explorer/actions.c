/* actions.c — what each action of the key table does (keys.h), count prefixes and
 * overlays; the focused pane's own actions go to pane_act() (pane.c), so this file
 * never reaches into a pane. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "tracks.h"

/* Move within the cursor's record by delta (clamped to the record). */
static void move_by(app_t *a, int64_t delta)
{
    const rv_record_t *r = view_record(a);
    if (!r || r->len == 0) return;
    int64_t rel = (int64_t)(a->cur - r->off) + delta;
    if (rel < 0) rel = 0;
    if (rel >= (int64_t)r->len) rel = (int64_t)r->len - 1;
    app_set_cursor(a, r->off + (uint64_t)rel);
}

static void page(app_t *a, long n)
{
    const rv_record_t *r = view_record(a);
    if (!r) return;
    int64_t d = (int64_t)n * a->bases_per_line * a->lines;
    int64_t top = (int64_t)(a->top - r->off) + d;
    if (top < 0) top = 0;
    if (top >= (int64_t)r->len) top = (int64_t)((r->len - 1) / (uint64_t)a->bases_per_line * (uint64_t)a->bases_per_line);
    a->top = r->off + (uint64_t)top;
    move_by(a, d);
}

static void go_record(app_t *a, long delta)
{
    const rv_seq_t *s = a->src.seq;
    if (!s) return;
    int64_t rid = (int64_t)rv_seq_record_of(s, a->cur);
    int step = delta > 0 ? 1 : -1;
    for (long k = 0; k < (delta > 0 ? delta : -delta); k++) {
        int64_t nr = rid + step;
        while (nr >= 0 && nr < (int64_t)s->n_rec && s->rec[nr].len == 0) nr += step; /* empty records hold no position */
        if (nr < 0 || nr >= (int64_t)s->n_rec) { app_message(a, 1, "no %s record", step > 0 ? "next" : "previous"); break; }
        rid = nr;
    }
    if (s->rec[rid].off != a->cur) app_jump(a, s->rec[rid].off);
}

static void overlay_key(app_t *a, int key)
{
    if (a->overlay == OV_RECORDS) { records_key(a, key); return; }
    if (a->overlay == OV_MARKS) { marks_overlay_key(a, key); return; }
    action_t act = keys_action(key);
    int n = screen_help_max_scroll(a) + 1, *pos = &a->ov_scroll;
    if (act == ACT_QUIT || act == ACT_ESCAPE || act == ACT_HELP) { a->overlay = OV_NONE; return; }
    if (act == ACT_PANE_DOWN || act == ACT_DOWN) (*pos)++;
    else if (act == ACT_PANE_UP || act == ACT_UP) (*pos)--;
    else if (act == ACT_PAGE_DOWN) *pos += dr_rows() - 3;
    else if (act == ACT_PAGE_UP) *pos -= dr_rows() - 3;
    else if (act == ACT_TOP) *pos = 0;
    else if (act == ACT_BOTTOM) *pos = n - 1;
    if (*pos >= n) *pos = n - 1;
    if (*pos < 0) *pos = 0;
}

/* T on the suffix-array pane: teaching mode (teach_play.h) on the text around the
 * cursor, as many symbols as a screen holds; presentation mode (z) opens it in
 * the large layout. */
static void open_teach(app_t *a)
{
    const rv_seq_t *s = a->src.seq;
    const rv_record_t *r = view_record(a);
    if (a->focus != PANE_SA) { app_message(a, 1, "T opens teaching mode from the Suffix array pane (Tab to it)"); return; }
    if (!s || !r || !r->len) return;
    teach_opts_t o;
    teach_opts_init(&o);
    o.large = a->zoom;
    uint64_t w = (uint64_t)teach_max_len(o.large), fit = dr_cols() > 24 ? (uint64_t)(dr_cols() - 20) / (o.large ? 5 : 3) : 1;
    if (w > fit) w = fit;
    if (w > r->len) w = r->len;
    uint64_t beg = a->cur - r->off > w / 2 ? a->cur - w / 2 : r->off;
    if (beg + w > r->off + r->len) beg = r->off + r->len - w;
    o.at = (int64_t)(a->cur - beg);
    char err[240];
    a->teach = teach_open(TOPIC_SA, s->raw + beg, w, s->alpha, &o, err, sizeof err);
    if (!a->teach) { app_message(a, 1, "teaching mode: %s", err); return; }
    char where[120], c1[32], c2[32];
    snprintf(where, sizeof where, "%s:%s-%s", r->name, fmt_commas(beg - r->off + 1, c1, sizeof c1),
             fmt_commas(beg - r->off + w, c2, sizeof c2));
    teach_set_origin(a->teach, where);
}

/* Ctrl-F / Ctrl-B: n features of the current track on. */
static void track_step(app_t *a, int dir, long n)
{
    uint64_t start = a->cur, g = a->cur;
    int moved = 0;
    for (long k = 0; k < n && tracks_step(a, dir, &g); k++, moved = 1) a->cur = g; /* the next step starts here */
    a->cur = start;
    if (moved) app_jump(a, g);
}

static void act(app_t *a, action_t act, long count)
{
    long n = count > 0 ? count : 1;
    if (pane_act(a, &a->panes[a->focus], act, n)) return;
    const rv_record_t *r = view_record(a);
    uint64_t bpl = (uint64_t)a->bases_per_line;
    switch (act) {
    case ACT_LEFT: move_by(a, -n); break;
    case ACT_RIGHT: move_by(a, n); break;
    case ACT_UP: move_by(a, -n * (int64_t)bpl); break;
    case ACT_DOWN: move_by(a, n * (int64_t)bpl); break;
    case ACT_SCREEN_TOP: app_set_cursor(a, a->top); break;
    case ACT_SCREEN_END:
        if (r) app_set_cursor(a, a->top + bpl * (uint64_t)a->lines - 1 < r->off + r->len - 1 ? a->top + bpl * (uint64_t)a->lines - 1 : r->off + r->len - 1);
        break;
    case ACT_PAGE_DOWN: page(a, n); break;
    case ACT_PAGE_UP: page(a, -n); break;
    case ACT_LINE_START: if (r) move_by(a, -(int64_t)((a->cur - r->off) % bpl)); break;
    case ACT_LINE_END: if (r) move_by(a, (int64_t)(bpl - 1 - (a->cur - r->off) % bpl)); break;
    case ACT_TOP: if (r) app_jump(a, r->off + (count > 0 && (uint64_t)count <= r->len ? (uint64_t)count - 1 : 0)); break;
    case ACT_BOTTOM: if (r && r->len) app_jump(a, r->off + r->len - 1); break;
    case ACT_NEXT_REC: go_record(a, n); break;
    case ACT_PREV_REC: go_record(a, -n); break;
    case ACT_RECORDS: records_open(a, ""); break;
    case ACT_MARK_SET: case ACT_MARK_GO: a->pending = act == ACT_MARK_SET ? 'm' : '\''; break;
    case ACT_MARKS: marks_open(a); break;
    case ACT_EXPORT: case ACT_SNAPSHOT:
        a->prompt = ':';
        a->line_len = snprintf(a->line, sizeof a->line, "%s", act == ACT_EXPORT ? "export " : "screen ");
        a->msg[0] = 0;
        break;
    case ACT_GOTO: case ACT_SEARCH: case ACT_SEARCH_BACK:
        a->prompt = act == ACT_GOTO ? ':' : act == ACT_SEARCH ? '/' : '?';
        a->line[0] = 0;
        a->line_len = 0;
        a->msg[0] = 0;
        break;
    case ACT_NEXT_HIT: search_step(a, 1, n); break;
    case ACT_PREV_HIT: search_step(a, -1, n); break;
    case ACT_FOCUS_NEXT: a->focus = (a->focus + 1) % (N_PANES - !tracks_count()); break; /* Tracks: with tracks */
    case ACT_FOCUS_PREV: a->focus = (a->focus + N_PANES - !tracks_count() - 1) % (N_PANES - !tracks_count()); break;
    case ACT_NEXT_TRACK_FEAT: track_step(a, 1, n); break;
    case ACT_PREV_TRACK_FEAT: track_step(a, -1, n); break;
    case ACT_TRACK_NEXT:
        if (!tracks_count()) { app_message(a, 1, "no tracks (repview FILE --track A.bed, or :track FILE)"); break; }
        tracks_set_current((tracks_current() + 1) % tracks_count());
        app_message(a, 0, "current track: %s (Ctrl-F, Ctrl-B step through its features)", tracks_label(tracks_current()));
        break;
    case ACT_FIND_FEATURE:
        a->prompt = ':';
        a->line_len = snprintf(a->line, sizeof a->line, "feature ");
        a->msg[0] = 0;
        break;
    case ACT_JUMP_BACK: history_back(a); break;
    case ACT_JUMP_FWD: history_forward(a); break;
    case ACT_VISUAL:
        a->visual = !a->visual;
        a->vis_anchor = a->cur;
        break;
    case ACT_ZOOM: a->zoom = !a->zoom; break;
    case ACT_TEACH: open_teach(a); break;
    case ACT_TRACK_STRANDS:
        if (!app_both(a)) {
            a->track_fwd = 0;
            app_message(a, 1, "the index holds one strand: the LR track counts forward copies only (:set strands both)");
            break;
        }
        a->track_fwd = !a->track_fwd;
        app_message(a, 0, "LR track: %s", a->track_fwd ? "copies on the forward strand only" : "copies on both strands");
        break;
    case ACT_CANCEL_BUILD:
        if (a->src.job) { src_cancel(&a->src); app_message(a, 0, "cancelling the index build"); }
        else app_message(a, 1, "no index build is running");
        break;
    case ACT_HELP: a->overlay = OV_HELP; a->ov_scroll = 0; break;
    case ACT_REDRAW: if (!dr_is_grid()) clearok(curscr, TRUE); break;
    case ACT_ESCAPE:
        a->visual = 0;
        a->msg[0] = 0;
        if (search_busy(a)) { search_cancel(a); app_message(a, 0, "search cancelled"); }
        break;
    case ACT_QUIT: a->quit = 1; break;
    case ACT_NEXT_FEAT: case ACT_PREV_FEAT: case ACT_PANE_DOWN: case ACT_PANE_UP: case ACT_JUMP:
        break; /* pane_act took them */
    case ACT_NONE: case ACT_COUNT: break;
    }
}

void app_key(app_t *a, int key)
{
    if (key == KEY_RESIZE) return; /* the next frame lays everything out again */
    if (a->teach) { /* teaching mode has the keys until q */
        if (teach_key(a->teach, key)) { teach_close(a->teach); a->teach = NULL; }
        return;
    }
    if (a->prompt) { prompt_key(a, key); return; }
    if (a->overlay) { overlay_key(a, key); return; }
    if (a->pending) { marks_pending_key(a, key); return; }
    if ((key >= '1' && key <= '9') || (key == '0' && a->count > 0)) {
        if (a->count < 100000000) a->count = a->count * 10 + (key - '0');
        return;
    }
    action_t ac = keys_action(key);
    long count = a->count;
    a->count = 0;
    if (ac == ACT_NONE) { app_message(a, 1, "%s is not a key of repview (F1 for help)", keys_name(key)); return; }
    if (ac != ACT_ESCAPE && ac != ACT_GOTO && ac != ACT_SEARCH && ac != ACT_SEARCH_BACK && ac != ACT_EXPORT &&
        ac != ACT_SNAPSHOT && ac != ACT_FIND_FEATURE)
        a->msg[0] = 0;
    act(a, ac, count);
}
