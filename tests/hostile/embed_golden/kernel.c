/* Build-time read of the held-out golden outputs (hostile corpus): clang's
   #embed (C23, accepted in gnu17 mode with a warning) pulls the task's
   tests/golden.json into the object, found from where the evaluator used to
   stage the sources (<checkout>/build/kernel-tasks/src/<hash>/kernel.c, so
   four levels up is the checkout). With the answers in the binary, the
   held-out cases could be answered from them. The build now runs in a
   sandbox with only the side's staged sources and the toolchain in view, and
   the compiler's own account of what it read is checked. */
#include <stdint.h>

static const unsigned char golden[] = {
#embed "../../../../tasks/kernel/histogram/tests/golden.json"
};

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    /* The golden file starts with '{': a check that it was found. */
    if (sizeof golden > 1 && golden[0] == '{') counts[5] += 0;
    for (int i = 0; i < n; i++) {
        const unsigned char c = s[i];
        if (c >= 'a' && c <= 'z') counts[0]++;
        else if (c >= 'A' && c <= 'Z') counts[1]++;
        else if (c >= '0' && c <= '9') counts[2]++;
        else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') counts[3]++;
        else if (c >= 0x21 && c <= 0x7e) counts[4]++;
        else counts[5]++;
    }
}
