/* tracks.c — the explorer's annotation tracks (tracks.h): which files are open,
 * the current track and the selected feature, global positions to the records
 * of track.h and back, descriptions, steps and lookups by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "app.h"
#include "tracks.h"

static struct {
    char *pending[TRACKS_MAX];
    int n_pending;
    rv_track_t *t[TRACKS_MAX];
    char label[TRACKS_MAX][16];
    size_t bad_seen[TRACKS_MAX]; /* malformed lines already reported */
    int rows[TRACKS_MAX];        /* rows under each line of sequence */
    int n, cur;
    const rv_seq_t *seq;
    char waiting[256];           /* a name to go to once the names of wait_track are read, or "" */
    int wait_track;
    int sel, sel_track;          /* the selected feature, when sel */
    uint32_t sel_rid;
    uint64_t sel_beg, sel_end;
} T;

static int check_path(const char *path, char *err, size_t len)
{
    if (rv_track_format_of_path(path) < 0)
        return snprintf(err, len, "%s: unknown track format (.bed, .bedgraph, .gff3, .gtf, .vcf, .bcf)", path), -2;
    if (access(path, R_OK) < 0) return snprintf(err, len, "%s: cannot read the file", path), -1;
    return 0;
}

int tracks_request(const char *path, char *err, size_t len)
{
    if (T.n_pending + T.n >= TRACKS_MAX) return snprintf(err, len, "at most %d tracks", TRACKS_MAX), -1;
    int rc = check_path(path, err, len);
    if (rc < 0) return rc;
    T.pending[T.n_pending++] = strdup(path);
    return 0;
}

/* The file name without folders and the format's extensions, cut to fit. */
static void make_label(char *label, size_t len, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(label, len, "%s", base);
    char *dot = strchr(label, '.');
    for (int i = 0; dot && dot != label && i < T.n; i++)
        if (!strncmp(T.label[i], label, (size_t)(dot - label)) && !T.label[i][dot - label]) dot = NULL; /* taken */
    if (dot && dot != label) *dot = 0;
}

/* Open path for the records of the source: 0 with what it holds in note, 1 with its
 * warnings there, -1 with the error. */
static int open_track(const app_t *a, const char *path, char *note, size_t len)
{
    if (T.n >= TRACKS_MAX) return snprintf(note, len, "at most %d tracks", TRACKS_MAX), -1;
    rv_track_t *t = rv_track_open(path, a->src.seq);
    if (!t) return snprintf(note, len, "%s", rv_last_error()), -1;
    T.t[T.n] = t;
    make_label(T.label[T.n], sizeof T.label[T.n], path);
    T.bad_seen[T.n] = rv_track_bad_lines(t);
    T.rows[T.n] = (int)rv_track_depth(t, TRACKS_ROWS); /* overlapping features side by side */
    const char *w = rv_track_warnings(t), *fmt = rv_track_format_name(rv_track_format(t));
    if (*w) snprintf(note, len, "%s", w);
    else if (rv_track_indexed(t)) snprintf(note, len, "%s (%s, by region)", T.label[T.n], fmt);
    else snprintf(note, len, "%s (%zu %s features)", T.label[T.n], rv_track_size(t), fmt);
    T.n++;
    return *w != 0;
}

/* Open the requested files: one message for them all, the problems first. */
static void open_pending(app_t *a)
{
    char bad[600] = "", good[400] = "", note[400];
    for (int i = 0; i < T.n_pending; i++) {
        char *to = open_track(a, T.pending[i], note, sizeof note) ? bad : good;
        size_t l = strlen(to), cap = to == bad ? sizeof bad : sizeof good;
        snprintf(to + l, cap - l, "%s%s", l ? to == bad ? "; " : ", " : "", note);
        free(T.pending[i]);
    }
    T.n_pending = 0;
    if (bad[0]) app_message(a, 1, "%s", bad);
    else if (good[0]) app_message(a, 0, "track%s %s", strchr(good, ',') ? "s" : "", good);
}

void tracks_sync(app_t *a)
{
    const rv_seq_t *s = a->src.seq;
    if (!s || a->src.partial) return;
    if (T.seq != s)
        for (int i = 0; i < T.n; i++) rv_track_set_seq(T.t[i], s);
    T.seq = s;
    if (T.n_pending) open_pending(a);
    for (int i = 0; i < T.n; i++) { /* an indexed track finds bad lines as it reads */
        size_t bad = rv_track_bad_lines(T.t[i]);
        if (bad > T.bad_seen[i]) {
            T.bad_seen[i] = bad;
            app_message(a, 1, "%s", rv_track_warnings(T.t[i]));
        }
    }
}

