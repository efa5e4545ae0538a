/* script.h — scripted mode: keys written as typed, with <CR>, <Esc>, <Tab>,
 * <S-Tab>, <BS>, <Space>, <Left>/<Right>/<Up>/<Down>, <PgUp>/<PgDn>, <Home>/<End>,
 * <F1>, <C-x> for Ctrl-x, <lt> for '<', and <resize:COLSxROWS> to change the
 * screen size (tests of re-layout). */
#ifndef REPVIEW_UI_SCRIPT_H
#define REPVIEW_UI_SCRIPT_H

#define SCRIPT_RESIZE 0x40000000 /* key | cols << 12 | rows */

/* Parse KEYS into *out (malloc'd); returns the number of keys or -1 with a
 * message in err. */
int script_parse(const char *keys, int **out, char *err, size_t errlen);

#endif
