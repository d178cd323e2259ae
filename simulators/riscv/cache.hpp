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
    //
    // Each set keeps its tags in recency order, most recently used first,
    // so LRU needs no ages: the victim is the last way (still empty while
    // the set is not full, since empty ways are never moved forward). The
    // most recent way of every set lives at the front of the array, apart, so the
    // common case, a hit on the line the set last served, is one load and
    // one compare, with no multiply by the number of ways.
    __attribute__((always_inline)) bool access(std::uint64_t addr) {
        const std::uint64_t line = addr >> line_shift_;
        ++accesses_;
        const std::uint64_t set = line & set_mask_;
        if (__builtin_expect(tags_[set] == line + 1, 1)) return true;
        return promote(set, line + 1);
    }

    std::uint32_t line_shift() const { return line_shift_; }
    std::uint64_t accesses() const { return accesses_; }
    std::uint64_t misses() const { return misses_; }

private:
    // Not the most recent way: find the tag (0 marks an empty way) among
    // the older ones and move it to the front; on a miss the oldest way,
    // the least recently used or an empty one, makes room for it.
    __attribute__((noinline)) bool promote(std::uint64_t set, std::uint64_t tag);

    std::uint64_t set_mask_;
    std::uint32_t line_shift_;
    std::uint32_t ways_;
    std::uint64_t accesses_ = 0;
    std::uint64_t misses_ = 0;
    // sets entries, the most recently used tag of each set, then
    // sets x (ways - 1), each set's other tags, most recent first.
    std::vector<std::uint64_t> tags_;
};

}  // namespace fm::rv
