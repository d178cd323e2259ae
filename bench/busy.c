/* A busy loop whose cost is proportional to its argument: the known-ratio
 * workload for command benchmarks (N vs 1.10 N iterations). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    unsigned long long n = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
    volatile unsigned long long x = 0;
    for (unsigned long long i = 0; i < n; ++i) x += i ^ (x >> 3);
    return (int)(x & 0) ;
}
