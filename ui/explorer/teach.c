/* teach.c — a lesson (teach.h): the engine's index of the string, the frames the
 * topic files draw, and their plain-text form. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/build.h"
#include "repview/common.h"
#include "teach.h"

static const struct { const char *name, *title; int (*build)(lesson_t *); } topics[N_TOPICS] = {
    [TOPIC_SA] = {"sa", "suffix array by prefix doubling (Manber-Myers)", teach_sa},
    [TOPIC_LCP] = {"lcp", "LCP array by Kasai's PLCP walk (the Phi method)", teach_lcp},
    [TOPIC_SEARCH] = {"search", "pattern search in the suffix array", teach_search},
    [TOPIC_LR] = {"lr", "longest repeats covering a position (Tian & Xu)", teach_lr},
    [TOPIC_PAIRS] = {"pairs", "maximal pairs from LCP intervals", teach_pairs},
    [TOPIC_RUNS] = {"runs", "runs (tandem repeats) from Lyndon roots", teach_runs},
};

int teach_topic_parse(const char *name)
{
    for (int t = 0; t < N_TOPICS; t++)
        if (strcmp(name, topics[t].name) == 0) return t;
    return -1;
}

const char *teach_topic_name(teach_topic_t t) { return topics[t].name; }
const char *teach_topic_title(teach_topic_t t) { return topics[t].title; }
int teach_max_len(int large) { return large ? TEACH_MAX_N_LARGE : TEACH_MAX_N; }

void teach_opts_init(teach_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->k = 1;
    o->at = -1;
    o->min_len = 2;
}

static int fail(lesson_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->err, sizeof L->err, fmt, ap);
    va_end(ap);
    return -1;
}

int teach_build(lesson_t *L, teach_topic_t topic, const char *str, size_t len, rv_alpha_t alpha,
                const teach_opts_t *o)
{
    memset(L, 0, sizeof *L);
    L->topic = topic;
    L->o = *o;
    L->cw = o->large ? 5 : 3;
    int max = teach_max_len(o->large);
    if (len == 0) return fail(L, "empty string: nothing to teach");
    if (len > (size_t)max)
        return fail(L, "the string has %zu characters; at most %d fit a screen%s", len, max,
                    o->large ? " with --large" : "");
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)str[i] < 32 || (unsigned char)str[i] > 126)
            return fail(L, "the string has a character that cannot be drawn (byte %u)", (unsigned char)str[i]);
    rv_seq_t *s = rv_seq_from_string(str, len, alpha, "string");
    if (!s) return fail(L, "%s", rv_last_error());
    if (s->n == 0) {
        rv_seq_free(s);
        return fail(L, "the string has no letter that matches (all breakers in the %s alphabet)",
                    rv_alpha_name(alpha ? alpha : rv_alpha_detect(str, len)));
    }
    rv_build_opts_t b;
    rv_build_opts_init(&b);
    b.threads = 1;
    b.backend = RV_BACKEND_CPU; /* a few symbols: starting a GPU would cost more */
    b.with_llr = 1;
    b.strands = 1;
    L->x = rv_build(s, &b, NULL);
    if (!L->x) return fail(L, "%s", rv_last_error());
    if (topics[topic].build(L) < 0) {
        if (!L->err[0]) fail(L, "out of memory");
        return -1;
    }
    return 0;
}

void teach_free(lesson_t *L)
{
    for (int i = 0; i < L->n; i++) free(L->f[i].line);
    free(L->f);
    for (int k = 0; k < 3; k++) free(L->ans[k]);
    rv_index_free(L->x);
    memset(L, 0, sizeof *L);
}

/* ---- frames ---------------------------------------------------------------- */

static teach_frame_t *cur(lesson_t *L) { return &L->f[L->n - 1]; }

void tf_new(lesson_t *L)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 32;
        teach_frame_t *f = realloc(L->f, (size_t)cap * sizeof *f);
        if (!f) { fprintf(stderr, "repview: teach: out of memory\n"); exit(1); }
        L->f = f;
        L->cap = cap;
    }
    memset(&L->f[L->n++], 0, sizeof *L->f);
}

static teach_line_t *line_at(lesson_t *L, int y)
{
    teach_frame_t *f = cur(L);
    while (f->n <= y) {
        if (f->n == f->cap) {
            int cap = f->cap ? 2 * f->cap : 32;
            teach_line_t *l = realloc(f->line, (size_t)cap * sizeof *l);
            if (!l) { fprintf(stderr, "repview: teach: out of memory\n"); exit(1); }
            f->line = l;
            f->cap = cap;
        }
        teach_line_t *l = &f->line[f->n++];
        memset(l->text, ' ', TEACH_W);
        l->text[TEACH_W] = 0;
        memset(l->role, ST_NORMAL, sizeof l->role);
    }
    return &f->line[y];
}

