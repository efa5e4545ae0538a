/* pane_tandem.c — the tandem repeats pane.  Its engine (tandem.h) is being written; until
 * it lands the pane says so. */
#include <stdio.h>
#include "app.h"

static void tandem_fill(pane_t *p, app_t *a, int width)
{
    (void)a;
    (void)width;
    snprintf(p->note, sizeof p->note, "waiting for engine (tandem.h)");
}

const pane_ops_t pane_tandem_ops = {"Tandem repeats", tandem_fill, NULL};
