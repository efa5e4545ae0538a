/* reads_internal.h — what tests need of reads.c beyond include/repview/find.h. */
#ifndef REPVIEW_READS_INTERNAL_H
#define REPVIEW_READS_INTERNAL_H

#include <stddef.h>
#include "repview/find.h"

/* rv_reads_open() reading a plain file in blocks of BLOCK bytes (grown when one
 * record is longer), so that tests can put block cuts inside records. */
rv_reads_t *rv_reads_open_block(const char *path, size_t block);

/* rv_reads_batch giving a thread as little as min_chunk bytes of input (default
 * 256 KiB), so that tests can cut tiny files into many chunks; with any_guess, chunks
 * start at any '>' or '@' byte instead of a likely header, so that most are wrong. */
void rv_reads_batch_test(rv_reads_t *r, size_t min_chunk, int any_guess);

#endif
