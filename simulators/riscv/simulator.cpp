#include "simulator.hpp"

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdio>

#include "fpu.hpp"

namespace fm::rv {

namespace {
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;
constexpr std::uint64_t kSign64 = 0x8000000000000000ull;
}  // namespace

Simulator::Simulator(Env env, std::uint64_t mem_base, std::uint64_t mem_size,
                     const MachineConfig& machine)
    : env_(env), cfg_(machine), mem_(mem_base, mem_size),
      l1i_(machine.l1i), l1d_(machine.l1d), l2_(machine.l2), bp_(machine) {
    if (env == Env::Machine) hart_.mstatus = std::uint64_t{3} << 11;  // MPP = M
}

void Simulator::set_code_range(std::uint64_t lo, std::uint64_t hi) {
    lo &= ~std::uint64_t{1};
    if (hi <= lo || !mem_.contains(lo, hi - lo))
        throw Fault(FaultCode::BadConfig, 0, "code range outside guest memory");
    code_lo_ = lo;
    code_len_ = hi - lo;
    icache_.assign((code_len_ + 1) / 2, Insn{});
}

void Simulator::set_profile_ranges(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& r) {
    if (r.size() >= 65535) throw Fault(FaultCode::BadConfig, 0, "too many profile ranges");
    ranges_ = r;
    std::sort(ranges_.begin(), ranges_.end());
    profile_.assign(ranges_.empty() ? 0 : ranges_.size() + 1, 0);
    invalidate_all();  // profile buckets are stored in decoded entries
}

Insn& Simulator::fill(Insn& d, std::uint64_t pc) {
    const std::uint16_t lo = mem_.load<std::uint16_t>(pc, pc);
    if ((lo & 3) != 3) {
        const std::uint32_t w = expand_rvc(lo);
        if (w == 0) {
            d = Insn{};
            d.op = Op::ILLEGAL;
            d.raw = lo;
            d.tclass = TClass::System;
        } else {
            decode(w, d);
            d.raw = lo;
        }
        d.len = 2;
    } else {
        const std::uint32_t w = lo | (static_cast<std::uint32_t>(mem_.load<std::uint16_t>(pc + 2, pc)) << 16);
        decode(w, d);
        d.len = 4;
    }
    d.lat = static_cast<std::uint8_t>(std::min<std::uint32_t>(cfg_.lat(d.tclass), 255));
    switch (d.tclass) {
        case TClass::Div: d.unit = 1; break;
        case TClass::FDivS: case TClass::FDivD: case TClass::FSqrtS: case TClass::FSqrtD:
            d.unit = 2;
            break;
        default: d.unit = 0;
    }
    d.func = 0;
    if (!ranges_.empty()) {
        // Last range starting at or before pc; "other" if pc is past its end.
        auto it = std::upper_bound(ranges_.begin(), ranges_.end(),
                                   std::make_pair(pc, ~std::uint64_t{0}));
        std::size_t idx = ranges_.size();
        if (it != ranges_.begin()) {
            --it;
            if (pc < it->second) idx = static_cast<std::size_t>(it - ranges_.begin());
        }
        d.func = static_cast<std::uint16_t>(idx);
    }
    ++decoded_;
    return d;
}

void Simulator::invalidate_code(std::uint64_t addr, std::uint64_t n) {
    // A 4-byte instruction starting 2 bytes before addr also covers it.
    const std::uint64_t lo = addr >= code_lo_ + 2 ? addr - 2 : code_lo_;
    const std::uint64_t hi = std::min(addr + n, code_lo_ + code_len_);
    for (std::uint64_t a = lo & ~std::uint64_t{1}; a < hi; a += 2) icache_[(a - code_lo_) >> 1].op = Op::UNDECODED;
}

void Simulator::invalidate_all() {
    for (Insn& d : icache_) d.op = Op::UNDECODED;
}

void Simulator::misaligned(std::uint64_t pc, std::uint64_t addr) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "misaligned atomic access at 0x%llx",
                  static_cast<unsigned long long>(addr));
    throw Fault(FaultCode::MisalignedAccess, pc, buf, addr);
}

