/* track_index.h — the interval index of a track held in memory (track_index.c):
 * intervals sorted by record and start, with the running maximum of their ends,
 * so that the intervals overlapping a window are found by one binary search and a
 * backward scan that stops where no earlier interval can reach the window. */
#ifndef REPVIEW_TRACK_INDEX_H
#define REPVIEW_TRACK_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t rid;
    uint64_t beg, end; /* [beg, end); an empty one (beg == end) stands for [beg, beg + 1) */
} track_iv_t;

typedef struct {
    const track_iv_t *iv; /* sorted by (rid, beg), owned by the caller */
    uint64_t *max_end;    /* max_end[i]: largest end of iv[j], j <= i, same rid */
    size_t n;
} track_index_t;

/* Index n intervals sorted by (rid, beg): 0, or -1 without memory. */
int track_index_build(track_index_t *x, const track_iv_t *iv, size_t n);
void track_index_free(track_index_t *x);

/* Positions of the intervals of record rid overlapping [beg, end), ascending,
 * into *buf (grown with realloc; *cap entries).  Returns their number, or
 * (size_t)-1 without memory. */
size_t track_index_query(const track_index_t *x, uint32_t rid, uint64_t beg, uint64_t end, size_t **buf,
                         size_t *cap);

/* First position whose (rid, beg) is at least (rid, beg); n when none. */
size_t track_index_lower(const track_index_t *x, uint32_t rid, uint64_t beg);

#endif
