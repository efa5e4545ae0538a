/* index.h — the suffix-array index of an rv_seq_t and its .rvx file.
 *
 * Arrays are over the internal text (rv_seq_t.text, length n):
 *   SA[r]  start of the r-th smallest suffix (0-based rank r)
 *   ISA[i] rank of the suffix starting at i
 *   LCP[r] = lcp(SA[r-1], SA[r]) stopping at breakers, LCP[0] = 0
 * SA and ISA are 32-bit when n < 2^32 and 64-bit otherwise (`wide`); read them
 * through rv_sa()/rv_isa() or branch once on `wide` in hot loops.  LCP is kept in one
 * byte per rank with a table of the values >= 255 (narrow.h): read it with rv_lcp().
 *
 * Other modules attach derived arrays (LLR, LLRc, runs, ...) as numbered sections;
 * the .rvx file stores the sections that cost more to recompute than to read (not
 * ISA, not LLRc; the text, the sequence, the runs and a wide SA in compact forms:
 * rvx.c).
 */
#ifndef REPVIEW_INDEX_H
#define REPVIEW_INDEX_H

#include <stdint.h>
#include <stddef.h>
#include "repview/narrow.h"
#include "repview/seq.h"

/* Section ids of the .rvx file.  Never renumber: they are on disk. */
enum {
    RV_SEC_RECORDS = 1, RV_SEC_SEGMENTS = 2, RV_SEC_RAW = 3, RV_SEC_TEXT = 4,
    RV_SEC_SA = 5, RV_SEC_ISA = 6,
    RV_SEC_LCP = 7, RV_SEC_LCP_BIG = 8,         /* narrow.h: small and big parts */
    RV_SEC_STRANDS = 9,                         /* both strands: uint64_t nf (seq.h) */
    RV_SEC_TEXT2 = 10, RV_SEC_RAWX = 11,        /* file forms of TEXT and RAW (DNA) */
    RV_SEC_SA40 = 12,                           /* file form of a wide SA below 2^40 */
    RV_SEC_LLR = 16, RV_SEC_LLRC = 17, RV_SEC_LLR_BIG = 18, /* longest repeats (lr.h) */
    RV_SEC_RUNS = 24,                           /* tandem runs (tandem.h) */
    RV_SEC_RUNZ = 25,                           /* file form of RUNS */
    RV_SEC_LEFTDIV = 32,                        /* maximal pairs (pairs.h) */
    RV_SEC_MAX = 64
};

typedef struct {
    void *ptr;      /* section bytes (owned unless it points into the mapping) */
    uint64_t bytes;
    int owned;
} rv_section_t;

typedef struct rv_index {
    rv_seq_t *seq;   /* owned */
    uint64_t n;      /* == seq->n */
    int wide;        /* 0: uint32_t arrays, 1: uint64_t arrays */
    void *sa, *isa;
    rv_narrow_t lcp;              /* view of sections RV_SEC_LCP and RV_SEC_LCP_BIG */
    rv_section_t ext[RV_SEC_MAX]; /* LCP and derived arrays by section id */
    char backend[96];             /* what built it: "CPU, 2 threads", GPU name, "file" */
    double stage_s[12];           /* seconds spent per rv_stage_t by the build (0 = not run) */
    char note[256];               /* non-fatal remark for the user (GPU fallback), or "" */
    void *map;                    /* mmap of the .rvx, or NULL */
    void *isa_owned;              /* ISA rebuilt when a file without it was mapped, or NULL */
    void *sa_owned;               /* SA expanded from a mapped file's SA40, or NULL */
    /* ISA[i] while a file without ISA is mapped and ISA is not rebuilt yet: a binary
     * search over SA (rvx.c sets it), for the few ranks a first screen reads */
    uint64_t (*isa_slow)(const struct rv_index *x, uint64_t i);
    size_t map_len;
    struct rv_rvx_state *rvx;     /* what of the mapping is verified (rvx.c), or NULL */
    void (*rvx_free)(struct rv_rvx_state *v); /* its destructor (rvx.c sets both) */
    struct rv_index *parent;      /* a forward view's both-strand index (owned), or NULL */
} rv_index_t;

/* SA and ISA values are clamped into [0, n): a mapped section may be read before its
 * verification ends (rvx.c), and a damaged value must not lead a read outside the
 * arrays.  Intact values pass unchanged; the compare costs nothing measurable. */
static inline uint64_t rv_sa(const rv_index_t *x, uint64_t r)
{
    uint64_t v = rv_get(x->sa, x->wide, r);
    return v < x->n ? v : x->n - 1;
}
static inline uint64_t rv_isa(const rv_index_t *x, uint64_t i)
{
    const void *isa = __atomic_load_n(&x->isa, __ATOMIC_ACQUIRE); /* rv_index_derive publishes it */
    if (__builtin_expect(isa == NULL, 0)) return x->isa_slow(x, i);
    uint64_t v = rv_get(isa, x->wide, i);
    return v < x->n ? v : x->n - 1;
}
static inline uint64_t rv_lcp(const rv_index_t *x, uint64_t r)
{
    uint64_t v = rv_narrow_get(&x->lcp, r); /* a length: clamped like SA values */
    return v < x->n ? v : x->n;
}

