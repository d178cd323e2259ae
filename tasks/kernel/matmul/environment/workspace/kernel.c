/* C += A * B for n x n row-major int32 matrices, with wrap-around (mod 2^32)
   arithmetic. C holds the accumulator on entry. */
#include <stdint.h>

void matmul(int n, const int32_t* a, const int32_t* b, int32_t* c) {
    for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
            for (int i = 0; i < n; i++)
                c[i * n + j] = (int32_t)((uint32_t)c[i * n + j] +
                                         (uint32_t)a[i * n + k] * (uint32_t)b[k * n + j]);
}
