/* The truth for command benchmarks, measured outside frontier-measure's
 * process runner: run a command REPS times with posix_spawn from this small
 * process and print, per run, its wall time (spawn to reaped) and the CPU
 * time the kernel charged it (user + sys, from wait4), in ns.
 *
 * Usage: launch REPS command [args...]
 *        launch REPS command [args...] -- other [args...]
 * With a second command the two alternate in pairs of runs, A B then B A,
 * REPS pairs, each line prefixed with A or B: drift of the machine between
 * runs cancels in the ratio of a pair, as in the evaluator's own rounds. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char** environ;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int run(char** argv, const char* label) {
    pid_t pid;
    const long long t0 = now_ns();
    if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) != 0) {
        perror("posix_spawn");
        return 1;
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    const long long wall = now_ns() - t0;
    const long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
                          (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
    printf("%s%lld %lld\n", label, wall, cpu);
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: launch REPS command [args...] [-- other [args...]]\n");
        return 2;
    }
    const long reps = strtol(argv[1], NULL, 10);
    char** a = argv + 2;
    char** b = NULL;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0) {
            argv[i] = NULL;  /* ends a's argv */
            b = argv + i + 1;
            break;
        }
    }
    for (long i = 0; i < reps; ++i) {
        if (b == NULL) {
            if (run(a, "")) return 1;
        } else if (i % 2 == 0) {
            if (run(a, "A ") || run(b, "B ")) return 1;
        } else {
            if (run(b, "B ") || run(a, "A ")) return 1;
        }
    }
    return 0;
}
