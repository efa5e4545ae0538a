/* track.h — annotation tracks beside a sequence: BED (3 to 12 columns), bedGraph,
 * GFF3, GTF and VCF/BCF, read with htslib.
 *
 * A bgzipped file with a tabix or CSI index (FILE.tbi, FILE.csi; BCF: FILE.csi) is
 * queried by region and never loaded whole; any other file is read once into an
 * interval index in memory.  Coordinates are those of the FASTA's records:
 * 0-based, half-open, record-relative; a record name of the track that the FASTA
 * lacks is counted and named in the warnings, and its lines are not shown.
 * GFF3 features are folded into their root (gene > mRNA > exon, CDS) and GTF lines
 * into their gene_id, so a gene is one feature whose blocks are its exons and
 * whose thick part spans its CDS (read by region, a GTF without gene lines shows
 * in each window the part of a gene whose lines reach into it).  A malformed line is skipped and counted; the
 * first one is named with its file and line in the warnings. */
#ifndef REPVIEW_TRACK_H
#define REPVIEW_TRACK_H

#include <stddef.h>
#include <stdint.h>
#include "repview/seq.h"

typedef enum {
    RV_TRACK_BED,
    RV_TRACK_BEDGRAPH,
    RV_TRACK_GFF3,
    RV_TRACK_GTF,
    RV_TRACK_VCF,
} rv_track_format_t;

/* One feature.  Strings are never NULL ("" when absent) and, like blocks, belong
 * to the track: valid until the next query, step or find on it. */
typedef struct {
    uint32_t rid;                  /* record of the FASTA */
    uint64_t beg, end;             /* 0-based, half-open, on the record */
    uint64_t thick_beg, thick_end; /* BED thickStart/End, GFF CDS span; equal: none */
    uint32_t block_count;             /* BED blocks, GFF exons; 0: one block beg..end */
    const uint32_t *blocks;        /* 2 block_count offsets from beg: [start, end), sorted */
    char strand;                   /* '+', '-' or '.' */
    double value;                  /* bedGraph value, BED score, VCF QUAL; NAN: none */
    const char *name, *id, *type;  /* GFF Name/ID/type; VCF ID; BED name */
    const char *ref, *alt;         /* VCF REF and ALT (alleles joined by ',') */
    const char *attrs;             /* GFF attributes, VCF INFO, BED extra columns */
    uint32_t n_parts;              /* lines folded into this feature (GFF, GTF) */
    uint64_t line;                 /* 1-based line of the file; 0 when unknown */
} rv_feature_t;

typedef struct rv_track rv_track_t;

/* Open the track at path for the records of seq (which must outlive it).  The
 * format comes from the name (.bed, .bedgraph/.bdg/.bg, .gff/.gff3, .gtf,
 * .vcf, .bcf, each optionally .gz or .bgz).  Returns the track, or NULL with a
 * message "PATH: why" (rv_last_error()). */
rv_track_t *rv_track_open(const char *path, const rv_seq_t *seq);
void rv_track_close(rv_track_t *t);
/* The format rv_track_open would read path as, from its name; -1 when unknown. */
int rv_track_format_of_path(const char *path);
/* The same records, read again (their table moved): seq replaces the one given
 * to rv_track_open. */
void rv_track_set_seq(rv_track_t *t, const rv_seq_t *seq);

rv_track_format_t rv_track_format(const rv_track_t *t);
const char *rv_track_format_name(rv_track_format_t f);
/* 1 when the track is queried through its index, 0 when loaded in memory. */
int rv_track_indexed(const rv_track_t *t);
/* Features in memory (0 for an indexed track). */
size_t rv_track_size(const rv_track_t *t);

/* The features overlapping [beg, end) of record rid, sorted by start: *out (owned
 * by the track) and *n.  0, or -1 with a message (a read error). */
int rv_track_query(rv_track_t *t, uint32_t rid, uint64_t beg, uint64_t end,
                   const rv_feature_t **out, size_t *n);

/* The first feature starting after pos (dir 1) or the last one starting before pos
 * (dir -1), on record rid and then the records after (before) it: 1 and *out, 0
 * when there is none, -1 on a read error. */
int rv_track_step(rv_track_t *t, uint32_t rid, uint64_t pos, int dir, rv_feature_t *out);

/* A feature by name or ID (GFF also the names and IDs of the lines folded into a
 * gene): an exact match, else the only one that starts with name.  1 and *out
 * (rid, beg, end, name); 0 when none; 2 when several start with it, with
 * up to `max` of them in *out (as many as *n_out); -1 with a message when the
 * names cannot be read.  An indexed track reads its whole file once for this. */
int rv_track_find(rv_track_t *t, const char *name, rv_feature_t *out, size_t max, size_t *n_out);

/* The names of an indexed track, read in the background: start reading them (0,
 * or -1 with a message; nothing to do for a track in memory or names read), and
 * 1 when they are there (rv_track_find and rv_track_complete then answer at once;
 * before, they wait for them, or read them when none was started). */
int rv_track_names_start(rv_track_t *t);
int rv_track_names_ready(rv_track_t *t);

/* Prefix completion: the longest extension of prefix that every name or ID
 * starting with it shares, into buf (len bytes).  Returns how many names start
 * with prefix. */
size_t rv_track_complete(rv_track_t *t, const char *prefix, char *buf, size_t len);

/* What went wrong while reading: the first malformed line with its file and line
 * number, how many more, and the record names the FASTA lacks; "" when nothing.
 * The count grows as an indexed track reads more of its file. */
const char *rv_track_warnings(const rv_track_t *t);
size_t rv_track_bad_lines(const rv_track_t *t);

/* Rows that features overlapping each other need when each row holds features
 * that do not (greedy by start), at most cap: over every feature in memory, or
 * over the window last read of an indexed track (1 before any); at least 1. */
size_t rv_track_depth(const rv_track_t *t, size_t cap);

/* Smallest and largest value (bedGraph) of the features in memory, or of those
 * read so far by an indexed track; 0 when none. */
int rv_track_value_range(const rv_track_t *t, double *lo, double *hi);

#endif
