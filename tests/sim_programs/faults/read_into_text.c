/* read(2) into the program's own code: Linux refuses with EFAULT (the page is
   not writable) and the code stays as it was. Exits 0 when that is so. */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

__attribute__((noinline)) static int victim(int x) { return x * 3 + 1; }

int main(void) {
    int (*volatile fp)(int) = victim;
    ssize_t r = read(0, (void*)(uintptr_t)fp, 8);
    if (r != -1 || errno != EFAULT) return 1;
    return fp(2) == 7 ? 0 : 2;
}
