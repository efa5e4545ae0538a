/* index_alloc.c — allocation, derived sections and sizes of an rv_index_t. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "repview/common.h"
#include "repview/index.h"
#include "base/internal.h"

rv_index_t *rv_index_alloc(rv_seq_t *seq, int force_wide)
{
    rv_index_t *x = calloc(1, sizeof *x);
    if (!x) { rv_oom("index", sizeof *x); return NULL; }
    x->seq = seq;
    x->n = seq->n;
    x->wide = force_wide || seq->n >= (1ull << 32);
    size_t w = x->wide ? 8 : 4, bytes = (size_t)(x->n ? x->n : 1) * w;
    x->sa = malloc(bytes);
    x->isa = malloc(bytes);
    if (!x->sa || !x->isa) {
        x->seq = NULL;
        rv_index_free(x);
        rv_oom("suffix array and its inverse", 2 * (uint64_t)bytes);
        return NULL;
    }
    return x;
}

void rv_index_free(rv_index_t *x)
{
    if (!x) return;
    for (int i = 0; i < RV_SEC_MAX; i++)
        if (x->ext[i].owned) free(x->ext[i].ptr);
    if (!x->map) {
        free(x->sa);
        free(x->isa);
    } else {
        free(x->isa_owned);
        free(x->sa_owned);
    }
    rv_seq_free(x->seq);
    if (x->map) munmap(x->map, x->map_len);
    if (x->rvx && x->rvx_free) x->rvx_free(x->rvx);
    rv_index_free(x->parent);
    free(x);
}

void rv_index_attach(rv_index_t *x, int id, void *ptr, uint64_t bytes)
{
    if (id < 0 || id >= RV_SEC_MAX) return;
    if (x->ext[id].owned) free(x->ext[id].ptr);
    /* the pointer last: a thread that sees it in rv_index_section() sees its size (the
     * explorer's panes read while its verification derives LLRc, rvx.c) */
    __atomic_store_n(&x->ext[id].ptr, NULL, __ATOMIC_RELAXED);
    x->ext[id].bytes = bytes;
    x->ext[id].owned = 1;
    __atomic_store_n(&x->ext[id].ptr, ptr, __ATOMIC_RELEASE);
}

const void *rv_index_section(const rv_index_t *x, int id, uint64_t *bytes)
{
    void *p = id >= 0 && id < RV_SEC_MAX ? __atomic_load_n(&x->ext[id].ptr, __ATOMIC_ACQUIRE) : NULL;
    if (!p) return NULL;
    if (bytes) *bytes = x->ext[id].bytes;
    return p;
}

int rv_index_bind_lcp(rv_index_t *x)
{
    const rv_section_t *s = &x->ext[RV_SEC_LCP], *b = &x->ext[RV_SEC_LCP_BIG];
    if (rv_narrow_view(&x->lcp, s->ptr, s->bytes, b->ptr, b->bytes, x->n, x->wide) < 0)
        return rv_error("index", "the LCP sections do not fit the index");
    return 0;
}

int rv_index_set_lcp(rv_index_t *x, uint8_t *small, void *big, uint64_t big_bytes)
{
    rv_index_attach(x, RV_SEC_LCP, small, x->n);
    rv_index_attach(x, RV_SEC_LCP_BIG, big, big_bytes);
    return rv_index_bind_lcp(x);
}

char *rv_index_path_for(const char *input)
{
    size_t l = strlen(input);
    char *p = malloc(l + 5);
    if (p) { memcpy(p, input, l); memcpy(p + l, ".rvx", 5); }
    return p;
}

uint64_t rv_index_bytes(const rv_index_t *x)
{
    uint64_t b = 2 * x->n * (x->wide ? 8 : 4) + x->seq->glen + x->n;
    for (int i = 0; i < RV_SEC_MAX; i++) b += x->ext[i].bytes;
    if (x->parent) b += 2 * x->parent->n * (x->parent->wide ? 8 : 4) + x->parent->n;
    return b;
}
