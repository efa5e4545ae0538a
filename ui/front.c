/* front.c — what both front ends share: parsing counts in options, and the
 * version line with the build's features. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <divsufsort.h>
#include <htslib/hts.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "front.h"

int front_parse_count(const char *s, uint64_t *out)
{
    char buf[64];
    size_t k = 0;
    const char *p = s;
    for (; *p && k < sizeof buf - 1; p++)
        if (*p != ',') buf[k++] = *p;
    buf[k] = 0;
    /* a digit first: strtoull alone would take a blank or a sign ("-1" wraps) */
    if (*p || !isdigit((unsigned char)buf[0])) return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    uint64_t mult = 1;
    if (*end == 'k' || *end == 'K') mult = 1000, end++;
    else if (*end == 'm' || *end == 'M') mult = 1000000, end++;
    else if (*end == 'g' || *end == 'G') mult = 1000000000, end++;
    if (*end || errno || v > UINT64_MAX / mult) return -1;
    *out = v * mult;
    return 0;
}

const char *front_error_text(const char *who, const char *msg, char *buf, size_t len)
{
    if (strncmp(msg, "out of memory", 13) != 0 || !who || !*who) return msg;
    snprintf(buf, len, "%s: %s", who, msg);
    return buf;
}

void front_print_version(FILE *out)
{
    char name[80] = "", why[160] = "";
    fprintf(out, "repview %s\n", RV_VERSION);
    fprintf(out, "cuda: %s\n", rv_gpu_compiled() ? "yes" : "no");
    if (rv_gpu_compiled())
        fprintf(out, "gpu: %s\n", rv_gpu_probe(name, sizeof name, why, sizeof why) ? name : why);
    fprintf(out, "mpi: %s\n", RV_HAVE_MPI ? "yes" : "no");
    fprintf(out, "htslib: %s\n", hts_version());
    fprintf(out, "libdivsufsort: %s\n", divsufsort_version());
}
