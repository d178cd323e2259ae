// The monotonic clock every measurement is taken with.
#pragma once

#include <cstdint>
#include <string>
#include <time.h>

namespace fm::clock {

// CLOCK_MONOTONIC in nanoseconds. Served from the vDSO when the kernel's
// clocksource allows it (tsc, arch_sys_counter); otherwise each read is a syscall.
inline int64_t now_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// CPU time consumed by the whole calling process (all threads), in ns.
inline int64_t process_cpu_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

struct Info {
    double resolution_ns = 0;   // smallest step seen between two distinct reads
    double reported_ns = 0;     // what clock_getres() claims
    double overhead_ns = 0;     // mean cost of one now_ns() call
    std::string clocksource;    // current kernel clocksource ("" if unreadable)
    std::string available;      // available clocksources, space separated
    std::string warning;        // non-empty when measurements may be degraded
};

// Smallest non-zero difference between consecutive reads over `trials` spins.
double measure_resolution_ns(int trials = 200);
// Mean cost of one read, over `reads` back-to-back reads.
double measure_overhead_ns(int reads = 1 << 20);
// Contents of /sys/.../clocksource0/current_clocksource, trimmed.
std::string current_clocksource();
std::string available_clocksources();
// A warning for a clocksource other than tsc (reads become syscalls: 0.5-20 us).
std::string clocksource_warning(const std::string& source);
Info info();

}  // namespace fm::clock
