/* settings.c — `:set NAME VALUE` in the explorer: the maximal-pairs pane's minimum
 * length and what it lists (pairs, or repeat families), the tandem pane's filters (the options of `repview pairs -l` and
 * `repview tandem`), and the strands the index holds (`:set strands both` builds
 * it again in the background, as `repview index --strands both` would, and keeps
 * it in FILE.rvx).  `:set` alone shows the current values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "../front.h"

void settings_init(app_t *a)
{
    a->minpair = 0;
    a->families = 0;
    rv_tandem_filter_init(&a->tfilter);
}

static void show(app_t *a)
{
    char maxp[32] = "none";
    if (a->tfilter.max_period != UINT64_MAX)
        snprintf(maxp, sizeof maxp, "%llu", (unsigned long long)a->tfilter.max_period);
    char mp[32] = "auto";
    if (a->minpair) snprintf(mp, sizeof mp, "%llu", (unsigned long long)a->minpair);
    app_message(a, 0, "minpair=%s%s minperiod=%llu maxperiod=%s mincopies=%.2f minlen=%llu%s", mp, a->families ? " pairs=families" : "",
                (unsigned long long)a->tfilter.min_period, maxp, a->tfilter.min_copies,
                (unsigned long long)a->tfilter.min_len, app_both(a) ? " strands=both" : "");
}

static int set_strands(app_t *a, const char *value)
{
    int strands;
    if (rv_strands_parse(value, &strands) < 0 || strands < 1) {
        app_message(a, 1, "strands: expected both or +, not '%s'", value);
        return -1;
    }
    char msg[sizeof a->msg];
    int rc = src_rebuild(&a->src, strands, msg, sizeof msg);
    app_message(a, rc < 0, "%s", msg);
    return rc;
}

int set_command(app_t *a, const char *args)
{
    char name[32], value[64];
    int k = sscanf(args, " %31s %63s", name, value);
    if (k <= 0) { show(a); return 0; }
    char *eq = strchr(name, '=');
    if (k == 1 && eq) { /* also accept NAME=VALUE */
        snprintf(value, sizeof value, "%s", eq + 1);
        *eq = 0;
        k = 2;
    }
    if (k != 2) { app_message(a, 1, ":set %s needs a value", name); return -1; }
    if (!strcmp(name, "strands")) return set_strands(a, value);
    if (!strcmp(name, "pairs")) {
        if (strcmp(value, "families") && strcmp(value, "pairs")) {
            app_message(a, 1, "pairs: expected families or pairs, not '%s'", value);
            return -1;
        }
        a->families = !strcmp(value, "families");
        a->extra_gen++;
        show(a);
        return 0;
    }
    uint64_t v = 0;
    int is_auto = !strcmp(value, "auto") || !strcmp(value, "none");
    if (!strcmp(name, "mincopies")) {
        char *end;
        double c = strtod(value, &end);
        if (*end || c < 1) { app_message(a, 1, "mincopies: expected a number >= 1, not '%s'", value); return -1; }
        a->tfilter.min_copies = c;
    } else if (!is_auto && front_parse_count(value, &v) < 0) {
        app_message(a, 1, "%s: expected a number, not '%s'", name, value);
        return -1;
    } else if (!strcmp(name, "minpair")) {
        if (!is_auto && v < 1) { app_message(a, 1, "minpair must be at least 1"); return -1; }
        a->minpair = is_auto ? 0 : v;
    } else if (!strcmp(name, "minperiod")) {
        if (is_auto || v < 1) { app_message(a, 1, "minperiod must be at least 1"); return -1; }
        a->tfilter.min_period = v;
    } else if (!strcmp(name, "maxperiod")) {
        a->tfilter.max_period = is_auto ? UINT64_MAX : v;
    } else if (!strcmp(name, "minlen")) {
        a->tfilter.min_len = is_auto ? 0 : v;
    } else {
        app_message(a, 1, "unknown setting '%s' (minpair, pairs, minperiod, maxperiod, mincopies, minlen, strands)", name);
        return -1;
    }
    a->extra_gen++; /* panes recompute with the new settings */
    show(a);
    return 0;
}
