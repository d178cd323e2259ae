/* Misaligned loads and stores of every width (Linux user mode handles them
   transparently), through packed structures and explicit asm. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct __attribute__((packed)) rec {
    uint8_t tag;
    uint64_t wide;
    uint16_t half;
    uint32_t word;
    double real;
};

int main(void) {
    static unsigned char raw[64];
    for (int i = 0; i < 64; i++) raw[i] = (unsigned char)(i * 37 + 11);
    uint64_t h = 0;
    for (int off = 0; off < 16; off++) {
        uint64_t d;
        uint32_t w;
        uint16_t s;
        int64_t lw;
        __asm__ volatile("ld %0, 0(%1)" : "=r"(d) : "r"(raw + off));
        __asm__ volatile("lwu %0, 0(%1)" : "=r"(w) : "r"(raw + off));
        __asm__ volatile("lhu %0, 0(%1)" : "=r"(s) : "r"(raw + off));
        __asm__ volatile("lw %0, 0(%1)" : "=r"(lw) : "r"(raw + off));
        h = h * 1000003 + d + w + s + (uint64_t)lw;
    }
    for (int off = 1; off < 8; off++) {
        __asm__ volatile("sd %0, 0(%1)" : : "r"(0x1122334455667788ULL * (uint64_t)off), "r"(raw + 8 * off + off) : "memory");
        __asm__ volatile("sw %0, 0(%1)" : : "r"(0xdeadbeefU), "r"(raw + off) : "memory");
    }
    for (int i = 0; i < 64; i++) h = h * 31 + raw[i];
    struct rec r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].tag = (uint8_t)i;
        r[i].wide = 0x0102030405060708ULL << i;
        r[i].half = (uint16_t)(0xabcd + i);
        r[i].word = 0x89abcdefU ^ (uint32_t)i;
        r[i].real = 1.5 * i;
    }
    double fsum = 0;
    for (int i = 0; i < 3; i++) {
        h = h * 31 + r[i].wide + r[i].half + r[i].word;
        fsum += r[i].real;
    }
    double dd;
    __asm__ volatile("fld %0, 0(%1)" : "=f"(dd) : "r"((char*)&r[1].real));
    printf("misaligned hash %016llx fsum %g fld %g\n", (unsigned long long)h, fsum, dd);
    return 0;
}
