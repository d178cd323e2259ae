/* Stores an exit system call (li a7, 93; li a0, 42; ecall) over a function's
   code and calls it. Under Linux .text is read-execute and the store raises
   SIGSEGV (qemu-riscv64 agrees): the simulator must fault on the store. */
#include <stdint.h>

__attribute__((noinline)) static int victim(int x) { return x * 3 + 1; }

int main(void) {
    static const uint16_t code[6] = {0x0893, 0x05d0, 0x0513, 0x02a0, 0x0073, 0x0000};
    int (*volatile fp)(int) = victim;
    volatile uint16_t* p = (volatile uint16_t*)(uintptr_t)fp;
    for (int i = 0; i < 6; i++) p[i] = code[i];
    return fp(2);
}
