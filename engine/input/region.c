/* region.c — samtools-style regions and positions typed by a person (repview(1)),
 * parsed with htslib's hts_parse_region(). */
#include <stdlib.h>
#include <string.h>
#include <htslib/hts.h>
#include "repview/common.h"
#include "repview/seq.h"

static int name2id(void *data, const char *name)
{
    int64_t r = rv_seq_record_by_name((const rv_seq_t *)data, name);
    return r < 0 || r > 0x7fffffff ? -1 : (int)r;
}

/* The coordinates typed after the name ("" when none).  htslib clamps a start of 0
 * or below to the record start; a person typing chr1:0 made a mistake (repview(1):
 * positions are 1-based), so it is checked here first. */
static const char *coords_of(const rv_seq_t *s, const char *region)
{
    if (region[0] == '{') {
        const char *close = strchr(region, '}');
        return close && close[1] == ':' ? close + 2 : "";
    }
    if (rv_seq_record_by_name(s, region) >= 0) return "";
    const char *colon = strrchr(region, ':');
    return colon ? colon + 1 : "";
}

static int starts_at_zero_or_below(const char *c)
{
    if (*c == '-') return 1;
    int digits = 0, nonzero = 0;
    for (; *c && *c != '-'; c++) {
        if (*c == ',') continue;
        if (*c < '0' || *c > '9') return 0;
        digits++;
        nonzero |= *c != '0';
    }
    return digits && !nonzero;
}

static int parse(const rv_seq_t *s, const char *region, int flags, uint64_t *rid, uint64_t *beg,
                 uint64_t *end)
{
    int tid = -1;
    if (region && starts_at_zero_or_below(coords_of(s, region)))
        return rv_error(region, "positions are 1-based: the first base is 1");
    hts_pos_t b = 0, e = 0;
    if (!region || !*region) return rv_error("region", "empty region");
    const char *p = hts_parse_region(region, &tid, &b, &e, name2id, (void *)s,
                                     HTS_PARSE_THOUSANDS_SEP | flags);
    if (!p || *p) {
        if (tid < 0) return rv_error(region, "no such record (or bad region syntax)");
        return rv_error(region, "bad region (expected NAME, NAME:POS or NAME:BEG-END)");
    }
    if (tid < 0) return rv_error(region, "no such record");
    const rv_record_t *r = &s->rec[tid];
    if (b < 0 || e < b) return rv_error(region, "bad coordinates");
    if ((uint64_t)b >= r->len && !(r->len == 0 && b == 0))
        return rv_error(region, "starts after the end of %s (%llu bp)", r->name,
                        (unsigned long long)r->len);
    *rid = (uint64_t)tid;
    *beg = (uint64_t)b;
    *end = (uint64_t)e > r->len ? r->len : (uint64_t)e;
    return 0;
}

int rv_seq_parse_region(const rv_seq_t *s, const char *region, uint64_t *rid, uint64_t *beg,
                        uint64_t *end)
{
    return parse(s, region, 0, rid, beg, end);
}

int64_t rv_seq_parse_pos(const rv_seq_t *s, const char *str)
{
    uint64_t rid, beg, end;
    if (!str || !*str) { rv_error("position", "empty position"); return -1; }
    /* a bare number: 1-based position in the only record */
    char *stop;
    const char *digits = str;
    char buf[64];
    if (strlen(str) < sizeof buf && strspn(str, "0123456789,") == strlen(str)) {
        size_t k = 0;
        for (const char *p = str; *p; p++) if (*p != ',') buf[k++] = *p;
        buf[k] = 0;
        digits = buf;
        unsigned long long v = strtoull(digits, &stop, 10);
        if (s->n_rec != 1) { rv_error(str, "give the record too (NAME:POS): there are %llu records", (unsigned long long)s->n_rec); return -1; }
        if (v < 1 || v > s->rec[0].len) { rv_error(str, "position outside 1..%llu", (unsigned long long)s->rec[0].len); return -1; }
        return (int64_t)(v - 1);
    }
    if (parse(s, str, HTS_PARSE_ONE_COORD, &rid, &beg, &end) < 0) return -1;
    if (beg >= s->rec[rid].len) { /* an empty record has no position (fuzz_region feeds such regions) */
        rv_error(str, "record '%s' is empty: no position in it", s->rec[rid].name);
        return -1;
    }
    return (int64_t)(s->rec[rid].off + beg);
}
