/* Copies the temps into a heap array with malloc: forbidden in this task. */
#include <stdint.h>
#include <stdlib.h>

#include "cell.h"

void stencil(struct cell* cells, int w, int h, int steps) {
    int32_t* t = malloc(sizeof(int32_t) * (size_t)w * (size_t)h);
    int32_t* n = malloc(sizeof(int32_t) * (size_t)w * (size_t)h);
    for (int i = 0; i < w * h; i++) t[i] = n[i] = cells[i].temp;
    for (int s = 0; s < steps; s++) {
        for (int y = 1; y < h - 1; y++)
            for (int x = 1; x < w - 1; x++) {
                int i = y * w + x;
                int64_t sum = (int64_t)t[i - w] + t[i + w] + t[i - 1] + t[i + 1];
                n[i] = (int32_t)(t[i] + (((sum - 4 * (int64_t)t[i]) * cells[i].conductivity) >> 8));
            }
        int32_t* tmp = t; t = n; n = tmp;
    }
    for (int i = 0; i < w * h; i++) cells[i].temp = t[i];
    free(t);
    free(n);
}
