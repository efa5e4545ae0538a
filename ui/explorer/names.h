/* names.h — records found by what a person types (names.c): no drawing, no app
 * state, so tests/t_ui_names.c compares them with brute force. */
#ifndef REPVIEW_UI_NAMES_H
#define REPVIEW_UI_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "repview/seq.h"

/* 1 when the len bytes at tok are one of the '|'-separated parts of name. */
int names_has_token(const char *name, const char *tok, size_t len);
/* The first record whose name has the token, or -1; *n_match counts them all and
 * *second (when not NULL) is the second one, or -1. */
int64_t names_by_token(const rv_seq_t *s, const char *tok, size_t len, uint64_t *n_match, int64_t *second);
/* A region (NAME, NAME:POS, NAME:BEG-END) whose NAME is a token of exactly one
 * record, written into out with the full name ("{gi|1|gb|X.1|}:5-9"): 1.  0 when
 * no record has the token (out unchanged); -1 with a message in err when several
 * records have it. */
int names_resolve_region(const rv_seq_t *s, const char *region, char *out, size_t outlen, char *err, size_t errlen);
/* 1 when every space-separated word of filter is found, ignoring case, in name
 * or in desc (which may be NULL). */
int names_filter_match(const char *name, const char *desc, const char *filter);

#endif
