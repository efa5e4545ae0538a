/* keys.c — the key map generated from the table in keys.h. */
#include <stdio.h>
#include "keys.h"

const key_entry_t rv_key_table[] = {
#define X(act, k1, k2, k3, label, help) {act, {k1, k2, k3}, label, help},
    RV_KEYS(X)
#undef X
};
const int rv_key_table_len = (int)(sizeof rv_key_table / sizeof *rv_key_table);

action_t keys_action(int key)
{
    if (key == 127 || key == 8) key = KEY_BACKSPACE; /* terminals differ on Backspace */
    for (int i = 0; i < rv_key_table_len; i++)
        for (int k = 0; k < 3; k++)
            if (rv_key_table[i].keys[k] && rv_key_table[i].keys[k] == key) return rv_key_table[i].act;
    return ACT_NONE;
}

const char *keys_name(int key)
{
    static char buf[32];
    if (key > 32 && key < 127) snprintf(buf, sizeof buf, "%c", key);
    else if (key == ' ') snprintf(buf, sizeof buf, "Space");
    else if (key == '\t') snprintf(buf, sizeof buf, "Tab");
    else if (key == 27) snprintf(buf, sizeof buf, "Esc");
    else if (key > 0 && key < 32) snprintf(buf, sizeof buf, "Ctrl-%c", key + 'A' - 1);
    else if (key >= KEY_F(1) && key <= KEY_F(12)) snprintf(buf, sizeof buf, "F%d", key - KEY_F0);
    else snprintf(buf, sizeof buf, "key %d", key);
    return buf;
}
