/* draw.c — the two back ends of the drawing layer (draw.h): curses and an
 * in-memory grid of cells for scripted mode.  The grid stores one byte per cell;
 * glyphs drawn on it are ASCII so dumps are plain text. */
#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "draw.h"

const char *const dr_style_legend[ST_COUNT] = {
#define X(id, legend) legend,
    RV_STYLES(X)
#undef X
};

int dr_attr[ST_COUNT];

static struct {
    int grid; /* 1: grid back end */
    int cols, rows;
    char *cell;
    unsigned char *style;
    int unicode;
} D;

void dr_use_grid(int cols, int rows)
{
    D.grid = 1;
    D.unicode = 0;
    dr_grid_resize(cols, rows);
}

void dr_use_curses(void)
{
    D.grid = 0;
    const char *cs = getenv("LC_ALL");
    if (!cs || !*cs) cs = getenv("LC_CTYPE");
    if (!cs || !*cs) cs = getenv("LANG");
    const char *term = getenv("TERM");
    D.unicode = cs && (strstr(cs, "UTF-8") || strstr(cs, "utf8") || strstr(cs, "UTF8")) &&
                !(term && strcmp(term, "dumb") == 0);
}

int dr_is_grid(void) { return D.grid; }
int dr_unicode(void) { return D.unicode; }

void dr_grid_resize(int cols, int rows)
{
    if (cols < 1) cols = 1;
    if (rows < 1) rows = 1;
    free(D.cell);
    free(D.style);
    D.cols = cols;
    D.rows = rows;
    D.cell = malloc((size_t)cols * rows);
    D.style = malloc((size_t)cols * rows);
    dr_clear();
}

int dr_cols(void) { return D.grid ? D.cols : COLS; }
int dr_rows(void) { return D.grid ? D.rows : LINES; }

void dr_clear(void)
{
    if (D.grid) {
        memset(D.cell, ' ', (size_t)D.cols * D.rows);
        memset(D.style, ST_NORMAL, (size_t)D.cols * D.rows);
    } else {
        erase();
    }
}

static int inside(int y, int x) { return y >= 0 && x >= 0 && y < dr_rows() && x < dr_cols(); }

void dr_char(int y, int x, style_t st, int ch)
{
    if (!inside(y, x)) return;
    if (ch < 32 || ch > 126) ch = '?';
    if (D.grid) {
        D.cell[(size_t)y * D.cols + x] = (char)ch;
        D.style[(size_t)y * D.cols + x] = (unsigned char)st;
    } else {
        mvaddch(y, x, (chtype)ch | (chtype)dr_attr[st]);
    }
}

void dr_glyph(int y, int x, style_t st, const char *utf8, int ascii)
{
    if (D.grid || !D.unicode || !utf8) { dr_char(y, x, st, ascii); return; }
    if (!inside(y, x)) return;
    attrset(dr_attr[st]);
    mvaddstr(y, x, utf8);
    attrset(A_NORMAL);
}

int dr_text(int y, int x, style_t st, const char *s, int maxw)
{
    int n = (int)strlen(s);
    if (maxw >= 0 && n > maxw) n = maxw;
    if (x + n > dr_cols()) n = dr_cols() - x;
    if (y < 0 || y >= dr_rows() || n <= 0) return x + (n > 0 ? n : 0);
    if (D.grid) {
        for (int i = 0; i < n; i++) dr_char(y, x + i, st, (unsigned char)s[i]);
    } else {
        attrset(dr_attr[st]);
        mvaddnstr(y, x, s, n);
        attrset(A_NORMAL);
    }
    return x + n;
}

int dr_printf(int y, int x, style_t st, int maxw, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return dr_text(y, x, st, buf, maxw);
}

void dr_fill(int y, int x, int w, style_t st, int ch)
{
    for (int i = 0; i < w; i++) dr_char(y, x + i, st, ch);
}

void dr_restyle(int y, int x, int w, style_t st)
{
    for (int i = 0; i < w; i++) {
        if (!inside(y, x + i)) continue;
        if (D.grid) {
            D.style[(size_t)y * D.cols + x + i] = (unsigned char)st;
        } else {
            chtype c = mvinch(y, x + i);
            mvaddch(y, x + i, (c & A_CHARTEXT) | (chtype)dr_attr[st]);
        }
    }
}

void dr_flush(void)
{
    if (!D.grid) refresh();
}

void dr_dump(FILE *out)
{
    if (!D.grid) return;
    /* REPVIEW_DUMP_MARKS=1 (tests): cells drawn as marked copies print as '#', so a
     * plain-text dump can show what only an attribute shows on a terminal */
    const char *m = getenv("REPVIEW_DUMP_MARKS");
    int marks = m && *m == '1';
    char line[4096];
    for (int y = 0; y < D.rows; y++) {
        const char *row = D.cell + (size_t)y * D.cols;
        if (marks && D.cols <= (int)sizeof line) {
            memcpy(line, row, (size_t)D.cols);
            for (int x = 0; x < D.cols; x++)
                if (D.style[(size_t)y * D.cols + x] == ST_MARK) line[x] = '#';
                else if (D.style[(size_t)y * D.cols + x] == ST_RUN) line[x] = '~';
            row = line;
        }
        int n = D.cols;
        while (n > 0 && row[n - 1] == ' ') n--;
        fwrite(row, 1, (size_t)n, out);
        fputc('\n', out);
    }
}

int dr_grid_char(int y, int x)
{
    return D.grid && inside(y, x) ? D.cell[(size_t)y * D.cols + x] : ' ';
}

int dr_grid_style(int y, int x)
{
    return D.grid && inside(y, x) ? D.style[(size_t)y * D.cols + x] : ST_NORMAL;
}
