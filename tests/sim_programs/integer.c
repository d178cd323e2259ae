/* RV64I/C differential program: arithmetic, shifts, comparisons, branches,
   recursion, sorting and formatted output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int64_t vals[] = {0, 1, -1, 2, -2, 7, -7, 0x7fffffffffffffffLL,
                                  (int64_t)0x8000000000000000ULL, 0x12345678, -0x12345678,
                                  0xffffffffLL, 0x80000000LL, 63, 64, 31, 32};
#define N (int)(sizeof vals / sizeof vals[0])

static uint64_t fnv(uint64_t h, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int cmp(const void* a, const void* b) {
    int32_t x = *(const int32_t*)a, y = *(const int32_t*)b;
    return (x > y) - (x < y);
}

int main(void) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int64_t a = vals[i], b = vals[j];
            uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
            h = fnv(h, ua + ub);
            h = fnv(h, ua - ub);
            h = fnv(h, ua << (ub & 63));
            h = fnv(h, ua >> (ub & 63));
            h = fnv(h, (uint64_t)(a >> (ub & 63)));
            h = fnv(h, a < b);
            h = fnv(h, ua < ub);
            h = fnv(h, ua ^ ub);
            h = fnv(h, ua | ub);
            h = fnv(h, ua & ub);
            int32_t a32 = (int32_t)a, b32 = (int32_t)b;
            h = fnv(h, (uint64_t)(int64_t)(int32_t)((uint32_t)a32 + (uint32_t)b32));
            h = fnv(h, (uint64_t)(int64_t)(int32_t)((uint32_t)a32 << (b32 & 31)));
            h = fnv(h, (uint64_t)(int64_t)(int32_t)((uint32_t)a32 >> (b32 & 31)));
            h = fnv(h, (uint64_t)(int64_t)(a32 >> (b32 & 31)));
        }
    }
    printf("hash %016llx\n", (unsigned long long)h);
    printf("fib(20) = %d\n", fib(20));

    int32_t arr[200];
    uint32_t s = 12345;
    for (int i = 0; i < 200; i++) {
        s = s * 1103515245u + 12345u;
        arr[i] = (int32_t)(s >> 1) - (1 << 29);
    }
    qsort(arr, 200, sizeof arr[0], cmp);
    long long sum = 0;
    for (int i = 0; i < 200; i++) sum += (long long)arr[i] * (i + 1);
    printf("sorted min %d max %d weighted %lld\n", arr[0], arr[199], sum);

    char buf[64];
    snprintf(buf, sizeof buf, "%5d|%-5d|%x|%o|%lld|%llu", 42, -42, 0xbeef, 8,
             (long long)vals[8], (unsigned long long)vals[2]);
    printf("%s len=%zu\n", buf, strlen(buf));
    printf("strcmp %d memcmp %d\n", strcmp("abc", "abd") < 0, memcmp(buf, "   42", 5) == 0);
    return (int)(h & 0x7f);
}
