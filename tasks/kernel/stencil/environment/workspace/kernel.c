/* Heat diffusion on a w x h grid of cells (row-major, an array of structs):
   `steps` Jacobi iterations; border cells keep their temperature. Each
   interior cell moves towards its four neighbours by its conductivity / 256:
       next = temp + ((up + down + left + right - 4 * temp) * conductivity) >> 8
   computed in 64-bit and truncated to int32, arithmetic shift (floor). */
#include <stdint.h>

#include "cell.h"

void stencil(struct cell* cells, int w, int h, int steps) {
    for (int s = 0; s < steps; s++) {
        for (int x = 1; x < w - 1; x++) {
            for (int y = 1; y < h - 1; y++) {
                struct cell* c = &cells[y * w + x];
                int64_t sum = (int64_t)cells[(y - 1) * w + x].temp + cells[(y + 1) * w + x].temp +
                              cells[y * w + x - 1].temp + cells[y * w + x + 1].temp;
                int64_t delta = ((sum - 4 * (int64_t)c->temp) * c->conductivity) >> 8;
                c->next = (int32_t)(c->temp + delta);
            }
        }
        for (int x = 1; x < w - 1; x++)
            for (int y = 1; y < h - 1; y++) cells[y * w + x].temp = cells[y * w + x].next;
    }
}
