/* A program that ends by a signal (abort): the exit status is -SIGABRT. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("about to abort\n");
    fflush(stdout);
    abort();
}
