/* view_track.h — the rows of the annotation tracks under each line of sequence
 * (view_track.c), drawn and clicked for the sequence view (view_seq.c). */
#ifndef REPVIEW_UI_VIEW_TRACK_H
#define REPVIEW_UI_VIEW_TRACK_H

#include <stdint.h>

typedef struct app app_t;

/* Rows the tracks take under each line of sequence. */
int view_track_rows(void);
/* Draw the track rows from screen row y for the line of sequence [lg, lg + m),
 * at most max rows. */
void view_track_draw(app_t *a, int y, uint64_t lg, uint64_t m, int max);
/* A click on row `row` of the tracks under the line [lg, lg + m), at global g:
 * selects the feature drawn there. */
void view_track_click(app_t *a, int row, uint64_t g, uint64_t lg, uint64_t m);

#endif