static void put(lesson_t *L, int y, int x, style_t st, const char *s)
{
    teach_line_t *l = line_at(L, y);
    for (; *s && x < TEACH_W; s++, x++)
        if (x >= 0) { l->text[x] = *s; l->role[x] = (unsigned char)st; }
}

int tf_line(lesson_t *L, style_t st, const char *fmt, ...)
{
    char buf[TEACH_W + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    int y = cur(L)->n;
    line_at(L, y);
    put(L, y, 0, st, buf);
    return y;
}

void tf_put(lesson_t *L, int line, int col, style_t st, const char *fmt, ...)
{
    char buf[TEACH_W + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(L, line, col, st, buf);
}

void tf_style(lesson_t *L, int line, int col, int len, style_t st)
{
    teach_line_t *l = line_at(L, line);
    for (int x = col; x < col + len && x < TEACH_W; x++)
        if (x >= 0) l->role[x] = (unsigned char)st;
}

void tf_caption(lesson_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cur(L)->caption, sizeof cur(L)->caption, fmt, ap);
    va_end(ap);
}

enum { LABEL_W = 13 };

int tf_col(const lesson_t *L, uint64_t i) { return LABEL_W + (int)i * L->cw; }

int tf_cells(lesson_t *L, const char *label, const uint64_t *v, uint64_t n, style_t st)
{
    int y = tf_line(L, ST_TITLE, "%s", label);
    for (uint64_t i = 0; i < n; i++) tf_put(L, y, tf_col(L, i), st, "%*llu", L->cw, (unsigned long long)v[i]);
    return y;
}

int tf_sym(const lesson_t *L, uint64_t t)
{
    const rv_seq_t *s = L->x->seq;
    return s->raw[rv_seq_text_to_global(s, t)];
}

void tf_suffix(const lesson_t *L, uint64_t t, char *buf, int max)
{
    int c = 0;
    for (; c < max && t < L->x->n; c++, t++) buf[c] = (char)tf_sym(L, t);
    buf[c] = 0;
}

void tf_text_rows(lesson_t *L)
{
    const rv_index_t *x = L->x;
    int yp = tf_line(L, ST_TITLE, "position i"), yt = tf_line(L, ST_TITLE, "text T[i]");
    for (uint64_t i = 0; i < x->n; i++) {
        tf_put(L, yp, tf_col(L, i), ST_RULER, "%*llu", L->cw, (unsigned long long)i);
        int brk = x->seq->text[i] == RV_BREAK;
        tf_put(L, yt, tf_col(L, i), brk ? ST_BREAK : ST_NORMAL, "%*c", L->cw, tf_sym(L, i));
    }
}

int tf_answer(lesson_t *L, int k, const uint64_t *v, size_t n)
{
    free(L->ans[k]);
    L->ans[k] = malloc((n ? n : 1) * sizeof *v);
    if (!L->ans[k]) return -1;
    if (n) memcpy(L->ans[k], v, n * sizeof *v);
    L->n_ans[k] = n;
    return 0;
}

void tf_verdict(lesson_t *L, const char *what)
{
    teach_frame_t *f = cur(L);
    size_t k = strlen(f->caption);
    snprintf(f->caption + k, sizeof f->caption - k,
             L->agrees ? "%sChecked: the same answer as repview's engine (%s)."
                       : "%sMISMATCH with repview's engine (%s): a bug, please report it.",
             k ? " " : "", what);
}

void teach_frame_print(const lesson_t *L, int k, int width, FILE *out)
{
    const teach_frame_t *f = &L->f[k];
    for (int y = 0; y < f->n; y++) {
        int n = TEACH_W;
        while (n > 0 && f->line[y].text[n - 1] == ' ') n--;
        fprintf(out, "%.*s\n", n, f->line[y].text);
    }
    fputc('\n', out);
    /* the caption, wrapped at word boundaries */
    const char *s = f->caption;
    while (*s) {
        int n = (int)strlen(s);
        if (n > width) {
            n = width;
            while (n > 0 && s[n] != ' ') n--;
            if (n == 0) n = width;
        }
        fprintf(out, "%.*s\n", n, s);
        s += n;
        while (*s == ' ') s++;
    }
}
