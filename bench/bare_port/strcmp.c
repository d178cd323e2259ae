/* strcmp for the bare-metal benchmark builds, eight bytes at a time when
 * both strings are 8-byte aligned, as the RISC-V strcmp of newlib and the
 * strcmp.S that SiFive's Dhrystone build links do. riscv-tests' runtime
 * compares byte by byte, a third of Dhrystone's instructions; its strcmp is
 * weakened at link time so this one is used. Written for this project. */
#include <stdint.h>
#include <string.h>

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

int strcmp(const char *a, const char *b) {
    if ((((uintptr_t)a | (uintptr_t)b) & 7) == 0) {
        const uint64_t *wa = (const uint64_t *)a, *wb = (const uint64_t *)b;
        for (;;) {
            const uint64_t x = *wa, y = *wb;
            /* Stop at the first word that differs or holds a zero byte. */
            if (x != y || ((x - ONES) & ~x & HIGHS)) break;
            ++wa;
            ++wb;
        }
        a = (const char *)wa;
        b = (const char *)wb;
    }
    while (*a && *a == *b) {
        ++a;
        ++b;
    }
    return (unsigned char)*a - (unsigned char)*b;
}
