/* cli_text.c — what the commands' paths without an index share:
 * reading the sequence alone, a REGION as a range of text positions, the final
 * flush of standard output, and the --buckets I/N option. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/gpu.h"
#include "cli.h"

rv_seq_t *cli_load_text(const char *path, const cli_common_t *c)
{
    rv_seq_t *s = rv_seq_load_threads(path, c->alpha, c->build.threads);
    if (s && s->warning && !c->quiet) fprintf(stderr, "repview: %s: %s\n", path, s->warning);
    return s;
}

/* First text position whose global position is >= g (the forward length when
 * none): breakers hold no answer, so global [gb, ge) and text [tb, te) hold the
 * same ones. */
static uint64_t text_at_or_after(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_seg; /* first segment ending after g */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->seg[mid].gpos + s->seg[mid].len > g) hi = mid; else lo = mid + 1;
    }
    if (lo == s->n_seg) return rv_seq_fwd_len(s);
    const rv_segment_t *sg = &s->seg[lo];
    return sg->gpos <= g ? sg->tpos + (g - sg->gpos) : sg->tpos;
}

int cli_text_range(const rv_seq_t *s, const char *region, uint64_t *lo, uint64_t *hi)
{
    *lo = 0, *hi = rv_seq_fwd_len(s); /* the reverse half mirrors the forward one */
    if (!region) return 0;
    uint64_t rid, beg, end;
    if (rv_seq_parse_region(s, region, &rid, &beg, &end) < 0) return -1;
    *lo = text_at_or_after(s, s->rec[rid].off + beg);
    *hi = text_at_or_after(s, s->rec[rid].off + end);
    return 0;
}

int cli_flush_output(const char *cmd, int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    fprintf(stderr, "repview: %s: write error: %s\n", cmd, strerror(errno));
    return RV_EXIT_DATA;
}

int cli_parse_buckets(const char *cmd, const char *arg, uint64_t *slice, uint64_t *n_slices)
{
    unsigned long long i = 0, n = 0;
    const char *slash = strchr(arg, '/');
    char *end = NULL;
    /* each number starts with a digit: strtoull would take a blank or a sign */
    if (isdigit((unsigned char)arg[0]) && slash && isdigit((unsigned char)slash[1])) {
        errno = 0;
        i = strtoull(arg, &end, 10);
        if (end == slash) n = strtoull(slash + 1, &end, 10);
    }
    if (!end || *end || errno || n < 1 || i < 1 || i > n || n > 1000000) {
        cli_usage_error(cmd, "bad --buckets '%s' (I/N with 1 <= I <= N)", arg);
        return -1;
    }
    *slice = i - 1, *n_slices = n;
    return 0;
}

int cli_buckets_usage(const char *cmd, uint64_t n_slices, const char *out, int ranks, int count)
{
    if (!n_slices) return RV_EXIT_OK;
    if (!out) return cli_usage_error(cmd, "--buckets I/N needs -o PART");
    if (ranks > 1) return cli_usage_error(cmd, "--buckets is for separate processes, not under mpirun");
    /* a part holds what the merge prints, never a count: the merge counts */
    if (count) return cli_usage_error(cmd, "--count with --buckets: count the parts with 'repview merge --count PART...'");
    return RV_EXIT_OK;
}

/* ---- the bucket jobs on a GPU (buckets.h, gpu_buckets.cu) --------------------------- */

enum { GPU_MIN_TEXT = 4 << 20 }; /* smaller texts do not pay for the device's start */

int cli_gpu_forced(const cli_common_t *c)
{
    const char *dev = getenv("REPVIEW_DEVICE");
    return c->build.backend == RV_BACKEND_GPU || (dev && strcmp(dev, "gpu") == 0);
}

int cli_gpu_refused(const cli_common_t *c)
{
    const char *dev = getenv("REPVIEW_DEVICE");
    return c->build.backend == RV_BACKEND_CPU || (dev && strcmp(dev, "cpu") == 0);
}

int cli_bucket_gpu(const rv_seq_t *s, const cli_common_t *c, const char *cmd, int device, int any_size)
{
    int forced = cli_gpu_forced(c);
    if (cli_gpu_refused(c) || (!forced && !any_size && s->n < GPU_MIN_TEXT)) return 0;
    char name[128], why[256];
    if (!rv_gpu_probe_device(device, name, sizeof name, why, sizeof why)) {
        if (!forced) return 0;
        return rv_error(cmd, "--gpu: no usable GPU: %s", why);
    }
    if (rv_bucket_gpu_begin(s, device) == 0) return 1;
    if (forced) return -1;
    if (!c->quiet) fprintf(stderr, "repview: %s: the GPU failed (%s); sorting on the CPU\n", cmd, rv_last_error());
    return 0;
}

int cli_open_text(const char *file, const char *region, const cli_common_t *c, const char *cmd, rv_seq_t **s,
                  uint64_t *lo, uint64_t *hi)
{
    if (!(*s = cli_load_text(file, c))) return cli_data_error();
    int code = cli_text_range(*s, region, lo, hi) < 0 ? cli_arg_error()
             : cli_bucket_gpu(*s, c, cmd, 0, 0) < 0 ? cli_data_error()
             : RV_EXIT_OK;
    if (code != RV_EXIT_OK) {
        rv_seq_free(*s);
        *s = NULL;
    }
    return code;
}
