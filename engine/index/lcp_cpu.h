/* lcp_cpu.h — the LCP array on the CPU (lcp_cpu.c). */
#ifndef REPVIEW_ENGINE_LCP_CPU_H
#define REPVIEW_ENGINE_LCP_CPU_H

#include "repview/index.h"
#include "repview/progress.h"

/* The LCP of x->sa, stopping at breakers, attached in its one-byte form (narrow.h);
 * Φ and PLCP use the ISA buffer as scratch.  0, or -1 with a message. */
int rv_cpu_lcp(rv_index_t *x, int threads, rv_progress_t *p);

#endif
