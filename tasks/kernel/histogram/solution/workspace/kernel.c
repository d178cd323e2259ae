/* Same classes as the reference without data-dependent branches: a 256-entry
   class table replaces the if-else chain, and the counts go to four
   interleaved private tables (one per unrolled lane), with every load of a
   group issued before its uses, so an in-order core neither mispredicts nor
   stalls on load-use or on a chain of increments to the same counter. */
#include <stdint.h>

#define L 0
#define U 1
#define D 2
#define S 3
#define P 4
#define O 5
static const unsigned char kClass[256] = {
    O, O, O, O, O, O, O, O, O, S, S, O, O, S, O, O,  /* 0x00: \t \n \r */
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    S, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,  /* 0x20: space, punctuation */
    D, D, D, D, D, D, D, D, D, D, P, P, P, P, P, P,  /* 0x30: digits */
    P, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U,  /* 0x40: @ A-O */
    U, U, U, U, U, U, U, U, U, U, U, P, P, P, P, P,  /* 0x50: P-Z */
    P, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L,  /* 0x60: ` a-o */
    L, L, L, L, L, L, L, L, L, L, L, P, P, P, P, O,  /* 0x70: p-z, DEL */
    /* 0x80-0xff: not ASCII */
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
};

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    uint32_t t0[8] = {0}, t1[8] = {0}, t2[8] = {0}, t3[8] = {0};
    int i = 0;
    for (; i + 3 < n; i += 4) {
        const unsigned c0 = s[i], c1 = s[i + 1], c2 = s[i + 2], c3 = s[i + 3];
        const unsigned k0 = kClass[c0], k1 = kClass[c1], k2 = kClass[c2], k3 = kClass[c3];
        t0[k0]++;
        t1[k1]++;
        t2[k2]++;
        t3[k3]++;
    }
    for (; i < n; i++) t0[kClass[s[i]]]++;
    for (int k = 0; k < 6; k++) counts[k] += t0[k] + t1[k] + t2[k] + t3[k];
}
