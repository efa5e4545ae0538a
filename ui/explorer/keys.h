/* keys.h — every key action of the explorer, declared once (tig's X-macro idea).
 * The table generates the action enum, the key map (keys.c) and the help overlay
 * and man page section, so help can never disagree with the keys.
 *
 * RV_KEYS(X): X(action, key1, key2, key3, label, help)
 *   key1..key3  key codes (0 = none) as returned by curses getch()
 *   label       how the keys are written in help and in the man page
 *   help        one line; "[count]" marks actions that take a count prefix
 */
#ifndef REPVIEW_UI_KEYS_H
#define REPVIEW_UI_KEYS_H

#include <curses.h>

#define RV_CTRL(c) ((c) & 0x1f)

#define RV_KEYS(X)                                                                           \
    X(ACT_LEFT, 'h', KEY_LEFT, 0, "h, Left", "[count] bases left")                           \
    X(ACT_RIGHT, 'l', KEY_RIGHT, 0, "l, Right", "[count] bases right")                       \
    X(ACT_UP, KEY_UP, 0, 0, "Up", "[count] lines of sequence up")                            \
    X(ACT_DOWN, KEY_DOWN, 0, 0, "Down", "[count] lines of sequence down")                    \
    X(ACT_SCREEN_TOP, 'H', 0, 0, "H", "first base on the screen")                            \
    X(ACT_SCREEN_END, 'L', 0, 0, "L", "last base on the screen")                             \
    X(ACT_PAGE_DOWN, ' ', KEY_NPAGE, 'f', "Space, PgDn, f", "[count] screens forward")       \
    X(ACT_PAGE_UP, KEY_BACKSPACE, KEY_PPAGE, 'b', "Backspace, PgUp, b", "[count] screens back") \
    X(ACT_LINE_START, '0', KEY_HOME, 0, "0, Home", "start of the line")                      \
    X(ACT_LINE_END, '$', KEY_END, 0, "$, End", "end of the line")                            \
    X(ACT_TOP, 'g', 0, 0, "g", "start of the record ([count]g: position count)")             \
    X(ACT_BOTTOM, 'G', 0, 0, "G", "end of the record")                                       \
    X(ACT_NEXT_REC, '}', 0, 0, "}", "[count] records forward")                               \
    X(ACT_PREV_REC, '{', 0, 0, "{", "[count] records back")                                  \
    X(ACT_RECORDS, 'R', 0, 0, "R, :records", "record list: type to filter names and descriptions, Enter goes") \
    X(ACT_GOTO, ':', 0, 0, ":", "command line: goto REGION, +10k, -2m, =POS; :help, :q")     \
    X(ACT_SEARCH, '/', 0, 0, "/", "search forward: PATTERN, or PATTERN/K for K mismatches")    \
    X(ACT_SEARCH_BACK, '?', 0, 0, "?", "search backward (? then Enter alone: this help)")    \
    X(ACT_NEXT_HIT, 'n', 0, 0, "n", "[count] next search hit")                               \
    X(ACT_PREV_HIT, 'N', 0, 0, "N", "[count] previous search hit")                           \
    X(ACT_NEXT_FEAT, ']', 0, 0, "]", "[count] next feature of the focused pane")             \
    X(ACT_PREV_FEAT, '[', 0, 0, "[", "[count] previous feature of the focused pane")         \
    X(ACT_NEXT_TRACK_FEAT, RV_CTRL('f'), 0, 0, "Ctrl-F", "[count] next feature of the current annotation track") \
    X(ACT_PREV_TRACK_FEAT, RV_CTRL('b'), 0, 0, "Ctrl-B", "[count] previous feature of the current annotation track") \
    X(ACT_TRACK_NEXT, RV_CTRL('t'), 0, 0, "Ctrl-T", "make the next annotation track the current one")  \
    X(ACT_FIND_FEATURE, 'F', 0, 0, "F", "go to a feature of the tracks by name or ID (Tab completes)") \
    X(ACT_FOCUS_NEXT, '\t', 0, 0, "Tab", "focus the next pane")                              \
    X(ACT_FOCUS_PREV, KEY_BTAB, 0, 0, "Shift-Tab", "focus the previous pane")                \
    X(ACT_PANE_DOWN, 'j', 0, 0, "j", "[count] rows down in the focused pane")                \
    X(ACT_PANE_UP, 'k', 0, 0, "k", "[count] rows up in the focused pane")                    \
    X(ACT_JUMP, '\r', '\n', KEY_ENTER, "Enter", "jump to the selected entry")                \
    X(ACT_JUMP_BACK, RV_CTRL('o'), 0, 0, "Ctrl-O", "back to where the last jump started")    \
    X(ACT_JUMP_FWD, RV_CTRL('n'), 0, 0, "Ctrl-N", "forward again to where Ctrl-O came from")  \
    X(ACT_MARK_SET, 'm', 0, 0, "m LETTER", "set mark LETTER (a-z) at the cursor")           \
    X(ACT_MARK_GO, '\'', '`', 0, "' LETTER, ` LETTER", "go to mark LETTER (Ctrl-O comes back)") \
    X(ACT_MARKS, 'M', 0, 0, "M, :marks", "list the marks; Enter goes to one")               \
    X(ACT_EXPORT, 'E', 0, 0, "E, :export FILE", "write the focused pane's features as BED or BEDPE") \
    X(ACT_SNAPSHOT, 'P', 0, 0, "P, :screen NAME", "save the screen as NAME.txt and NAME.svg (colours)") \
    X(ACT_VISUAL, 'v', 0, 0, "v", "start or end a visual selection (interval repeats)")     \
    X(ACT_ZOOM, 'z', 0, 0, "z", "presentation: show only the focused pane")                  \
    X(ACT_TEACH, 'T', 0, 0, "T", "suffix-array pane: teaching mode on the text around the cursor (repview teach)") \
    X(ACT_TRACK_STRANDS, 'S', 0, 0, "S", "LR track: copies on both strands or forward only (both-strand index)") \
    X(ACT_CANCEL_BUILD, 'x', 0, 0, "x", "cancel the background index build")                 \
    X(ACT_HELP, KEY_F(1), 0, 0, "F1, :help", "this help")                                    \
    X(ACT_REDRAW, RV_CTRL('l'), 0, 0, "Ctrl-L", "redraw the screen")                         \
    X(ACT_ESCAPE, 27, 0, 0, "Esc", "clear selection, count and message; close overlays")    \
    X(ACT_QUIT, 'q', 0, 0, "q", "quit (closes an overlay first)")

typedef enum {
    ACT_NONE = 0,
#define X(act, k1, k2, k3, label, help) act,
    RV_KEYS(X)
#undef X
    ACT_COUNT
} action_t;

typedef struct {
    action_t act;
    int keys[3];
    const char *label, *help;
} key_entry_t;

extern const key_entry_t rv_key_table[];
extern const int rv_key_table_len;

/* The action bound to a key, or ACT_NONE. */
action_t keys_action(int key);
/* Name of a key for messages ("j", "Tab", "F1", "Ctrl-X"); static buffer. */
const char *keys_name(int key);

#endif
