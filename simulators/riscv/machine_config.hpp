// A machine description: clock, per-class latencies, branch predictor and
// cache geometry. Parsed from the key = value text files in
// simulators/machines/ (data, not code); unknown keys are an error so a typo
// cannot silently fall back to a default.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "decoder.hpp"

namespace fm::rv {

struct CacheConfig {
    std::uint32_t sets = 64;
    std::uint32_t ways = 8;
    std::uint32_t line = 64;  // bytes
};

struct MachineConfig {
    std::string name = "default";
    std::uint64_t freq_hz = 1000000000;    // simulated clock, for clock_gettime
    std::uint64_t timebase_hz = 10000000;  // the `time` CSR's rate
    std::array<std::uint32_t, static_cast<int>(TClass::Count)> latency{};
    // Branch prediction.
    bool gshare = true;
    std::uint32_t bp_table_bits = 12;
    std::uint32_t bp_history_bits = 8;
    std::uint32_t btb_entries = 64;
    std::uint32_t ras_entries = 8;
    std::uint32_t mispredict_penalty = 3;
    std::uint32_t btb_miss_penalty = 1;  // a correctly-directed jump whose target was not in the BTB
    std::uint32_t counter_bits = 2;      // direction counters: 1 (last outcome) or 2 (saturating)
    // Multiplier: pipelined, or one operation at a time (the unit is busy for
    // the whole latency).
    bool mul_pipelined = true;
    // An iterative multiplier instead (mul_bits_per_cycle > 0): busy for
    // mul_base cycles plus one per mul_bits_per_cycle bits of the multiplier
    // (rs2); with mul_early_out it stops after the highest set bit, except
    // for the high-half products.
    std::uint32_t mul_bits_per_cycle = 0;
    std::uint32_t mul_base = 0;
    bool mul_early_out = false;
    // Divider: div_bits_per_cycle = 0 gives every division latency.div; a
    // positive value models an iterative divider, busy for div_base cycles
    // plus one per div_bits_per_cycle quotient bits. With div_early_out the
    // quotient bits are those the operands can produce (bit length of the
    // dividend minus that of the divisor, plus one), else the full width.
    std::uint32_t div_bits_per_cycle = 0;
    std::uint32_t div_base = 0;
    bool div_early_out = false;
    // An AMO holds the pipeline for amo_occupancy cycles from its issue (the
    // read, the AMO ALU and the write of a read-modify-write in the data
    // cache), so it never costs less than the load/op/store it replaces
    // unless a machine file says the core does better.
    std::uint32_t amo_occupancy = 1;
    // A load or store that is not naturally aligned costs misaligned_penalty
    // more cycles (0: the hardware handles it; a core that traps to M-mode
    // software charges the trap-and-emulate time) and touches every cache
    // line it covers.
    std::uint32_t misaligned_penalty = 0;
    // Memory hierarchy. Latencies are added on top of the load-use latency.
    CacheConfig l1i{64, 4, 64};
    CacheConfig l1d{64, 8, 64};
    CacheConfig l2{2048, 16, 64};
    std::uint32_t l2_latency = 12;    // L1 miss that hits L2
    std::uint32_t mem_latency = 100;  // L2 miss

    MachineConfig();
    std::uint32_t lat(TClass c) const { return latency[static_cast<int>(c)]; }
};

// Parse "key = value" lines ('#' starts a comment) over the defaults.
// Throws Fault(BadConfig) naming the line on unknown keys or bad values.
MachineConfig parse_machine(const std::string& text);

}  // namespace fm::rv
