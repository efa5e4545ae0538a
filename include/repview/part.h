/* part.h — part files: the share of one slice I of N of a command's work, written
 * by `repview pairs|lr|tandem|find --buckets I/N -o PART` (separate processes that
 * never talk to each other: Slurm job arrays, Nextflow, Snakemake) and joined by
 * `repview merge` into the output of the single-process command.
 *
 * A part describes itself: a fixed header (magic, kind of command, slice I of N,
 * the input's identity: lengths, size, modification time and a hash of its text,
 * the alphabet, the sizes of what follows, a hash of the body and one of all the
 * rest), then the command's options that shape its output (bytes the command
 * defines and compares: two parts with other options are of other runs), the input
 * path, and the body the command wrote.  A file cut short, extended or altered
 * anywhere fails rv_part_open(); a part exists only complete (no name, or a
 * temporary one, until it is done).
 */
#ifndef REPVIEW_PART_H
#define REPVIEW_PART_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "repview/seq.h"

typedef enum { RV_PART_PAIRS = 1, RV_PART_LR, RV_PART_TANDEM, RV_PART_FIND } rv_part_kind_t;

/* "pairs", "lr", "tandem", "find", or "unknown". */
const char *rv_part_kind_name(int kind);

/* ---- writing ---------------------------------------------------------------------- */

typedef struct rv_part_writer rv_part_writer_t;

/* Begin part file `path` of slice `slice` (0-based) of n_slices for the input s,
 * with the command's options (opts_bytes bytes, copied): the body then goes to
 * rv_part_writer_file().  path must be a regular file or not exist; the file has
 * no name until it is complete where the file system allows (else path.tmp.PID).
 * path NULL: a transfer (from an MPI rank to rank 0 of the same job), a part that
 * never has a name (in $TMPDIR), ended by rv_part_writer_end_fd, without the
 * hashes of the text and the body (the reader has the same text, and the bytes
 * come straight from the writer).  NULL with a message. */
rv_part_writer_t *rv_part_writer_begin(const char *path, rv_part_kind_t kind, uint64_t slice, uint64_t n_slices,
                                       const rv_seq_t *s, const void *opts, size_t opts_bytes);
FILE *rv_part_writer_file(rv_part_writer_t *w);
/* Finish: with rc == 0 the header (items = what the body holds: pairs, lengths,
 * runs or hits) is written, the file synced when `durable` and given its name;
 * otherwise (or when that fails) nothing is left.  Frees w.  rc, or -1 with a
 * message. */
int rv_part_writer_end(rv_part_writer_t *w, uint64_t items, int durable, int rc);
/* The same for a part begun without a name: a descriptor open on the complete
 * part (read from /proc/self/fd/N or handed to another process), or -1 with a
 * message (rc < 0: -1).  Frees w. */
int rv_part_writer_end_fd(rv_part_writer_t *w, uint64_t items, int rc);

/* Of items 0..n-1 in `order` (largest first) with their sizes, those that slice
 * `slice` of n_slices gets from a greedy largest-first assignment (each to the
 * least loaded slice, ties to the lowest), in the order given: a malloc()ed array
 * of *n_mine, or NULL with a message when out of memory.  The same on every
 * machine, so that N slices share the work. */
uint64_t *rv_part_share(const uint64_t *order, const uint64_t *size, uint64_t n, uint64_t slice, uint64_t n_slices,
                        uint64_t *n_mine);

/* ---- reading ---------------------------------------------------------------------- */

typedef struct rv_part rv_part_t;

/* Open a part file and check it whole (header, options, path and body against
 * their hashes and sizes).  0, or -1 with a message (*out NULL). */
int rv_part_open(const char *path, rv_part_t **out);
/* The same for a transfer (rv_part_writer_begin): the sizes and the header's hash
 * checked, not the body's (it has none), nor the input's text (check such parts
 * with s NULL: the job compares its hosts' texts as it reads them); `name` stands
 * for the part in messages ("the part of rank 3"). */
int rv_part_open_transfer(const char *path, const char *name, rv_part_t **out);
void rv_part_close(rv_part_t *p);
int rv_part_kind(const rv_part_t *p);
const char *rv_part_path(const rv_part_t *p);  /* the part file's own path (a transfer's name) */
const char *rv_part_input(const rv_part_t *p); /* the input it was made from */
rv_alpha_t rv_part_alpha(const rv_part_t *p);  /* the input's alphabet */
uint64_t rv_part_input_len(const rv_part_t *p); /* its text, one strand (rv_seq_fwd_len) */
uint64_t rv_part_items(const rv_part_t *p);
void rv_part_slice(const rv_part_t *p, uint64_t *slice, uint64_t *n_slices);
const void *rv_part_opts(const rv_part_t *p, size_t *bytes);
/* The body as a stream from its first byte (it ends at the stream's end); the part
 * owns it.  NULL with a message. */
FILE *rv_part_body(rv_part_t *p);
/* Up to `len` bytes of the body from offset `off`: bytes read, or -1 on error. */
int64_t rv_part_read(const rv_part_t *p, void *buf, uint64_t len, uint64_t off);
uint64_t rv_part_body_bytes(const rv_part_t *p);
/* The part's open file and where its body starts in it (for pread). */
int rv_part_fd(const rv_part_t *p);
uint64_t rv_part_body_offset(const rv_part_t *p);

/* The parts make one complete set: one kind, every slice of the same N once, the
 * same input and options; with s, the input (as read again) unchanged.  0, or -1
 * with one message naming the trouble. */
int rv_parts_check(rv_part_t *const *parts, size_t n, const rv_seq_t *s);

/* Read the input the parts name, with their alphabet (threads 0: all cores).
 * NULL with a message. */
rv_seq_t *rv_parts_input(rv_part_t *const *parts, int threads);

#endif
