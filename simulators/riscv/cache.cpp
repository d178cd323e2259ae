#include "cache.hpp"

#include <algorithm>
#include <iterator>

namespace fm::rv {

Cache::Cache(const CacheConfig& cfg)
    : ways_(cfg.ways), set_mask_(cfg.sets - 1), line_shift_(0) {
    while ((1u << line_shift_) < cfg.line) ++line_shift_;
    tags_.assign(static_cast<std::size_t>(cfg.sets) * cfg.ways, 0);
    ages_.assign(tags_.size(), 0);
}

void Cache::reset() {
    std::fill(tags_.begin(), tags_.end(), 0);
    std::fill(ages_.begin(), ages_.end(), 0);
    clock_ = accesses_ = misses_ = 0;
    std::fill(std::begin(hint_), std::end(hint_), std::size_t{0});
}

}  // namespace fm::rv
