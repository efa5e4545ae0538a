/* reads_internal.h — what tests need of reads.c beyond include/repview/find.h. */
#ifndef REPVIEW_READS_INTERNAL_H
#define REPVIEW_READS_INTERNAL_H

#include <stddef.h>
#include "repview/find.h"

/* rv_reads_open() reading a plain file in blocks of BLOCK bytes (grown when one
 * record is longer), so that tests can put block cuts inside records. */
rv_reads_t *rv_reads_open_block(const char *path, size_t block);

#endif
