/* prompt.c — the command line at the bottom: `:` commands from a table (goto in
 * the region syntax of repview(1) via htslib, a record also by any unique token
 * of its name, relative moves, help, records, marks, export, quit) and the `/`
 * and `?` search prompts.  Errors are shown inline, in the same row. */
#include <ctype.h>
#include <string.h>
#include "repview/common.h"
#include "app.h"
#include "names.h"
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
    char full[600], err[300];
    if (rv_seq_parse_region(a->src.seq, arg, &rid, &beg, &end) < 0) {
        char why[300];
        snprintf(why, sizeof why, "%s", rv_last_error());
        int r = names_resolve_region(a->src.seq, arg, full, sizeof full, err, sizeof err);
        if (r < 0) { app_message(a, 1, "%s", err); return -1; }
        if (r == 0 || rv_seq_parse_region(a->src.seq, full, &rid, &beg, &end) < 0) {
            /* the region as typed, not as rewritten ({NAME}:POS): the record's name unbraced */
            char said[300];
            snprintf(said, sizeof said, "%s", r ? rv_last_error() : why);
            char *o = strchr(said, '{'), *c = o ? strchr(o, '}') : NULL;
            if (c) { memmove(c, c + 1, strlen(c)); memmove(o, o + 1, strlen(o)); }
            app_message(a, 1, "%s", said);
            return -1;
        }
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

int goto_place(app_t *a, const char *where)
{
    if (!a->src.seq) { app_message(a, 1, "no records yet: the file is still being read"); return -1; }
    if (where[0] == '+' || where[0] == '-') return go_relative(a, where + 1, where[0] == '+' ? 1 : -1);
    if (where[0] == '=') return go_number(a, where + 1, 1);
    if (isdigit((unsigned char)where[0]) && strspn(where, "0123456789,kKmMgG") == strlen(where))
        return go_number(a, where, 0);
    if (go_region(a, where) == 0) return 0;
    if (!tracks_count() || !not_a_record(a, where)) return -1;
    int rc = tracks_goto(a, where); /* not a region: a feature's name */
    if (rc == 0) app_message(a, 1, "%s: no such record or feature", where);
    return rc > 0 ? 0 : -1;
}

static int cmd_quit(app_t *a, const char *args) { (void)args; a->quit = 1; return 0; }
static int cmd_help(app_t *a, const char *args) { (void)args; a->overlay = OV_HELP; a->ov_scroll = 0; return 0; }
static int cmd_cancel(app_t *a, const char *args) { (void)args; src_cancel(&a->src); return 0; }
static int cmd_records(app_t *a, const char *args) { records_open(a, args); return 0; }
static int cmd_marks(app_t *a, const char *args) { (void)args; marks_open(a); return 0; }

/* The `:` commands, one entry each: NAME [ARGS].  A line that names none of them
 * is a place to go to (goto_place). */
static const struct {
    const char *name;
    int (*run)(app_t *a, const char *args); /* 0, or -1 after an inline error */
} commands[] = {
    {"q", cmd_quit},           {"quit", cmd_quit},     {"q!", cmd_quit},
    {"help", cmd_help},        {"h", cmd_help},        {"cancel", cmd_cancel},
    {"set", set_command},      {"records", cmd_records}, {"goto", goto_place},
    {"marks", cmd_marks},      {"export", export_command}, {"screen", screen_save_command},
    {"track", tracks_command}, {"feature", feature_command},
};

int goto_command(app_t *a, const char *cmd)
{
    while (isspace((unsigned char)*cmd)) cmd++;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", cmd);
    for (size_t l = strlen(buf); l && isspace((unsigned char)buf[l - 1]);) buf[--l] = 0;
    if (!buf[0]) return 0;
    size_t wl = strcspn(buf, " \t");
    const char *args = buf + wl;
    while (isspace((unsigned char)*args)) args++;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strlen(commands[i].name) == wl && !strncmp(buf, commands[i].name, wl)) return commands[i].run(a, args);
    if (!a->src.seq) { app_message(a, 1, "no records yet: the file is still being read"); return -1; }
    if (buf[wl]) { /* record names hold no blank: a word with arguments is a command */
        app_message(a, 1, "%.*s: unknown command (:help lists the commands)", (int)wl, buf);
        return -1;
    }
    if (goto_place(a, buf) == 0) return 0;
    /* a bare word that is no record: say it is no command either */
    if (!strchr(buf, ':') && !isdigit((unsigned char)buf[0]) && buf[0] != '+' && buf[0] != '-' && buf[0] != '=' &&
        strstr(a->msg, "no such record")) {
        app_message(a, 1, "%s: unknown command, and no record is named so (:help lists the commands)", buf);
    }
    return -1;
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
