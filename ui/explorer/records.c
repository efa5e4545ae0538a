/* records.c — the record list (R, `:records [FILTER]`): every record with its
 * number, name, length and description (the rest of its header line), filtered
 * as the person types (names.c: every word, any case, in the name or the
 * description); Enter goes to the selected record, which a click also selects.
 *
 * The record table (names, lengths) is known at once; the descriptions are not
 * kept by the index, so a helper thread reads the header lines from the file
 * (plain, gzip or bgzip, through htslib's BGZF reader) the first time the list
 * opens.  It owns what it reads; the UI thread matches the headers to the
 * records by order and name once it is done.  Standard input cannot be read
 * again: its list shows names only. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <htslib/bgzf.h>
#include <htslib/kstring.h>
#include "app.h"
#include "names.h"

static struct {
    /* the helper's result: headers in file order */
    pthread_t tid;
    int started, joined;
    _Atomic int done;
    char *path;
    char **hname, **hdesc;
    size_t n, cap;
    /* the UI thread's view */
    const rv_seq_t *seq;      /* the records desc[] belongs to */
    char **desc;              /* per record, or NULL */
    char filter[128];
    int filter_len;
    uint64_t *shown;          /* records passing the filter */
    uint64_t n_shown;
    int sel, scroll, stale;
} L;

static int add_header(const char *line)
{
    size_t nl = strcspn(line, " \t");
    const char *d = line + nl;
    while (*d == ' ' || *d == '\t') d++;
    if (L.n == L.cap) {
        size_t cap = L.cap ? L.cap * 2 : 256;
        char **a = realloc(L.hname, cap * sizeof *a), **b = a ? realloc(L.hdesc, cap * sizeof *b) : NULL;
        if (a) L.hname = a;
        if (!a || !b) return -1;
        L.hdesc = b;
        L.cap = cap;
    }
    L.hname[L.n] = strndup(line, nl);
    L.hdesc[L.n] = *d ? strndup(d, 300) : NULL;
    if (!L.hname[L.n]) return -1;
    L.n++;
    return 0;
}

/* FASTA: every '>' line.  FASTQ: the '@' line of every four (the layout the
 * reader accepts for multi-record FASTQ). */
static void *headers_main(void *arg)
{
    (void)arg;
    BGZF *fp = bgzf_open(L.path, "r");
    kstring_t ks = {0, 0, NULL};
    int fastq = -1;
    for (uint64_t line = 0; fp && bgzf_getline(fp, '\n', &ks) >= 0; line++) {
        if (ks.l && ks.s[ks.l - 1] == '\r') ks.s[--ks.l] = 0;
        if (fastq < 0 && ks.l) fastq = ks.s[0] == '@';
        if (fastq < 0) continue;
        int head = fastq ? line % 4 == 0 && ks.l && ks.s[0] == '@' : ks.l && ks.s[0] == '>';
        if (head && add_header(ks.s + 1) < 0) break;
    }
    free(ks.s);
    if (fp) bgzf_close(fp);
    atomic_store(&L.done, 1);
    return NULL;
}

static void start_headers(app_t *a)
{
    if (L.started || !a->src.path || !strcmp(a->src.path, "-")) return;
    L.path = strdup(a->src.path);
    L.started = L.path && src_thread(&L.tid, headers_main, NULL);
}

/* Join a finished reader (wait: scripted mode, whose screens must not depend on
 * timing) and match its headers to the records shown. */
static void take_headers(const app_t *a, int wait)
{
    if (L.started && !L.joined && (wait || atomic_load(&L.done))) {
        pthread_join(L.tid, NULL);
        L.joined = 1;
        L.seq = NULL;
    }
    const rv_seq_t *s = a->src.seq;
    if (!L.joined || !s || L.seq == s) return;
    free(L.desc);
    L.desc = calloc(s->n_rec ? s->n_rec : 1, sizeof *L.desc);
    L.seq = s;
    L.stale = 1;
    if (!L.desc) return;
    for (uint64_t r = 0, h = 0; r < s->n_rec && h < L.n; r++, h++) {
        if (strcmp(L.hname[h], s->rec[r].name)) { /* headers and records out of step: look it up */
            int64_t k = rv_seq_record_by_name(s, L.hname[h]);
            if (k >= 0) L.desc[k] = L.hdesc[h];
            continue;
        }
        L.desc[r] = L.hdesc[h];
    }
}

static void refilter(const app_t *a)
{
    const rv_seq_t *s = a->src.seq;
    uint64_t keep = L.n_shown && L.sel < (int)L.n_shown ? L.shown[L.sel] : UINT64_MAX;
    free(L.shown);
    L.shown = malloc((s && s->n_rec ? s->n_rec : 1) * sizeof *L.shown);
    L.n_shown = 0;
    L.sel = 0;
    for (uint64_t r = 0; s && L.shown && r < s->n_rec; r++) {
        if (!names_filter_match(s->rec[r].name, L.desc ? L.desc[r] : NULL, L.filter)) continue;
        if (r == keep) L.sel = (int)L.n_shown;
        L.shown[L.n_shown++] = r;
    }
    L.stale = 0;
}

