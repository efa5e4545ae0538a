/* front.h — what the two front ends (the headless commands, ui/cli/, and the
 * explorer, ui/explorer/) share over the engine, and the explorer's entry point
 * for main.c. */
#ifndef REPVIEW_UI_FRONT_H
#define REPVIEW_UI_FRONT_H

#include <stdint.h>
#include <stdio.h>

enum { RV_EXIT_OK = 0, RV_EXIT_DATA = 1, RV_EXIT_USAGE = 2 };

/* Parse a non-negative integer option value (commas and k/m/g suffixes allowed).
 * Returns 0, or -1 when it does not start with a digit (a blank, a sign) or its
 * value is past UINT64_MAX. */
int front_parse_count(const char *s, uint64_t *out);

/* msg as the one error line shows it: a message that starts "out of memory" names
 * no context (rv_oom()), so who (the command typed, or the explorer's FILE) goes
 * before it, in buf; any other message is returned as it is. */
const char *front_error_text(const char *who, const char *msg, char *buf, size_t len);

/* Print version and build features (repview(1)). */
void front_print_version(FILE *out);

/* The explorer (ui/explorer/explorer.c): argv as given to repview itself. */
int rv_explorer_main(int argc, char **argv);

/* `repview teach` (ui/explorer/teach_main.c): argv[0] is "teach". */
int rv_teach_main(int argc, char **argv);

#endif
