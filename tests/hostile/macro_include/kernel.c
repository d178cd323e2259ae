/* A forbidden header through a macro (hostile corpus): the task allows only
   <stdint.h> and <stddef.h>; the old check was a regex over #include lines,
   which sees "#include HEADER" and no header name. The compiler's account
   of the headers it entered names <limits.h> from kernel.c. */
#include <stdint.h>
#define HEADER <limits.h>
#include HEADER

void histogram(const unsigned char* s, int n, uint32_t counts[6]) {
    if (n > INT_MAX / 2) return;
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
