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
    if (env == Env::Machine) {
        hart_.priv = kPrivM;
        hart_.mstatus = ms::kXl64;  // FS off at reset, as on hardware
    } else {
        // A Linux process: U mode with FP state enabled and every user counter
        // (cycle, time, instret) readable.
        hart_.priv = kPrivU;
        hart_.mstatus = ms::kXl64 | ms::FS;
        hart_.mcounteren = hart_.scounteren = 7;
    }
}

void Simulator::set_code_range(std::uint64_t lo, std::uint64_t hi) {
    lo &= ~std::uint64_t{1};
    if (hi <= lo || !mem_.contains(lo, hi - lo))
        throw Fault(FaultCode::BadConfig, 0, "code range outside guest memory");
    code_lo_ = lo;
    code_len_ = hi - lo;
    dbase_ = lo & ~(kPageSize - 1);
    dlen_ = ((hi - dbase_) + kPageSize - 1) & ~(kPageSize - 1);
    dpages_.clear();
    dpages_.resize(dlen_ >> kPageShift);
    dpage_ptrs_.assign(dpages_.size(), nullptr);
    watch_.assign(dpages_.size() + 1, 0);
}

void Simulator::set_profile_ranges(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& r) {
    if (r.size() >= 65535) throw Fault(FaultCode::BadConfig, 0, "too many profile ranges");
    ranges_ = r;
    std::sort(ranges_.begin(), ranges_.end());
    profile_.assign(ranges_.empty() ? 0 : ranges_.size() + 1, 0);
    invalidate_all();  // profile buckets are stored in decoded entries
}

Insn* Simulator::slot(std::uint64_t pa, std::uint64_t pc) {
    const std::uint64_t off = pa - dbase_;
    if (__builtin_expect(pa - code_lo_ >= code_len_, 0)) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "instruction fetch from 0x%llx, outside executable memory [0x%llx, 0x%llx)",
                      static_cast<unsigned long long>(pa), static_cast<unsigned long long>(code_lo_),
                      static_cast<unsigned long long>(code_lo_ + code_len_));
        throw Fault(FaultCode::AccessFault, pc, buf, pa);
    }
    std::unique_ptr<Insn[]>& page = dpages_[off >> kPageShift];
    if (__builtin_expect(!page, 0)) {
        page.reset(new Insn[kPageAlloc]);
        dpage_ptrs_[off >> kPageShift] = page.get();
        page[kPageSlots].op = page[kPageSlots + 1].op = Op::NEXT_PAGE;
        const std::uint64_t page_pa = pa & ~(kPageSize - 1);
        for (std::size_t i = 0; i < kPageAlloc; ++i) {
            bind(page[i]);
            page[i].seq_fetch = seq_fetch(page_pa + 2 * i);
        }
        watch_[off >> kPageShift] = watch_[(off >> kPageShift) + 1] = 1;
    }
    return &page[(off & (kPageSize - 1)) >> 1];
}

