/* RV64M: multiply high parts, division and remainder including the
   non-trapping edge cases (division by zero, INT_MIN / -1). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static volatile int64_t s64[] = {0, 1, -1, 3, -3, 1000000007, -1000000007, LLONG_MAX, LLONG_MIN};
static volatile int32_t s32[] = {0, 1, -1, 3, -3, 65537, -65537, INT_MAX, INT_MIN};
#define N 9

int main(void) {
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int64_t a = s64[i], b = s64[j];
            uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
            int64_t q, r;
            uint64_t uq, ur;
            /* Inline asm: C leaves these cases undefined, the ISA defines them. */
            __asm__ volatile("div %0, %1, %2" : "=r"(q) : "r"(a), "r"(b));
            __asm__ volatile("rem %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
            __asm__ volatile("divu %0, %1, %2" : "=r"(uq) : "r"(ua), "r"(ub));
            __asm__ volatile("remu %0, %1, %2" : "=r"(ur) : "r"(ua), "r"(ub));
            __int128 p = (__int128)a * b;
            unsigned __int128 up = (unsigned __int128)ua * ub;
            __int128 psu = (__int128)a * (__int128)(unsigned __int128)ub;
            uint64_t mulhsu;
            __asm__ volatile("mulhsu %0, %1, %2" : "=r"(mulhsu) : "r"(a), "r"(ub));
            printf("%d,%d: %lld %lld %llu %llu | %llx %llx %llx %d\n", i, j, (long long)q,
                   (long long)r, (unsigned long long)uq, (unsigned long long)ur,
                   (unsigned long long)(uint64_t)(p >> 64), (unsigned long long)(uint64_t)(up >> 64),
                   (unsigned long long)mulhsu, (uint64_t)(psu >> 64) == mulhsu);

            int32_t c = s32[i], d = s32[j];
            int64_t qw, rw, quw, ruw, mw;
            __asm__ volatile("divw %0, %1, %2" : "=r"(qw) : "r"(c), "r"(d));
            __asm__ volatile("remw %0, %1, %2" : "=r"(rw) : "r"(c), "r"(d));
            __asm__ volatile("divuw %0, %1, %2" : "=r"(quw) : "r"(c), "r"(d));
            __asm__ volatile("remuw %0, %1, %2" : "=r"(ruw) : "r"(c), "r"(d));
            __asm__ volatile("mulw %0, %1, %2" : "=r"(mw) : "r"(c), "r"(d));
            printf("  w: %lld %lld %lld %lld %lld\n", (long long)qw, (long long)rw, (long long)quw,
                   (long long)ruw, (long long)mw);
        }
    }
    return 0;
}
