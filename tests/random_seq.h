/* random_seq.h — small random sequences for the oracle tests of the scale-out
 * paths (t_lr_buckets.c, t_runs_jobs.c): DNA with N, two-letter DNA, protein
 * (X and * break), text, periodic with the odd break or change, all-same; one to
 * three records.  Needs check.h (rng_t) first. */
#ifndef REPVIEW_TESTS_RANDOM_SEQ_H
#define REPVIEW_TESTS_RANDOM_SEQ_H

#include "repview/build.h"
#include "repview/seq.h"

enum { MAX_REC = 3 };
static const char *const kinds[] = {"dnaN", "dnaAC", "protein", "text", "periodic", "same"};
enum { N_KINDS = 6 };

static void random_record(rng_t *r, int kind, char *buf, size_t len)
{
    static const char prot[] = "ACDEFGHIKX*";
    size_t period = 1 + rng_below(r, 6);
    for (size_t i = 0; i < len; i++) {
        switch (kind) {
        case 0: buf[i] = rng_below(r, 9) == 0 ? 'N' : "ACGTacgt"[rng_below(r, 8)]; break;
        case 1: buf[i] = rng_below(r, 15) == 0 ? 'N' : "AC"[rng_below(r, 2)]; break;
        case 2: buf[i] = prot[rng_below(r, sizeof prot - 1)]; break;
        case 3: buf[i] = "ab c\n"[rng_below(r, 4)]; break;
        case 4: buf[i] = i < period ? "ACGT"[rng_below(r, 4)] : buf[i - period];
                if (rng_below(r, 40) == 0) buf[i] = rng_below(r, 2) ? 'N' : 'G';
                break;
        default: buf[i] = 'A'; break;
        }
    }
    buf[len] = 0;
}

static const rv_alpha_t kind_alpha[N_KINDS] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN,
                                               RV_ALPHA_TEXT, RV_ALPHA_DNA, RV_ALPHA_DNA};

static rv_seq_t *random_seq(rng_t *r, int kind, size_t max_len)
{
    static char bufs[MAX_REC][4096];
    const char *names[MAX_REC] = {"r1", "r2", "r3"}, *seqs[MAX_REC];
    int nrec = 1 + (int)rng_below(r, MAX_REC);
    for (int i = 0; i < nrec; i++) {
        size_t len = 1 + rng_below(r, max_len / (size_t)nrec);
        random_record(r, kind, bufs[i], len);
        seqs[i] = bufs[i];
    }
    return rv_seq_from_records(names, seqs, nrec, kind_alpha[kind]);
}

/* The index path's answer to compare with: s indexed on the CPU (takes s). */
static inline rv_index_t *cpu_index(rv_seq_t *s, int threads, int with_llr)
{
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = threads;
    o.with_llr = with_llr;
    return rv_build(s, &o, NULL);
}

#endif
