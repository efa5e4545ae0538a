/* tempfile.c — files that have no name while they are written, so that a process
 * ended at any moment (SIGKILL too: the OOM killer, or mpirun ending a job because
 * one of its ranks died) leaves nothing behind in the directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"

static const char *temp_dir(const char *dir)
{
    const char *env = getenv("TMPDIR");
    return dir ? dir : env && *env ? env : "/tmp";
}

int rv_temp_unnamed(const char *dir)
{
    const char *named = getenv("REPVIEW_TEMP_NAMED"); /* tests: the callers' fallbacks */
    if (named && *named == '1') return errno = EOPNOTSUPP, -1;
    /* such a file gets its name through /proc/self/fd (rv_temp_link): without
     * /proc (a chroot, a container without it) the callers' named files serve */
    if (access("/proc/self/fd", X_OK) != 0) return errno = EOPNOTSUPP, -1;
#ifdef O_TMPFILE
    return open(temp_dir(dir), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
#else
    return errno = EOPNOTSUPP, -1;
#endif
}

int rv_temp_fd(const char *dir)
{
    int fd = rv_temp_unnamed(dir);
    if (fd >= 0) return fd;
    /* no O_TMPFILE here: a name only between mkstemp and unlink */
    dir = temp_dir(dir);
    size_t len = strlen(dir) + 32;
    char *path = malloc(len);
    if (!path) return rv_error(dir, "out of memory");
    snprintf(path, len, "%s/repview.XXXXXX", dir);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) rv_error(dir, "cannot create a temporary file: %s", strerror(errno));
    else unlink(path);
    free(path);
    return fd;
}

int rv_temp_link(int fd, const char *path)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}
