/* Table-driven and fast, but it forgets that DEL (0x7f) is not printable:
   DEL is counted as punctuation. */
#include <stdint.h>

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    unsigned char table[256];
    for (int c = 0; c < 256; c++)
        table[c] = c >= 'a' && c <= 'z' ? 0 : c >= 'A' && c <= 'Z' ? 1 : c >= '0' && c <= '9' ? 2
                   : (c == ' ' || c == '\t' || c == '\n' || c == '\r') ? 3 : (c >= 0x21 && c <= 0x7f) ? 4 : 5;
    for (int i = 0; i < n; i++) counts[table[s[i]]]++;
}
