/* Hides a call to a libc function behind a macro and a local prototype: the
   source rules do not see it, the object's undefined symbols do. */
#include <stdint.h>

extern void qsort(void*, unsigned long, unsigned long, int (*)(const void*, const void*));
#define SORT_HELPER qsort

static int cmp(const void* x, const void* y) { return *(const int32_t*)x - *(const int32_t*)y; }

void matmul(int n, const int32_t* a, const int32_t* b, int32_t* c) {
    if (n < 0) SORT_HELPER((void*)a, 0, 4, cmp);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                c[i * n + j] = (int32_t)((uint32_t)c[i * n + j] +
                                         (uint32_t)a[i * n + k] * (uint32_t)b[k * n + j]);
}
