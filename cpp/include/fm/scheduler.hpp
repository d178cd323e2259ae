// Paired, interleaved measurement of two sides: the reference and the candidate.
//
// Both sides run the same number of loops per batch (separate counts bias the
// ratio). Rounds come in balanced pairs, AB BA or BA AB, chosen by a seeded
// generator, so drift and order effects cancel. While one side is timed the
// other is suspended, so it cannot steal CPU or warm shared caches.
#pragma once

#include "fm/timing.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fm::scheduler {

// One side of a comparison. Implementations: a command (one process per
// batch), a callable in this process, a long-lived worker process.
class Side {
public:
    virtual ~Side() = default;
    virtual timing::Batch measure(uint64_t loops) = 0;
    virtual void suspend() {}
    virtual void resume() {}
};

struct Plan {
    uint64_t loops = 1;
    int warmup = 1;      // per side, untimed, in alternating order
    int rounds = 20;     // each round times both sides once
    uint64_t seed = 0;
};

struct Round {
    int index = 0;
    bool reference_first = true;
    timing::Batch reference;
    timing::Batch candidate;
};

// reference_first flags for `rounds` rounds: consecutive pairs are mirror
// images (AB BA or BA AB), the choice per pair drawn from `seed`.
// An odd final round takes the order that balances the counts so far.
std::vector<bool> balanced_order(int rounds, uint64_t seed);

// Called between batches; may throw to stop (e.g. on Ctrl-C). Receives
// (rounds done, rounds planned).
using Progress = std::function<void(int, int)>;

// Runs warm-up then the planned rounds. Each side is resumed just before its
// batch and suspended right after, so exactly one side is runnable at a time.
std::vector<Round> run_paired(Side& reference, Side& candidate, const Plan& plan,
                              const Progress& progress = {}, int first_index = 0);

}  // namespace fm::scheduler
