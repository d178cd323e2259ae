#include "fm/clock.hpp"

#include <algorithm>
#include <fstream>
#include <limits>

namespace fm::clock {

namespace {
std::string read_trimmed(const char* path) {
    std::ifstream in(path);
    std::string s;
    std::getline(in, s);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}
}  // namespace

double measure_resolution_ns(int trials) {
    int64_t best = std::numeric_limits<int64_t>::max();
    for (int i = 0; i < trials; ++i) {
        const int64_t a = now_ns();
        int64_t b = now_ns();
        while (b == a) b = now_ns();
        best = std::min(best, b - a);
    }
    return static_cast<double>(best);
}

double measure_overhead_ns(int reads) {
    // Best of a few passes: the machine is shared, the minimum is the cost.
    double best = std::numeric_limits<double>::max();
    volatile int64_t sink = 0;
    for (int pass = 0; pass < 5; ++pass) {
        const int64_t t0 = now_ns();
        for (int i = 0; i < reads; ++i) sink = sink + now_ns();
        const int64_t t1 = now_ns();
        best = std::min(best, static_cast<double>(t1 - t0) / reads);
    }
    (void)sink;
    return best;
}

std::string current_clocksource() {
    return read_trimmed("/sys/devices/system/clocksource/clocksource0/current_clocksource");
}

std::string available_clocksources() {
    return read_trimmed("/sys/devices/system/clocksource/clocksource0/available_clocksource");
}

std::string clocksource_warning(const std::string& source) {
    if (source.empty()) return "clocksource unknown: timer reads may be system calls";
    if (source == "tsc" || source == "arch_sys_counter") return "";
    return "clocksource is '" + source +
           "', not tsc: every timer read may be a system call (0.5-20 us); "
           "short batches will be noisy";
}

Info info() {
    Info i;
    timespec res{};
    clock_getres(CLOCK_MONOTONIC, &res);
    i.reported_ns = static_cast<double>(res.tv_sec) * 1e9 + static_cast<double>(res.tv_nsec);
    i.resolution_ns = measure_resolution_ns();
    i.overhead_ns = measure_overhead_ns();
    i.clocksource = current_clocksource();
    i.available = available_clocksources();
    i.warning = clocksource_warning(i.clocksource);
    return i;
}

}  // namespace fm::clock
