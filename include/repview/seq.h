/* seq.h — sequences read through htslib, their alphabet, breakers and coordinates.
 *
 * An rv_seq_t holds every record of one input: the bytes as read (case kept, for
 * display) and the internal text the index is built on.  In the internal text each
 * symbol is a code 1..sigma (order preserving, case folded) and RV_BREAK marks a
 * breaker.  Every maximal run of breakers (N runs, IUPAC codes, record ends) is
 * collapsed to a single RV_BREAK; the text has no breaker at its start or end.
 * Segments map the text back to the original coordinates exactly.
 *
 * Coordinates: "global" positions index the concatenation of all records as read
 * (0-based, no separators); record-relative positions are global - rec[i].off.
 */
#ifndef REPVIEW_SEQ_H
#define REPVIEW_SEQ_H

#include <stdint.h>
#include <stddef.h>

#define RV_BREAK 0 /* code of a breaker in rv_seq_t.text */

typedef enum {
    RV_ALPHA_AUTO = 0, /* detect from the content */
    RV_ALPHA_DNA,      /* A C G T; everything else breaks */
    RV_ALPHA_PROTEIN,  /* letters; X * - break */
    RV_ALPHA_TEXT      /* every byte (NUL breaks) */
} rv_alpha_t;

typedef struct {
    char *name;   /* record name (first word of the header line) */
    uint64_t len; /* length as read */
    uint64_t off; /* global position of the record's first symbol */
} rv_record_t;

/* A maximal breaker-free run: text[tpos, tpos+len) is raw[gpos, gpos+len). */
typedef struct {
    uint64_t tpos, gpos, len;
} rv_segment_t;

/* Room for a text of n codes (rv_seq_load_placed): a buffer the caller owns of
 * *room >= n bytes (at least 1), or NULL with a message. */
typedef uint8_t *(*rv_seq_place_fn)(void *ud, uint64_t n, uint64_t *room);

typedef struct rv_seq {
    rv_alpha_t alpha;    /* never RV_ALPHA_AUTO once loaded */
    int sigma;           /* number of matching symbols (codes 1..sigma) */
    uint64_t n_rec;
    rv_record_t *rec;
    uint64_t glen;       /* sum of record lengths */
    const char *raw;     /* glen bytes as read, case kept */
    const uint8_t *text; /* n codes */
    uint64_t n;
    /* Both strands (DNA only; rv_seq_add_reverse): text is the records' text, one
     * RV_BREAK, then its reverse complement, n = 2 * nf + 1.  strands is 1 and nf
     * unused otherwise; read the forward length through rv_seq_fwd_len(). */
    int strands;
    uint64_t nf;
    uint64_t n_seg;
    rv_segment_t *seg;
    /* source fingerprint (zero for strings and stdin): size, modification time, and
     * the status-change time and inode, which no tool can set back (touch -r sets
     * the modification time only), so that an edit of the same size is caught */
    uint64_t src_size;
    int64_t src_mtime_ns, src_ctime_ns;
    uint64_t src_ino;
    char *path;          /* as given, or NULL for strings */
    char *warning;       /* first non-fatal problem found while reading, or NULL */
    void *names;         /* name -> record lookup (htslib khash_str2int) */
    /* rec and seg are always owned; raw/text are freed through these (NULL when
     * they point into the index file's mapping) */
    void *owned_raw, *owned_text;
    /* A text placed by rv_seq_load_placed(): the bytes text may hold there (0 when
     * the text is in a buffer of its own), and, while loading, the placer. */
    uint64_t text_room;
    rv_seq_place_fn place;
    void *place_ud;
} rv_seq_t;

/* Read every record of PATH ("-" = stdin): FASTA or FASTQ, plain/gzip/bgzip.
 * Returns a new rv_seq_t or NULL with a message (see rv_last_error()). */
rv_seq_t *rv_seq_load(const char *path, rv_alpha_t alpha);

/* Same, with `threads` workers (0 = one per core): a plain file is mapped and its
 * FASTA parsed and encoded in parallel chunks cut at line ends; bgzip is inflated by
 * htslib's thread pool; gzip is inflated as one stream, then parsed in parallel;
 * stdin, pipes and threads = 1 are read line by line.  All give the same sequence. */
rv_seq_t *rv_seq_load_threads(const char *path, rv_alpha_t alpha, int threads);

/* rv_seq_load_threads() writing the encoded text straight into place(ud, n, &room)
 * (the MPI ranks of a host share it in a window: no copy of 3 GB after the read).
 * place is called once, from this thread, where the text is encoded in parallel
 * (a plain or compressed file, threads > 1); the serial reader (stdin, pipes, one
 * thread, damaged compressed data) and a failure before the encoding never call
 * it, and the text is then owned as with rv_seq_load_threads().  A placed text is
 * not freed by rv_seq_free(). */
rv_seq_t *rv_seq_load_placed(const char *path, rv_alpha_t alpha, int threads, rv_seq_place_fn place, void *ud);

/* Build a one-record sequence from a string (for `sa --string` and tests). */
rv_seq_t *rv_seq_from_string(const char *s, size_t len, rv_alpha_t alpha, const char *name);

