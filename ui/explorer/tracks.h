/* tracks.h — the annotation tracks of the explorer (tracks.c): the files given by
 * --track or `:track FILE`, opened once the records are known, the current track
 * (whose features Ctrl-F and Ctrl-B step through), the selected feature, and
 * features by global position and by name.  Below the views and the panes: it
 * calls app.c and the engine's track.h only. */
#ifndef REPVIEW_UI_TRACKS_H
#define REPVIEW_UI_TRACKS_H

#include <stddef.h>
#include <stdint.h>
#include "repview/track.h"

typedef struct app app_t;

enum { TRACKS_MAX = 8, TRACKS_ROWS = 3 };

/* --track PATH before the records are known: 0; -2 for a name of no known format
 * (a usage error); -1 when the file cannot be read or there are too many tracks;
 * a message in err. */
int tracks_request(const char *path, char *err, size_t len);
/* Open what was requested once the whole record table is known, and follow a
 * new table; warnings and errors go to the message line. */
void tracks_sync(app_t *a);
/* `:track PATH`: 0, or -1 after an error message. */
int tracks_command(app_t *a, const char *path);
void tracks_close(void);

int tracks_count(void);
/* Rows of track i under each line of sequence: as many as its features in memory
 * need not to overlap (rv_track_depth), at most TRACKS_ROWS; 1 for an indexed
 * track. */
int tracks_rows(int i);
rv_track_t *tracks_get(int i);
const char *tracks_label(int i);
int tracks_current(void);
void tracks_set_current(int i);

/* Features of track i overlapping global [g0, g1) (one record): 0, or -1. */
int tracks_query(const app_t *a, int i, uint64_t g0, uint64_t g1, const rv_feature_t **f, size_t *n);
/* The feature of track i at global g (the last one starting at or before it): 1
 * and *out, else 0. */
int tracks_feature_at(const app_t *a, int i, uint64_t g, rv_feature_t *out);
/* Global start of a feature. */
uint64_t tracks_global(const app_t *a, const rv_feature_t *f);
/* "type name ID=... chr:beg-end (+) attributes" of a feature. */
void tracks_describe(const app_t *a, const rv_feature_t *f, char *buf, size_t len);
/* The feature under the cursor (current track first) for the status line: 1 and
 * its description after the track's label, else 0. */
int tracks_status(const app_t *a, char *buf, size_t len);

/* Select feature f of track i: marked in the track rows and described in the
 * message line. */
void tracks_select(app_t *a, int i, const rv_feature_t *f);
/* 1 when [rid, beg, end) of track i is the selected feature. */
int tracks_selected(int i, const rv_feature_t *f);

/* Ctrl-F / Ctrl-B: next (dir 1) or previous (-1) feature of the current track from
 * the cursor: 1 and *g (and it is selected), or 0 with a message. */
int tracks_step(app_t *a, int dir, uint64_t *g);
/* Go to the feature called name (name or ID, or the only one starting with it):
 * 1 when the cursor went there, -1 after a message (several match, read error,
 * or the names of an indexed track still being read: tracks_poll goes on), 0 when
 * no track knows it (nothing said). */
int tracks_goto(app_t *a, const char *name);
/* A name asked for before the names of an indexed track were read: go there once
 * they are (1 when the screen changed).  tracks_wait: until then (scripted mode). */
int tracks_poll(app_t *a);
void tracks_wait(app_t *a);
/* Tab in the `:` prompt: complete the last word of the line to the longest prefix
 * that the names starting with it share; the count goes to the message line. */
void tracks_complete_line(app_t *a);

#endif
