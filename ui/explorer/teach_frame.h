/* teach_frame.h — what a lesson of teaching mode is (teach.h) and how the topic
 * files (teach_sa.c, teach_lcp.c, ...) draw its frames: lines of text with a style
 * per cell and a caption, rows of cells under the text, the trace's answer.  The
 * topic files include only this header (teach.c, which calls them, sits above). */
#ifndef REPVIEW_UI_TEACH_FRAME_H
#define REPVIEW_UI_TEACH_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "draw.h"
#include "repview/index.h"

typedef enum { TOPIC_SA, TOPIC_LCP, TOPIC_SEARCH, TOPIC_LR, TOPIC_PAIRS, TOPIC_RUNS, N_TOPICS } teach_topic_t;

enum {
    TEACH_W = 160,        /* widest frame line */
    TEACH_MAX_N = 20,     /* longest string (symbols of the text) of the normal layout */
    TEACH_MAX_N_LARGE = 12 /* ... and of --large */
};

typedef struct {
    char text[TEACH_W + 1];
    unsigned char role[TEACH_W]; /* style_t per cell */
} teach_line_t;

typedef struct {
    teach_line_t *line;
    int n, cap;
    char caption[640];
} teach_frame_t;

/* What the lesson is about, besides the string. */
typedef struct {
    const char *pattern;  /* search: the pattern (NULL: picked from the text) */
    unsigned k;           /* search: mismatches of the branching search */
    int64_t at;           /* lr: text position whose LRs the walk lists (-1: picked) */
    uint64_t min_len;     /* pairs: shortest pair length */
    int large;            /* --large: fewer, wider cells */
} teach_opts_t;

typedef struct {
    teach_topic_t topic;
    rv_index_t *x;        /* the engine's index of the string (owned) */
    int cw;               /* cell width: 3, or 5 with --large */
    teach_opts_t o;
    teach_frame_t *f;
    int n, cap;
    /* the trace's final answer, per topic:
     *   sa     ans[0] = SA
     *   lcp    ans[0] = LCP by rank, ans[1] = PLCP by position
     *   search ans[0] = exact match positions, ans[1] = (pos, mismatches) pairs of
     *          the k-mismatch search, both in text order
     *   lr     ans[0] = L[i] (LLR lengths), ans[1] = LR length per position,
     *          ans[2] = starts of the LRs covering position o.at (or the one picked)
     *   pairs  ans[0] = (p1, p2, len) triples in (p1, p2) order
     *   runs   ans[0] = (start, end, period) triples in (start, period) order */
    uint64_t *ans[3];
    size_t n_ans[3];
    int agrees;           /* 1 when ans equals the engine's answer */
    char pattern[64];     /* search: the pattern used */
    char err[200];        /* teach_build failed: why */
} lesson_t;

/* ---- frames, for the topic files ---- */
void tf_new(lesson_t *L);                                  /* start the next frame */
int tf_line(lesson_t *L, style_t st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tf_put(lesson_t *L, int line, int col, style_t st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));                  /* text at a column */
void tf_style(lesson_t *L, int line, int col, int len, style_t st);
void tf_caption(lesson_t *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Column of cell i in a row of cells after the row label. */
int tf_col(const lesson_t *L, uint64_t i);
/* A row: label, then one value per text position (or rank). */
int tf_cells(lesson_t *L, const char *label, const uint64_t *v, uint64_t n, style_t st);
/* The text as a row of cells: positions, then symbols (breakers dimmed). */
void tf_text_rows(lesson_t *L);
/* The symbol shown for text position t (as typed; breakers as typed, e.g. N). */
int tf_sym(const lesson_t *L, uint64_t t);
/* Up to max symbols of the suffix at t into buf (NUL-terminated). */
void tf_suffix(const lesson_t *L, uint64_t t, char *buf, int max);
/* Store the answer slot k (copied). 0 or -1. */
int tf_answer(lesson_t *L, int k, const uint64_t *v, size_t n);
/* The last caption's sentence on the engine check. */
void tf_verdict(lesson_t *L, const char *what);

/* ---- the topics (one file each) ---- */
int teach_sa(lesson_t *L);
int teach_lcp(lesson_t *L);
int teach_search(lesson_t *L);
int teach_lr(lesson_t *L);
int teach_pairs(lesson_t *L);
int teach_runs(lesson_t *L);

/* Text of frame f as plain lines (caption wrapped at width) to out. */
void teach_frame_print(const lesson_t *L, int f, int width, FILE *out);

/* Free the frames and answers of L (not its index). */
void tf_free(lesson_t *L);

#endif