/* Allocate an empty index for seq (takes ownership of seq): SA and ISA uninitialised,
 * no LCP yet (rv_index_set_lcp).
 * force_wide = 1 uses 64-bit arrays even for small n (tests of the 64-bit path). */
rv_index_t *rv_index_alloc(rv_seq_t *seq, int force_wide);
void rv_index_free(rv_index_t *x);

/* Attach a derived array; the index takes ownership of ptr (free()d). Replaces any
 * previous section with the same id. */
void rv_index_attach(rv_index_t *x, int id, void *ptr, uint64_t bytes);
/* A derived array or NULL (bytes set when non-NULL). */
const void *rv_index_section(const rv_index_t *x, int id, uint64_t *bytes);

/* Attach the two parts of the narrow LCP (the index owns them) and bind x->lcp.
 * 0, or -1 with a message when they do not fit together. */
int rv_index_set_lcp(rv_index_t *x, uint8_t *small, void *big, uint64_t big_bytes);
/* Bind x->lcp to the LCP sections already attached (after loading).  0 or -1. */
int rv_index_bind_lcp(rv_index_t *x);

/* Default index path for an input: "FILE.rvx". Caller frees. */
char *rv_index_path_for(const char *input);

/* Write the index to path atomically (temporary file + rename): a writer that is
 * handed every section at once.  0 or -1. */
int rv_index_save(const rv_index_t *x, const char *path);

/* Section masks: bit id for section id. */
#define RV_SEC_BIT(id) (1ull << (id))
#define RV_SEC_SEQ_MASK (RV_SEC_BIT(RV_SEC_RECORDS) | RV_SEC_BIT(RV_SEC_SEGMENTS) | \
                         RV_SEC_BIT(RV_SEC_RAW) | RV_SEC_BIT(RV_SEC_TEXT) | RV_SEC_BIT(RV_SEC_STRANDS))
#define RV_SEC_CORE_MASK (RV_SEC_BIT(RV_SEC_SA) | RV_SEC_BIT(RV_SEC_ISA) | \
                          RV_SEC_BIT(RV_SEC_LCP) | RV_SEC_BIT(RV_SEC_LCP_BIG))
#define RV_SEC_ALL_MASK (~0ull)

/* Incremental writing of a .rvx (rvx_write.c): sections are queued as they become
 * final and written by writer threads while the caller goes on (one thread calls
 * the functions below for a writer); the caller keeps
 * each ptr alive and unchanged until finish or abort.  Nothing appears at path
 * until rv_rvx_writer_finish() succeeds (temporary file, then rename). */
typedef struct rv_rvx_writer rv_rvx_writer_t;
/* Remove what writers of path killed outright left beside it (PATH.tmp.PID.N,
 * PATH.saving.PID.N): those whose process is gone and whose lock nobody holds
 * (leftovers.c says why both).  Every writer of path and every rv_index_load() of
 * it does this first. */
void rv_rvx_sweep_leftovers(const char *path);
/* Mark the file or directory open at fd as a live writer's, so that no sweep
 * removes it: 0, or -1 when a sweep removed it first (make another). */
int rv_rvx_claim(int fd);
/* Remove a private directory of a save and whatever is in it (keep_save.c). */
void rv_rvx_remove_dir(const char *dir);

/* Open a writer for path (threads = writer threads, 0 = default).  NULL + message. */
rv_rvx_writer_t *rv_rvx_writer_open(const char *path, int threads);
/* Queue one section (id in 1..RV_SEC_MAX-1, each at most once; bytes may be 0). */
int rv_rvx_writer_add(rv_rvx_writer_t *w, int id, const void *ptr, uint64_t bytes);
/* Queue the sections of x in mask not queued yet and take the header fields from
 * x (needed once before finish).  Missing optional sections are skipped. */
int rv_rvx_writer_add_index(rv_rvx_writer_t *w, const rv_index_t *x, uint64_t mask);
/* The bits of mask whose memory the writer no longer reads: sections in the file or
 * never handed over, the text and the sequence of DNA once their file forms are made,
 * the SA of a wide index once its SA40 form (made from it block by block) is written.
 * With wait, first wait until the queued sections of mask are in the file.  For a
 * caller that wants the file, not the index (rv_build_opts_t.release). */
uint64_t rv_rvx_writer_release(rv_rvx_writer_t *w, uint64_t mask, int wait);
/* Wait for the queued sections, write hashes, table and header, then rename.
 * 0, or -1 with a message (the temporary file is removed).  Frees w. */
int rv_rvx_writer_finish(rv_rvx_writer_t *w);
/* Stop writing (in-flight blocks are waited for): no section pointer is read after
 * it returns, and finish will fail.  For a build that frees its arrays on failure. */
void rv_rvx_writer_stop(rv_rvx_writer_t *w);
/* Drop everything written so far (no file is left).  Frees w; NULL is ignored. */
void rv_rvx_writer_abort(rv_rvx_writer_t *w);
/* The temporary file being written (for a signal handler that must remove it). */
const char *rv_rvx_writer_tmp(const rv_rvx_writer_t *w);

