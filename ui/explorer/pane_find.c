/* pane_find.c — pattern search in the explorer: the `/` and `?` prompts, n/N,
 * hits highlighted in the sequence view, and the matches pane (count and list).
 *
 * Matches come from the find engine (find.h, Sahu's thesis): a compiled pattern is a
 * handful of SA intervals, counted at once and walked in text order on demand.
 * The search itself (slow only for short patterns with mismatches on a big
 * genome) runs in a helper thread so the screen never freezes; Esc cancels it.
 * Typed as /PATTERN for exact matches or /PATTERN/K for up to K mismatches.
 * The pane lists one row per hit and strand and loads more hits as j and k
 * move past its ends. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "repview/common.h"
#include "repview/find.h"
#include "repview/seq.h"
#include "app.h"

enum { WINDOW_MAX = 4096, LIST_BEFORE = 5, LIST_MAX = 200, LIST_KEEP = 2000, MAX_K = 8 };

struct search {
    rv_pattern_t *p;
    pthread_t tid;
    int running;           /* a helper thread exists (joined when done) */
    _Atomic int done, cancel;
    int64_t count;         /* -1: failed or cancelled */
    char err[200];
    size_t len;
    uint64_t nf;           /* forward text length: no hit lies past it (find.h drops
                            * the reverse half of a both-strand index); a guard */
    uint64_t list_first, list_last; /* text positions of the pane's first and last rows */
    /* hits on the screen, global starts, for highlighting */
    uint64_t win_lo, win_hi, *win;
    size_t n_win;
    int win_valid;
};

static void *search_main(void *arg)
{
    search_t *s = arg;
    s->count = rv_find_count(s->p);
    if (s->count < 0) snprintf(s->err, sizeof s->err, "%s", rv_last_error());
    atomic_store(&s->done, 1);
    return NULL;
}

void search_free(app_t *a)
{
    search_t *s = a->search;
    if (!s) return;
    if (s->running) {
        atomic_store(&s->cancel, 1);
        pthread_join(s->tid, NULL);
    }
    rv_find_free(s->p);
    free(s->win);
    free(s);
    a->search = NULL;
}

static int ready(const app_t *a)
{
    return a->search && atomic_load(&a->search->done) && a->search->count >= 0;
}

int search_busy(const app_t *a)
{
    return a->search && !atomic_load(&a->search->done);
}

void search_cancel(app_t *a)
{
    if (search_busy(a)) atomic_store(&a->search->cancel, 1);
}

void search_run(app_t *a, const char *line, int dir)
{
    char pat[128], typed[sizeof a->pattern];
    unsigned k;
    snprintf(typed, sizeof typed, "%s", *line ? line : a->pattern);
    if (!typed[0]) { app_message(a, 1, "no previous pattern"); return; }
    if (rv_find_parse_typed(typed, MAX_K, pat, sizeof pat, &k) < 0) { app_message(a, 1, "%s", rv_last_error()); return; }
    snprintf(a->pattern, sizeof a->pattern, "%s", typed);
    a->search_dir = dir;
    if (!a->src.x) { app_message(a, 1, "search needs the index: wait for the status bar to say ready"); return; }
    search_free(a);
    a->extra_gen++;
    const rv_index_t *x = a->src.x;
    rv_pattern_t *p = rv_find_compile(x, pat, strlen(pat),
                                      x->seq->alpha == RV_ALPHA_DNA ? RV_STRAND_BOTH : RV_STRAND_FWD, k);
    if (!p) { app_message(a, 1, "%s", rv_last_error()); return; }
    search_t *s = calloc(1, sizeof *s);
    if (!s) { rv_find_free(p); app_message(a, 1, "out of memory"); return; }
    s->p = p;
    s->len = rv_find_length(p);
    s->nf = rv_seq_fwd_len(x->seq);
    rv_find_set_cancel(p, &s->cancel);
    a->search = s;
    s->running = src_thread(&s->tid, search_main, s);
    if (!s->running) search_main(s);
    app_message(a, 0, "searching for %s (Esc cancels)", a->pattern);
}

/* Called by the main loop: 1 when a background search has just finished. */
int search_poll(app_t *a)
{
    search_t *s = a->search;
    if (!s || !s->running || !atomic_load(&s->done)) return 0;
    pthread_join(s->tid, NULL);
    s->running = 0;
    a->extra_gen++;
    if (s->count < 0) { app_message(a, 1, "%s: %s", a->pattern, s->err); return 1; }
    if (s->count == 0) { app_message(a, 1, "%s: not found", a->pattern); return 1; }
    search_step(a, 1, 1);
    return 1;
}

