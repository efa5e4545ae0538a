/* snapshot.c — `:screen NAME` (key P): the screen as it is, saved twice: NAME.txt
 * as plain text (what --dump prints) and NAME.svg drawn in the colours of the
 * theme (--theme; black and white with bold and underline under NO_COLOR or
 * --no-color).  The screen is drawn once more into the in-memory grid of
 * scripted mode (draw.h), which keeps a style per cell. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "term.h"

typedef struct { const char *fg, *bg; int bold, underline; } look_t;

/* The colours term.c gives each style on a dark terminal (xterm's palette). */
static look_t look_of(style_t st, int light, int color)
{
    const char *fg = light ? "#000000" : "#d0d0d0", *bg = light ? "#ffffff" : "#000000";
    look_t l = {fg, bg, 0, 0};
    switch (st) {
    case ST_BAR: l = light ? (look_t){"#ffffff", "#0000cd", 1, 0} : (look_t){"#000000", "#00cdcd", 0, 0}; break;
    case ST_RULER: l.fg = "#5c5cff"; break;
    case ST_BASE_A: l.fg = "#00cd00"; break;
    case ST_BASE_C: l.fg = "#00cdcd"; break;
    case ST_BASE_G: l.fg = light ? "#cd00cd" : "#cdcd00"; break;
    case ST_BASE_T: l.fg = "#cd0000"; break;
    case ST_LOWER: l.fg = "#cd00cd"; break;
    case ST_BREAK: case ST_USELESS: case ST_DIM: l.fg = light ? "#7f7f7f" : "#7f7f7f"; break;
    case ST_CURSOR: l = (look_t){bg, fg, 1, 0}; break;
    case ST_SELECT: l = (look_t){light ? "#ffffff" : "#000000", "#cd00cd", 0, 0}; break;
    case ST_HIT: l = (look_t){"#000000", "#cdcd00", 1, light}; break;
    case ST_MARK: l = (look_t){"#000000", "#00cd00", 1, 0}; break;
    case ST_TRACK: l.fg = "#00cdcd"; break;
    case ST_RUN: l.fg = "#cd00cd"; l.underline = 1; break;
    case ST_TITLE: l.bold = 1; break;
    case ST_FOCUS: l = (look_t){bg, fg, 1, 0}; break;
    case ST_SELROW: l = (look_t){bg, fg, 0, 0}; break;
    case ST_SHARED: l = light ? (look_t){"#0000ee", bg, 1, 1} : (look_t){"#cdcd00", bg, 1, 0}; break;
    case ST_USEFUL: l.fg = "#00cd00"; l.bold = 1; break;
    case ST_ERROR: l.fg = "#cd0000"; l.bold = 1; break;
    default: break;
    }
    if (!color) { /* the attributes of term_plain_styles() */
        int rev = st == ST_BAR || st == ST_CURSOR || st == ST_FOCUS || st == ST_SELROW;
        l = (look_t){rev ? "#ffffff" : "#000000", rev ? "#000000" : "#ffffff", l.bold, l.underline};
        if (st == ST_HIT || st == ST_MARK) l.bold = l.underline = 1;
        if (st == ST_SELECT || st == ST_RUN) l.underline = 1;
        if (st == ST_USEFUL || st == ST_SHARED) l.bold = 1;
    }
    return l;
}

static void put_escaped(FILE *f, int c)
{
    if (c == '&') fputs("&amp;", f);
    else if (c == '<') fputs("&lt;", f);
    else if (c == '>') fputs("&gt;", f);
    else fputc(c, f);
}

/* The grid as SVG: one rectangle per run of a background colour, one text
 * element per run of a style. */
static void write_svg(FILE *f, int light, int color)
{
    enum { CW = 9, CH = 18, FS = 15 };
    int cols = dr_cols(), rows = dr_rows();
    look_t base = look_of(ST_NORMAL, light, color);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"%d\">\n", cols * CW, rows * CH, FS);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n", base.bg);
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols;) {
            style_t st = (style_t)dr_grid_style(y, x);
            int e = x + 1;
            while (e < cols && dr_grid_style(y, e) == (int)st) e++;
            look_t l = look_of(st, light, color);
            if (strcmp(l.bg, base.bg))
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x * CW, y * CH, (e - x) * CW, CH, l.bg);
            int last = e;
            while (last > x && dr_grid_char(y, last - 1) == ' ') last--;
            if (last > x) {
                fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\"%s%s xml:space=\"preserve\" textLength=\"%d\">", x * CW,
                        y * CH + CH - 5, l.fg, l.bold ? " font-weight=\"bold\"" : "",
                        l.underline ? " text-decoration=\"underline\"" : "", (last - x) * CW);
                for (int k = x; k < last; k++) put_escaped(f, dr_grid_char(y, k));
                fputs("</text>\n", f);
            }
            x = e;
        }
    }
    fputs("</svg>\n", f);
}

static int save(const char *path, int svg, int light, int color)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    if (svg) write_svg(f, light, color);
    else dr_dump(f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return -1;
    return 0;
}

int screen_save_command(app_t *a, const char *args)
{
    if (!args[0]) { app_message(a, 1, "screen: which name? (:screen NAME writes NAME.txt and NAME.svg)"); return -1; }
    char base[1024], txt[1100], svg[1100];
    const char *home = getenv("HOME");
    if (args[0] == '~' && args[1] == '/' && home) snprintf(base, sizeof base, "%s%s", home, args + 1);
    else snprintf(base, sizeof base, "%s", args);
    size_t l = strlen(base);
    if (l > 4 && (!strcmp(base + l - 4, ".txt") || !strcmp(base + l - 4, ".svg"))) base[l - 4] = 0;
    snprintf(txt, sizeof txt, "%s.txt", base);
    snprintf(svg, sizeof svg, "%s.svg", base);
    int grid = dr_is_grid();
    if (!grid) dr_use_grid(dr_cols(), dr_rows()); /* the terminal's screen, drawn once more in cells */
    screen_draw(a);
    int rc = save(txt, 0, term_light(), term_color()) < 0 || save(svg, 1, term_light(), term_color()) < 0 ? -1 : 0;
    int err = errno;
    if (!grid) dr_use_curses();
    if (rc < 0) app_message(a, 1, "screen: %s: %s", base, strerror(err));
    else app_message(a, 0, "saved the screen to %s and %s", txt, svg);
    return rc;
}
