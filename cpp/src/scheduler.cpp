#include "fm/scheduler.hpp"

#include "fm/errors.hpp"

#include <random>

namespace fm::scheduler {

std::vector<bool> balanced_order(int rounds, uint64_t seed) {
    std::vector<bool> order;
    order.reserve(static_cast<size_t>(std::max(rounds, 0)));
    std::mt19937_64 rng(seed);
    for (int i = 0; i + 1 < rounds; i += 2) {
        const bool ab = (rng() & 1U) == 0;
        order.push_back(ab);   // AB then BA, or BA then AB
        order.push_back(!ab);
    }
    if (rounds % 2 == 1) {
        // With pairs the counts are equal; a lone last round follows the seed.
        order.push_back((rng() & 1U) == 0);
    }
    return order;
}

namespace {

timing::Batch timed(Side& side, Side& other, uint64_t loops) {
    other.suspend();
    side.resume();
    timing::Batch b = side.measure(loops);
    side.suspend();
    return b;
}

}  // namespace

std::vector<Round> run_paired(Side& reference, Side& candidate, const Plan& plan,
                              const Progress& progress, int first_index) {
    if (plan.loops == 0) throw MeasureError("loops must be at least 1");
    if (plan.rounds < 0 || plan.warmup < 0) throw MeasureError("rounds and warmup must be >= 0");
    reference.suspend();
    candidate.suspend();
    for (int w = 0; w < plan.warmup; ++w) {
        // Alternate which side warms first, so neither always runs cold.
        if (w % 2 == 0) {
            timed(reference, candidate, plan.loops);
            timed(candidate, reference, plan.loops);
        } else {
            timed(candidate, reference, plan.loops);
            timed(reference, candidate, plan.loops);
        }
        if (progress) progress(0, plan.rounds);
    }
    const std::vector<bool> order = balanced_order(plan.rounds, plan.seed);
    std::vector<Round> rounds;
    rounds.reserve(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        Round r;
        r.index = first_index + static_cast<int>(i);
        r.reference_first = order[i];
        if (order[i]) {
            r.reference = timed(reference, candidate, plan.loops);
            r.candidate = timed(candidate, reference, plan.loops);
        } else {
            r.candidate = timed(candidate, reference, plan.loops);
            r.reference = timed(reference, candidate, plan.loops);
        }
        rounds.push_back(std::move(r));
        if (progress) progress(static_cast<int>(i) + 1, plan.rounds);
    }
    return rounds;
}

}  // namespace fm::scheduler