int tracks_command(app_t *a, const char *path)
{
    while (*path == ' ') path++;
    if (!*path) { app_message(a, 1, "usage: :track FILE (BED, bedGraph, GFF3, GTF, VCF or BCF)"); return -1; }
    if (!a->src.seq || a->src.partial) {
        char err[300];
        if (tracks_request(path, err, sizeof err) < 0) { app_message(a, 1, "%s", err); return -1; }
        app_message(a, 0, "%s opens once the records are read", path);
        return 0;
    }
    char note[400];
    int rc = open_track(a, path, note, sizeof note);
    app_message(a, rc != 0, rc ? "%s" : "track %s", note);
    if (rc < 0) return -1;
    T.cur = T.n - 1;
    a->extra_gen++; /* the tracks pane lists it */
    return 0;
}

void tracks_close(void)
{
    for (int i = 0; i < T.n; i++) rv_track_close(T.t[i]);
    for (int i = 0; i < T.n_pending; i++) free(T.pending[i]);
    memset(&T, 0, sizeof T);
}

int tracks_count(void) { return T.n; }
int tracks_rows(int i) { return T.rows[i]; }
rv_track_t *tracks_get(int i) { return T.t[i]; }
const char *tracks_label(int i) { return T.label[i]; }
int tracks_current(void) { return T.cur; }
void tracks_set_current(int i) { if (i >= 0 && i < T.n) T.cur = i; }

uint64_t tracks_global(const app_t *a, const rv_feature_t *f)
{
    return a->src.seq->rec[f->rid].off + f->beg;
}

int tracks_query(const app_t *a, int i, uint64_t g0, uint64_t g1, const rv_feature_t **f, size_t *n)
{
    const rv_seq_t *s = a->src.seq;
    *n = 0;
    if (!s || i < 0 || i >= T.n || g0 >= s->glen) return 0;
    uint64_t rid = rv_seq_record_of(s, g0), off = s->rec[rid].off, end = off + s->rec[rid].len;
    if (g1 > end) g1 = end;
    return g1 > g0 ? rv_track_query(T.t[i], (uint32_t)rid, g0 - off, g1 - off, f, n) : 0;
}

int tracks_feature_at(const app_t *a, int i, uint64_t g, rv_feature_t *out)
{
    const rv_feature_t *f;
    size_t n;
    if (tracks_query(a, i, g, g + 1, &f, &n) < 0 || !n) return 0;
    *out = f[n - 1]; /* the innermost: the last to start */
    return 1;
}

void tracks_describe(const app_t *a, const rv_feature_t *f, char *buf, size_t len)
{
    const rv_record_t *r = &a->src.seq->rec[f->rid];
    char c1[32], c2[32];
    int n = snprintf(buf, len, "%s%s%s", f->type, *f->type && *f->name ? " " : "", f->name);
    if (*f->id && strcmp(f->id, f->name)) n += snprintf(buf + n, len - (size_t)n, "%sID=%s", n ? " " : "", f->id);
    if ((size_t)n >= len) return;
    n += snprintf(buf + n, len - (size_t)n, "%s%s:%s", n ? " " : "", r->name, fmt_commas(f->beg + 1, c1, sizeof c1));
    if (f->end > f->beg + 1 && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, "-%s", fmt_commas(f->end, c2, sizeof c2));
    if (f->strand != '.' && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, " (%c)", f->strand);
    if (*f->ref && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, " %s>%s", f->ref, f->alt);
    if (!isnan(f->value) && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " %s %g",
                      *f->ref ? "QUAL" : *f->name || *f->type ? "score" : "value", f->value);
    if (f->n_parts && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, ", %u parts", f->n_parts);
    if (f->block_count > 1 && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, ", %u blocks", f->block_count);
    if (*f->attrs && (size_t)n < len) snprintf(buf + n, len - (size_t)n, "  %s", f->attrs);
}

int tracks_status(const app_t *a, char *buf, size_t len)
{
    rv_feature_t f;
    for (int k = 0; k < T.n; k++) {
        int i = (T.cur + k) % T.n;
        if (!tracks_feature_at(a, i, a->cur, &f)) continue;
        int n = snprintf(buf, len, "%s: ", T.label[i]);
        if (n > 0 && (size_t)n < len) tracks_describe(a, &f, buf + n, len - (size_t)n);
        return 1;
    }
    return 0;
}

void tracks_select(app_t *a, int i, const rv_feature_t *f)
{
    char d[300];
    T.sel = 1;
    T.sel_track = i;
    T.sel_rid = f->rid;
    T.sel_beg = f->beg;
    T.sel_end = f->end;
    T.cur = i;
    tracks_describe(a, f, d, sizeof d);
    app_message(a, 0, "%s: %s", T.label[i], d);
}

int tracks_selected(int i, const rv_feature_t *f)
{
    return T.sel && T.sel_track == i && T.sel_rid == f->rid && T.sel_beg == f->beg && T.sel_end == f->end;
}

