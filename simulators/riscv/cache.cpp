#include "cache.hpp"

#include <algorithm>

namespace fm::rv {

Cache::Cache(const CacheConfig& cfg)
    : set_mask_(cfg.sets - 1), line_shift_(0), ways_(cfg.ways) {
    while ((1u << line_shift_) < cfg.line) ++line_shift_;
    tags_.assign(static_cast<std::size_t>(cfg.sets) * cfg.ways, 0);
}

void Cache::reset() {
    std::fill(tags_.begin(), tags_.end(), 0);
    accesses_ = misses_ = 0;
}

bool Cache::promote(std::uint64_t set, std::uint64_t tag) {
    const std::uint32_t n = ways_ - 1;  // older ways in each set
    std::uint64_t* const mru = tags_.data();
    std::uint64_t* const older = mru + (set_mask_ + 1) + set * n;
    std::uint32_t w = 0;
    while (w < n && older[w] != tag) ++w;
    const bool hit = w < n;
    if (!hit) {
        ++misses_;
        if (n == 0) {  // direct-mapped: the one way is replaced
            mru[set] = tag;
            return false;
        }
        w = n - 1;  // the least recently used (or an empty) way leaves
    }
    // Ways 0..w-1 age by one; the former most recent becomes older way 0.
    for (; w > 0; --w) older[w] = older[w - 1];
    older[0] = mru[set];
    mru[set] = tag;
    return hit;
}

}  // namespace fm::rv
