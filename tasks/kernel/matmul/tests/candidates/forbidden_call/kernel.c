/* Transposes B into a heap buffer first: correct and fast, but the task
   forbids allocation (malloc/free) inside the kernel. */
#include <stdint.h>
#include <stdlib.h>

void matmul(int n, const int32_t* a, const int32_t* b, int32_t* c) {
    uint32_t* bt = malloc(sizeof(uint32_t) * (size_t)n * (size_t)n);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++) bt[j * n + k] = (uint32_t)b[k * n + j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint32_t s = (uint32_t)c[i * n + j];
            for (int k = 0; k < n; k++) s += (uint32_t)a[i * n + k] * bt[j * n + k];
            c[i * n + j] = (int32_t)s;
        }
    free(bt);
}
