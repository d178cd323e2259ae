#include "predictor.hpp"

#include <algorithm>

namespace fm::rv {

Predictor::Predictor(const MachineConfig& cfg)
    : table_mask_((1u << cfg.bp_table_bits) - 1),
      hist_mask_(cfg.gshare ? (1u << cfg.bp_history_bits) - 1 : 0),
      btb_mask_(cfg.btb_entries - 1),
      ctr_max_(static_cast<std::uint8_t>((1u << cfg.counter_bits) - 1)),
      taken_at_(static_cast<std::uint8_t>(1u << (cfg.counter_bits - 1))),
      mispredict_penalty_(cfg.mispredict_penalty),
      btb_miss_penalty_(cfg.btb_miss_penalty) {
    table_.resize(std::size_t{1} << cfg.bp_table_bits);
    btb_pc_.resize(cfg.btb_entries);
    btb_target_.resize(cfg.btb_entries);
    ras_.resize(cfg.ras_entries);
    reset();
}

void Predictor::reset() {
    // Weakly not-taken (2-bit) or not-taken (1-bit).
    std::fill(table_.begin(), table_.end(), static_cast<std::uint8_t>(taken_at_ - 1));
    std::fill(btb_pc_.begin(), btb_pc_.end(), 0);
    std::fill(btb_target_.begin(), btb_target_.end(), 0);
    std::fill(ras_.begin(), ras_.end(), 0);
    history_ = 0;
    ras_top_ = 0;
    ras_count_ = 0;
    branches_ = jumps_ = mispredicts_ = 0;
}

}  // namespace fm::rv
