/* A kernel exact on inputs of the held-out cases' sizes (at most a few
   thousand bytes) and wrong on inputs of the timing inputs' sizes, where it
   counts only a sample of the bytes and scales up. Its held-out cases pass;
   its timed runs' outputs differ from the reference's on the same input,
   which is a functional failure naming the timing input. */
#include <stdint.h>

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    if (n >= 65536) {
        uint32_t sample[6] = {0, 0, 0, 0, 0, 0};
        histogram(s, n / 16, sample);
        for (int k = 0; k < 6; k++) counts[k] += sample[k] * 16;
        return;
    }
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
