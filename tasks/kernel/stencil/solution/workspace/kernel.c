/* Same diffusion as the reference, restructured for the cache. The temps and
   conductivities are gathered once into dense static arrays (16 values per
   64-byte line instead of one cell per line), the Jacobi steps ping-pong
   between two dense temp arrays in row-major order (unit stride), and the
   final temps are scattered back into the cells. Grids too large for the
   static buffers fall back to a row-major sweep over the cells themselves. */
#include <stdint.h>

#include "cell.h"

#define MAXCELLS (1 << 18)
static int32_t buf_a[MAXCELLS], buf_b[MAXCELLS], cond[MAXCELLS];

static void sweep_cells(struct cell* cells, int w, int h) {
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            struct cell* c = &cells[y * w + x];
            int64_t sum = (int64_t)c[-w].temp + c[w].temp + c[-1].temp + c[1].temp;
            c->next = (int32_t)(c->temp + (((sum - 4 * (int64_t)c->temp) * c->conductivity) >> 8));
        }
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) cells[y * w + x].temp = cells[y * w + x].next;
}

void stencil(struct cell* cells, int w, int h, int steps) {
    if (w < 3 || h < 3 || steps <= 0) return;
    const long n = (long)w * h;
    if (n > MAXCELLS) {
        for (int s = 0; s < steps; s++) sweep_cells(cells, w, h);
        return;
    }
    for (long i = 0; i < n; i++) {
        buf_a[i] = buf_b[i] = cells[i].temp;  /* borders never change: same in both */
        cond[i] = cells[i].conductivity;
    }
    int32_t* cur = buf_a;
    int32_t* nxt = buf_b;
    for (int s = 0; s < steps; s++) {
        for (int y = 1; y < h - 1; y++) {
            const int32_t* up = cur + (long)(y - 1) * w;
            const int32_t* row = up + w;
            const int32_t* down = row + w;
            const int32_t* k = cond + (long)y * w;
            int32_t* out = nxt + (long)y * w;
            int32_t left = row[0], mid = row[1];
            for (int x = 1; x < w - 1; x++) {
                const int32_t right = row[x + 1];
                const int64_t sum = (int64_t)up[x] + down[x] + left + right;
                out[x] = (int32_t)(mid + (((sum - 4 * (int64_t)mid) * k[x]) >> 8));
                left = mid;
                mid = right;
            }
        }
        int32_t* t = cur;
        cur = nxt;
        nxt = t;
    }
    for (long i = 0; i < n; i++) cells[i].temp = cur[i];
}