Insn& Simulator::fill(Insn& d, std::uint64_t pa, std::uint64_t pc) {
    if (pa - code_lo_ >= code_len_) slot(pa, pc);  // raises the fetch fault
    const std::uint16_t lo = mem_.load<std::uint16_t>(pa, pc);
    if ((lo & 3) != 3) {
        const std::uint32_t w = expand_rvc(lo);
        if (w == 0) {
            d = Insn{};
            d.op = Op::ILLEGAL;
            d.tclass = TClass::System;
        } else {
            decode(w, d);
        }
        d.len = 2;
    } else {
        std::uint64_t hi_pa = pa + 2;
        // In a paged mode the second half may live on another physical page.
        if (((pa + 2) & (kPageSize - 1)) == 0 && vm_mode() && hart_.priv != kPrivM)
            hi_pa = translate(pc + 2, 2, Access::Fetch);
        const std::uint32_t w = lo | (static_cast<std::uint32_t>(mem_.load<std::uint16_t>(hi_pa, pc)) << 16);
        decode(w, d);
        d.len = 4;
    }
    // mstatus.FS gates the F and D instructions: off, they are illegal; on,
    // the first one executed marks the FP state dirty. Any write that changes
    // FS drops the decode cache, so this runs again when it matters.
    if (is_fp_op(d.op)) {
        const std::uint32_t fs = hart_.fs();
        if (fs == kFsOff) {
            d.op = Op::ILLEGAL;
            d.tclass = TClass::System;
            d.src1 = d.src2 = d.src3 = kSlotZero;
            d.dst = kSlotSink;
        } else if (fs != kFsDirty) {
            hart_.mstatus |= ms::FS;
        }
    }
    d.lat = static_cast<std::uint8_t>(std::min<std::uint32_t>(cfg_.lat(d.tclass), 255));
    switch (d.tclass) {
        case TClass::Div: d.unit = 1; break;
        case TClass::FDivS: case TClass::FDivD: case TClass::FSqrtS: case TClass::FSqrtD:
            d.unit = 2;
            break;
        case TClass::Mul: d.unit = cfg_.mul_pipelined && !cfg_.mul_bits_per_cycle ? 0 : 3; break;
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
    bind(d);
    d.seq_fetch = seq_fetch(pa);
    return d;
}

std::uint32_t Simulator::insn_bits(std::uint64_t pa, std::uint64_t pc) const {
    const std::uint32_t lo = mem_.load<std::uint16_t>(pa, pc);
    if ((lo & 3) != 3) return lo;
    return lo | (static_cast<std::uint32_t>(mem_.load<std::uint16_t>(pa + 2, pc)) << 16);
}

void Simulator::rebind_all() {
    for (auto& page : dpages_)
        if (page)
            for (std::size_t i = 0; i < kPageAlloc; ++i) bind(page[i]);
}

void Simulator::invalidate_code(std::uint64_t addr, std::uint64_t n) {
    // A 4-byte instruction starting 2 bytes before addr also covers it.
    const std::uint64_t lo = std::max(addr >= 2 ? addr - 2 : 0, dbase_) & ~std::uint64_t{1};
    const std::uint64_t hi = std::min(addr + n, dbase_ + dlen_);
    for (std::uint64_t a = lo; a < hi; a += 2) {
        const std::uint64_t off = a - dbase_;
        if (Insn* page = dpages_[off >> kPageShift].get()) {
            Insn& d = page[(off & (kPageSize - 1)) >> 1];
            d.op = Op::UNDECODED;
            bind(d);
        }
    }
}

void Simulator::invalidate_all() {
    for (auto& page : dpages_) {
        if (!page) continue;
        for (std::size_t i = 0; i < kPageSlots; ++i) {
            page[i].op = Op::UNDECODED;
            bind(page[i]);
        }
    }
}

void Simulator::misaligned(std::uint64_t pc, std::uint64_t addr) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "misaligned atomic access at 0x%llx",
                  static_cast<unsigned long long>(addr));
    throw Fault(FaultCode::MisalignedAccess, pc, buf, addr);
}

