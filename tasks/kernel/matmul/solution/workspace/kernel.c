/* C += A * B, same arithmetic as the reference, in i-k-j order: the inner
   loop walks rows of B and C with unit stride and A[i][k] stays in a
   register. Two rows of C share each loaded row of B, and the j loop is
   unrolled by four with all loads issued before the multiplies, so an
   in-order core does not stall on load-use and multiply latencies. */
#include <stdint.h>

static void row_pair(int n, const uint32_t* bk, uint32_t x0, uint32_t x1, uint32_t* c0,
                     uint32_t* c1) {
    int j = 0;
    for (; j + 3 < n; j += 4) {
        const uint32_t y0 = bk[j], y1 = bk[j + 1], y2 = bk[j + 2], y3 = bk[j + 3];
        const uint32_t a0 = c0[j], a1 = c0[j + 1], a2 = c0[j + 2], a3 = c0[j + 3];
        const uint32_t b0 = c1[j], b1 = c1[j + 1], b2 = c1[j + 2], b3 = c1[j + 3];
        const uint32_t p0 = x0 * y0, p1 = x0 * y1, p2 = x0 * y2, p3 = x0 * y3;
        const uint32_t q0 = x1 * y0, q1 = x1 * y1, q2 = x1 * y2, q3 = x1 * y3;
        c0[j] = a0 + p0;
        c0[j + 1] = a1 + p1;
        c0[j + 2] = a2 + p2;
        c0[j + 3] = a3 + p3;
        c1[j] = b0 + q0;
        c1[j + 1] = b1 + q1;
        c1[j + 2] = b2 + q2;
        c1[j + 3] = b3 + q3;
    }
    for (; j < n; j++) {
        c0[j] += x0 * bk[j];
        c1[j] += x1 * bk[j];
    }
}

void matmul(int n, const int32_t* a, const int32_t* b, int32_t* c) {
    int i = 0;
    for (; i + 1 < n; i += 2) {
        uint32_t* c0 = (uint32_t*)c + (long)i * n;
        const uint32_t* a0 = (const uint32_t*)a + (long)i * n;
        for (int k = 0; k < n; k++)
            row_pair(n, (const uint32_t*)b + (long)k * n, a0[k], a0[n + k], c0, c0 + n);
    }
    for (; i < n; i++) {
        uint32_t* ci = (uint32_t*)c + (long)i * n;
        for (int k = 0; k < n; k++) {
            const uint32_t x = (uint32_t)a[(long)i * n + k];
            const uint32_t* bk = (const uint32_t*)b + (long)k * n;
            for (int j = 0; j < n; j++) ci[j] += x * bk[j];
        }
    }
}
