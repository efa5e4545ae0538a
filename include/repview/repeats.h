/* repeats.h — repeat families with their occurrence lists, read off the
 * LCP-interval tree of the index (repview-repeats(1); Abouelhoda, Kurtz &
 * Ohlebusch, "Replacing suffix trees with enhanced suffix arrays", §5 on maximal
 * and supermaximal repeats; vmatch -supermax; tallymer for w-mers).
 *
 * Definitions (text positions; breakers never match, themselves included):
 *   - a maximal repeat of length L is a breaker-free string w with at least two
 *     occurrences that is right-maximal (not every occurrence is followed by the
 *     same symbol) and left-maximal (not every occurrence is preceded by the same
 *     symbol; a breaker or the text start before an occurrence differs from
 *     everything).  In the index it is an LCP interval [lb, rb] of lcp value L
 *     whose suffixes do not all share one left symbol; its occurrences are
 *     SA[lb..rb].
 *   - a supermaximal repeat is a maximal repeat that is a substring of no other
 *     maximal repeat: an LCP interval with no child interval (each suffix ends
 *     in its own leaf) whose left symbols are pairwise different (breakers and
 *     the text start are different from each other too).
 *   - a w-mer of count c is a breaker-free string of length w with exactly c
 *     occurrences: a maximal run of ranks whose adjacent LCPs are all >= w.
 *
 * The traversals run on the CPU over the index's SA and LCP (built on the GPU
 * when one was used).  Errors: negative return, message through rv_last_error().
 */
#ifndef REPVIEW_REPEATS_H
#define REPVIEW_REPEATS_H

#include <stdint.h>
#include "repview/index.h"

typedef struct {
    uint64_t len;        /* length of every occurrence (w for a w-mer) */
    uint64_t count;      /* number of occurrences */
    const uint64_t *pos; /* the count text positions, ascending (NULL when the
                            caller asked for counts only) */
    uint64_t rank;       /* first suffix-array rank of the interval: the text of
                            the repeat is text[SA[rank], SA[rank] + len) */
} rv_repeat_t;

/* Called once per repeat, from the calling thread; pos is valid during the call
 * only.  Return 0 to go on, anything else to stop (the value is returned). */
typedef int (*rv_repeat_fn)(void *ud, const rv_repeat_t *r);

/* Every maximal repeat (supermax = 0) or every supermaximal repeat (supermax =
 * 1) of length >= min_len (>= 1), ordered by the first occurrence, then longer
 * first, the same for every thread count (threads: the walk's CPU threads, 0 =
 * all; fn is called from the calling thread).  Memory: 32 bytes per repeat plus
 * the largest occurrence list.  0, or -1 with a message, or fn's non-zero value. */
int rv_repeats_each(const rv_index_t *x, uint64_t min_len, int supermax, int threads, rv_repeat_fn fn, void *ud);

/* Every w-mer (w >= 1) with at least min_count (>= 1) occurrences, in the
 * lexicographic order of the w-mers (the alphabet's code order).  With_pos = 0
 * leaves r->pos NULL (no sorting: counts only).  On an index of both strands the
 * occurrences are those of the doubled text (a w-mer and its reverse complement
 * have the same count).  0, or -1 with a message, or fn's non-zero value. */
int rv_wmers_each(const rv_index_t *x, uint64_t w, uint64_t min_count, int with_pos, rv_repeat_fn fn,
                  void *ud);

/* ---- the repeat families over one position (the explorer's pane) ---- */

typedef struct {
    uint64_t len, count; /* length and number of occurrences */
    uint64_t here;       /* text start of an occurrence covering the position */
    uint64_t next;       /* the first occurrence after `here` in text order (the
                            first of all after the last one) */
    uint64_t rank;       /* first suffix-array rank of its interval */
} rv_family_t;

typedef struct {
    rv_family_t *v;
    size_t n;
    int complete; /* 0: max_work ran out, the list may lack some */
} rv_families_t;

/* Every maximal repeat of length >= min_len with an occurrence covering text
 * position t (each once, with one such occurrence), longest first, then by rank.
 * The suffixes starting at t, t - 1, ... are climbed up their LCP intervals while
 * a repeat from there can still reach t; max_work (suffix-array rows read, 0 =
 * no bound) keeps the answer quick on huge families.  Free with
 * rv_families_free().  0, or -1 with a message. */
int rv_repeats_covering(const rv_index_t *x, uint64_t min_len, uint64_t t, uint64_t max_work,
                        rv_families_t *out);
void rv_families_free(rv_families_t *f);

#endif
