/* source.h — where the explorer's sequence and index come from.
 *
 * The screen must show the sequence at once whatever the input size (repview-explorer(1)), so
 * bgzip and plain FASTA are read through htslib's faidx (only the bytes on the
 * screen; .fai/.gzi are created when missing, in a helper thread), while the full
 * load and the index build run in the background (engine build job).  FILE.rvx is
 * used when it matches.  gzip and stdin have no random access: "reading…" until the
 * build job is done.  Only the UI thread calls these functions. */
#ifndef REPVIEW_UI_SOURCE_H
#define REPVIEW_UI_SOURCE_H

#include <pthread.h>
#include <stdatomic.h>
#include <htslib/faidx.h>
#include "repview/build.h"
#include "repview/keep.h"

typedef enum { IDX_NONE, IDX_BUILDING, IDX_READY, IDX_FAILED, IDX_CANCELLED } idx_state_t;

typedef struct {
    char *path;
    rv_alpha_t alpha;
    rv_build_opts_t opts;
    int random_access;        /* faidx usable (plain or bgzip FASTA) */
    /* faidx, loaded by a helper thread */
    pthread_t fai_tid;
    int fai_thread;
    _Atomic int fai_done;
    faidx_t *fai;
    int fai_created, gzi_created, no_create;
    int fai_deferred;         /* not started yet: FILE.rvx is loading */
    rv_seq_t *skel;           /* record table built from the .fai (names, lengths) */
    rv_seq_t *head;           /* the start of the first record, until better is known */
    int partial;              /* seq is only that start */
    /* FILE.rvx, mapped by a helper thread, which verifies the blocks of the first
     * screen, hands it over, then verifies all its sections while the panes already
     * use it (reads stay inside the mapping, rvx.c) */
    char *rvx_path;
    char *first;              /* the REGION of the first screen, or NULL: the start */
    pthread_t rvx_tid;
    int rvx_thread;
    _Atomic int rvx_loaded, rvx_done; /* mapped (header and table checked); verified */
    rv_rvx_status_t rvx_status;
    rv_index_t *rvx_index;    /* handed from the helper to x */
    rv_index_t *verifying;    /* the index the helper verifies (owned by x or damaged) */
    rv_index_t *damaged;      /* an index found damaged, kept until the end for panes
                                 that may still hold it; the rebuild replaces it */
    int rvx_verify_rc;
    int rvx_taken;            /* the UI thread has looked at the loaded file */
    char rvx_err[400];
    /* keeping a built index in FILE.rvx (keep.h), in the background once ready */
    char *keep_path;          /* where, or NULL: not to be kept */
    rv_keep_t *keeper;        /* the save under way */
    int may_keep;             /* FILE.rvx is ours to (re)write (src_rebuild keeps there) */
    /* `:set strands`: the index in use while another one is built, then retired
     * (panes and helpers may still hold it) until the end */
    rv_index_t *prev, *retired;
    /* the index */
    rv_build_job_t *job;
    rv_index_t *x;
    idx_state_t state;
    char err[512];
    double t_start, t_ready;
    int generation;           /* bumped when the sequence source changes */
    const rv_seq_t *seq;      /* records (x->seq or skel); NULL while reading */
    rv_alpha_t shown_alpha;   /* alphabet used to dim breakers */
    /* window of bytes fetched through faidx */
    uint64_t cache_g, cache_len;
    char *cache;
} source_t;

/* Open PATH: start loading FILE.rvx (or the build when there is none) and the
 * faidx helper (which writes no .fai/.gzi when no_create: the bundled sample).
 * region (or NULL) is where the first screen will be: the blocks of FILE.rvx it
 * reads are verified before the index is handed over.  A built index is saved to
 * FILE.rvx once ready unless no_create or no_save (repview-index(1)).  Returns 0,
 * or -1 with a message in err (nothing to show at all). */
int src_open(source_t *s, const char *path, const char *region, rv_alpha_t alpha, const rv_build_opts_t *o,
             int no_create, int no_save, char *msg, size_t msglen);
/* Check the helpers; 1 when something changed (msg set for the user, maybe ""). */
int src_poll(source_t *s, char *msg, size_t msglen);
/* Wait (scripted mode) until the record table is known; with wait_index 1 also
 * until the index is ready (built and saved, or loaded: its verification goes on),
 * with 2 until a loaded index is also verified.  Gives up after timeout seconds. */
void src_wait(source_t *s, int wait_index, double timeout, char *msg, size_t msglen);
/* Stop the verification of a loaded index that is still running (scripted mode,
 * before its last screen); 1 when there was one. */
int src_stop_verify(source_t *s);
/* Progress for the status bar: "" when idle. */
void src_progress(const source_t *s, char *buf, size_t len);
/* Bytes [g, g+len) of the records as read (within one record); NULL when not
 * available yet.  Valid until the next call. */
const char *src_bytes(source_t *s, uint64_t g, uint64_t len);
void src_cancel(source_t *s);
/* Build the index again in the background with strands 2 (both) or 1 (forward),
 * keeping the current one in use until then, and keep the new one in FILE.rvx as
 * a first build would.  0, or -1 with a message (nothing started). */
int src_rebuild(source_t *s, int strands, char *msg, size_t msglen);
/* 1 while the index is being saved to FILE.rvx. */
int src_saving(const source_t *s);
/* Drop a save under way (quit): what it wrote is removed at once, the writer is
 * not waited for, and the index is then never freed.  1 when there was one. */
int src_abandon_save(source_t *s);
/* Start a helper thread with every signal blocked, so that signals reach the UI
 * thread (term.c).  1 on success. */
int src_thread(pthread_t *tid, void *(*fn)(void *), void *arg);
void src_close(source_t *s);

#endif
