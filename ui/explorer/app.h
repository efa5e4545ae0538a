/* app.h — the explorer's state and the pieces that share it, from the bottom up:
 * state operations (app.c), the panes (pane.c, the class; pane_*.c, one each,
 * never calling each other), the search (pane_find.c), the sequence view
 * (view_seq.c), settings, the record list, marks and export (records.c,
 * marks.c, export.c), the screen manager (screen.c), pictures of the screen
 * (snapshot.c), the command line (prompt.c), key handling (actions.c) and the
 * main loop (explorer.c).  Each calls only those before it in this list
 * (tests/sh/layers.sh checks that no file calls back up). */
#ifndef REPVIEW_UI_APP_H
#define REPVIEW_UI_APP_H

#include <stdint.h>
#include "draw.h"
#include "keys.h"
#include "source.h"
#include "teach_play.h"
#include "repview/find.h"
#include "repview/tandem.h"

typedef struct { int y, x, h, w; } rect_t;

typedef struct app app_t;
typedef struct pane pane_t;
typedef struct search search_t;

/* One row of a pane: text, a style, up to two highlighted spans, and the global
 * position Enter jumps to (-1: none). */
typedef struct {
    char text[200];
    style_t st;
    int hl_beg, hl_len, hl2_beg, hl2_len;
    style_t hl_st, hl2_st;
    int64_t target;
    uint64_t span[2][2];      /* global [beg, end) marked in the sequence view while
                               * this row is selected in the focused pane */
    int n_span;
    char strand;              /* '-': target is a copy read on the minus strand (Enter
                               * shows it as reverse complement); 0 otherwise */
    uint64_t len;             /* length of that copy */
} item_t;

/* A pane is a small class (htop): what it shows for the cursor and what ]/[ do. */
typedef struct {
    const char *name;
    /* Rebuild p->items for the cursor (or set p->note); called when the cursor,
     * the index or the width changed. */
    void (*fill)(pane_t *p, app_t *a, int width);
    /* ]/[: next (dir 1) or previous (-1) feature from the cursor: 1 and *g, or 0
     * with a message in a->msg. NULL: the pane has none. */
    int (*feature)(pane_t *p, app_t *a, int dir, uint64_t *g);
    /* j past the last row (dir 1) or k above the first (-1): add rows at that end
     * (moving sel and scroll when they go first); returns how many.  NULL: the
     * rows are all there is. */
    int (*more)(pane_t *p, app_t *a, int dir);
} pane_ops_t;

struct pane {
    const pane_ops_t *ops;
    item_t *items;
    int n, cap;
    int sel, scroll;
    char note[200];          /* shown when there are no items ("waiting for index") */
    char title_extra[200];    /* e.g. a count after the name */
    char header[200];         /* column header kept above the rows, or "" */
    int height;               /* rows the pane has for items (fill may use it) */
    uint64_t key_cur, key_sel_end;
    int key_gen, key_w, key_h, key_valid, key_extra, center;
};

enum { PANE_SA, PANE_LR, PANE_FIND, PANE_TANDEM, PANE_PAIRS, PANE_TRACK, N_PANES };
extern const pane_ops_t pane_sa_ops, pane_lr_ops, pane_find_ops, pane_tandem_ops,
    pane_pairs_ops, pane_track_ops;

enum { OV_NONE, OV_HELP, OV_RECORDS, OV_MARKS };

struct app {
    source_t src;
    uint64_t cur;             /* cursor, global 0-based position */
    uint64_t top;             /* first position on the screen */
    int bases_per_line, lines, coord_w;
    rect_t r_seq, r_panes;
    pane_t panes[N_PANES];
    int focus, zoom;
    long count;               /* count prefix being typed (0: none) */
    int visual;
    uint64_t vis_anchor;
    char msg[320];
    int msg_err;
    int prompt;               /* 0, ':', '/' or '?' */
    char line[256];
    int line_len;
    int overlay, ov_scroll;   /* OV_*; the help's first line shown */
    /* search (pane_find.c) */
    char pattern[128];        /* as typed: PATTERN or PATTERN/K */
    int search_dir;
    search_t *search;
    uint64_t jumps[32];       /* where jumps started (Ctrl-O goes back) */
    int n_jumps;
    uint64_t fwd[32];         /* where Ctrl-O came from (Ctrl-N goes forward) */
    int n_fwd;
    int pending;              /* 'm' or '\'': the next key names a mark (marks.c) */
    /* both strands: the copy reached by the last jump to a minus-strand copy, drawn
     * as its reverse complement while the cursor stays inside [rc_beg, rc_end) */
    uint64_t rc_beg, rc_end;
    int track_fwd;            /* LR track (and status LR) of forward copies only */
    int quit, mouse;
    const char *title;        /* file name shown in the title bar */
    int extra_gen;            /* bumped when search results change */
    /* `:set` settings (settings.c) */
    uint64_t minpair;         /* maximal pairs pane: minimum length, 0 = automatic */
    int families;             /* the pairs pane lists repeat families (:set pairs families) */
    rv_tandem_filter_t tfilter; /* tandem pane filters */
    void (*cursor_moved)(app_t *a); /* called after each cursor move (the view's layout) */
    teach_player_t *teach;    /* T: teaching mode over the whole screen, or NULL */
};

