/* error.c — per-thread error message, clocks, thread counts. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "internal.h"

static _Thread_local char last_error[512];

int rv_error(const char *context, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (context && *context)
        snprintf(last_error, sizeof last_error, "%s: %s", context, msg);
    else
        snprintf(last_error, sizeof last_error, "%s", msg);
    return -1;
}

int rv_oom(const char *what, uint64_t bytes)
{
    const uint64_t kb = (bytes + 1023) >> 10, mb = (bytes + (1u << 20) - 1) >> 20;
    if (bytes < 1u << 20) return rv_error(NULL, "out of memory (%llu kB for the %s)", (unsigned long long)kb, what);
    return rv_error(NULL, "out of memory (%llu MB for the %s)", (unsigned long long)mb, what);
}

const char *rv_last_error(void) { return last_error; }
void rv_clear_error(void) { last_error[0] = 0; }

int rv_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

double rv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void rv_trace(const char *what, double *t)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("REPVIEW_TRACE");
        on = e && *e && *e != '0';
    }
    double now = rv_now();
    if (on) { /* with the resident and peak memory so far, to place a command's peak */
        long rss = -1, hwm = -1;
        char line[128];
        FILE *f = fopen("/proc/self/status", "r");
        while (f && fgets(line, sizeof line, f)) {
            if (strncmp(line, "VmRSS:", 6) == 0) rss = atol(line + 6);
            if (strncmp(line, "VmHWM:", 6) == 0) hwm = atol(line + 6);
        }
        if (f) fclose(f);
        fprintf(stderr, "trace\t%s\t%.1f ms\trss %ld MB\tpeak %ld MB\n", what, (now - *t) * 1e3, rss >> 10,
                hwm >> 10);
    }
    *t = now;
}
