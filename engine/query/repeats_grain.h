/* repeats_grain.h — rv_repeats_each (repeats.h) with a chosen work unit, so that
 * the tests can cut tiny inputs into many units (repeats_tree.c). */
#ifndef REPVIEW_ENGINE_REPEATS_GRAIN_H
#define REPVIEW_ENGINE_REPEATS_GRAIN_H

#include "repview/repeats.h"

/* rv_repeats_each with work units of at least `grain` suffix-array ranks (4096 in
 * rv_repeats_each). */
int rv_repeats_each_grain(const rv_index_t *x, uint64_t min_len, int supermax, int threads, uint64_t grain,
                          rv_repeat_fn fn, void *ud);

#endif
