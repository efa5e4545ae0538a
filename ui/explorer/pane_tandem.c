/* pane_tandem.c — the tandem repeats pane: the runs (maximal repetitions, repview(1);
 * Bannai et al., "The Runs Theorem") covering the cursor, then those on the
 * screen, with the defaults of `repview tandem` (length >= 10, >= 2 copies).
 *
 * Under the runs at the cursor, the approximate tandem repeats covering it
 * (`repview tandem --approx`) with their copies as aligned to their consensus.
 *
 * The runs come from the index (the RV_SEC_RUNS section of a .rvx) or are computed
 * once in a helper thread — O(n) LCE queries, seconds on a large genome — and then
 * attached to the index by the UI thread, the only one that changes it. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "app.h"

#if __has_include("repview/tandem.h")
#include <stdlib.h>
#include "repview/approx.h"
#include "repview/common.h"
#include "repview/tandem.h"

enum { MAX_COVER = 20, MAX_SHOWN = 200, MAX_LOCI = 3, MAX_COPIES = 6 };

static struct {
    pthread_t tid;
    int started, joined;
    _Atomic int done;
    rv_progress_t progress;
    rv_runs_t *computed;
    char err[160];
    rv_index_t *x;       /* the index the runs belong to */
    rv_runs_t view;
    int have;
} T;

static void *runs_main(void *arg)
{
    T.computed = rv_runs_compute(arg, 0, &T.progress);
    if (!T.computed) snprintf(T.err, sizeof T.err, "%s", rv_last_error());
    atomic_store(&T.done, 1);
    return NULL;
}

int tandem_busy(void) { return T.started && !atomic_load(&T.done); }

/* Join a finished computation and attach its runs to the index (UI thread). */
int tandem_poll(app_t *a)
{
    if (!T.started || T.joined || !atomic_load(&T.done)) return 0;
    pthread_join(T.tid, NULL);
    T.joined = 1;
    T.have = T.computed && T.x == a->src.x && rv_runs_attach(T.x, T.computed, &T.view) == 0;
    a->extra_gen++;
    return 1;
}

/* The runs of the current index, or NULL (computing, with a note set). */
static const rv_runs_t *runs_of(pane_t *p, app_t *a)
{
    rv_index_t *x = a->src.x;
    if (T.have && T.x == x) return &T.view;
    if (T.x != x) { T.have = 0; T.x = x; }
    if (rv_index_section(x, RV_SEC_RUNS, NULL)) {
        T.have = rv_runs_get(x, 1, NULL, &T.view) == 0;
        return T.have ? &T.view : NULL;
    }
    if (!T.started) T.started = src_thread(&T.tid, runs_main, x);
    if (tandem_poll(a) && T.have) return &T.view;
    if (T.joined) snprintf(p->note, sizeof p->note, "tandem repeats: %s", T.err[0] ? T.err : "failed");
    else {
        uint64_t done = atomic_load(&T.progress.done), total = atomic_load(&T.progress.total);
        snprintf(p->note, sizeof p->note, "finding tandem repeats... %d%%", total ? (int)(100.0 * done / total) : 0);
    }
    return NULL;
}



typedef struct { pane_t *p; app_t *a; uint64_t t, skip; int n, width; } add_ctx_t; /* skip: listed already */

/* Cut a motif to w columns, its last ones an ellipsis ("…", or "..." without Unicode). */
static void fit_motif(char *m, uint64_t plen, int w)
{
    const char *ell = dr_unicode() ? "\u2026" : "...";
    int ell_w = dr_unicode() ? 1 : 3;
    if (plen <= (uint64_t)w && strlen(m) == plen) return;
    int keep = w - ell_w;
    if (keep < 1) keep = 1;
    if ((size_t)keep > strlen(m)) keep = (int)strlen(m);
    strcpy(m + keep, ell);
}

