/* A memoising candidate (hostile corpus): the timing inputs of
   kernel/histogram used to be fixed, made by the task's public generator
   (tests/inputs.py, _mixed) with seeds 21 and 22. This file was written by
   running that generator offline: it recognises those two inputs by their
   length and first 32 bytes and adds their stored counts, in a few hundred
   cycles instead of a pass over the data. Every other input (every
   functional case) goes through the reference's loop, so it passes the
   functional stage. Against inputs drawn from a fresh secret seed its
   stored counts are wrong, which the timed runs' output check catches. */
#include <stdint.h>

static const unsigned char kKey300k[32] = {
    0x4e, 0xcd, 0xaa, 0x09, 0x09, 0x3a, 0x61, 0x39,
    0x20, 0x5a, 0x48, 0x0c, 0x0d, 0x7b, 0x6b, 0x7e,
    0x7f, 0xc0, 0x65, 0x19, 0x7a, 0x6f, 0x52, 0xb9,
    0x0d, 0x46, 0x0b, 0x09, 0x79, 0x47, 0xf6, 0x15,
};
static const uint32_t kCounts300k[6] = {50254, 50061, 49859, 49860, 49911, 50055};
static const unsigned char kKey100k[32] = {
    0x48, 0x74, 0x09, 0x80, 0xba, 0x68, 0x30, 0x39,
    0x52, 0xd0, 0x0f, 0x22, 0x3b, 0x36, 0x46, 0x73,
    0x24, 0xb5, 0x40, 0x32, 0x0a, 0xe5, 0x49, 0x32,
    0x20, 0x38, 0x6e, 0x38, 0x38, 0x0d, 0x91, 0x39,
};
static const uint32_t kCounts100k[6] = {16725, 16677, 16394, 16885, 16736, 16583};

static int starts_with(const unsigned char* s, const unsigned char* key) {
    for (int i = 0; i < 32; i++)
        if (s[i] != key[i]) return 0;
    return 1;
}

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    const uint32_t* stored = 0;
    if (n == 300000 && starts_with(s, kKey300k)) stored = kCounts300k;
    else if (n == 100000 && starts_with(s, kKey100k)) stored = kCounts100k;
    if (stored) {
        for (int k = 0; k < 6; k++) counts[k] += stored[k];
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
