/* Row-major and in place: faster, but it reads neighbours it has already
   updated in this step (Gauss-Seidel instead of Jacobi), so results differ. */
#include <stdint.h>

#include "cell.h"

void stencil(struct cell* cells, int w, int h, int steps) {
    for (int s = 0; s < steps; s++)
        for (int y = 1; y < h - 1; y++)
            for (int x = 1; x < w - 1; x++) {
                struct cell* c = &cells[y * w + x];
                int64_t sum = (int64_t)c[-w].temp + c[w].temp + c[-1].temp + c[1].temp;
                c->temp = (int32_t)(c->temp + (((sum - 4 * (int64_t)c->temp) * c->conductivity) >> 8));
            }
}
