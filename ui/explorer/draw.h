/* draw.h — the explorer's thin drawing layer.  Views draw cells with a semantic
 * style; two back ends render them: curses (the terminal, styles mapped to colour
 * pairs and attributes by term.c) and an in-memory grid (scripted mode: the final
 * screen is printed as plain text, so colour never carries meaning on its own). */
#ifndef REPVIEW_UI_DRAW_H
#define REPVIEW_UI_DRAW_H

#include <stdio.h>

/* Every style, its legend text for the help overlay, and how it looks without
 * colour.  X(id, legend) */
#define RV_STYLES(X)                                              \
    X(ST_NORMAL, "plain text")                                    \
    X(ST_BAR, "title and status bars")                            \
    X(ST_RULER, "ruler and coordinates")                          \
    X(ST_BASE_A, "A")                                             \
    X(ST_BASE_C, "C")                                             \
    X(ST_BASE_G, "G")                                             \
    X(ST_BASE_T, "T")                                             \
    X(ST_LOWER, "lower case (soft-masked) sequence")              \
    X(ST_BREAK, "breakers (N, IUPAC, gaps) dimmed")               \
    X(ST_CURSOR, "the cursor (also marked > and v)")              \
    X(ST_SELECT, "visual selection")                              \
    X(ST_HIT, "search hits")                                      \
    X(ST_MARK, "copies of the selected pair, run or repeat")      \
    X(ST_TRACK, "LR length track")                                \
    X(ST_RUN, "LR track under a tandem repeat (tandem pane filters)") \
    X(ST_FEATURE, "annotation track feature")                    \
    X(ST_VARIANT, "variant of a VCF/BCF track")                   \
    X(ST_FEAT_SEL, "selected track feature")                      \
    X(ST_TITLE, "pane title")                                     \
    X(ST_FOCUS, "focused pane title")                             \
    X(ST_SELROW, "selected row in a pane")                        \
    X(ST_SHARED, "prefix shared with the row above (LCP)")        \
    X(ST_USEFUL, "useful LLR segment (=)")                        \
    X(ST_USELESS, "useless LLR segment (-)")                      \
    X(ST_ERROR, "errors")                                         \
    X(ST_DIM, "hints and secondary text")

typedef enum {
#define X(id, legend) id,
    RV_STYLES(X)
#undef X
    ST_COUNT
} style_t;

extern const char *const dr_style_legend[ST_COUNT];

/* Select a back end.  The grid back end keeps cols x rows cells in memory. */
void dr_use_grid(int cols, int rows);
void dr_use_curses(void);
int dr_is_grid(void);
/* Resize the grid (scripted `<resize:CxR>`); the curses size follows the terminal. */
void dr_grid_resize(int cols, int rows);
int dr_cols(void);
int dr_rows(void);
/* 1 when multi-byte glyphs may be drawn (curses on a UTF-8 terminal). */
int dr_unicode(void);

void dr_clear(void);
/* Draw at most maxw bytes of ASCII text s (maxw < 0: all); clipped at the edge.
 * Returns the column after the text. */
int dr_text(int y, int x, style_t st, const char *s, int maxw);
int dr_printf(int y, int x, style_t st, int maxw, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void dr_char(int y, int x, style_t st, int ch);
/* One cell holding a glyph: utf8 on a Unicode terminal, ascii otherwise. */
void dr_glyph(int y, int x, style_t st, const char *utf8, int ascii);
/* Fill w cells of row y from column x with ch. */
void dr_fill(int y, int x, int w, style_t st, int ch);
/* Restyle w cells without changing their characters. */
void dr_restyle(int y, int x, int w, style_t st);
/* Show the frame (curses: refresh; grid: nothing). */
void dr_flush(void);
/* Print the grid as plain text, trailing blanks trimmed (grid back end only). */
void dr_dump(FILE *out);
/* Character in the grid at (y, x) (tests and mouse hit-testing in scripts). */
int dr_grid_char(int y, int x);
/* Style of the grid cell at (y, x) (pictures of the screen, snapshot.c). */
int dr_grid_style(int y, int x);

/* curses attribute of each style: filled in by term.c */
extern int dr_attr[ST_COUNT];

#endif
