/* Evaluator-held harness: passes all of stdin (bytes) to histogram() once and
   prints the six class counts. The input sits in a static buffer, so the
   harness itself costs almost nothing next to the kernel. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_INPUT (1 << 23)
static unsigned char input[MAX_INPUT];

void histogram(const unsigned char* s, int n, uint32_t counts[6]);

int main(void) {
    size_t len = 0;
    for (;;) {
        ssize_t r = read(0, input + len, MAX_INPUT - len);
        if (r <= 0) break;
        len += (size_t)r;
        if (len == MAX_INPUT) return 3;
    }
    uint32_t counts[6] = {1, 2, 3, 4, 5, 6};  /* running totals: the kernel adds to them */
    histogram(input, (int)len, counts);
    printf("n=%zu lower=%u upper=%u digit=%u space=%u punct=%u other=%u\n", len, counts[0],
           counts[1], counts[2], counts[3], counts[4], counts[5]);
    return 0;
}
