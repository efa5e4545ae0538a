/* prompt.c — the command line at the bottom: `:` commands (goto in the region
 * syntax of repview(1) via htslib, relative moves, help, records, quit) and the `/`
 * and `?` search prompts.  Errors are shown inline, in the same row. */
#include <ctype.h>
#include <string.h>
#include "repview/common.h"
#include "app.h"
#include "../front.h"
#include "tracks.h"

static int go_relative(app_t *a, const char *arg, int sign)
{
    uint64_t d;
    if (front_parse_count(arg, &d) < 0) { app_message(a, 1, "bad distance '%s' (e.g. +10k, -2m)", arg); return -1; }
    const rv_record_t *r = view_record(a);
    uint64_t end = r->off + (r->len ? r->len - 1 : 0), g;
    if (sign > 0) g = d > end - a->cur ? end : a->cur + d;
    else g = d > a->cur - r->off ? r->off : a->cur - d;
    app_jump(a, g);
    return 0;
}

static int go_number(app_t *a, const char *arg, int global)
{
    uint64_t v;
    const rv_seq_t *s = a->src.seq;
    if (front_parse_count(arg, &v) < 0 || v == 0) { app_message(a, 1, "bad position '%s'", arg); return -1; }
    const rv_record_t *r = view_record(a);
    uint64_t base = global ? 0 : r->off, len = global ? s->glen : r->len;
    if (v > len) {
        char c[32];
        app_message(a, 1, "%s: position outside 1..%s%s%s", arg, fmt_commas(len, c, sizeof c),
                    global ? "" : " of ", global ? "" : r->name);
        return -1;
    }
    app_jump(a, base + v - 1);
    return 0;
}

static int go_region(app_t *a, const char *arg)
{
    uint64_t rid, beg, end;
    if (rv_seq_parse_region(a->src.seq, arg, &rid, &beg, &end) < 0) {
        app_message(a, 1, "%s", rv_last_error());
        return -1;
    }
    const rv_record_t *r = &a->src.seq->rec[rid];
    app_jump(a, r->off + beg);
    const char *colon = strrchr(arg, ':');
    if (colon && strchr(colon, '-') && end > beg + 1) { /* NAME:BEG-END selects the region */
        a->visual = 1;
        a->vis_anchor = r->off + beg;
        a->cur = r->off + end - 1;
        view_follow(a);
    }
    return 0;
}

/* 1 when what comes before the last ':' of arg names no record: arg may be a
 * feature's name (Ensembl's IDs hold colons), not a position out of range. */
static int not_a_record(const app_t *a, const char *arg)
{
    const char *colon = strrchr(arg, ':');
    char rec[256];
    if (!colon) return 1;
    snprintf(rec, sizeof rec, "%.*s", (int)(colon - arg), arg);
    return rv_seq_record_by_name(a->src.seq, rec) < 0;
}

static int feature_command(app_t *a, const char *name)
{
    while (isspace((unsigned char)*name)) name++;
    int rc = tracks_goto(a, name);
    if (rc == 0) app_message(a, 1, tracks_count() ? "no feature called %s in the tracks" : "%s: no tracks to look in (:track FILE)", name);
    return rc > 0 ? 0 : -1;
}

int goto_command(app_t *a, const char *cmd)
{
    while (isspace((unsigned char)*cmd)) cmd++;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", cmd);
    for (size_t l = strlen(buf); l && isspace((unsigned char)buf[l - 1]);) buf[--l] = 0;
    if (!buf[0]) return 0;
    if (!strcmp(buf, "q") || !strcmp(buf, "quit") || !strcmp(buf, "q!")) { a->quit = 1; return 0; }
    if (!strcmp(buf, "help") || !strcmp(buf, "h")) { a->overlay = OV_HELP; a->ov_scroll = 0; return 0; }
    if (!strcmp(buf, "cancel")) { src_cancel(&a->src); return 0; }
    if (!strcmp(buf, "set") || !strncmp(buf, "set ", 4)) return set_command(a, buf + 3);
    if (!strcmp(buf, "track") || !strncmp(buf, "track ", 6)) return tracks_command(a, buf + 5);
    if (!a->src.seq) { app_message(a, 1, "no records yet: the file is still being read"); return -1; }
    if (!strcmp(buf, "records")) { a->overlay = OV_RECORDS; return 0; }
    if (!strncmp(buf, "feature ", 8)) return feature_command(a, buf + 8);
    if (!strncmp(buf, "goto ", 5)) memmove(buf, buf + 5, strlen(buf + 5) + 1);
    if (buf[0] == '+' || buf[0] == '-') return go_relative(a, buf + 1, buf[0] == '+' ? 1 : -1);
    if (buf[0] == '=') return go_number(a, buf + 1, 1);
    if (isdigit((unsigned char)buf[0]) && strspn(buf, "0123456789,kKmMgG") == strlen(buf))
        return go_number(a, buf, 0);
    if (go_region(a, buf) == 0) return 0;
    if (!tracks_count() || !not_a_record(a, buf)) return -1;
    int rc = tracks_goto(a, buf); /* not a region: a feature's name */
    if (rc == 0) app_message(a, 1, "%s: no such record or feature", buf);
    return rc > 0 ? 0 : -1;
}

void prompt_key(app_t *a, int key)
{
    int kind = a->prompt;
    if (key == 27 || key == RV_CTRL('c')) { a->prompt = 0; return; }
    if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        a->prompt = 0;
        char line[256];
        snprintf(line, sizeof line, "%s", a->line);
        if (kind == ':') goto_command(a, line);
        else if (kind == '?' && !line[0] && !a->pattern[0]) { a->overlay = OV_HELP; a->ov_scroll = 0; }
        else search_run(a, line, kind == '/' ? 1 : -1);
        return;
    }
    if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (a->line_len == 0) { a->prompt = 0; return; }
        a->line[--a->line_len] = 0;
        return;
    }
    if (key == RV_CTRL('u')) { a->line_len = 0; a->line[0] = 0; return; }
    if (key == '\t' && kind == ':') { tracks_complete_line(a); return; }
    if (key >= 32 && key < 127 && a->line_len < (int)sizeof a->line - 1) {
        a->line[a->line_len++] = (char)key;
        a->line[a->line_len] = 0;
    }
}
