/* script.c — parsing the key string of scripted mode (see script.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "keys.h"
#include "script.h"

static const struct { const char *name; int key; } specials[] = {
    {"CR", '\r'},           {"Enter", '\r'},       {"Esc", 27},          {"Tab", '\t'},
    {"S-Tab", KEY_BTAB},    {"BS", KEY_BACKSPACE}, {"Space", ' '},       {"Left", KEY_LEFT},
    {"Right", KEY_RIGHT},   {"Up", KEY_UP},        {"Down", KEY_DOWN},   {"PgUp", KEY_PPAGE},
    {"PgDn", KEY_NPAGE},    {"Home", KEY_HOME},    {"End", KEY_END},     {"F1", KEY_F(1)},
    {"lt", '<'},
};

static int special(const char *name, size_t len)
{
    char buf[32];
    if (len >= sizeof buf) return -1;
    memcpy(buf, name, len);
    buf[len] = 0;
    for (size_t i = 0; i < sizeof specials / sizeof *specials; i++)
        if (strcasecmp(buf, specials[i].name) == 0) return specials[i].key;
    if (len == 3 && (buf[0] == 'C' || buf[0] == 'c') && buf[1] == '-') {
        char c = buf[2];
        if (c >= 'a' && c <= 'z') return RV_CTRL(c);
        if (c >= 'A' && c <= 'Z') return RV_CTRL(c);
    }
    int cols, rows;
    char tail;
    if (sscanf(buf, "resize:%dx%d%c", &cols, &rows, &tail) == 2 && cols > 0 && rows > 0 && cols < 4096 &&
        rows < 4096)
        return SCRIPT_RESIZE | cols << 12 | rows;
    if (sscanf(buf, "click:%d,%d%c", &cols, &rows, &tail) == 2 && cols >= 0 && rows >= 0 && cols < 4096 &&
        rows < 4096)
        return SCRIPT_CLICK | cols << 12 | rows;
    if (strcasecmp(buf, "wheelup") == 0) return SCRIPT_WHEEL_UP;
    if (strcasecmp(buf, "wheeldown") == 0) return SCRIPT_WHEEL_DOWN;
    if (strcasecmp(buf, "verified") == 0) return SCRIPT_VERIFIED;
    return -1;
}

int script_parse(const char *keys, int **out, char *err, size_t errlen)
{
    size_t n = 0, len = strlen(keys);
    int *k = malloc((len + 1) * sizeof *k);
    if (!k) { snprintf(err, errlen, "out of memory"); return -1; }
    for (size_t i = 0; i < len; i++) {
        const char *close = keys[i] == '<' ? strchr(keys + i + 1, '>') : NULL;
        if (close) {
            int key = special(keys + i + 1, (size_t)(close - keys - i - 1));
            if (key < 0) {
                snprintf(err, errlen, "unknown key name '%.*s' in --keys", (int)(close - keys - i + 1), keys + i);
                free(k);
                return -1;
            }
            k[n++] = key;
            i = (size_t)(close - keys);
        } else {
            k[n++] = (unsigned char)keys[i];
        }
    }
    *out = k;
    return (int)n;
}
