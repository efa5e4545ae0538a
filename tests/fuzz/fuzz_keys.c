/* fuzz_keys.c — the explorer's --keys script parser: any string gives keys or a
 * message, never a read or write out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../ui/explorer/keys.c"
#include "../../ui/explorer/script.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *str = malloc(size + 1);
    memcpy(str, data, size);
    str[size] = 0;
    int *keys = NULL;
    char err[200];
    int n = script_parse(str, &keys, err, sizeof err);
    if (n < -1) abort();
    for (int i = 0; i < n; i++) (void)keys[i];
    free(keys);
    free(str);
    return 0;
}
