/* rvtime.c — run a command; report its wall-clock seconds and peak resident memory.
 *
 *   rvtime [-o FILE] COMMAND [ARG...]
 *
 * Writes one line "WALL_S MAX_RSS_KB STATUS" to FILE (default: standard error) once
 * the command has ended, and exits with the command's status (128 + the signal that
 * killed it).  The peak is getrusage(RUSAGE_CHILDREN)'s ru_maxrss: the largest
 * resident set of the command and of every descendant it waited for.  The benches
 * use it because GNU time is not on every machine they run on (a bare GPU image). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int a = 1;
    if (a + 1 < argc && !strcmp(argv[a], "-o")) { out = argv[a + 1]; a += 2; }
    if (a >= argc) {
        fputs("usage: rvtime [-o FILE] COMMAND [ARG...]\n", stderr);
        return 2;
    }
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) { fprintf(stderr, "rvtime: fork: %s\n", strerror(errno)); return 2; }
    if (pid == 0) {
        execvp(argv[a], argv + a);
        fprintf(stderr, "rvtime: %s: %s\n", argv[a], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) { fprintf(stderr, "rvtime: wait: %s\n", strerror(errno)); return 2; }
    double wall = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    FILE *f = out ? fopen(out, "w") : stderr;
    if (!f) { fprintf(stderr, "rvtime: %s: %s\n", out, strerror(errno)); return 2; }
    fprintf(f, "%.6f %ld %d\n", wall, ru.ru_maxrss, rc);
    if (out) fclose(f);
    return rc;
}
