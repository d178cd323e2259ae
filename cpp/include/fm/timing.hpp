// Timing a piece of work in batches of `loops` repetitions, and choosing
// `loops` (calibration). The work itself is supplied by the caller, so the
// same code times a C++ function, a Python callable or a worker round trip.
#pragma once

#include "fm/clock.hpp"
#include "fm/counters.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace fm::timing {

// One timed batch. cpu_ns is -1 where the side cannot report CPU time.
struct Batch {
    uint64_t loops = 0;
    int64_t wall_ns = 0;
    int64_t cpu_ns = -1;
    std::vector<counters::Value> counters;
};

// The shortest batch worth timing: max(1000 x clock resolution, floor_ns).
// Below it, clock granularity and read overhead become a visible share of the value.
int64_t min_batch_ns(double resolution_ns, int64_t floor_ns = 1000000);

// Grow loops by doubling until measure(loops) >= target_ns. `measure` returns
// the wall ns of one batch. Each candidate count is timed twice and the smaller
// kept, so one interrupted batch does not stop growth early. Returns the count.
uint64_t calibrate(const std::function<int64_t(uint64_t)>& measure, int64_t target_ns,
                   uint64_t max_loops = (uint64_t{1} << 40));

// Time `body(loops)` (which runs the loop) with wall and process CPU clocks and
// an optional counter group around it.
template <class Body>
Batch time_batch(Body&& body, uint64_t loops, counters::Group* group = nullptr) {
    Batch b;
    b.loops = loops;
    std::vector<counters::Value> before;
    if (group) before = group->read();
    const int64_t c0 = clock::process_cpu_ns();
    const int64_t t0 = clock::now_ns();
    body(loops);
    const int64_t t1 = clock::now_ns();
    const int64_t c1 = clock::process_cpu_ns();
    if (group) b.counters = counters::delta(before, group->read());
    b.wall_ns = t1 - t0;
    b.cpu_ns = c1 - c0;
    return b;
}

}  // namespace fm::timing
