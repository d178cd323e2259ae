/* Linux user-mode environment: stdin, stdout/stderr (write and writev),
   argv, heap through brk and mmap, time, randomness, uname, exit status. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
    printf("argc=%d", argc);
    for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
    printf("\n");

    /* Read all of stdin in small chunks; count lines and bytes, sum digits. */
    char buf[7];
    long bytes = 0, lines = 0, digits = 0;
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            lines += buf[i] == '\n';
            if (buf[i] >= '0' && buf[i] <= '9') digits += buf[i] - '0';
        }
        bytes += n;
    }
    printf("stdin: %ld bytes, %ld lines, digit sum %ld, last read %zd\n", bytes, lines, digits, n);

    struct iovec iov[3] = {{"writev ", 7}, {"in ", 3}, {"pieces\n", 7}};
    ssize_t w = writev(1, iov, 3);
    fflush(stdout);
    fprintf(stderr, "to stderr (%zd)\n", w);

    /* Small allocations come from brk, large ones from mmap; both zeroed. */
    size_t total = 0;
    for (int i = 1; i <= 64; i++) {
        size_t sz = (size_t)i * 1000;
        unsigned char* p = malloc(sz);
        for (size_t k = 0; k < sz; k += 4096) total += p[k];
        memset(p, i, sz);
        free(p);
    }
    char* big = calloc(1 << 20, 1);
    for (size_t k = 0; k < (1u << 20); k += 4096) total += (unsigned char)big[k];
    big[12345] = 1;
    char* grown = realloc(big, 3 << 20);
    printf("heap ok %zu %d\n", total, grown[12345]);
    free(grown);
    void* brk0 = sbrk(0);
    printf("sbrk grows: %d\n", sbrk(8192) == brk0 && (char*)sbrk(0) - (char*)brk0 == 8192);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    volatile unsigned spin = 0;
    for (unsigned i = 0; i < 100000; i++) spin += i;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int64_t dt = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    printf("time moves forward: %d\n", dt > 0);
    time_t now = time(NULL);
    printf("after 2020: %d\n", now > 1577836800);

    unsigned char rnd[32];
    printf("getrandom: %zd\n", getrandom(rnd, sizeof rnd, 0));
    struct utsname u;
    uname(&u);
    printf("uname: %s %s\n", u.sysname, u.machine);
    printf("isatty(1)=%d\n", isatty(1));
    fflush(stdout);
    return argc > 1 ? atoi(argv[1]) : 42;
}
