/* A longer mixed workload for simulator speed: a sieve (branchy integer), a
   hash table (loads/stores, multiplies), insertion sort (data-dependent
   branches) and a dot product (FP). About 60 M instructions at -O2. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SIEVE 2000000
#define TABLE (1 << 16)
static unsigned char composite[SIEVE];
static uint64_t keys[TABLE], vals[TABLE];
static int32_t arr[3000];
static double xs[4096], ys[4096];

int main(void) {
    long primes = 0;
    for (long i = 2; i < SIEVE; i++) {
        if (composite[i]) continue;
        primes++;
        for (long j = i * i; j < SIEVE; j += i) composite[j] = 1;
    }
    uint64_t x = 88172645463325252ULL, hits = 0;
    for (int i = 0; i < 400000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t k = x % 50000 + 1;
        uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15ULL) >> 48);
        while (keys[h] && keys[h] != k) h = (h + 1) & (TABLE - 1);
        if (keys[h] == k) hits++;
        keys[h] = k;
        vals[h] += (uint64_t)i;
    }
    for (int i = 0; i < 3000; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; arr[i] = (int32_t)x; }
    for (int i = 1; i < 3000; i++) {
        int32_t v = arr[i];
        int j = i - 1;
        while (j >= 0 && arr[j] > v) { arr[j + 1] = arr[j]; j--; }
        arr[j + 1] = v;
    }
    double dot = 0;
    for (int r = 0; r < 200; r++) {
        for (int i = 0; i < 4096; i++) { xs[i] = (double)(i % 97) * 0.5 + r; ys[i] = 1.0 / (1 + i % 13); }
        for (int i = 0; i < 4096; i++) dot += xs[i] * ys[i];
    }
    printf("primes %ld hits %llu sorted %d %d dot %.3f\n", primes, (unsigned long long)hits, arr[0],
           arr[2999], dot);
    return 0;
}
