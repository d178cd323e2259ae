/* Evaluator-held harness: reads all of stdin into a static buffer one byte
   past an 8-byte boundary (as data that follows a header in a larger buffer)
   and prints XXH32 of it with seed 0 and with seed 0x9e3779b1. Inputs of at
   most 4096 bytes also get the hash of every suffix starting at offsets 1-15
   (every alignment of the start, each with its own seed) and of every prefix
   up to 15 bytes shorter (every length of the tail). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_INPUT (1 << 23)
static unsigned char buffer[MAX_INPUT + 16] __attribute__((aligned(64)));

uint32_t XXH32(const void* input, size_t len, uint32_t seed);

int main(void) {
    unsigned char* input = buffer + 1;
    size_t len = 0;
    for (;;) {
        ssize_t r = read(0, input + len, MAX_INPUT - len);
        if (r <= 0) break;
        len += (size_t)r;
        if (len == MAX_INPUT) return 3;
    }
    printf("n=%zu xxh32=%08x\n", len, XXH32(input, len, 0));
    printf("seed 9e3779b1: %08x\n", XXH32(input, len, 0x9e3779b1u));
    if (len <= 4096) {
        for (size_t off = 1; off < 16 && off <= len; off++)
            printf("from %zu: %08x\n", off,
                   XXH32(input + off, len - off, (uint32_t)off * 0x01000193u));
        for (size_t cut = 1; cut < 16 && cut <= len; cut++)
            printf("first %zu: %08x\n", len - cut, XXH32(input, len - cut, 0xffffffffu));
    }
    return 0;
}