void records_open(app_t *a, const char *filter)
{
    if (!a->src.seq) { app_message(a, 1, "no records yet: the file is still being read"); return; }
    start_headers(a);
    snprintf(L.filter, sizeof L.filter, "%s", filter ? filter : "");
    L.filter_len = (int)strlen(L.filter);
    a->overlay = OV_RECORDS;
    L.n_shown = 0;
    take_headers(a, 0);
    refilter(a);
    /* the cursor's record selected when it passes the filter */
    uint64_t cur = rv_seq_record_of(a->src.seq, a->cur);
    for (uint64_t i = 0; i < L.n_shown; i++)
        if (L.shown[i] == cur) L.sel = (int)i;
    L.scroll = 0;
}

void records_key(app_t *a, int key)
{
    int rows = dr_rows() - 4;
    if (key == 27 || key == KEY_F(1)) { a->overlay = OV_NONE; return; }
    if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        if (!L.n_shown) { app_message(a, 1, "no record matches '%s'", L.filter); return; }
        const rv_record_t *r = &a->src.seq->rec[L.shown[L.sel]];
        a->overlay = OV_NONE;
        if (r->len) app_jump(a, r->off);
        else app_message(a, 1, "%s is empty", r->name);
        return;
    }
    if (key == KEY_DOWN || key == RV_CTRL('n')) L.sel++;
    else if (key == KEY_UP || key == RV_CTRL('p')) L.sel--;
    else if (key == KEY_NPAGE) L.sel += rows > 1 ? rows : 1;
    else if (key == KEY_PPAGE) L.sel -= rows > 1 ? rows : 1;
    else if (key == KEY_HOME) L.sel = 0;
    else if (key == KEY_END) L.sel = (int)L.n_shown - 1;
    else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (L.filter_len) L.filter[--L.filter_len] = 0;
        L.stale = 1;
    } else if (key == RV_CTRL('u')) {
        L.filter[L.filter_len = 0] = 0;
        L.stale = 1;
    } else if (key >= 32 && key < 127 && L.filter_len < (int)sizeof L.filter - 1) {
        L.filter[L.filter_len++] = (char)key;
        L.filter[L.filter_len] = 0;
        L.stale = 1;
    }
    if (L.stale) refilter(a);
    if (L.sel >= (int)L.n_shown) L.sel = (int)L.n_shown - 1;
    if (L.sel < 0) L.sel = 0;
}

void records_click(app_t *a, int y)
{
    (void)a;
    int row = L.scroll + y - 2; /* below the title and the filter */
    if (y >= 2 && row >= 0 && (uint64_t)row < L.n_shown) L.sel = row;
}

static int name_width(const rv_seq_t *s, int cols)
{
    size_t w = 4;
    for (uint64_t i = 0; i < L.n_shown && i < 100000; i++) {
        size_t l = strlen(s->rec[L.shown[i]].name);
        if (l > w) w = l;
    }
    int cap = cols / 3 > 12 ? cols / 3 : 12;
    return w > (size_t)cap ? cap : (int)w;
}

void records_draw(app_t *a)
{
    const rv_seq_t *s = a->src.seq;
    int rows = dr_rows() - 2, cols = dr_cols();
    take_headers(a, dr_is_grid());
    if (L.stale) refilter(a);
    for (int y = 0; y < rows; y++) dr_fill(y, 0, cols, ST_NORMAL, ' ');
    dr_fill(0, 0, cols, ST_BAR, ' ');
    dr_printf(0, 1, ST_BAR, cols - 2, "%llu of %llu records%s  (type to filter, Up/Down, Enter goes there, Esc closes)",
              (unsigned long long)L.n_shown, s ? (unsigned long long)s->n_rec : 0ULL,
              L.started && !L.joined ? ", reading descriptions" : "");
    int x = dr_printf(1, 1, ST_NORMAL, cols - 2, "filter: %s", L.filter);
    dr_char(1, x, ST_CURSOR, ' ');
    if (!s) return;
    int list = rows - 2, nw = name_width(s, cols);
    if (L.sel < L.scroll) L.scroll = L.sel;
    if (L.sel >= L.scroll + list) L.scroll = L.sel - list + 1;
    if (L.scroll < 0) L.scroll = 0;
    char c[32];
    for (int i = 0; i < list && (uint64_t)(L.scroll + i) < L.n_shown; i++) {
        uint64_t k = L.shown[L.scroll + i];
        const rv_record_t *r = &s->rec[k];
        int sel = L.scroll + i == L.sel;
        style_t st = sel ? ST_SELROW : ST_NORMAL;
        dr_fill(2 + i, 0, cols, st, ' ');
        int w = (int)strlen(r->name);
        dr_printf(2 + i, 0, st, cols, "%c %6llu  %-*.*s%c %15s %-5s %s", sel ? '>' : ' ', (unsigned long long)k + 1, nw, nw,
                  r->name, w > nw ? '>' : ' ', fmt_commas(r->len, c, sizeof c), app_unit(a),
                  L.desc && L.desc[k] ? L.desc[k] : "");
    }
    if (!L.n_shown) dr_text(2, 2, ST_DIM, "no record matches the filter (Backspace, Ctrl-U clears)", cols - 2);
}