bool Simulator::store_hook(std::uint64_t addr, std::uint64_t n, std::uint64_t pc) {
    if (addr - code_lo_ < code_len_ || addr + n - 1 - code_lo_ < code_len_) invalidate_code(addr, n);
    if ((addr & ~std::uint64_t{7}) != tohost_) return false;
    // HTIF: device in bits 63:56, command in 55:48, payload in 47:0.
    const std::uint64_t v = mem_.load<std::uint64_t>(tohost_, pc);
    if (v == 0) return false;
    const std::uint64_t dev = v >> 56, cmd = (v >> 48) & 0xff, payload = v & 0xffffffffffffull;
    if (dev == 1 && cmd == 1) {  // console putchar
        stdout_.push_back(static_cast<char>(payload & 0xff));
        mem_.store<std::uint64_t>(tohost_, 0, pc);
        return false;
    }
    if (dev == 0 && (payload & 1)) {  // exit: (code << 1) | 1
        exited_ = true;
        exit_code_ = static_cast<int>(payload >> 1);
        return true;
    }
    throw Fault(FaultCode::UnsupportedSyscall, pc, "HTIF request other than exit or putchar", v);
}

std::uint64_t Simulator::sim_ns() const {
    return static_cast<std::uint64_t>(static_cast<u128>(cycles()) * 1000000000u / cfg_.freq_hz);
}

Stats Simulator::stats() const {
    Stats s;
    s.instructions = instret_;
    s.cycles = cycles();
    s.l1i_accesses = l1i_.accesses();
    s.l1i_misses = l1i_.misses();
    s.l1d_accesses = l1d_.accesses();
    s.l1d_misses = l1d_.misses();
    s.l2_accesses = l2_.accesses();
    s.l2_misses = l2_.misses();
    s.branches = bp_.branches();
    s.jumps = bp_.jumps();
    s.mispredicts = bp_.mispredicts();
    s.decoded = decoded_;
    return s;
}

// ---------------------------------------------------------------------------
// The interpreter. One instantiation per (timing, profile) combination, so
// neither costs anything when off. Operations dispatch through a switch on
// the pre-decoded op; the semantics live in exec_*.inc.

#define IMM static_cast<std::uint64_t>(static_cast<std::int64_t>(d.imm))
#define S64(v) static_cast<std::int64_t>(v)
#define S32(v) static_cast<std::int32_t>(static_cast<std::uint32_t>(v))
#define SX32(v) static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)))
#define IS_LINK(r) ((r) == 1 || (r) == 5)

#define BRANCH(cond)                                                              \
    {                                                                             \
        const bool taken_ = (cond);                                               \
        const std::uint64_t target_ = pc + IMM;                                   \
        if constexpr (kTiming) cycle_ += bp_.branch(pc, taken_, target_);         \
        if (taken_) npc = target_;                                                \
        break;                                                                    \
    }

// A load miss stalls the (blocking) pipeline; the value is ready lat cycles later.
#define DLOAD_TIMING(addr)                                                        \
    if constexpr (kTiming) {                                                      \
        const std::uint32_t p_ = mem_penalty(l1d_, (addr));                       \
        if (p_) {                                                                 \
            cycle_ += p_;                                                         \
            ready_[d.dst] = cycle_ + d.lat;                                       \
        }                                                                         \
    }

#define LOAD_X(T)                                                                 \
    {                                                                             \
        const std::uint64_t a_ = x[d.rs1] + IMM;                                  \
        x[d.rd] = static_cast<std::uint64_t>(mem_.load<T>(a_, pc));               \
        DLOAD_TIMING(a_);                                                         \
        break;                                                                    \
    }

// Stores also watch the code range (decode-cache invalidation) and tohost.
#define STORE(T, addr, val)                                                       \
    do {                                                                          \
        const std::uint64_t sa_ = (addr);                                         \
        mem_.store<T>(sa_, static_cast<T>(val), pc);                              \
        if constexpr (kTiming) cycle_ += mem_penalty(l1d_, sa_);                  \
        if (__builtin_expect(sa_ + sizeof(T) - 1 - code_lo < code_len + sizeof(T) - 1 || \
                                 (sa_ & ~std::uint64_t{7}) == tohost_, 0)) {     \
            if (store_hook(sa_, sizeof(T), pc)) goto stop;                        \
        }                                                                         \
    } while (0)

#define RM_CHECK                                                                  \
    const std::uint32_t rm_ = d.rm == 7 ? hart_.frm : d.rm;                       \
    if (rm_ > 4) goto illegal;
