/* term.c — curses set-up, colours, mouse and signals for the explorer.
 *
 * Signals: SIGINT, SIGTERM and SIGHUP only set a flag that the event loop polls
 * (getch times out every few tens of milliseconds), so the terminal is restored by
 * the normal exit path.  SIGTSTP (Ctrl-Z) is left to ncurses, whose handler
 * restores the terminal, stops, and redraws on SIGCONT.  Every helper thread
 * blocks all signals (engine/index/pipeline.c, src_thread), so they arrive on the UI
 * thread. */
#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "draw.h"
#include "term.h"

static volatile sig_atomic_t quit_flag;
static int started, light, color_on;

void term_set_theme(int light_background) { light = light_background; }
int term_light(void) { return light; }
void term_set_color(int color) { color_on = color; }
int term_color(void) { return color_on; }

int term_theme_parse(const char *name)
{
    if (strcmp(name, "dark") == 0) return 0;
    if (strcmp(name, "light") == 0) return 1;
    return -1;
}

int term_quit_requested(void) { return quit_flag; }

static void on_quit(int sig)
{
    quit_flag = sig;
}

int term_color_wanted(int no_color_flag)
{
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    if (no_color_flag || (nc && *nc)) return 0;
    if (!term || strcmp(term, "dumb") == 0) return 0;
    return 1;
}

/* Styles without colour: attributes only, so every distinction survives on a
 * monochrome terminal (and the characters themselves carry the meaning). */
void term_plain_styles(void)
{
    for (int i = 0; i < ST_COUNT; i++) dr_attr[i] = A_NORMAL;
    dr_attr[ST_BAR] = A_REVERSE;
    dr_attr[ST_RULER] = A_DIM;
    dr_attr[ST_BREAK] = A_DIM;
    dr_attr[ST_LOWER] = A_DIM;
    dr_attr[ST_CURSOR] = A_REVERSE | A_BOLD;
    dr_attr[ST_SELECT] = A_UNDERLINE;
    dr_attr[ST_HIT] = A_BOLD | A_UNDERLINE;
    dr_attr[ST_MARK] = A_BOLD | A_UNDERLINE;
    dr_attr[ST_RUN] = A_UNDERLINE;
    dr_attr[ST_VARIANT] = A_BOLD;
    dr_attr[ST_FEAT_SEL] = A_REVERSE;
    dr_attr[ST_TITLE] = A_BOLD;
    dr_attr[ST_FOCUS] = A_REVERSE | A_BOLD;
    dr_attr[ST_SELROW] = A_REVERSE;
    dr_attr[ST_SHARED] = A_BOLD;
    dr_attr[ST_USEFUL] = A_BOLD;
    dr_attr[ST_USELESS] = A_DIM;
    dr_attr[ST_ERROR] = A_BOLD;
    dr_attr[ST_DIM] = A_DIM;
}

static void color_styles(void)
{
    static const struct { int st, fg, bg, attr; } map[] = {
        {ST_BAR, COLOR_BLACK, COLOR_CYAN, 0},    {ST_RULER, COLOR_BLUE, -1, 0},
        {ST_BASE_A, COLOR_GREEN, -1, 0},         {ST_BASE_C, COLOR_CYAN, -1, 0},
        {ST_BASE_G, COLOR_YELLOW, -1, 0},        {ST_BASE_T, COLOR_RED, -1, 0},
        {ST_LOWER, COLOR_MAGENTA, -1, A_DIM},    {ST_BREAK, COLOR_WHITE, -1, A_DIM},
        {ST_HIT, COLOR_BLACK, COLOR_YELLOW, A_BOLD}, {ST_TRACK, COLOR_CYAN, -1, 0},
        {ST_SHARED, COLOR_YELLOW, -1, A_BOLD},   {ST_USEFUL, COLOR_GREEN, -1, A_BOLD},
        {ST_USELESS, COLOR_WHITE, -1, A_DIM},    {ST_ERROR, COLOR_RED, -1, A_BOLD},
        {ST_SELECT, COLOR_BLACK, COLOR_MAGENTA, 0}, {ST_MARK, COLOR_BLACK, COLOR_GREEN, A_BOLD},
        {ST_RUN, COLOR_MAGENTA, -1, A_UNDERLINE}, {ST_FEATURE, COLOR_BLUE, -1, A_BOLD},
        {ST_VARIANT, COLOR_RED, -1, A_BOLD},     {ST_FEAT_SEL, COLOR_BLACK, COLOR_CYAN, A_BOLD},
    };
    /* a light background: no yellow or white text, dimmed roles in black (the
     * attributes still carry them: bold, underline, reverse) */
    static const struct { int st, fg, bg, attr; } on_light[] = {
        {ST_BAR, COLOR_WHITE, COLOR_BLUE, A_BOLD}, {ST_BASE_G, COLOR_MAGENTA, -1, 0},
        {ST_BREAK, COLOR_BLACK, -1, A_DIM},        {ST_SHARED, COLOR_BLUE, -1, A_BOLD | A_UNDERLINE},
        {ST_USELESS, COLOR_BLACK, -1, A_DIM},      {ST_SELECT, COLOR_WHITE, COLOR_MAGENTA, 0},
        {ST_HIT, COLOR_BLACK, COLOR_YELLOW, A_BOLD | A_UNDERLINE}, {ST_DIM, COLOR_BLACK, -1, A_DIM},
        {ST_FEATURE, COLOR_BLUE, -1, 0},           {ST_FEAT_SEL, COLOR_WHITE, COLOR_BLUE, A_BOLD},
    };
    start_color();
    use_default_colors();
    size_t n = sizeof map / sizeof *map;
    for (size_t i = 0; i < n; i++) {
        init_pair((short)(i + 1), (short)map[i].fg, (short)map[i].bg);
        dr_attr[map[i].st] = (int)(COLOR_PAIR(i + 1) | (chtype)map[i].attr);
    }
    for (size_t i = 0; light && i < sizeof on_light / sizeof *on_light; i++) {
        init_pair((short)(n + i + 1), (short)on_light[i].fg, (short)on_light[i].bg);
        dr_attr[on_light[i].st] = (int)(COLOR_PAIR(n + i + 1) | (chtype)on_light[i].attr);
    }
}

int term_start(int color, int mouse)
{
    setlocale(LC_ALL, ""); /* ncursesw draws UTF-8 glyphs only with the locale set */
    set_escdelay(25);      /* Esc answers at once, as in vim with a short ttimeout */
    if (isatty(0) && isatty(1)) {
        if (!initscr()) return fprintf(stderr, "repview: cannot initialise the terminal\n"), -1;
    } else {
        /* the sequence comes from a pipe (FILE '-') or the output is redirected:
         * talk to the controlling terminal directly */
        FILE *in = fopen("/dev/tty", "r"), *out = fopen("/dev/tty", "w");
        if (!in || !out || !newterm(NULL, out, in)) {
            if (in) fclose(in);
            if (out) fclose(out);
            fprintf(stderr, "repview: the explorer needs a terminal (use --keys ... --dump for scripts)\n");
            return -1;
        }
    }
    started = 1;
    atexit(term_stop);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    timeout(40);
    term_plain_styles();
    if (color && has_colors()) color_styles();
    if (mouse) {
        mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        mouseinterval(0);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_quit;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    dr_use_curses();
    return 0;
}

void term_stop(void)
{
    if (!started) return;
    started = 0;
    curs_set(1);
    endwin();
}
