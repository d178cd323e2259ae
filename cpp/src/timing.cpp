#include "fm/timing.hpp"

#include "fm/errors.hpp"

#include <algorithm>
#include <cmath>

namespace fm::timing {

int64_t min_batch_ns(double resolution_ns, int64_t floor_ns) {
    return std::max<int64_t>(floor_ns, static_cast<int64_t>(std::ceil(1000.0 * resolution_ns)));
}

uint64_t calibrate(const std::function<int64_t(uint64_t)>& measure, int64_t target_ns,
                   uint64_t max_loops) {
    uint64_t loops = 1;
    while (true) {
        const int64_t t = std::min(measure(loops), measure(loops));
        if (t >= target_ns) return loops;
        if (loops >= max_loops) return max_loops;
        // Jump close to the target once a batch is long enough to trust its
        // time; double while it is still near clock granularity.
        uint64_t next = loops * 2;
        if (t > target_ns / 64 && t > 0) {
            const double scaled = static_cast<double>(loops) * 1.2 * static_cast<double>(target_ns) /
                                  static_cast<double>(t);
            next = std::max(next, static_cast<uint64_t>(std::ceil(scaled)));
        }
        loops = std::min(next, max_loops);
    }
}

}  // namespace fm::timing
