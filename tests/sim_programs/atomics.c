/* RV64A: C11 atomics compile to AMOs and LR/SC loops. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

static _Atomic int32_t a32 = 5;
static _Atomic int64_t a64 = -5;
static _Atomic uint32_t u32 = 0xfffffff0u;

int main(void) {
    int32_t o1 = atomic_fetch_add(&a32, 10);
    int32_t o2 = atomic_fetch_sub(&a32, 100);
    int32_t o3 = atomic_fetch_and(&a32, 0x0f0f);
    int32_t o4 = atomic_fetch_or(&a32, 0x7000);
    int32_t o5 = atomic_fetch_xor(&a32, -1);
    int32_t o6 = atomic_exchange(&a32, INT32_MIN);
    printf("32: %d %d %d %d %d %d -> %d\n", o1, o2, o3, o4, o5, o6, atomic_load(&a32));

    int64_t p1 = atomic_fetch_add(&a64, 1LL << 40);
    int64_t p2 = atomic_exchange(&a64, 77);
    int64_t expected = 77;
    int ok1 = atomic_compare_exchange_strong(&a64, &expected, 88);
    expected = 1;
    int ok2 = atomic_compare_exchange_strong(&a64, &expected, 99);
    printf("64: %lld %lld %d %d expected=%lld -> %lld\n", (long long)p1, (long long)p2, ok1, ok2,
           (long long)expected, (long long)atomic_load(&a64));

    uint32_t u = atomic_fetch_add(&u32, 0x20);
    printf("u32: %u -> %u\n", u, atomic_load(&u32));

    /* amomin/amomax (signed and unsigned) via inline asm. */
    int64_t mem = -3, old;
    __asm__ volatile("amomax.d %0, %2, (%1)" : "=r"(old) : "r"(&mem), "r"((int64_t)2) : "memory");
    printf("amomax.d old=%lld new=%lld\n", (long long)old, (long long)mem);
    __asm__ volatile("amominu.d %0, %2, (%1)" : "=r"(old) : "r"(&mem), "r"((int64_t)-1) : "memory");
    printf("amominu.d old=%lld new=%lld\n", (long long)old, (long long)mem);
    int32_t mem32 = 7, old32;
    __asm__ volatile("amomin.w %0, %2, (%1)" : "=r"(old32) : "r"(&mem32), "r"(-9) : "memory");
    printf("amomin.w old=%d new=%d\n", old32, mem32);
    __asm__ volatile("amomaxu.w %0, %2, (%1)" : "=r"(old32) : "r"(&mem32), "r"(-9) : "memory");
    printf("amomaxu.w old=%d new=%d\n", old32, mem32);

    /* An SC without a reservation fails. */
    int64_t cell = 1, status;
    __asm__ volatile("sc.d %0, %2, (%1)" : "=r"(status) : "r"(&cell), "r"((int64_t)5) : "memory");
    printf("sc without lr: status=%lld cell=%lld\n", (long long)status, (long long)cell);
    return 0;
}