int tracks_step(app_t *a, int dir, uint64_t *g)
{
    const rv_seq_t *s = a->src.seq;
    if (!T.n) { app_message(a, 1, "no tracks (repview FILE --track A.bed, or :track FILE)"); return 0; }
    if (!s || !s->n_rec) return 0;
    uint64_t rid = rv_seq_record_of(s, a->cur);
    rv_feature_t f;
    int rc = rv_track_step(T.t[T.cur], (uint32_t)rid, a->cur - s->rec[rid].off, dir, &f);
    if (rc < 0) { app_message(a, 1, "%s", rv_last_error()); return 0; }
    if (rc == 0) { app_message(a, 1, "no %s feature in track %s", dir > 0 ? "next" : "previous", T.label[T.cur]); return 0; }
    *g = tracks_global(a, &f);
    tracks_select(a, T.cur, &f);
    return 1;
}

/* 1 when every track has its names; otherwise their reading is started. */
static int names_ready(app_t *a)
{
    int ready = 1;
    for (int i = 0; i < T.n; i++) {
        if (rv_track_names_ready(T.t[i])) continue;
        if (rv_track_names_start(T.t[i]) < 0) app_message(a, 1, "%s", rv_last_error());
        ready = 0;
    }
    return ready;
}

int tracks_poll(app_t *a)
{
    if (!T.waiting[0] || !rv_track_names_ready(T.t[T.wait_track])) return 0;
    char name[256];
    snprintf(name, sizeof name, "%s", T.waiting);
    T.waiting[0] = 0;
    if (tracks_goto(a, name) == 0) app_message(a, 1, "%s: no such record or feature", name);
    return 1;
}

/* Until the names are read (scripted mode: every screen the same). */
static void names_wait(app_t *a)
{
    while (!names_ready(a)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

void tracks_wait(app_t *a)
{
    while (T.waiting[0]) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
        tracks_poll(a);
    }
}

int tracks_goto(app_t *a, const char *name)
{
    rv_feature_t hit[6];
    char list[240] = "";
    size_t total = 0;
    for (int k = 0; k < T.n; k++) { /* the current track first; a track's names only when the others lack it */
        int i = (T.cur + k) % T.n;
        size_t n;
        if (!rv_track_names_ready(T.t[i])) { /* the explorer goes on; tracks_poll asks again */
            if (rv_track_names_start(T.t[i]) < 0) { app_message(a, 1, "%s", rv_last_error()); return -1; }
            snprintf(T.waiting, sizeof T.waiting, "%s", name);
            T.wait_track = i;
            app_message(a, 0, "reading the names of %s to find %s...", T.label[i], name);
            return -1;
        }
        int rc = rv_track_find(T.t[i], name, hit, sizeof hit / sizeof *hit, &n);
        if (rc < 0) { app_message(a, 1, "%s", rv_last_error()); return -1; }
        if (rc == 1) {
            rv_feature_t f;
            uint64_t g = a->src.seq->rec[hit[0].rid].off + hit[0].beg;
            app_jump(a, g);
            if (tracks_feature_at(a, i, g, &f)) tracks_select(a, i, &f);
            else tracks_select(a, i, &hit[0]);
            return 1;
        }
        for (size_t j = 0; j < n && rc == 2; j++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", hit[j].name);
        }
        total += rc == 2 ? n : 0;
    }
    if (!total) return 0;
    app_message(a, 1, "%s: several features start with it: %s%s (Tab completes)", name, list, total >= 6 ? ", ..." : "");
    return -1;
}

void tracks_complete_line(app_t *a)
{
    char *word = strrchr(a->line, ' ');
    word = word ? word + 1 : a->line;
    if (!T.n) { app_message(a, 1, "no tracks to complete names from"); return; }
    if (!names_ready(a)) {
        if (!dr_is_grid()) { app_message(a, 0, "reading the names of the tracks; Tab again in a moment"); return; }
        names_wait(a);
    }
    char best[256] = "", buf[256];
    size_t total = 0;
    for (int i = 0; i < T.n; i++) {
        size_t n = rv_track_complete(T.t[i], word, buf, sizeof buf);
        if (!n) continue;
        if (!total) snprintf(best, sizeof best, "%s", buf);
        else { /* several tracks: what they share */
            size_t c = 0;
            while (best[c] && best[c] == buf[c]) c++;
            best[c] = 0;
        }
        total += n;
    }
    if (!total) { app_message(a, 1, "no feature name starts with '%s'", word); return; }
    size_t at = (size_t)(word - a->line);
    snprintf(a->line + at, sizeof a->line - at, "%s", best);
    a->line_len = (int)strlen(a->line);
    if (total > 1) app_message(a, 0, "%zu names start with '%s'", total, best);
    else a->msg[0] = 0;
}
