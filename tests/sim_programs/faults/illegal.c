/* Executes an all-ones word: an illegal instruction. */
#include <stdio.h>
int main(void) {
    puts("before");
    __asm__ volatile(".word 0xffffffff");
    return 0;
}
