/* hitvec.h — a growing array of rv_hit_t for the oracle tests of find (t_find.c,
 * t_fm.c). */
#ifndef REPVIEW_TESTS_HITVEC_H
#define REPVIEW_TESTS_HITVEC_H

#include <stdlib.h>
#include "repview/find.h"

typedef struct {
    rv_hit_t *h;
    size_t n, cap;
} hitvec_t;

static void push(hitvec_t *v, rv_hit_t h)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        v->h = realloc(v->h, v->cap * sizeof *v->h);
    }
    v->h[v->n++] = h;
}

#endif
