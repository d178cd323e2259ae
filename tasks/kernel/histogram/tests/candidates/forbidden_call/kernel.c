/* Uses <ctype.h> classification functions: libc calls the task forbids. */
#include <ctype.h>
#include <stdint.h>

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    for (int i = 0; i < n; i++) {
        const int c = s[i];
        if (c >= 0x80) counts[5]++;
        else if (islower(c)) counts[0]++;
        else if (isupper(c)) counts[1]++;
        else if (isdigit(c)) counts[2]++;
        else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') counts[3]++;
        else if (isgraph(c)) counts[4]++;
        else counts[5]++;
    }
}
