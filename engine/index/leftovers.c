/* leftovers.c — what writers of an index killed outright (SIGKILL, a crash, power
 * loss) leave beside it: PATH.tmp.PID.N files (rvx_write.c) and PATH.saving.PID.N
 * directories (keep_save.c), and how a later build or query tells them from the
 * files of a live writer.
 *
 * A live writer holds an exclusive flock() on its file or directory from the moment
 * it is made; the kernel drops the lock when the process dies, however it dies.  A
 * leftover is removed when the PID in its name is not a process here and nobody
 * holds its lock: the PID test spares the writers of this machine without opening
 * their files, the lock the writers of another PID namespace or (on a shared disk
 * whose locks reach the server) another host.  The sweeper removes a file while it
 * holds its lock, and a writer that took its lock only after that sees its file
 * unlinked and takes another name (rv_rvx_claim()), so the moment between creating a
 * file and locking it loses nothing.  Where the file system has no locks, a leftover
 * whose PID is gone is removed once nobody touched it for an hour. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/index.h"

enum { STALE_AGE = 3600 }; /* seconds untouched, where there are no locks */

int rv_rvx_claim(int fd)
{
    struct stat st;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0)
        return errno == EWOULDBLOCK ? -1 : 0; /* held: a sweeper is removing it; no locks here: go on */
    return fstat(fd, &st) == 0 && st.st_nlink == 0 ? -1 : 0;
}

/* Remove a private directory and whatever is in it.  A writer may create its
 * temporary file while we look: try again until rmdir succeeds, after which no
 * file can appear there any more. */
void rv_rvx_remove_dir(const char *dir)
{
    for (int tries = 0; tries < 100; tries++) {
        DIR *d = opendir(dir);
        if (!d) return;
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) unlinkat(dirfd(d), e->d_name, 0);
        closedir(d);
        if (rmdir(dir) == 0 || errno != ENOTEMPTY) return;
    }
}

/* The PID in a leftover's name after base (".tmp.PID.N" or ".saving.PID.N"), with
 * *is_dir; 0 when the name is no such leftover. */
static long leftover_pid(const char *name, const char *base, size_t bl, int *is_dir)
{
    if (strncmp(name, base, bl) != 0) return 0;
    const char *rest = name + bl;
    if (strncmp(rest, ".tmp.", 5) == 0) rest += 5, *is_dir = 0;
    else if (strncmp(rest, ".saving.", 8) == 0) rest += 8, *is_dir = 1;
    else return 0;
    char *end;
    long pid = strtol(rest, &end, 10);
    return end != rest && *end == '.' && pid > 0 ? pid : 0;
}

/* Remove dir/name when no live writer owns it. */
static void sweep_one(int dfd, const char *where, const char *name, int is_dir, time_t now)
{
    int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | (is_dir ? O_DIRECTORY : 0));
    struct stat st;
    if (fd < 0) return;
    if (fstat(fd, &st) != 0 || (is_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) { close(fd); return; }
    int locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (!locked && (errno == EWOULDBLOCK || now - st.st_mtime < STALE_AGE)) { close(fd); return; }
    if (is_dir) {
        size_t fl = strlen(where) + strlen(name) + 2;
        char *full = malloc(fl);
        if (full) {
            snprintf(full, fl, "%s/%s", where, name);
            rv_rvx_remove_dir(full);
            free(full);
        }
    } else {
        unlinkat(dfd, name, 0);
    }
    close(fd); /* the lock goes with it, after the name */
}

void rv_rvx_sweep_leftovers(const char *path)
{
    char *dir = strdup(path);
    if (!dir) return;
    char *slash = strrchr(dir, '/');
    const char *base = slash ? path + (slash - dir) + 1 : path, *where = ".";
    if (slash) *slash = 0, where = dir[0] ? dir : "/";
    DIR *d = opendir(where);
    size_t bl = strlen(base);
    time_t now = time(NULL);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int is_dir = 0;
        long pid = leftover_pid(e->d_name, base, bl, &is_dir);
        if (!pid || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* its writer lives here */
        sweep_one(dirfd(d), where, e->d_name, is_dir, now);
    }
    if (d) closedir(d);
    free(dir);
}