/* Why an index file was not used (for the one-line report). */
typedef enum {
    RV_RVX_OK = 0, RV_RVX_MISSING, RV_RVX_STALE, RV_RVX_TRUNCATED, RV_RVX_CORRUPT,
    RV_RVX_FOREIGN, RV_RVX_VERSION, RV_RVX_IOERR
} rv_rvx_status_t;

/* Map an index file.  When input is non-NULL the file must match the input's
 * fingerprint (rv_file_matches()).  On success *out is set and RV_RVX_OK returned;
 * otherwise the reason, with a message through rv_error(). */
rv_rvx_status_t rv_index_load(const char *path, const char *input, rv_index_t **out);
/* rv_index_load() with flags.  RV_LOAD_SEQ_LATER: a file holding the compact text
 * and sequence (format 5, DNA) leaves them unexpanded (seq->text and seq->raw NULL)
 * for a command that reads the text at a few places through rv_index_lce(). */
enum { RV_LOAD_SEQ_LATER = 1 };
rv_rvx_status_t rv_index_load_flags(const char *path, const char *input, int flags, rv_index_t **out);
/* The longest common extension of text positions i and j (stopping at breakers),
 * from the expanded text or, when it was left unexpanded, the file's compact text. */
uint64_t rv_index_lce(const rv_index_t *x, uint64_t i, uint64_t j);

/* Rebuild what a file of format 5 leaves out and mask names (RV_SEC_ISA from SA,
 * RV_SEC_LLRC from LLR, RV_SEC_RUNS from their file form), once, on `threads`
 * threads (0 = all); a no-op for what x has.  Every verification below calls it with
 * its mask first, so a command that verifies what it reads has it; rv_isa() calls it
 * for ISA when nothing did.  0, or -1 with a message. */
int rv_index_derive(rv_index_t *x, uint64_t mask, int threads);
/* Verify the sections in mask of an index loaded from a file that are not verified
 * yet: their block hashes in parallel (threads, 0 = all), then the content checks of
 * the sections that need them.  An index built in memory always passes.  0, or -1
 * with "corrupt index (checksum mismatch ...)"; the file is then refused by every
 * later rv_index_load() in this process, so that rv_open() rebuilds it. */
int rv_index_verify(rv_index_t *x, uint64_t mask, int threads);
/* Verify the blocks of section id covering bytes [off, off + len) that are not
 * verified yet (serially: for a command that reads a few rows of a huge section).
 * 0, or -1 as rv_index_verify().  No content checks: for SA, ISA, LCP, text, raw. */
int rv_index_verify_part(rv_index_t *x, int id, uint64_t off, uint64_t len);
/* Verify the blocks that a view of global position g reads first (the explorer's
 * first screen), on `threads` threads (0 = all): the sequence, text, ISA and LLR
 * around g, SA and LCP around its rank, the LLRc entries (when the file holds them)
 * and runs starting near it, and the escape tables when small.  The runs are
 * unpacked first; LLRc is left to rv_index_verify().  Proportional to a few blocks whatever the size
 * of the index; the other blocks are left to rv_index_verify().  0, or -1 as
 * rv_index_verify() (the file is then refused by later loads). */
int rv_index_verify_near(rv_index_t *x, uint64_t g, int threads);
/* Progress of verification so far, in bytes (for a status bar); both 0 when there
 * is nothing to verify. */
void rv_index_verify_progress(const rv_index_t *x, uint64_t *done, uint64_t *total);
/* Ask a running rv_index_verify() on x (another thread) to stop soon; it then fails
 * with "verification cancelled" without marking the file. */
void rv_index_verify_cancel(rv_index_t *x);

/* `repview index --check`: load path as rv_index_load() does for input (the same
 * fingerprint test as every query; NULL: none), verify every section and its
 * content.  Fills *sections, *bytes; 0, or -1 with a message naming the damage. */
int rv_index_check_file(const char *path, const char *input, int threads, int *sections, uint64_t *bytes);

/* Whether the file at path still has the fingerprint s was read with (seq.h: size,
 * modification and status-change times, inode): 1 yes, 0 no or unreadable. */
int rv_file_matches(const char *path, uint64_t size, int64_t mtime_ns, int64_t ctime_ns, uint64_t ino);

/* ---- both strands (strands.c) ---------------------------------------------- */

/* The index of the forward strand alone, derived from a both-strand index in
 * O(n) without sorting: the forward suffixes keep their order, the LCP of two
 * forward neighbours is the minimum of the LCPs between them, ISA follows.  Takes
 * over both (the result owns it as its parent: the text and sequence are shared).
 * The derived arrays (LLR, runs) are computed by the caller as for a new build.
 * Returns the new index, or NULL with a message (both is then freed). */
rv_index_t *rv_index_forward(rv_index_t *both, int threads);

/* Bytes of memory the index holds (resident arrays and sections). */
uint64_t rv_index_bytes(const rv_index_t *x);

#endif
