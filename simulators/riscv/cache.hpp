// A set-associative cache with true LRU replacement, tags only (no data):
// it answers "hit or miss" and counts. Initial state is empty, so every run
// of the same program sees the same sequence of hits and misses.
#pragma once

#include <cstdint>
#include <vector>

#include "machine_config.hpp"

namespace fm::rv {

class Cache {
public:
    explicit Cache(const CacheConfig& cfg);
    void reset();

    // True on a hit. A miss allocates the line (write-allocate for stores).
    __attribute__((always_inline)) bool access(std::uint64_t addr) {
        const std::uint64_t line = addr >> line_shift_;
        ++accesses_;
        ++clock_;
        // Way prediction: where this line was last found. A line is only
        // ever stored in its own set, so a matching tag there is a hit, and
        // the age is updated exactly as the search would.
        std::size_t& hint = hint_[line & kHintMask];
        if (tags_[hint] == line + 1) {
            ages_[hint] = clock_;
            return true;
        }
        return search(line, hint);
    }

    std::uint32_t line_shift() const { return line_shift_; }
    std::uint64_t accesses() const { return accesses_; }
    std::uint64_t misses() const { return misses_; }

private:
    __attribute__((noinline)) bool search(std::uint64_t line, std::size_t& hint) {
        const std::uint32_t set = static_cast<std::uint32_t>(line) & set_mask_;
        const std::size_t base = static_cast<std::size_t>(set) * ways_;
        std::uint64_t* tags = &tags_[base];
        std::uint64_t* ages = &ages_[base];
        const std::uint64_t tag = line + 1;  // 0 marks an empty way
        // One pass: look for the tag and, meanwhile, for the least recently
        // used way (the first of the oldest, as the replacement policy wants).
        std::uint32_t victim = 0;
        for (std::uint32_t w = 0; w < ways_; ++w) {
            if (tags[w] == tag) {
                ages[w] = clock_;
                hint = base + w;
                return true;
            }
            if (ages[w] < ages[victim]) victim = w;
        }
        ++misses_;
        tags[victim] = tag;
        ages[victim] = clock_;
        hint = base + victim;
        return false;
    }

    static constexpr std::size_t kHintMask = 255;
    std::size_t hint_[kHintMask + 1] = {};
    std::uint32_t ways_;
    std::uint32_t set_mask_;
    std::uint32_t line_shift_;
    std::vector<std::uint64_t> tags_;
    std::vector<std::uint64_t> ages_;
    std::uint64_t clock_ = 0;
    std::uint64_t accesses_ = 0;
    std::uint64_t misses_ = 0;
};

}  // namespace fm::rv
