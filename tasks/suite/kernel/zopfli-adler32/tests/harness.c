/* Evaluator-held harness: reads all of stdin (bytes) and prints the Adler-32 of
   the whole input, then of the input without its first 3 bytes (a start that
   is not word-aligned). Inputs of at most 4096 bytes also get the checksum of every
   suffix starting at offsets 1-15 and of every prefix up to 15 bytes shorter,
   so each alignment of the start and each length of the tail is checked. The
   input sits in a static buffer, so the harness costs almost nothing next to
   the kernel. */
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_INPUT (1 << 23)
static unsigned char input[MAX_INPUT] __attribute__((aligned(64)));

unsigned zlib_adler32(const unsigned char* data, size_t size);

int main(void) {
    size_t len = 0;
    for (;;) {
        ssize_t r = read(0, input + len, MAX_INPUT - len);
        if (r <= 0) break;
        len += (size_t)r;
        if (len == MAX_INPUT) return 3;
    }
    printf("n=%zu adler=%08x\n", len, zlib_adler32(input, len));
    if (len >= 3) printf("from 3: %08x\n", zlib_adler32(input + 3, len - 3));
    if (len <= 4096) {
        for (size_t off = 1; off < 16 && off <= len; off++)
            printf("from %zu: %08x\n", off, zlib_adler32(input + off, len - off));
        for (size_t cut = 1; cut < 16 && cut <= len; cut++)
            printf("first %zu: %08x\n", len - cut, zlib_adler32(input, len - cut));
    }
    return 0;
}
