/* pane_track.c — the Tracks pane: the features of every annotation track in the
 * part of the sequence on the screen, one row each (track, type, name, where);
 * Enter goes to a feature's start, ]/[ step through the current track's
 * features (as Ctrl-F and Ctrl-B do), and the selected row marks its feature's
 * bases in the sequence view. */
#include <stdio.h>
#include "app.h"
#include "tracks.h"

enum { MAX_ROWS = 300 };

static void track_fill(pane_t *p, app_t *a, int width)
{
    (void)width;
    if (!tracks_count()) {
        snprintf(p->note, sizeof p->note, "no tracks: repview FILE --track A.bed, or :track FILE");
        return;
    }
    if (!a->src.seq) return;
    uint64_t g0 = a->top, g1 = a->top + (uint64_t)a->bases_per_line * (uint64_t)a->lines;
    int rows = 0, under = -1;
    size_t total = 0;
    for (int i = 0; i < tracks_count(); i++) {
        const rv_feature_t *f;
        size_t n;
        if (tracks_query(a, i, g0, g1, &f, &n) < 0) {
            pane_add(p, -1, ST_ERROR, "%s: %s", tracks_label(i), rv_last_error());
            continue;
        }
        total += n;
        for (size_t j = 0; j < n && rows < MAX_ROWS; j++, rows++) {
            char d[240];
            uint64_t g = tracks_global(a, &f[j]);
            tracks_describe(a, &f[j], d, sizeof d);
            item_t *it = pane_add(p, (int64_t)g, i == tracks_current() ? ST_NORMAL : ST_DIM, "%-8s %s", tracks_label(i), d);
            if (!it) return;
            it->span[0][0] = g;
            it->span[0][1] = g + (f[j].end > f[j].beg ? f[j].end - f[j].beg : 1);
            it->n_span = 1;
            if (under < 0 && a->cur >= g && a->cur < it->span[0][1]) under = p->n - 1;
        }
    }
    snprintf(p->title_extra, sizeof p->title_extra, "%zu in view, Ctrl-F/B in %s", total, tracks_label(tracks_current()));
    if (!p->n) snprintf(p->note, sizeof p->note, "no feature on the screen (Ctrl-F: the next one)");
    if (total > (size_t)rows) pane_add(p, -1, ST_DIM, "... %zu more", total - (size_t)rows);
    p->sel = under > 0 ? under : 0;
}

static int track_feature(pane_t *p, app_t *a, int dir, uint64_t *g)
{
    (void)p;
    return tracks_step(a, dir, g);
}

const pane_ops_t pane_track_ops = {"Tracks", track_fill, track_feature, NULL};
