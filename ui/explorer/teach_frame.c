/* teach_frame.c — the frames of a lesson (teach_frame.h) and their plain-text form. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "teach_frame.h"

void tf_free(lesson_t *L)
{
    for (int i = 0; i < L->n; i++) free(L->f[i].line);
    free(L->f);
    for (int k = 0; k < 3; k++) free(L->ans[k]);
    L->f = NULL;
    L->n = L->cap = 0;
    memset(L->ans, 0, sizeof L->ans);
}

static teach_frame_t *cur(lesson_t *L) { return &L->f[L->n - 1]; }

/* Room for one more of n elements of size bytes in *v (capacity *cap).  A lesson
 * takes a few megabytes at most: out of memory here ends the process. */
static void room(void **v, int n, int *cap, size_t size)
{
    if (n < *cap) return;
    int c = *cap ? 2 * *cap : 32;
    void *p = realloc(*v, (size_t)c * size);
    if (!p) { fprintf(stderr, "repview: teach: out of memory\n"); exit(1); }
    *v = p;
    *cap = c;
}

void tf_new(lesson_t *L)
{
    room((void **)&L->f, L->n, &L->cap, sizeof *L->f);
    memset(&L->f[L->n++], 0, sizeof *L->f);
}

static teach_line_t *line_at(lesson_t *L, int y)
{
    teach_frame_t *f = cur(L);
    while (f->n <= y) {
        room((void **)&f->line, f->n, &f->cap, sizeof *f->line);
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
