// Branch prediction: gshare (or bimodal when history_bits = 0 / predictor =
// bimodal) direction predictor with 2-bit (or 1-bit) counters, a direct-mapped BTB for
// targets and a return-address stack. All state starts at fixed values
// (counters weakly not-taken, empty BTB/RAS), so counts are deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "machine_config.hpp"

namespace fm::rv {

class Predictor {
public:
    explicit Predictor(const MachineConfig& cfg);
    void reset();

    // Conditional branch resolved: returns the penalty in cycles. Written
    // without data-dependent branches (selects and arithmetic instead): the
    // host would otherwise mispredict wherever the guest's branches are hard
    // to predict, several times per guest branch.
    std::uint32_t branch(std::uint64_t pc, bool taken, std::uint64_t target) {
        ++branches_;
        const std::uint32_t idx =
            (static_cast<std::uint32_t>(pc >> 1) ^ (history_ & hist_mask_)) & table_mask_;
        std::uint8_t& ctr = table_[idx];
        const std::size_t b = static_cast<std::size_t>(pc >> 1) & btb_mask_;
        // Predicting taken needs a target: without a BTB hit fetch falls through.
        const bool btb_hit = btb_pc_[b] == pc + 1 && btb_target_[b] == target;
        const bool predicted_taken = (ctr >= taken_at_) & btb_hit;
        const unsigned t = taken ? 1u : 0u;
        // Saturating update: up when taken (below the top), down when not (above 0).
        ctr = static_cast<std::uint8_t>(ctr + (t & (ctr < ctr_max_ ? 1u : 0u)) -
                                        ((t ^ 1u) & (ctr > 0 ? 1u : 0u)));
        // A taken branch (re)writes its BTB entry.
        btb_pc_[b] = taken ? pc + 1 : btb_pc_[b];
        btb_target_[b] = taken ? target : btb_target_[b];
        history_ = (history_ << 1) | t;
        const unsigned miss = (predicted_taken != taken) ? 1u : 0u;
        mispredicts_ += miss;
        return miss * mispredict_penalty_;
    }

    // Unconditional direct jump (jal): target known at decode; a BTB miss costs a bubble.
    std::uint32_t jump(std::uint64_t pc, std::uint64_t target, bool is_call, std::uint64_t link) {
        ++jumps_;
        if (is_call) ras_push(link);
        if (btb_hit(pc, target)) return 0;
        btb_set(pc, target);
        return btb_miss_penalty_;
    }

    // Indirect jump (jalr): returns predicted by the RAS, others by the BTB.
    std::uint32_t indirect(std::uint64_t pc, std::uint64_t target, bool is_return, bool is_call,
                           std::uint64_t link) {
        ++jumps_;
        bool hit;
        if (is_return && ras_count_ > 0) {
            ras_top_ = (ras_top_ + static_cast<std::uint32_t>(ras_.size()) - 1) %
                       static_cast<std::uint32_t>(ras_.size());
            --ras_count_;
            hit = ras_[ras_top_] == target;
        } else {
            hit = btb_hit(pc, target);
            btb_set(pc, target);
        }
        if (is_call) ras_push(link);
        if (hit) return 0;
        ++mispredicts_;
        return mispredict_penalty_;
    }

    std::uint64_t branches() const { return branches_; }
    std::uint64_t jumps() const { return jumps_; }
    std::uint64_t mispredicts() const { return mispredicts_; }

private:
    bool btb_hit(std::uint64_t pc, std::uint64_t target) const {
        const std::size_t i = static_cast<std::size_t>(pc >> 1) & btb_mask_;
        return btb_pc_[i] == pc + 1 && btb_target_[i] == target;
    }
    void btb_set(std::uint64_t pc, std::uint64_t target) {
        const std::size_t i = static_cast<std::size_t>(pc >> 1) & btb_mask_;
        btb_pc_[i] = pc + 1;  // +1: 0 marks an empty entry
        btb_target_[i] = target;
    }
    void ras_push(std::uint64_t link) {
        if (ras_.empty()) return;
        // Circular: a full stack overwrites its oldest entry, as hardware RASes do.
        ras_[ras_top_] = link;
        ras_top_ = (ras_top_ + 1) % static_cast<std::uint32_t>(ras_.size());
        if (ras_count_ < ras_.size()) ++ras_count_;
    }

    std::vector<std::uint8_t> table_;
    std::uint32_t table_mask_;
    std::uint32_t hist_mask_;
    std::uint32_t history_ = 0;
    std::vector<std::uint64_t> btb_pc_, btb_target_;
    std::size_t btb_mask_;
    std::vector<std::uint64_t> ras_;
    std::uint32_t ras_top_ = 0;
    std::uint32_t ras_count_ = 0;
    std::uint8_t ctr_max_, taken_at_;  // 2-bit: 3 and 2; 1-bit: 1 and 1
    std::uint32_t mispredict_penalty_;
    std::uint32_t btb_miss_penalty_;
    std::uint64_t branches_ = 0, jumps_ = 0, mispredicts_ = 0;
};

}  // namespace fm::rv