void search_wait(app_t *a)
{
    while (search_busy(a)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    search_poll(a);
}

static int step_once(rv_pattern_t *p, uint64_t nf, int d, uint64_t *t, int *wrapped, rv_hit_t *h)
{
    int r;
    if (d > 0) {
        r = rv_find_next(p, (int64_t)*t, h);
        if (r == 0 || (r == 1 && h->pos >= nf)) { r = rv_find_next(p, -1, h); *wrapped = 1; }
    } else {
        r = rv_find_prev(p, *t < nf ? *t : nf, h);
        if (r == 0) { r = rv_find_prev(p, nf, h); *wrapped = 1; }
    }
    if (r == 1) *t = h->pos;
    return r;
}

void search_step(app_t *a, int dir, long count)
{
    if (!a->pattern[0]) { app_message(a, 1, "no search yet: / or ? starts one"); return; }
    if (search_busy(a)) { app_message(a, 1, "still searching for %s (Esc cancels)", a->pattern); return; }
    if (!ready(a)) { app_message(a, 1, "%s: no search results", a->pattern); return; }
    search_t *s = a->search;
    if (s->count == 0) { app_message(a, 1, "%s: not found", a->pattern); return; }
    int d = dir * (a->search_dir ? a->search_dir : 1), wrapped = 0;
    uint64_t t = (uint64_t)(d > 0 ? app_text_before(a, a->cur) : app_text_after(a, a->cur));
    rv_hit_t h = {0};
    for (long c = 0; c < (count > 0 ? count : 1); c++)
        if (step_once(s->p, s->nf, d, &t, &wrapped, &h) != 1) { app_message(a, 1, "out of memory"); return; }
    uint64_t g = rv_seq_text_to_global(a->src.x->seq, h.pos);
    char where[160];
    app_jump(a, g);
    app_message(a, 0, "%s at %s (%c, %u mismatch%s), %lld matches%s", a->pattern,
                app_fmt_pos(a, g, where, sizeof where), h.strand, (unsigned)h.mism, h.mism == 1 ? "" : "es",
                (long long)s->count, wrapped ? " (search wrapped)" : "");
}

/* Hits drawn on the screen: one page from the engine per screen window. */
void search_window(app_t *a, uint64_t g0, uint64_t g1)
{
    search_t *s = a->search;
    if (!ready(a) || s->count == 0) return;
    if (s->win_valid && s->win_lo == g0 && s->win_hi == g1) return;
    s->win_valid = 1;
    s->win_lo = g0;
    s->win_hi = g1;
    s->n_win = 0;
    uint64_t t0 = (uint64_t)app_text_after(a, g0), t1 = (uint64_t)app_text_after(a, g1);
    t0 = t0 >= s->len - 1 ? t0 - (s->len - 1) : 0;
    rv_hit_t *page = malloc(WINDOW_MAX * sizeof *page);
    if (!s->win) s->win = malloc(WINDOW_MAX * sizeof *s->win);
    int64_t n = page && s->win ? rv_find_page(s->p, t0, page, WINDOW_MAX) : 0;
    for (int64_t i = 0; i < n && page[i].pos < t1 && page[i].pos < s->nf; i++)
        s->win[s->n_win++] = rv_seq_text_to_global(a->src.x->seq, page[i].pos);
    free(page);
}

int search_hit_at(const app_t *a, uint64_t g)
{
    const search_t *s = a->search;
    if (!s || !s->win_valid || s->n_win == 0) return 0;
    size_t lo = 0, hi = s->n_win; /* last hit starting <= g */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->win[mid] <= g) lo = mid + 1; else hi = mid;
    }
    return lo > 0 && g < s->win[lo - 1] + s->len;
}

rv_pattern_t *search_ready_pattern(app_t *a)
{
    return ready(a) && a->search->count > 0 ? a->search->p : NULL;
}

static void add_hit(pane_t *p, app_t *a, const rv_hit_t *h)
{
    char buf[160];
    uint64_t g = rv_seq_text_to_global(a->src.x->seq, h->pos);
    pane_add(p, (int64_t)g, g == a->cur ? ST_HIT : ST_NORMAL, "%-20s %c %3u", app_fmt_pos(a, g, buf, sizeof buf),
             h->strand, (unsigned)h->mism);
}

