/* sa_cpu.h — the suffix array and its inverse on the CPU (sa_cpu.c).  The CPU build
 * (pipeline.c) calls rv_cpu_sa, rv_cpu_lcp (lcp_cpu.h: it uses the ISA buffer as
 * scratch), then rv_cpu_isa. */
#ifndef REPVIEW_ENGINE_SA_CPU_H
#define REPVIEW_ENGINE_SA_CPU_H

#include "repview/index.h"
#include "repview/progress.h"

/* x->sa from x->seq->text in `threads` threads, with x->isa as scratch: 0, or -1
 * with a message. */
int rv_cpu_sa(rv_index_t *x, int threads, rv_progress_t *p);
/* x->isa from x->sa in `threads` threads. */
int rv_cpu_isa(rv_index_t *x, int threads, rv_progress_t *p);

#endif
