/* teach.c — a lesson (teach.h): the engine's index of the string, then the topic's
 * trace (the topic files draw its frames through teach_frame.c). */
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
    tf_free(L);
    rv_index_free(L->x);
    memset(L, 0, sizeof *L);
}

