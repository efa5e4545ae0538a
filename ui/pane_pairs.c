/* pane_pairs.c — the maximal pairs pane.  Its engine (pairs.h) is being written; until
 * it lands the pane says so. */
#include <stdio.h>
#include "app.h"

static void pairs_fill(pane_t *p, app_t *a, int width)
{
    (void)a;
    (void)width;
    snprintf(p->note, sizeof p->note, "waiting for engine (pairs.h)");
}

const pane_ops_t pane_pairs_ops = {"Maximal pairs", pairs_fill, NULL};
