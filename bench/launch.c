/* The truth for command benchmarks, measured outside frontier-measure's
 * process runner: run a command REPS times with posix_spawn from this small
 * process and print, per run, its wall time (spawn to reaped) and the CPU
 * time the kernel charged it (user + sys, from wait4), in ns.
 * Usage: launch REPS command [args...] */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char** environ;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: launch REPS command [args...]\n");
        return 2;
    }
    const long reps = strtol(argv[1], NULL, 10);
    for (long i = 0; i < reps; ++i) {
        pid_t pid;
        const long long t0 = now_ns();
        if (posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ) != 0) {
            perror("posix_spawn");
            return 1;
        }
        int status;
        struct rusage ru;
        wait4(pid, &status, 0, &ru);
        const long long wall = now_ns() - t0;
        const long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
                              (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
        printf("%lld %lld\n", wall, cpu);
    }
    return 0;
}