static int add_run(void *ud, const rv_run_t *run)
{
    add_ctx_t *c = ud;
    if (c->skip >= run->start && c->skip < run->end) return 0;
    const rv_seq_t *s = c->a->src.x->seq;
    uint64_t g = rv_seq_text_to_global(s, run->start);
    char where[160], motif[256], cols[240];
    int here = c->t >= run->start && c->t < run->end;
    int k = snprintf(cols, sizeof cols, "%c%-18s %6llu %4llu %6.2f ", here ? '*' : ' ', app_fmt_pos(c->a, g, where, sizeof where),
                     (unsigned long long)(run->end - run->start), (unsigned long long)run->period, rv_run_copies(run));
    uint64_t plen = rv_run_motif(s, run, motif, sizeof motif - 4);
    fit_motif(motif, plen, c->width - 1 - k > 4 ? c->width - 1 - k : 4); /* the pane shows width - 1 columns */
    item_t *it = pane_add(c->p, (int64_t)g, here ? ST_USEFUL : ST_NORMAL, "%s%s", cols, motif);
    item_mark(it, c->a, run->start, run->end - run->start);
    return ++c->n >= MAX_SHOWN;
}

/* ---- approximate loci at the cursor (repview tandem --approx) ---------------- */

/* A row of letters text[from, to) (or the motif), cut to the pane's width. */
static void add_letters(add_ctx_t *c, int64_t g, const char *label, const uint8_t *codes, uint64_t len)
{
    const rv_seq_t *s = c->a->src.x->seq;
    char row[256];
    uint64_t k = 0;
    for (; k < len && k < sizeof row - 4; k++) row[k] = rv_alpha_letter(s->alpha, codes[k]);
    row[k] = 0;
    fit_motif(row, len, c->width - 1 - 12 > 4 ? c->width - 1 - 12 : 4);
    pane_add(c->p, g, ST_NORMAL, "    %-7s %s", label, row);
}

/* The approximate loci covering the cursor, with the defaults of `repview tandem
 * --approx` (weights, minimum score and copies), found from the text around it;
 * under each its consensus and its copies as its best alignment to the consensus
 * cuts them. */
static void add_approx(add_ctx_t *c)
{
    const rv_seq_t *s = c->a->src.x->seq;
    rv_approx_opts_t o;
    rv_approx_opts_init(&o);
    o.min_copies = RV_APPROX_MIN_COPIES;
    const uint64_t t = c->t;
    rv_approx_set_t set;
    if (rv_approx_find(s, t, t + 1, NULL, 0, &o, 1, &set) < 0) return;
    if (set.n) pane_add(c->p, -1, ST_DIM, " approximate here:    len  per copies ident score");
    for (uint64_t k = 0; k < set.n && k < MAX_LOCI; k++) {
        const rv_approx_t *l = &set.v[k];
        const uint64_t g = rv_seq_text_to_global(s, l->start);
        const rv_run_t run = {l->start, l->end, l->period};
        char where[160];
        item_t *it = pane_add(c->p, (int64_t)g, ST_USEFUL, "~%-18s %6llu %4llu %6.2f %5.1f %5lld",
                              app_fmt_pos(c->a, g, where, sizeof where), (unsigned long long)(l->end - l->start),
                              (unsigned long long)l->period, rv_run_copies(&run), rv_approx_identity(l),
                              (long long)l->score);
        item_mark(it, c->a, l->start, l->end - l->start);
        add_letters(c, (int64_t)g, "motif", set.motifs + l->motif, l->period);
        uint64_t st[MAX_COPIES + 1], n;
        rv_approx_cell_t cell;
        if (rv_approx_copies(s->text + l->start, l->end - l->start, set.motifs + l->motif, l->period, &o, st,
                             MAX_COPIES + 1, &n, &cell) < 0)
            continue; /* too long to align here */
        for (uint64_t i = 0; i < n && i < MAX_COPIES; i++) {
            const uint64_t from = l->start + st[i], to = i + 1 < n ? l->start + st[i + 1] : l->end;
            char label[16];
            snprintf(label, sizeof label, "copy %llu", (unsigned long long)i + 1);
            add_letters(c, (int64_t)rv_seq_text_to_global(s, from), label, s->text + from, to - from);
        }
    }
    rv_approx_free(&set);
}

