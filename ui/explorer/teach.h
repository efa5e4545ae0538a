/* teach.h — teaching mode (`repview teach`, and T on the explorer's suffix-array
 * pane): the algorithms behind repview run step by step on a short string, each
 * step a frame drawn as a class would draw it on a board, with a caption.
 *
 * A lesson is built once, in memory, by a small instrumented re-run of the
 * algorithm (teach_sa.c, teach_lcp.c, ...) over the index the engine built for the
 * string; its final answer is kept in ans[] and compared with the engine's own
 * answer (SA, LCP, find, lr, pairs, runs), which the last caption reports and
 * tests/t_teach.c asserts.  The player (teach_play.c) shows the frames on the
 * explorer's drawing layer (draw.h), so the terminal, the scripted mode
 * (--keys ... --dump) and the plain-text frames of --frames DIR are one drawing.
 * Frames never rely on colour: every role also shows as a character ([ ], ^, >,
 * =, -, |) and styles map to bold/reverse/underline without colour (term.c). */
#ifndef REPVIEW_UI_TEACH_H
#define REPVIEW_UI_TEACH_H

#include "teach_frame.h"

/* The defaults: k 1, at -1 (picked), min_len 2, the normal layout. */
void teach_opts_init(teach_opts_t *o);

/* Topic by name ("sa", "lcp", "search", "lr", "pairs", "runs"), or -1. */
int teach_topic_parse(const char *name);
const char *teach_topic_name(teach_topic_t t);
const char *teach_topic_title(teach_topic_t t);

/* The longest string a lesson takes (TEACH_MAX_N or TEACH_MAX_N_LARGE). */
int teach_max_len(int large);

/* Build the lesson of topic on str[0, len) (alphabet as given or detected).
 * Returns 0, or -1 with a one-line reason in L->err (empty or too long string,
 * unknown letter of a pattern, out of memory). Free with teach_free. */
int teach_build(lesson_t *L, teach_topic_t topic, const char *str, size_t len, rv_alpha_t alpha,
                const teach_opts_t *o);
void teach_free(lesson_t *L);

#endif
