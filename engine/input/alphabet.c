/* alphabet.c — symbol codes per alphabet (repview(1)) and alphabet detection. */
#include <ctype.h>
#include <string.h>
#include "repview/seq.h"

uint8_t rv_alpha_code(rv_alpha_t a, unsigned char c)
{
    unsigned char u = (unsigned char)toupper(c);
    switch (a) {
    case RV_ALPHA_DNA:
        switch (u) {
        case 'A': return 1;
        case 'C': return 2;
        case 'G': return 3;
        case 'T': return 4;
        default: return RV_BREAK;
        }
    case RV_ALPHA_PROTEIN:
        /* letters in alphabetical order, X skipped: A..W = 1..23, Y = 24, Z = 25 */
        if (u < 'A' || u > 'Z' || u == 'X') return RV_BREAK;
        return (uint8_t)(u - 'A' + 1 - (u > 'X'));
    default: /* text: every byte but NUL, case folded */
        return u;
    }
}

char rv_alpha_letter(rv_alpha_t a, uint8_t code)
{
    if (code == RV_BREAK) return '$';
    switch (a) {
    case RV_ALPHA_DNA: return code <= 4 ? "$ACGT"[code] : '?';
    case RV_ALPHA_PROTEIN: return (char)('A' + code - 1 + (code >= 'X' - 'A' + 1));
    default: return (char)code;
    }
}

const char *rv_alpha_name(rv_alpha_t a)
{
    switch (a) {
    case RV_ALPHA_DNA: return "dna";
    case RV_ALPHA_PROTEIN: return "protein";
    case RV_ALPHA_TEXT: return "text";
    default: return "auto";
    }
}

int rv_alpha_parse(const char *name, rv_alpha_t *out)
{
    static const char *const names[] = {"auto", "dna", "protein", "text"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) { *out = (rv_alpha_t)i; return 0; }
    return -1;
}

/* DNA when at least 90% of the letters are A, C, G, T, U or N and everything is a
 * letter or a gap; protein when everything is a letter, '*' or '-'; text otherwise. */
rv_alpha_t rv_alpha_detect(const char *buf, size_t len)
{
    size_t letters = 0, nucl = 0, other = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)toupper((unsigned char)buf[i]);
        if (c >= 'A' && c <= 'Z') {
            letters++;
            if (strchr("ACGTUN", c)) nucl++;
        } else if (c != '*' && c != '-' && c != '.') {
            other++;
        }
    }
    if (other) return RV_ALPHA_TEXT;
    if (letters == 0 || nucl * 10 >= letters * 9) return RV_ALPHA_DNA;
    return RV_ALPHA_PROTEIN;
}