/* Build a sequence from several records given as strings (tests). */
rv_seq_t *rv_seq_from_records(const char *const *names, const char *const *seqs, int n_rec,
                              rv_alpha_t alpha);

void rv_seq_free(rv_seq_t *s);

/* Fill the internal text, segments and sigma from raw/rec (used by the loaders). */
int rv_seq_encode(rv_seq_t *s, rv_alpha_t alpha);

/* Everything of s but its raw bytes and text, packed into one malloc()ed buffer
 * (MPI ranks of one host share one text: ui/cli/cli_mpi_host.c).  0, or -1. */
int rv_seq_pack(const rv_seq_t *s, void **buf, uint64_t *bytes);
/* The sequence of rv_seq_pack()'s buffer over `text` (text_bytes readable; n codes
 * used, borrowed: it must outlive the sequence); raw is NULL.  NULL with a message
 * when the buffer is not one (or does not fit the text). */
rv_seq_t *rv_seq_unpack(const void *buf, uint64_t bytes, const uint8_t *text, uint64_t text_bytes);
/* A hash of the text s->text[0, n) on `threads` threads (0: all cores): XXH3 of
 * each 64 MiB, then of those hashes and n.  The same for the same text. */
uint64_t rv_seq_text_digest(const rv_seq_t *s, int threads);

/* Build the name lookup (and note duplicate names in s->warning). 0 or -1. */
int rv_seq_index_names(rv_seq_t *s);

/* Alphabet detected from a sample of bytes. */
rv_alpha_t rv_alpha_detect(const char *buf, size_t len);
const char *rv_alpha_name(rv_alpha_t a);
int rv_alpha_parse(const char *name, rv_alpha_t *out); /* 0 ok, -1 unknown */

/* Code of byte c in alphabet a (RV_BREAK for breakers). */
uint8_t rv_alpha_code(rv_alpha_t a, unsigned char c);
/* Upper-case letter of code c in alphabet a (for printing the text). */
char rv_alpha_letter(rv_alpha_t a, uint8_t code);

/* ---- both strands (strands.c) ------------------------------------------------
 * Segments, records and every printed coordinate describe the forward part only;
 * a text interval in the reverse part is the reverse complement of one forward
 * interval, which rv_seq_strand() gives. */

/* Length of the forward part of the text (== n for a one-strand text). */
static inline uint64_t rv_seq_fwd_len(const rv_seq_t *s) { return s->strands == 2 ? s->nf : s->n; }

/* Strand of text interval [t, t + len) ('+' or '-') and, in *fwd, the start of the
 * forward interval it reads (its reverse complement on '-').  len >= 1. */
static inline int rv_seq_strand(const rv_seq_t *s, uint64_t t, uint64_t len, uint64_t *fwd)
{
    if (s->strands != 2 || t < s->nf) { *fwd = t; return '+'; }
    *fwd = 2 * s->nf + 1 - t - len;
    return '-';
}

/* Append RV_BREAK and the reverse complement of the text (DNA only), with `threads`
 * threads (0 = all): the text of an index of both strands.  0, or -1 with a message
 * (not DNA, out of memory). */
int rv_seq_add_reverse(rv_seq_t *s, int threads);

/* Parse "both", "+" or "-" (also "fwd"/"forward", "rev"/"reverse") into 2, 1 or
 * -1 (minus only, for filters).  0 ok, -1 unknown. */
int rv_strands_parse(const char *word, int *out);

/* Index of the segment containing text position t, or of the one after the breaker
 * at t. */
uint64_t rv_seq_segment_of_text(const rv_seq_t *s, uint64_t t);
/* Global position of text position t (a breaker maps to the first original
 * position after the preceding segment). */
uint64_t rv_seq_text_to_global(const rv_seq_t *s, uint64_t t);
/* Text position of global position g, or -1 when g is a breaker. */
int64_t rv_seq_global_to_text(const rv_seq_t *s, uint64_t g);
/* Record holding global position g (g < glen). */
uint64_t rv_seq_record_of(const rv_seq_t *s, uint64_t g);
/* Record index by name, or -1. */
int64_t rv_seq_record_by_name(const rv_seq_t *s, const char *name);
/* Per record of s, as read: out[4 r] symbols of the alphabet, out[4 r + 1] breakers,
 * out[4 r + 2] maximal runs of breakers, out[4 r + 3] lower-case symbols (`repview
 * stats`), counted on `threads` threads (0 = all).  out holds 4 n_rec values. */
void rv_seq_record_counts(const rv_seq_t *s, int threads, uint64_t *out);

/* Parse a samtools-style region ("chr", "chr:pos", "chr:beg-end", commas,
 * "{name:with:colons}:beg-end") into record index and 0-based half-open [beg,end)
 * record-relative, clipped to the record.  Returns 0, or -1 with a message. */
int rv_seq_parse_region(const rv_seq_t *s, const char *region, uint64_t *rid, uint64_t *beg,
                        uint64_t *end);

/* Parse a position as typed by a person: "chr:pos" or a bare 1-based "pos" (allowed
 * only with a single record or when it is unambiguous).  Returns the 0-based
 * global position, or -1 with a message. */
int64_t rv_seq_parse_pos(const rv_seq_t *s, const char *str);

#endif
