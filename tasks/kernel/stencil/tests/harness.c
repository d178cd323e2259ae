/* Evaluator-held harness: reads w, h, steps and w*h (temp, conductivity)
   pairs (little-endian int32) from stdin, builds the array of cells, calls
   stencil() once and prints a checksum of every cell's temp (and, for small
   grids, the temps themselves). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cell.h"

void stencil(struct cell* cells, int w, int h, int steps);

static int32_t le32(const unsigned char* p) {
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

int main(void) {
    size_t cap = 1 << 16, len = 0;
    unsigned char* in = malloc(cap);
    for (;;) {
        if (len == cap) in = realloc(in, cap *= 2);
        ssize_t r = read(0, in + len, cap - len);
        if (r <= 0) break;
        len += (size_t)r;
    }
    if (len < 12) return 2;
    int w = le32(in), h = le32(in + 4), steps = le32(in + 8);
    if (w < 0 || h < 0 || steps < 0 || w > 4096 || h > 4096 || len != 12 + 8 * (size_t)w * h) return 3;
    struct cell* cells = calloc((size_t)w * h + 1, sizeof *cells);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        cells[i].temp = le32(in + 12 + 8 * i);
        cells[i].conductivity = le32(in + 16 + 8 * i);
        cells[i].flags = (int32_t)(i * 2654435761u);
    }
    stencil(cells, w, h, steps);
    uint64_t hash = 1469598103934665603ULL;
    for (size_t i = 0; i < (size_t)w * h; i++) hash = (hash ^ (uint32_t)cells[i].temp) * 1099511628211ULL;
    printf("%dx%d steps=%d checksum=%016llx\n", w, h, steps, (unsigned long long)hash);
    if ((size_t)w * h <= 36)
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) printf(" %d", cells[y * w + x].temp);
            printf("\n");
        }
    return 0;
}
