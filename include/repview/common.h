/* common.h — error reporting, version and small shared types for repview.
 *
 * Engine functions report failure with a negative return value and one message
 * recorded through rv_error(); the caller (the CLI or the explorer) reads it with
 * rv_last_error() and shows it as one line.  The message buffer is per thread.
 */
#ifndef REPVIEW_COMMON_H
#define REPVIEW_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define RV_VERSION "0.1.0"

/* Record an error message "CONTEXT: MESSAGE" for this thread.  Always returns -1,
 * so engine code can write `return rv_error(path, "truncated file");`. */
int rv_error(const char *context, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Record that memory ran out: "out of memory (SIZE for the WHAT)", SIZE being the
 * bytes the failed allocation asked for.  It names no context: the front end puts
 * the command the user typed before it (every message that starts "out of memory"
 * gets it), since the engine cannot know which command reached the stage.  Always
 * returns -1. */
int rv_oom(const char *what, uint64_t bytes);

/* The last message recorded by rv_error() in this thread ("" when none). */
const char *rv_last_error(void);

/* Clear this thread's error message. */
void rv_clear_error(void);

/* Number of CPU threads to use when the user asked for 0 ("all"). */
int rv_default_threads(void);

/* Wall-clock seconds since an arbitrary epoch (monotonic). */
double rv_now(void);

/* memcpy on `threads` threads (0 = all): into fresh memory the page faults are
 * most of the cost, and they are taken in parallel. */
void rv_copy_threads(void *dst, const void *src, uint64_t n, int threads);

/* Files with no name, so that nothing is left of them however the process ends
 * (tempfile.c).  rv_temp_unnamed: one in dir (NULL: $TMPDIR, else /tmp), open for
 * reading and writing, that rv_temp_link can name later; -1 with errno where the
 * file system cannot make one (no O_TMPFILE; REPVIEW_TEMP_NAMED=1 in tests).
 * rv_temp_fd: the same, else a file named only between its mkstemp and its unlink
 * (never linkable); -1 with a message.  rv_temp_link: 0, or -1 with errno (path
 * must not exist). */
int rv_temp_unnamed(const char *dir);
int rv_temp_fd(const char *dir);
int rv_temp_link(int fd, const char *path);

/* Entry i of an array of 32-bit (wide = 0) or 64-bit (wide = 1) values. */
static inline uint64_t rv_get(const void *a, int wide, uint64_t i)
{
    return wide ? ((const uint64_t *)a)[i] : ((const uint32_t *)a)[i];
}
static inline void rv_put(void *a, int wide, uint64_t i, uint64_t v)
{
    if (wide) ((uint64_t *)a)[i] = v; else ((uint32_t *)a)[i] = (uint32_t)v;
}

#endif