/* app.c: below every other part of the explorer */
void app_set_cursor(app_t *a, uint64_t g);
void app_jump(app_t *a, uint64_t g);
/* Jump to the copy [g, g + len) read on the minus strand: shown as reverse complement. */
void app_jump_rc(app_t *a, uint64_t g, uint64_t len);
/* 1 when the index holds both strands (seq.h). */
int app_both(const app_t *a);
/* Forward text length (the cursor's text positions are below it); 0 without index. */
uint64_t app_fwd_len(const app_t *a);
/* Strand ('+' or '-') of text interval [t, t + len) and the global start of the
 * forward interval it reads. */
int app_copy(const app_t *a, uint64_t t, uint64_t len, uint64_t *g);
/* Complement of a base as read (case kept; IUPAC codes too; others unchanged). */
int app_complement(int c);
void app_message(app_t *a, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Text position of the cursor, or -1 (no index, breaker). */
int64_t app_cursor_text(const app_t *a);
/* First text position at global >= g (n when none), last at global <= g (-1). */
int64_t app_text_after(const app_t *a, uint64_t g);
int64_t app_text_before(const app_t *a, uint64_t g);
/* "name:1,234" for global g into buf. */
char *app_fmt_pos(const app_t *a, uint64_t g, char *buf, size_t len);
char *fmt_commas(uint64_t v, char *buf, size_t len);
/* "bp", "aa" or "chars" for the alphabet shown. */
const char *app_unit(const app_t *a);
/* ]/[ of the repeat panes: the next (dir 1) or previous (-1) start of a repeat worth
 * a look from the cursor: 1 and *g, or 0 with a message. */
int app_next_repeat(app_t *a, int dir, uint64_t *g);

/* settings.c: `:set NAME VALUE` (and `:set` alone lists them). 0, or -1 after an
 * inline error message. */
void settings_init(app_t *a);
int set_command(app_t *a, const char *args);

/* view_seq.c */
void view_layout(app_t *a);
void view_draw(app_t *a);
void view_follow(app_t *a);                 /* scroll so the cursor is visible */
const rv_record_t *view_record(const app_t *a);
int view_click(app_t *a, int y, int x);     /* 1 when the click was on the sequence */
uint64_t view_lr_at_cursor(app_t *a);       /* LR length at the cursor, 0 when none */
uint64_t view_track_unit(const app_t *a);   /* LR length of track level 1 */

/* pane_tandem.c: the runs once computed (the pane starts that), else NULL. */
const rv_runs_t *tandem_runs_ready(const app_t *a);

/* pane.c */
/* Mark text[t, t+len) (breaker-free) in the sequence view while `it` is selected. */
void item_mark(item_t *it, const app_t *a, uint64_t t, uint64_t len);
/* 1 when global position g is marked by the selected row of the focused pane. */
int app_marked(const app_t *a, uint64_t g);
void pane_init(pane_t *p, const pane_ops_t *ops);
void pane_free(pane_t *p);
void pane_clear(pane_t *p);
item_t *pane_add(pane_t *p, int64_t target, style_t st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pane_refresh(pane_t *p, app_t *a, int width);
void pane_draw(pane_t *p, app_t *a, rect_t r, int focused);
void pane_move(pane_t *p, long delta);
/* The pane actions of the key table on pane p (move the selection, jump to the
 * selected row's target, step through features): 1 when act is one of them. */
int pane_act(app_t *a, pane_t *p, action_t act, long n);
void panes_draw(app_t *a);
int panes_click(app_t *a, int y, int x);

/* screen.c */
void screen_draw(app_t *a);
int screen_help_max_scroll(const app_t *a);
void screen_help_lines(const app_t *a, void (*emit)(void *ud, const char *keys, const char *text), void *ud);

/* records.c: the record list (R, :records [FILTER]) */
void records_open(app_t *a, const char *filter);
void records_key(app_t *a, int key);
void records_draw(app_t *a);
void records_click(app_t *a, int y);        /* selects the row at screen row y */

/* marks.c: marks a-z and the history of jumps */
void history_back(app_t *a);
void history_forward(app_t *a);
void marks_pending_key(app_t *a, int key);
void marks_open(app_t *a);
void marks_overlay_key(app_t *a, int key);
void marks_draw(app_t *a);

/* export.c, snapshot.c: `:export PATH`, `:screen NAME` (0, or -1 after a message) */
int export_command(app_t *a, const char *args);
int screen_save_command(app_t *a, const char *args);

/* prompt.c */
void prompt_key(app_t *a, int key);
/* A `:` line: a command of the table in prompt.c, else a place (goto_place). */
int goto_command(app_t *a, const char *cmd);
/* A place: REGION (a record also by a unique token of its name), POS, +DIST,
 * -DIST, =POS.  0, or -1 after an inline error. */
int goto_place(app_t *a, const char *where);

/* actions.c */
void app_key(app_t *a, int key);

/* pane_tandem.c: 1 while the runs are computed in the background; poll joins
 * a finished computation (1 when it did) */
int tandem_busy(void);
int tandem_poll(app_t *a);

/* pane_find.c */
void search_run(app_t *a, const char *line, int dir); /* line "" repeats the last */
void search_step(app_t *a, int dir, long count);       /* n (1) / N (-1) */
int search_poll(app_t *a);                             /* 1: a search just finished */
void search_wait(app_t *a);                            /* scripted mode */
int search_busy(const app_t *a);
void search_cancel(app_t *a);
void search_free(app_t *a);
void search_window(app_t *a, uint64_t g0, uint64_t g1); /* hits on screen */
rv_pattern_t *search_ready_pattern(app_t *a);           /* the finished search, or NULL */
int search_hit_at(const app_t *a, uint64_t g);          /* 1 when g is in a hit */

#endif
