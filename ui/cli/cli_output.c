/* cli_output.c — -o OUT for the commands that take it: the output goes to a
 * file without a name (or a temporary name) and is given OUT once complete (a
 * device or FIFO is written directly: renaming over /dev/null would replace it);
 * and the varints of the files that MPI workers send to rank 0. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repview/common.h"
#include "cli.h"

/* -o OUT: standard output goes to a file with no name yet in OUT's directory
 * (O_TMPFILE), linked as OUT.tmp.PID and renamed to OUT once complete, so that a
 * process killed at any time before (SIGKILL too: mpirun ending the job because a
 * rank died) leaves nothing.  Where the file system has no O_TMPFILE the file is
 * OUT.tmp.PID from the start, and a signal that ends the process (Ctrl-C, SIGTERM)
 * removes it. */
static char *out_tmp;
static int out_named;     /* out_tmp exists (the fallback) */
static off_t out_started; /* its writeback has been started below this offset */
static void (*out_term_before)(int); /* SIGTERM's handler before (rank 0's line: cli_mpi_watch.c) */
static void out_drop(int sig)
{
    if (out_tmp && out_named) unlink(out_tmp);
    if (sig == SIGTERM && out_term_before) out_term_before(sig); /* it ends the process as the signal says */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A file with no name in the directory of out, as standard output: 0 or -1. */
static int out_unnamed(const char *out)
{
    char *copy = strdup(out);
    if (!copy) return -1;
    const int fd = rv_temp_unnamed(dirname(copy));
    free(copy);
    if (fd < 0) return -1;
    fflush(stdout);
    if (dup2(fd, STDOUT_FILENO) < 0) { close(fd); return -1; }
    close(fd);
    return 0;
}

int cli_out_begin(const char *out)
{
    struct stat st;
    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode)) { /* /dev/null, a FIFO: written as is */
        if (freopen(out, "w", stdout)) return 0;
        fprintf(stderr, "repview: %s: %s\n", out, strerror(errno));
        return -1;
    }
    size_t l = strlen(out) + 32;
    out_tmp = malloc(l);
    if (!out_tmp) return -1;
    snprintf(out_tmp, l, "%s.tmp.%ld", out, (long)getpid());
    out_started = 0;
    if (out_unnamed(out) == 0) return 0; /* REPVIEW_TEMP_NAMED=1 (tests): the fallback */
    out_named = 1;
    signal(SIGINT, out_drop);
    void (*before)(int) = signal(SIGTERM, out_drop);
    if (before != SIG_DFL && before != SIG_IGN && before != SIG_ERR && before != out_drop) out_term_before = before;
    signal(SIGHUP, out_drop);
    if (!freopen(out_tmp, "w", stdout)) {
        fprintf(stderr, "repview: %s: %s\n", out, strerror(errno));
        return -1;
    }
    return 0;
}

/* The unnamed file linked as out_tmp: 0 or -1. */
static int out_link(void)
{
    if (rv_temp_link(fileno(stdout), out_tmp) != 0) return -1;
    out_named = 1;
    return 0;
}

int cli_out_end(const char *out, int rc)
{
    if (!out_tmp) return rc;
    if (rc == RV_EXIT_OK && (fflush(stdout) != 0 || fsync(fileno(stdout)) != 0 || (!out_named && out_link() != 0) ||
                             rename(out_tmp, out) != 0)) {
        fprintf(stderr, "repview: %s: %s\n", out, strerror(errno));
        rc = RV_EXIT_DATA;
    }
    if (rc != RV_EXIT_OK && out_named) unlink(out_tmp);
    free(out_tmp);
    out_tmp = NULL;
    out_named = 0;
    return rc;
}

int cli_out_synced(void) { return out_tmp != NULL; }

void cli_out_writeback(void)
{
    /* what the kernel got since the last call goes to the disk in the background
     * (no wait); from the page that was written in part */
    off_t end = out_tmp ? lseek(fileno(stdout), 0, SEEK_CUR) : -1;
    if (end <= out_started) return;
    sync_file_range(fileno(stdout), out_started, end - out_started, SYNC_FILE_RANGE_WRITE);
    out_started = end & ~(off_t)4095;
}

void cli_varint_put(FILE *f, uint64_t v)
{
    while (v >= 0x80) putc_unlocked((int)(v & 0x7f) | 0x80, f), v >>= 7;
    putc_unlocked((int)v, f);
}

int cli_varint_get(FILE *f, uint64_t *v)
{
    uint64_t x = 0;
    for (int sh = 0; sh < 64; sh += 7) {
        int c = getc_unlocked(f);
        if (c == EOF) return sh ? -1 : 0;
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) { *v = x; return 1; }
    }
    return -1;
}
