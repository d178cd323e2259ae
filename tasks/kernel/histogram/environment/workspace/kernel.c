/* Adds to counts[] how many bytes of s fall in each character class:
     0 lowercase a-z, 1 uppercase A-Z, 2 digit 0-9, 3 space/tab/newline/CR,
     4 other printable ASCII (punctuation, 0x21-0x7e), 5 everything else. */
#include <stdint.h>

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    for (int i = 0; i < n; i++) {
        const unsigned char c = s[i];
        if (c >= 'a' && c <= 'z') counts[0]++;
        else if (c >= 'A' && c <= 'Z') counts[1]++;
        else if (c >= '0' && c <= '9') counts[2]++;
        else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') counts[3]++;
        else if (c >= 0x21 && c <= 0x7e) counts[4]++;
        else counts[5]++;
    }
}