bool Simulator::store_hook(std::uint64_t addr, std::uint64_t n, std::uint64_t pc) {
    if (addr - dbase_ < dlen_) invalidate_code(addr, n);
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
    if (dev == 0 && cmd == 0 && payload) {
        // Syscall proxy (riscv-tests' benchmark runtime, Spike's convention):
        // the payload points at {number, arg0, arg1, arg2}; the result goes
        // back in the first word and fromhost becomes nonzero.
        const std::uint64_t nr = mem_.load<std::uint64_t>(payload, pc);
        const std::uint64_t fd = mem_.load<std::uint64_t>(payload + 8, pc);
        const std::uint64_t buf = mem_.load<std::uint64_t>(payload + 16, pc);
        const std::uint64_t len = mem_.load<std::uint64_t>(payload + 24, pc);
        if (nr != 64) throw Fault(FaultCode::UnsupportedSyscall, pc, "HTIF syscall other than write", nr);
        std::int64_t ret = 0;
        write_fd(static_cast<int>(fd), buf, len, pc, ret);
        mem_.store<std::uint64_t>(payload, static_cast<std::uint64_t>(ret), pc);
        mem_.store<std::uint64_t>(tohost_, 0, pc);
        if (fromhost_ != ~0ull) mem_.store<std::uint64_t>(fromhost_, 1, pc);
        return false;
    }
    throw Fault(FaultCode::UnsupportedSyscall, pc, "HTIF request other than exit, putchar or write", v);
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
// The interpreter. One instantiation per (timing, profile, paging) combination,
// so none of them costs anything when off. Dispatch is threaded: every
// handler ends by jumping straight to the next instruction's handler through
// a table of label addresses (GNU C "labels as values"), which the host's
// branch predictor follows far better than one shared switch. Sequential
// flow walks the decode page slot by slot; control transfers look the target
// up. The semantics live in exec_*.inc.

#define IMM static_cast<std::uint64_t>(static_cast<std::int64_t>(d->imm))
#define S64(v) static_cast<std::int64_t>(v)
#define S32(v) static_cast<std::int32_t>(static_cast<std::uint32_t>(v))
#define SX32(v) static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)))
#define IS_LINK(r) ((r) == 1 || (r) == 5)

// Virtual to physical for a data access (paging instantiation only).
#define XLATE(addr, n, acc)                                                       \
    if constexpr (kVM) (addr) = translate((addr), (n), (acc))

#define BRANCH(cond)                                                              \
    {                                                                             \
        const bool taken_ = (cond);                                               \
        const std::uint64_t target_ = pc + IMM;                                   \
        if constexpr (kTiming) cyc += bp_.branch(pc, taken_, target_);            \
        if (taken_) JUMP(target_);                                                \
        NEXT;                                                                     \
    }

// A load miss stalls the (blocking) pipeline; the value is ready lat cycles later.
#define DLOAD_TIMING(addr)                                                        \
    if constexpr (kTiming) {                                                      \
        const std::uint32_t p_ = mem_penalty(l1d_, (addr));                       \
        if (p_) {                                                                 \
            cyc += p_;                                                            \
            ready_[d->dst] = cyc + d->lat;                                        \
        }                                                                         \
    }

// An iterative unit (machine file div.* and mul.*) finishes when its
// operands say: the result and the unit's next free cycle move from the
// fixed latency the scoreboard charged at issue. The divider produces
// div.bits_per_cycle quotient bits per cycle; the multiplier retires
// mul.bits_per_cycle bits of the multiplier (rs2) and, with early out, stops
// once the rest are zero, which the high-half products (MULH*) never do.
#define ITERATIVE_TIMING(enabled, latency, unit)                                  \
    if constexpr (kTiming) {                                                      \
        if (enabled) {                                                            \
            const std::uint64_t done_ = cyc + (latency);                          \
            ready_[d->dst] = done_;                                               \
            unit_free_[unit] = done_;                                             \
        }                                                                         \
    }
#define DIV_TIMING(a, b, width)                                                   \
    ITERATIVE_TIMING(cfg_.div_bits_per_cycle, div_latency((a), (b), (width)), 1)
#define MUL_TIMING(mplier, width, high)                                           \
    ITERATIVE_TIMING(cfg_.mul_bits_per_cycle, mul_latency((mplier), (width), (high)), 3)
#define ABS64(v) (S64(v) < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v))
#define ABS32(v) (S32(v) < 0 ? 0u - static_cast<std::uint32_t>(v) : static_cast<std::uint32_t>(v))

#define LOAD_X(T)                                                                 \
    {                                                                             \
        std::uint64_t a_ = x[d->rs1] + IMM;                                       \
        XLATE(a_, sizeof(T), Access::Load);                                       \
        x[d->rd] = static_cast<std::uint64_t>(mem_.load<T>(a_, pc));              \
        DLOAD_TIMING(a_);                                                         \
        NEXT;                                                                     \
    }

// Stores to a page holding decoded code invalidate it; stores to tohost talk
// to the host (HTIF).
#define STORE_PA(T, addr, val)                                                    \
    do {                                                                          \
        const std::uint64_t sa_ = (addr);                                         \
        mem_.store<T>(sa_, static_cast<T>(val), pc);                              \
        if constexpr (kTiming) cyc += mem_penalty(l1d_, sa_);                     \
        const std::uint64_t so_ = sa_ - dbase_;                                   \
        if (__builtin_expect((so_ < dlen_ && (watch_[so_ >> kPageShift] | watch_[(so_ + sizeof(T) - 1) >> kPageShift])) || \
                                 (sa_ & ~std::uint64_t{7}) == tohost_, 0)) {      \
            if (store_hook(sa_, sizeof(T), pc)) goto stop;                        \
        }                                                                         \
    } while (0)
#define STORE(T, addr, val)                                                       \
    do {                                                                          \
        std::uint64_t va_ = (addr);                                               \
        XLATE(va_, sizeof(T), Access::Store);                                     \
        STORE_PA(T, va_, val);                                                    \
    } while (0)

#define RM_CHECK                                                                  \
    const std::uint32_t rm_ = d->rm == 7 ? hart_.frm : d->rm;                     \
    if (rm_ > 4) goto illegal;
#define RM_BEGIN                                                                  \
    RM_CHECK                                                                      \
    const bool sw_ = rm_ != hart_.frm;                                            \
    if (sw_) std::fesetround(fpu::host_round(rm_));
#define RM_END                                                                    \
    if (sw_) std::fesetround(fpu::host_round(hart_.frm));

// The environment (syscalls, CSRs, traps) reads the clock from the member.
#define SYNC_CYCLES                                                               \
    do {                                                                          \
        instret_ = instret;                                                       \
        if constexpr (kTiming) cycle_ = cyc;                                      \
    } while (0)

// Fetch: the decode slot for pc (translated in the paging instantiation).
#define LOOKUP(target)                                                            \
    do {                                                                          \
        pc = (target);                                                            \
        if constexpr (kVM) {                                                      \
            const std::uint64_t pa_ = hart_.priv == kPrivM ? pc : translate(pc, 2, Access::Fetch); \
            pa_delta = pa_ - pc;                                                  \
        }                                                                         \
        if constexpr (kVM) {                                                      \
            d = slot(pc + pa_delta, pc);                                          \
        } else {                                                                  \
            /* Fast path: a decoded page inside executable memory. */             \
            const std::uint64_t off_ = pc - dbase_;                               \
            Insn* page_;                                                          \
            if (__builtin_expect(pc - code_lo_ < code_len_ &&                     \
                                     (page_ = dpage_ptrs_[off_ >> kPageShift]) != nullptr, 1)) \
                d = page_ + ((off_ & (kPageSize - 1)) >> 1);                      \
            else                                                                  \
                d = slot(pc, pc);                                                 \
        }                                                                         \
    } while (0)

// Before an instruction: the budgets, then the timing model's fetch (an L1I
// access when the instruction is on another line than the last one), then
// one indirect jump to its handler. After a jump the line is compared; in
// sequential flow the slot's seq_fetch bit says whether the line changed.
#define BUDGET_CHECK                                                              \
    do {                                                                          \
        if (__builtin_expect(instret >= budget_instret_, 0)) goto out;            \
        if constexpr (kTiming) {                                                  \
            if (__builtin_expect(cyc >= budget_cycles_, 0)) goto out;             \
        }                                                                         \
    } while (0)
#define FETCH_LINE_CHANGED()                                                      \
    do {                                                                          \
        last_fetch_line_ = pc >> l1i_.line_shift();                               \
        cyc += mem_penalty(l1i_, pc);                                             \
    } while (0)
#define DISPATCH_AFTER_JUMP                                                       \
    do {                                                                          \
        BUDGET_CHECK;                                                             \
        if constexpr (kTiming) {                                                  \
            if constexpr (kProfile) before = cyc;                                 \
            if ((pc >> l1i_.line_shift()) != last_fetch_line_) FETCH_LINE_CHANGED(); \
        }                                                                         \
        goto* d->handler;                                                         \
    } while (0)
#define DISPATCH_SEQUENTIAL                                                       \
    do {                                                                          \
        BUDGET_CHECK;                                                             \
        if constexpr (kTiming) {                                                  \
            if constexpr (kProfile) before = cyc;                                 \
            if (d->seq_fetch & (LEN == 4 ? 2 : 1)) FETCH_LINE_CHANGED();          \
        }                                                                         \
        goto* d->handler;                                                         \
    } while (0)

// Each handler starts with the timing model's issue (scoreboard, unpipelined
// units). Slots not yet decoded (and the page sentinels) have handlers
// without it, so an instruction is timed once, after it is decoded.
//
// The semantics are included twice, once per instruction length (LEN 4 and
// 2, handlers L_<op>_4 and L_<op>_2), so sequential flow moves to the next
// slot by a constant: the next dispatch does not wait for a load of the
// current instruction's length.
#define OP_4(name) L_##name##_4: TIMING_PROLOGUE(name)
#define OP_2(name) L_##name##_2: TIMING_PROLOGUE(name)
#define TIMING_PROLOGUE(name)                                                     \
    if constexpr (kTiming) {                                                      \
        std::uint64_t t_ = cyc + 1;                                               \
        t_ = std::max(t_, ready_[d->src1]);                                       \
        t_ = std::max(t_, ready_[d->src2]);                                       \
        if constexpr (op_reads_rs3(Op::name)) t_ = std::max(t_, ready_[d->src3]); \
        if constexpr (op_always_unit(Op::name) || op_class(Op::name) == TClass::Mul) { \
            if (op_always_unit(Op::name) || d->unit) {                            \
                std::uint64_t& free_at_ = unit_free_[d->unit];                    \
                t_ = std::max(t_, free_at_);                                      \
                free_at_ = t_ + d->lat;                                           \
            }                                                                     \
        }                                                                         \
        cyc = t_;                                                                 \
        ready_[d->dst] = t_ + d->lat;                                             \
    }

// After an instruction: count it (and charge its function), move on.
#define RETIRE                                                                    \
    ++instret;                                                                    \
    if constexpr (kProfile) profile_[d->func] += kTiming ? cyc - before : 1
#define NEXT                                                                      \
    do {                                                                          \
        RETIRE;                                                                   \
        pc += LEN;                                                                \
        d += LEN / 2;                                                             \
        DISPATCH_SEQUENTIAL;                                                      \
    } while (0)
#define JUMP(target)                                                              \
    do {                                                                          \
        RETIRE;                                                                   \
        LOOKUP(target);                                                           \
        DISPATCH_AFTER_JUMP;                                                      \
    } while (0)
// A jump after which the privilege or translation mode may differ: leave
// this instantiation when it no longer fits.
#define MODE_JUMP(target)                                                         \
    do {                                                                          \
        const std::uint64_t mt_ = (target);                                       \
        if (vm_mode() != kVM) {                                                   \
            RETIRE;                                                               \
            pc = mt_;                                                             \
            goto relaunch;                                                        \
        }                                                                         \
        JUMP(mt_);                                                                \
    } while (0)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"  // computed goto is a GNU extension

template <bool kTiming, bool kProfile, bool kVM>
bool Simulator::loop(std::uint64_t max_instret, std::uint64_t max_cycles) {
    static void* const kLabels4[] = {
#define FM_RV_LABEL(name, cls) &&L_##name##_4,
        FM_RV_OPS(FM_RV_LABEL)
#undef FM_RV_LABEL
    };
    static void* const kLabels2[] = {
#define FM_RV_LABEL(name, cls) &&L_##name##_2,
        FM_RV_OPS(FM_RV_LABEL)
#undef FM_RV_LABEL
    };
    // Decoded slots hold handler addresses of one instantiation: rebind them
    // when another one takes over (timing toggled, paging switched on or off).
    if (labels4_ != kLabels4) {
        labels4_ = kLabels4;
        labels2_ = kLabels2;
        rebind_all();
    }
    // Registers and budgets are reached through `this`, not kept in locals:
    // the loop is one large function and every register it does not pin
    // down is one more for the values that change every instruction (pc,
    // the slot, instret, the clock).
    auto& x = hart_.x;
    auto& f = hart_.f;
    budget_instret_ = max_instret;
    budget_cycles_ = max_cycles;
    std::uint64_t pc = hart_.pc;
    std::uint64_t instret = instret_;
    [[maybe_unused]] std::uint64_t before = 0;
    // The timing model's clock lives in a local (a register, if the compiler
    // can spare one) while the loop runs; cycle_ gets it back before anything
    // outside the loop reads it (SYNC_CYCLES) and whenever the loop is left.
    [[maybe_unused]] std::uint64_t cyc = cycle_;
    std::uint64_t pa_delta = 0;  // physical minus virtual pc on the current page
    Insn* d = nullptr;
    bool relaunched = false;
    try {
        for (;;) {
            try {
                LOOKUP(pc);
                DISPATCH_AFTER_JUMP;
#define LEN 4
#define OP OP_4
#include "exec_i.inc"
#include "exec_m.inc"
#include "exec_a.inc"
#include "exec_fd.inc"
#include "exec_system.inc"
#undef OP
#undef LEN
#define LEN 2
#define OP OP_2
#include "exec_i.inc"
#include "exec_m.inc"
#include "exec_a.inc"
#include "exec_fd.inc"
#include "exec_system.inc"
#undef OP
#undef LEN
            L_UNDECODED_4:
            L_UNDECODED_2:
                fill(*d, pc + pa_delta, pc);
                goto* d->handler;
            L_NEXT_PAGE_4:  // sequential flow ran off the end of a decode page
            L_NEXT_PAGE_2:
                LOOKUP(pc);
                goto* d->handler;
            L_ILLEGAL_4:
            L_ILLEGAL_2:
                TIMING_PROLOGUE(ILLEGAL)
            illegal:
                // The simulator counts an instruction that traps as executed.
                MODE_JUMP(trap(kCauseIllegalInstruction, pc, insn_bits(pc + pa_delta, pc)));
            } catch (const GuestTrap& t) {
                ++instret;
                pc = trap(t.cause, pc, t.tval);
                if (vm_mode() != kVM) goto relaunch;
            }
        }
    stop:
        RETIRE;
        pc += d->len;
        goto out;
    relaunch:
        relaunched = true;
    out:;
    } catch (...) {
        hart_.pc = pc;
        instret_ = instret;
        cycle_ = cyc;
        throw;
    }
    hart_.pc = pc;
    instret_ = instret;
    cycle_ = cyc;
    return !relaunched;
}

#pragma GCC diagnostic pop

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
    // Each call runs until a budget, an exit or a fault; a change of
    // translation mode comes back here to continue in the fitting loop.
    for (;;) {
        const bool vm = vm_mode();
        bool done;
        if (timing_) {
            if (prof) done = vm ? loop<true, true, true>(max_instret, max_cycles)
                                : loop<true, true, false>(max_instret, max_cycles);
            else done = vm ? loop<true, false, true>(max_instret, max_cycles)
                           : loop<true, false, false>(max_instret, max_cycles);
        } else {
            if (prof) done = vm ? loop<false, true, true>(max_instret, max_cycles)
                                : loop<false, true, false>(max_instret, max_cycles);
            else done = vm ? loop<false, false, true>(max_instret, max_cycles)
                           : loop<false, false, false>(max_instret, max_cycles);
        }
        if (done) break;
    }
    return exited_;
}

}  // namespace fm::rv
