/* Driver for compressed.S: prints what the hand-written RVC code computes. */
#include <stdint.h>
#include <stdio.h>

uint64_t rvc_mix(uint64_t* buf, uint64_t x);
double rvc_fp(double* d);

int main(void) {
    uint64_t buf[8] = {0};
    for (uint64_t x = 0; x < 2000; x += 97) printf("%llu ", (unsigned long long)rvc_mix(buf, x * 0x9e3779b9ULL));
    double d[4] = {1.25, 2.5, 0, 0};
    printf("\nfp %g %g\n", rvc_fp(d), d[2]);
    return 0;
}