#define RM_BEGIN                                                                  \
    RM_CHECK                                                                      \
    const bool sw_ = rm_ != hart_.frm;                                            \
    if (sw_) std::fesetround(fpu::host_round(rm_));
#define RM_END                                                                    \
    if (sw_) std::fesetround(fpu::host_round(hart_.frm));

template <bool kTiming, bool kProfile>
void Simulator::loop(std::uint64_t max_instret, std::uint64_t max_cycles) {
    std::uint64_t* const x = hart_.x;
    std::uint64_t* const f = hart_.f;
    Insn* const cache = icache_.data();
    const std::uint64_t code_lo = code_lo_, code_len = code_len_;
    const std::uint32_t iline_shift = l1i_.line_shift();
    std::uint64_t pc = hart_.pc;
    std::uint64_t instret = instret_;
    std::uint64_t before = 0;
    try {
        while (instret < max_instret) {
            if constexpr (kTiming) {
                if (cycle_ >= max_cycles) break;
            }
            const std::uint64_t off = pc - code_lo;
            if (__builtin_expect(off >= code_len, 0)) {
                char buf[96];
                std::snprintf(buf, sizeof buf, "instruction fetch outside the code range");
                throw Fault(FaultCode::AccessFault, pc, buf, pc);
            }
            Insn& d = cache[off >> 1];
            if (__builtin_expect(d.op == Op::UNDECODED, 0)) fill(d, pc);
            if constexpr (kTiming) {
                before = cycle_;
                const std::uint64_t line = pc >> iline_shift;
                if (line != last_fetch_line_) {
                    last_fetch_line_ = line;
                    cycle_ += mem_penalty(l1i_, pc);
                }
                // Scoreboard: issue when operands are ready and the unit is free.
                std::uint64_t t = cycle_ + 1;
                t = std::max(t, ready_[d.src1]);
                t = std::max(t, ready_[d.src2]);
                t = std::max(t, ready_[d.src3]);
                if (d.unit) {
                    std::uint64_t& free_at = d.unit == 1 ? div_free_ : fdiv_free_;
                    t = std::max(t, free_at);
                    free_at = t + d.lat;
                }
                cycle_ = t;
                ready_[d.dst] = t + d.lat;
            }
            std::uint64_t npc = pc + d.len;
            switch (d.op) {
#include "exec_i.inc"
#include "exec_m.inc"
#include "exec_a.inc"
#include "exec_fd.inc"
#include "exec_system.inc"
                case Op::UNDECODED:
                case Op::ILLEGAL:
                case Op::Count:
                    goto illegal;
            }
        retire:
            x[0] = 0;
            if constexpr (kProfile) profile_[d.func] += kTiming ? cycle_ - before : 1;
            pc = npc;
            ++instret;
            continue;
        illegal:
            npc = trap(kCauseIllegalInstruction, pc, d.raw);
            goto retire;
        stop:
            x[0] = 0;
            if constexpr (kProfile) profile_[d.func] += kTiming ? cycle_ - before : 1;
            pc = npc;
            ++instret;
            break;
        }
    } catch (...) {
        hart_.pc = pc;
        instret_ = instret;
        throw;
    }
    hart_.pc = pc;
    instret_ = instret;
}

bool Simulator::run(std::uint64_t max_instret, std::uint64_t max_cycles) {
    if (exited_) return true;
    if (code_len_ == 0) throw Fault(FaultCode::BadConfig, hart_.pc, "no code range set");
    // The host FPU carries the guest's rounding mode and accrues its flags
    // while we run; both are handed back to the host state on the way out.
    struct FpEnv {
        Hart& h;
        explicit FpEnv(Hart& hh) : h(hh) {
            std::feclearexcept(FE_ALL_EXCEPT);
            std::fesetround(fpu::host_round(h.frm));
        }
        ~FpEnv() {
            h.fflags |= fpu::host_flags();
            std::feclearexcept(FE_ALL_EXCEPT);
            std::fesetround(FE_TONEAREST);
        }
    } fpenv(hart_);
    const bool prof = !profile_.empty();
    if (timing_) {
        if (prof) loop<true, true>(max_instret, max_cycles);
        else loop<true, false>(max_instret, max_cycles);
    } else {
        if (prof) loop<false, true>(max_instret, max_cycles);
        else loop<false, false>(max_instret, max_cycles);
    }
    return exited_;
}

}  // namespace fm::rv
