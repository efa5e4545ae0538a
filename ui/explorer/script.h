/* script.h — scripted mode: keys written as typed, with <CR>, <Esc>, <Tab>,
 * <S-Tab>, <BS>, <Space>, <Left>/<Right>/<Up>/<Down>, <PgUp>/<PgDn>, <Home>/<End>,
 * <F1>, <C-x> for Ctrl-x, <lt> for '<', <resize:COLSxROWS> to change the
 * screen size (tests of re-layout), and <click:X,Y> (0-based column, row) for a
 * mouse click; the wheel is <wheelup>/<wheeldown>.  <verified> waits until a loaded
 * FILE.rvx is verified in full (--wait-index waits only until it is ready) and shows
 * what the verification found. */
#ifndef REPVIEW_UI_SCRIPT_H
#define REPVIEW_UI_SCRIPT_H

#define SCRIPT_RESIZE 0x40000000 /* key | cols << 12 | rows */
#define SCRIPT_CLICK  0x20000000 /* key | x << 12 | y */
#define SCRIPT_WHEEL_UP   0x10000001
#define SCRIPT_WHEEL_DOWN 0x10000002
#define SCRIPT_VERIFIED   0x10000003

/* Parse KEYS into *out (malloc'd); returns the number of keys or -1 with a
 * message in err. */
int script_parse(const char *keys, int **out, char *err, size_t errlen);

#endif
