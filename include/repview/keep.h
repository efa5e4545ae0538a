/* keep.h — keeping a built index in FILE.rvx (repview(1), INDEX FILE).
 *
 * Any command that builds an index saves it after answering, and the explorer saves
 * it in the background once it is ready, so the next call maps it instead of
 * building again.  Saving is best effort: a directory that cannot take the file is
 * a one-line note, never a failure of the command.
 *
 * The save runs in its own thread (every signal blocked there) and writes inside a
 * private directory next to the target, "PATH.saving.PID.N/", that it renames out of
 * when the file is complete.  Whatever rv_index_save() names its temporary file, an
 * abandoned save (quit, Ctrl-C) is therefore removed at once by deleting that
 * directory, without waiting for the writer, and nothing half-written is ever left
 * under the name PATH.  REPVIEW_SAVE_DELAY_MS=N (a test hook) holds the written file
 * in that directory for N ms before the rename.
 */
#ifndef REPVIEW_KEEP_H
#define REPVIEW_KEEP_H

#include <stddef.h>
#include <stdint.h>
#include "repview/index.h"

/* 1 when an index built from input may be kept next to it: a regular file with a
 * fingerprint, not standard input ('-', /dev/stdin, /dev/fd/N, /proc/...). */
int rv_keep_allowed(const char *input);

/* 1 when REPVIEW_NO_SAVE is set to anything but "" or "0" (the environment form of
 * --no-save). */
int rv_keep_env_off(void);

typedef struct rv_keep rv_keep_t;

/* Start saving x to path in a background thread.  x is copied shallowly: its
 * arrays and sections must stay alive and unchanged until rv_keep_finish() has
 * returned (sections may be added to x meanwhile, not replaced or freed); after an
 * abandoned save, until the process exits.  NULL with a message when no thread
 * could be started. */
rv_keep_t *rv_keep_start(const rv_index_t *x, const char *path);

/* Wait up to seconds (0: just look) for the save; 1 when it has finished. */
int rv_keep_wait(rv_keep_t *k, double seconds);

/* End a save and free k.  abandon = 0 waits for it; abandon = 1 removes what it
 * has written at once and returns without waiting (the thread finishes on its own
 * and cleans up after itself).  Returns 0 when path now holds the index (*bytes =
 * its size, when bytes is non-NULL), or -1 with the reason in why ("abandoned"
 * when it was dropped before completing).  why may be NULL. */
int rv_keep_finish(rv_keep_t *k, int abandon, uint64_t *bytes, char *why, size_t whylen);

/* Test hook: REPVIEW_SAVE_DELAY_MS=N holds a written file for N ms before it is
 * renamed (here and in `repview index`), so tests can quit or interrupt a save. */
void rv_keep_test_delay(void);

/* Bytes as the status line shows them: "812 kB", "4.3 GB". */
void rv_keep_size_str(uint64_t bytes, char *buf, size_t len);

#endif
