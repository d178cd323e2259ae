/* Self-modifying code that makes a system call with no asm (hostile corpus):
   the kernel stores three instructions (li a7, 64; ecall; ret) over the body
   of one of its own functions and calls it, so write(2, ...) runs from code
   the compiler never emitted, which no source or symbol check can see. Under
   Linux the store faults (.text is mapped read-execute: SIGSEGV); the
   simulator now maps the ELF's segments with their permissions, so the store
   to .text is a fault naming the address and the candidate fails its
   functional cases. The counting itself is the honest table loop. */
#include <stdint.h>

static const char kMsg[] = "written by code the compiler never emitted\n";

__attribute__((noinline)) static long target(long fd, const char* p, long n) {
    /* Any body of at least 12 bytes: it is overwritten before the call. */
    volatile long acc = fd;
    for (long i = 0; i < n; i++) acc += p[i] * (i + 3);
    return acc;
}

static const unsigned char kClass[256] = {
    5, 5, 5, 5, 5, 5, 5, 5, 5, 3, 3, 5, 5, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4,
    4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4,
    4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
};

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    /* li a7, 64 (write); ecall; ret -- as halfwords: code may be 2-aligned. */
    static const uint16_t kCode[6] = {0x0893, 0x0400, 0x0073, 0x0000, 0x8067, 0x0000};
    long (*volatile fn)(long, const char*, long) = target;
    volatile uint16_t* code = (volatile uint16_t*)(uintptr_t)fn;
    for (int i = 0; i < 6; i++) code[i] = kCode[i];
    fn(2, kMsg, (long)sizeof kMsg - 1);

    uint32_t t0[8] = {0}, t1[8] = {0};
    int i = 0;
    for (; i + 1 < n; i += 2) {
        const unsigned k0 = kClass[s[i]], k1 = kClass[s[i + 1]];
        t0[k0]++;
        t1[k1]++;
    }
    for (; i < n; i++) t0[kClass[s[i]]]++;
    for (int k = 0; k < 6; k++) counts[k] += t0[k] + t1[k];
}
