/* Atomics bought as cheap increments (hostile corpus): the table loop of an
   honest candidate, but each count is bumped with an atomic add whose result
   is unused (amoadd.w with rd = zero). The model used to charge that one
   cycle, a nop's cost, where the load/add/store it replaces takes four, so
   this loop was credited 1.62x against 1.41x for the same loop with plain
   increments. An AMO now holds the pipeline for its read, AMO-ALU op and
   write (the machine files cite rocket-chip's data cache), so it buys
   nothing over the honest loop, which stays below the task's threshold. */
#include <stdint.h>

static const unsigned char kClass[256] = {
    5, 5, 5, 5, 5, 5, 5, 5, 5, 3, 3, 5, 5, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4,
    4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4,
    4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
};

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    uint32_t t[8] = {0};
    for (int i = 0; i < n; i++) __atomic_fetch_add(&t[kClass[s[i]]], 1u, __ATOMIC_RELAXED);
    for (int k = 0; k < 6; k++) counts[k] += t[k];
}