static void tandem_fill(pane_t *p, app_t *a, int width)
{
    if (!a->src.x) { snprintf(p->note, sizeof p->note, "%s", a->src.state == IDX_BUILDING ? "waiting for the index" : "no index"); return; }
    const rv_runs_t *r = runs_of(p, a);
    if (!r) return;
    rv_tandem_filter_t f = a->tfilter;
    int64_t t = app_cursor_text(a);
    add_ctx_t c = {p, a, t < 0 ? UINT64_MAX : (uint64_t)t, UINT64_MAX, 0, width};
    snprintf(p->header, sizeof p->header, " %-18s %6s %4s %6s %s", "start", "len", "per", "copies", "motif");
    uint64_t lo = (uint64_t)app_text_after(a, a->top);
    uint64_t hi = (uint64_t)app_text_after(a, a->top + (uint64_t)a->bases_per_line * (uint64_t)a->lines);
    rv_run_t cover[MAX_COVER];
    uint64_t nc = t < 0 ? 0 : rv_runs_covering(r, (uint64_t)t, &f, cover, MAX_COVER);
    for (uint64_t i = 0; i < nc && i < MAX_COVER; i++) add_run(&c, &cover[i]);
    if (t >= 0 && (uint64_t)t < app_fwd_len(a)) add_approx(&c);
    uint64_t on_screen = rv_runs_overlapping(r, lo, hi, &f, NULL, NULL);
    snprintf(p->title_extra, sizeof p->title_extra, "%llu here, %llu on screen", (unsigned long long)nc,
             (unsigned long long)on_screen);
    if (nc && on_screen > nc) pane_add(p, -1, ST_DIM, " on the screen:");
    add_ctx_t rest = c;
    rest.skip = rest.t; /* the covering ones are listed above */
    if (on_screen > nc) rv_runs_overlapping(r, lo, hi, &f, add_run, &rest);
    if (p->n == 0) snprintf(p->note, sizeof p->note, "no tandem repeat on the screen; ] finds the next");
}

static int tandem_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    if (!a->src.x) { app_message(a, 1, "needs the index"); return 0; }
    const rv_runs_t *r = runs_of(p, a);
    if (!r) { app_message(a, 1, "tandem repeats are still being computed"); return 0; }
    rv_tandem_filter_t f = a->tfilter;
    uint64_t t = (uint64_t)(dir > 0 ? app_text_before(a, a->cur) : app_text_after(a, a->cur));
    int64_t k = dir > 0 ? rv_runs_next(r, t, &f) : rv_runs_prev(r, t, &f);
    const rv_run_t run = k >= 0 ? rv_runs_at(r, (uint64_t)k) : (rv_run_t){0};
    if (k < 0 || run.start >= app_fwd_len(a)) { /* the reverse half of both strands mirrors the runs */
        app_message(a, 1, "no %s tandem repeat", dir > 0 ? "later" : "earlier");
        return 0;
    }
    *g = rv_seq_text_to_global(a->src.x->seq, run.start);
    app_message(a, 0, "tandem repeat: period %llu, %.2f copies", (unsigned long long)run.period, rv_run_copies(&run));
    return 1;
}

#else /* the tandem engine has not landed yet */

static void tandem_fill(pane_t *p, app_t *a, int width)
{
    (void)a;
    (void)width;
    snprintf(p->note, sizeof p->note, "waiting for engine (tandem.h)");
}
int tandem_busy(void) { return 0; }
int tandem_poll(app_t *a) { (void)a; return 0; }
#define tandem_feature NULL

#endif

const pane_ops_t pane_tandem_ops = {"Tandem repeats", tandem_fill, tandem_feature, NULL};

const rv_runs_t *tandem_runs_ready(const app_t *a)
{
    return a->src.x && T.have && T.x == a->src.x ? &T.view : NULL;
}
