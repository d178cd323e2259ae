/* Fast but wrong: skips the last column of B (an off-by-one in the j loop). */
#include <stdint.h>

void matmul(int n, const int32_t* a, const int32_t* b, int32_t* c) {
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n - 1; j++)
                c[i * n + j] = (int32_t)((uint32_t)c[i * n + j] +
                                         (uint32_t)a[i * n + k] * (uint32_t)b[k * n + j]);
}
