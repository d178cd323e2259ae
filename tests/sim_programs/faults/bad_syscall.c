/* Asks for a syscall the simulator does not provide (number 500). */
#include <unistd.h>
#include <sys/syscall.h>
int main(void) { return (int)syscall(500, 1, 2, 3); }
