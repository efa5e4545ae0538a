/* term.h — the terminal: curses set-up and teardown, colour (NO_COLOR, TERM=dumb,
 * --no-color), mouse, and signals that restore the terminal (htop keeps all of
 * this in one file; so do we). */
#ifndef REPVIEW_UI_TERM_H
#define REPVIEW_UI_TERM_H

/* Start curses on the controlling terminal.  0, or -1 with a message on stderr. */
int term_start(int color, int mouse);
/* Restore the terminal (idempotent, safe from atexit). */
void term_stop(void);
/* The signal (SIGINT, SIGTERM, SIGHUP) that asked the explorer to quit, or 0. */
int term_quit_requested(void);
/* Colour wanted: not --no-color, NO_COLOR unset or empty, TERM not dumb. */
int term_color_wanted(int no_color_flag);
/* Colours for a light (1) or dark (0, the default) terminal background; call
 * before term_start.  Without colour (NO_COLOR) both are the same attributes. */
void term_set_theme(int light_background);
/* What the explorer was started with, for pictures of the screen (snapshot.c):
 * the theme, and whether colour is wanted (term_color_wanted). */
int term_light(void);
void term_set_color(int color);
int term_color(void);
/* "dark" 0, "light" 1, else -1. */
int term_theme_parse(const char *name);
/* Fill dr_attr[] for the grid (no colour) — used by scripted mode. */
void term_plain_styles(void);

#endif