/* The hits of LIST_MAX positions from text position `from` on, before `stop`:
 * one row per hit, so a site matched on both strands (a palindrome such as GATC)
 * has a row for each.  Returns the rows added. */
static int add_hits_from(pane_t *p, app_t *a, uint64_t from, uint64_t stop)
{
    search_t *s = a->search;
    rv_hit_t *page = malloc(LIST_MAX * sizeof *page);
    int64_t n = page ? rv_find_page(s->p, from, page, LIST_MAX) : 0;
    int added = 0;
    for (int64_t i = 0; i < n && page[i].pos < s->nf && page[i].pos < stop; i++, added++) {
        if (p->n == 0 || page[i].pos < s->list_first) s->list_first = page[i].pos;
        if (p->n == 0 || page[i].pos > s->list_last) s->list_last = page[i].pos;
        add_hit(p, a, &page[i]);
    }
    free(page);
    return added;
}

/* The start of the k-th position with a hit before text position t (t when none). */
static uint64_t back_positions(search_t *s, uint64_t t, int k)
{
    rv_hit_t h;
    for (int i = 0; i < k && rv_find_prev(s->p, t, &h) == 1; i++) t = h.pos;
    return t;
}

static void find_fill(pane_t *p, app_t *a, int width)
{
    (void)width;
    search_t *s = a->search;
    if (!a->pattern[0] || !s) {
        snprintf(p->note, sizeof p->note, "%s", a->pattern[0] ? "no results" : "/PAT or /PAT/K (K mismatches)");
        return;
    }
    if (search_busy(a)) { snprintf(p->note, sizeof p->note, "searching for %s (Esc cancels)", a->pattern); return; }
    if (s->count < 0) { snprintf(p->note, sizeof p->note, "%s", s->err); return; }
    snprintf(p->title_extra, sizeof p->title_extra, "%lld of %s", (long long)s->count, a->pattern);
    if (s->count == 0) { snprintf(p->note, sizeof p->note, "no matches"); return; }
    snprintf(p->header, sizeof p->header, "%-20s %s", "position", "+/- mism");
    uint64_t t = (uint64_t)app_text_after(a, a->cur);
    add_hits_from(p, a, back_positions(s, t, LIST_BEFORE), UINT64_MAX);
    p->sel = p->n - 1;
    for (int i = 0; i < p->n; i++)
        if ((uint64_t)p->items[i].target >= a->cur) { p->sel = i; break; }
}

/* j past the last row or k above the first: the next or previous page of hits,
 * so the pane scrolls through every hit; rows far behind are dropped. */
static int find_more(pane_t *p, app_t *a, int dir)
{
    search_t *s = a->search;
    if (!ready(a) || s->count <= 0 || p->n == 0) return 0;
    int added;
    if (dir > 0) {
        added = add_hits_from(p, a, s->list_last + 1, UINT64_MAX);
    } else {
        int before = p->n;
        uint64_t first = s->list_first;
        added = add_hits_from(p, a, back_positions(s, first, LIST_MAX / 2), first);
        item_t *tmp = added ? malloc((size_t)added * sizeof *tmp) : NULL; /* the new rows go first */
        if (added && !tmp) { p->n = before; s->list_first = first; return 0; }
        if (added) {
            memcpy(tmp, p->items + before, (size_t)added * sizeof *tmp);
            memmove(p->items + added, p->items, (size_t)before * sizeof *tmp);
            memcpy(p->items, tmp, (size_t)added * sizeof *tmp);
            free(tmp);
            p->sel += added;
            p->scroll += added;
        }
    }
    if (p->n > LIST_KEEP) { /* drop the far end */
        int drop = p->n - LIST_KEEP;
        if (dir > 0) {
            memmove(p->items, p->items + drop, (size_t)(p->n - drop) * sizeof *p->items);
            p->sel -= drop;
            p->scroll = p->scroll > drop ? p->scroll - drop : 0;
        }
        p->n -= drop;
        const rv_seq_t *q = a->src.x->seq;
        s->list_first = (uint64_t)rv_seq_global_to_text(q, (uint64_t)p->items[0].target);
        s->list_last = (uint64_t)rv_seq_global_to_text(q, (uint64_t)p->items[p->n - 1].target);
    }
    return added;
}

static int find_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    (void)p;
    (void)g;
    search_step(a, dir, 1);
    return 0;
}

const pane_ops_t pane_find_ops = {"Matches", find_fill, find_feature, find_more};
