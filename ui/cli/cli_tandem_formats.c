/* cli_tandem_formats.c — the outputs of `repview tandem --approx` (repview-tandem(1)):
 * the BED-like columns, GFF3 with the Sequence Ontology type tandem_repeat
 * (SO:0000705), and the layout of the `.dat` file of Tandem Repeats Finder (Benson
 * 1999), so that scripts reading TRF's output read ours. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "repview/approx.h"
#include "repview/common.h"
#include "repview/tandem.h"
#include "cli.h"

int cli_approx_format(const char *name)
{
    static const char *const names[] = {"bed", "gff3", "trf"};
    for (int f = 0; f < 3; f++)
        if (!strcmp(name, names[f])) return f;
    return -1;
}

typedef struct {
    const rv_seq_t *s;
    const rv_approx_set_t *a;
    const rv_approx_opts_t *o;
} loci_t;

static void put_motif(const loci_t *c, const rv_approx_t *l)
{
    for (uint64_t j = 0; j < l->period; j++)
        putchar(toupper((unsigned char)rv_alpha_letter(c->s->alpha, c->a->motifs[l->motif + j])));
}

/* The record of a locus and its 0-based start in it. */
static const rv_record_t *where(const rv_seq_t *s, const rv_approx_t *l, uint64_t *start)
{
    const uint64_t g = rv_seq_text_to_global(s, l->start);
    const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
    *start = g - rec->off;
    return rec;
}

static void put_bed(const loci_t *c, const rv_approx_t *l)
{
    uint64_t st;
    const rv_record_t *rec = where(c->s, l, &st);
    const rv_run_t run = {l->start, l->end, l->period};
    printf("%s\t%llu\t%llu\t%llu\t%.2f\t%.1f\t%lld\t", rec->name, (unsigned long long)st,
           (unsigned long long)(st + l->end - l->start), (unsigned long long)l->period, rv_run_copies(&run),
           rv_approx_identity(l), (long long)l->score);
    put_motif(c, l);
    putchar('\n');
}

/* GFF3: 1-based inclusive, the score in column 6 and, with the period, copies,
 * identity and consensus, as attributes (lower case: not reserved by GFF3) */
static void put_gff3(const loci_t *c, const rv_approx_t *l, uint64_t id)
{
    uint64_t st;
    const rv_record_t *rec = where(c->s, l, &st);
    const rv_run_t run = {l->start, l->end, l->period};
    printf("%s\trepview\ttandem_repeat\t%llu\t%llu\t%lld\t.\t.\tID=tandem%llu;period=%llu;copies=%.2f;identity=%.1f;"
           "score=%lld;consensus=",
           rec->name, (unsigned long long)st + 1, (unsigned long long)(st + l->end - l->start), (long long)l->score,
           (unsigned long long)id, (unsigned long long)l->period, rv_run_copies(&run), rv_approx_identity(l),
           (long long)l->score);
    put_motif(c, l);
    putchar('\n');
}

/* TRF's data line: start end period copies consensus_size %matches %indels score
 * A C G T (% of the locus) entropy consensus sequence; 1-based inclusive */
static void put_trf(const loci_t *c, const rv_approx_t *l)
{
    uint64_t st, n[5] = {0};
    where(c->s, l, &st);
    const uint64_t len = l->end - l->start, cols = l->matches + l->mismatches + l->indels;
    for (uint64_t i = l->start; i < l->end; i++) {
        const int ch = toupper((unsigned char)rv_alpha_letter(c->s->alpha, c->s->text[i]));
        n[ch == 'A' ? 0 : ch == 'C' ? 1 : ch == 'G' ? 2 : ch == 'T' ? 3 : 4]++;
    }
    double ent = 0;
    for (int b = 0; b < 4; b++)
        if (n[b]) ent -= (double)n[b] / (double)len * log2((double)n[b] / (double)len);
    printf("%llu %llu %llu %.1f %llu %d %d %lld %d %d %d %d %.2f ", (unsigned long long)st + 1,
           (unsigned long long)(st + len), (unsigned long long)l->period, (double)len / (double)l->period,
           (unsigned long long)l->period, (int)(rv_approx_identity(l) + 0.5),
           cols ? (int)(100.0 * (double)l->indels / (double)cols + 0.5) : 0, (long long)l->score,
           (int)(100.0 * (double)n[0] / (double)len), (int)(100.0 * (double)n[1] / (double)len),
           (int)(100.0 * (double)n[2] / (double)len), (int)(100.0 * (double)n[3] / (double)len), ent);
    put_motif(c, l);
    putchar(' ');
    for (uint64_t i = l->start; i < l->end; i++)
        putchar(toupper((unsigned char)rv_alpha_letter(c->s->alpha, c->s->text[i])));
    putchar('\n');
}

static void trf_block(const rv_record_t *rec, const rv_approx_opts_t *o)
{
    printf("\n\nSequence: %s\n\n\n\nParameters: %d %d %d 80 10 %lld %llu\n\n\n", rec->name, o->match, o->mismatch,
           o->indel, (long long)o->min_score, (unsigned long long)o->max_period);
}

void cli_approx_print(const rv_seq_t *s, const rv_approx_set_t *a, const rv_tandem_filter_t *f,
                      const rv_approx_opts_t *o, int format, uint64_t lo, uint64_t hi)
{
    const loci_t c = {s, a, o};
    /* the records of [lo, hi): TRF's layout has a block for each, GFF3 a region */
    const uint64_t r0 = lo < hi ? rv_seq_record_of(s, rv_seq_text_to_global(s, lo)) : s->n_rec,
                   r1 = lo < hi ? rv_seq_record_of(s, rv_seq_text_to_global(s, hi - 1)) + 1 : s->n_rec;
    if (format == 0) printf("#chrom\tstart\tend\tperiod\tcopies\tidentity\tscore\tmotif\n");
    if (format == 1) {
        printf("##gff-version 3\n");
        for (uint64_t r = r0; r < r1; r++)
            if (s->rec[r].len)
                printf("##sequence-region %s 1 %llu\n", s->rec[r].name, (unsigned long long)s->rec[r].len);
    }
    if (format == 2) printf("Tandem Repeats Finder layout, written by repview %s\n", RV_VERSION);
    uint64_t r = r0, id = 0;
    for (uint64_t k = 0; k <= a->n; k++) {
        const rv_approx_t *l = k < a->n ? &a->v[k] : NULL;
        uint64_t st;
        const uint64_t rec = l ? (uint64_t)(where(s, l, &st) - s->rec) : r1;
        for (; format == 2 && r <= rec && r < r1; r++) trf_block(&s->rec[r], o); /* up to this locus's record */
        if (!l) break;
        const rv_run_t run = {l->start, l->end, l->period};
        if (!rv_run_passes(f, &run)) continue;
        if (format == 0) put_bed(&c, l);
        else if (format == 1) put_gff3(&c, l, ++id);
        else put_trf(&c, l);
    }
}
