/* cli_keep.c — a subcommand keeps the index it built (repview-index(1)): after its answer,
 * which is flushed and closed first so that a pipe's reader need not wait for the
 * file, and without ever turning a successful answer into a failure. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/keep.h"
#include "cli.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

/* The answer is complete: push it out and give the reader its end of file.  A
 * write error stays recorded on stdout for main()'s final check. */
static void close_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) return;
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0 && fd != STDOUT_FILENO) { dup2(fd, STDOUT_FILENO); close(fd); }
}

int cli_save_index(const rv_index_t *x, const char *path, int quiet, uint64_t *bytes, char *why,
                   size_t whylen)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    enum { NSIG_ = sizeof sigs / sizeof *sigs };
    struct sigaction sa, old[NSIG_];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    got_signal = 0;
    for (int i = 0; i < NSIG_; i++) {
        sigaction(sigs[i], &sa, &old[i]);
        if (old[i].sa_handler == SIG_IGN) sigaction(sigs[i], &old[i], NULL); /* nohup stays */
    }
    rv_keep_t *k = rv_keep_start(x, path);
    if (!k) snprintf(why, whylen, "%s", rv_last_error());
    double t0 = rv_now();
    int shown = 0, tty = !quiet && isatty(2);
    while (k && !got_signal && !rv_keep_wait(k, 0.05)) {
        if (tty && !shown && rv_now() - t0 > 1.0)
            shown = fprintf(stderr, "repview: saving the index to %s (Ctrl-C drops it)", path);
    }
    if (shown > 0) fprintf(stderr, "\r%*s\r", shown, "");
    int rc = k ? rv_keep_finish(k, got_signal != 0, bytes, why, whylen) : -1;
    for (int i = 0; i < NSIG_; i++) sigaction(sigs[i], &old[i], NULL);
    if (got_signal) { /* the partial file is gone: end as the signal says */
        raise(got_signal);
        _exit(128 + got_signal); /* the writer may still read the index: never free it */
    }
    return rc;
}

void cli_close_index(rv_index_t *x, cli_common_t *c)
{
    if (x && c->keep) {
        close_stdout();
        char why[400];
        int rc = rv_index_complete(x, c->build.threads); /* what the answer did not need */
        if (rc < 0) snprintf(why, sizeof why, "%s", rv_last_error());
        else rc = cli_save_index(x, c->keep, c->quiet, NULL, why, sizeof why);
        if (rc < 0 && !c->quiet)
            fprintf(stderr, "repview: note: cannot save the index to %s: %s; continuing without it\n",
                    c->keep, why);
    }
    free(c->keep);
    c->keep = NULL;
    rv_index_free(x);
}
