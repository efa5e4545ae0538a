/* track_parse.h — the text of annotation tracks into features (track_parse.c):
 * one line of BED, bedGraph, GFF3 or GTF, one VCF/BCF record through htslib, the
 * folding of GFF3/GTF lines into genes, and the memory they live in. */
#ifndef REPVIEW_TRACK_PARSE_H
#define REPVIEW_TRACK_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <htslib/vcf.h>
#include "repview/track.h"

/* Strings and blocks of features, freed all at once. */
typedef struct {
    char **chunk;
    size_t n, cap, used, room;
} track_arena_t;

void *arena_alloc(track_arena_t *ar, size_t bytes);       /* 8-aligned; NULL: no memory */
const char *arena_str(track_arena_t *ar, const char *s, size_t len);
void arena_free(track_arena_t *ar);

/* A feature as parsed, before it meets the FASTA's records and its parent. */
typedef struct {
    rv_feature_t f;
    const char *chrom;  /* record name as the file writes it */
    const char *parent; /* GFF3 first Parent, GTF gene_id; "" when none */
} track_line_t;

/* Parse one line of a text format (modified in place): 1 and *out (strings in
 * ar), 0 for a header or comment line, -1 for a malformed line with the reason
 * in why. */
int track_parse_line(rv_track_format_t fmt, char *line, track_arena_t *ar, track_line_t *out,
                     char *why, size_t why_len);

/* One VCF/BCF record (read by htslib) as a feature: 1, or -1 without memory. */
int track_parse_vcf(const bcf_hdr_t *hdr, bcf1_t *rec, track_arena_t *ar, track_line_t *out);

/* Fold the n lines of a GFF3 or GTF file at *l into their roots: a line whose
 * Parent (GFF3) or gene_id (GTF) names another becomes part of it (exons its
 * blocks, CDS its thick part); a GTF gene without a gene line is made from its
 * lines.  *l (malloc'd, may be reallocated) then starts with the roots, in the
 * order they came; returns their number, or (size_t)-1 without memory. */
size_t track_fold(track_line_t **l, size_t n, rv_track_format_t fmt, track_arena_t *ar);

/* Format from a file name, or -1. */
int track_format_of_name(const char *path);

#endif
