#include "simulator.hpp"

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdio>

#include "fpu.hpp"

namespace fm::rv {

namespace {
__extension__ typedef unsigned __int128 u128;
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

void Simulator::protect(std::uint64_t lo, std::uint64_t hi) {
    if (hi <= lo) return;
    if (code_len_ == 0 || !mem_.contains(lo, hi - lo))
        throw Fault(FaultCode::BadConfig, 0, "read-only range outside guest memory or before the code range");
    const std::uint64_t plo = lo & ~(kPageSize - 1);
    const std::uint64_t phi = (hi + kPageSize - 1) & ~(kPageSize - 1);
    // Widen the window to cover the range, keeping any decoded pages (a page
    // index is relative to dbase_, so they move by the change of base).
    const std::uint64_t nbase = std::min(dbase_, plo);
    const std::uint64_t nlen = std::max(dbase_ + dlen_, phi) - nbase;
    if (nbase != dbase_ || nlen != dlen_) {
        const std::size_t shift = (dbase_ - nbase) >> kPageShift;
        std::vector<std::unique_ptr<Insn[]>> pages(nlen >> kPageShift);
        std::vector<Insn*> ptrs(pages.size(), nullptr);
        std::vector<std::uint8_t> watch(pages.size() + 1, 0);
        for (std::size_t i = 0; i < dpages_.size(); ++i) {
            pages[i + shift] = std::move(dpages_[i]);
            ptrs[i + shift] = dpage_ptrs_[i];
        }
        for (std::size_t i = 0; i < watch_.size(); ++i) watch[i + shift] = watch_[i];
        dpages_ = std::move(pages);
        dpage_ptrs_ = std::move(ptrs);
        watch_ = std::move(watch);
        dbase_ = nbase;
        dlen_ = nlen;
    }
    for (std::uint64_t a = plo; a < phi; a += kPageSize) watch_[(a - dbase_) >> kPageShift] |= kWatchReadOnly;
}

bool Simulator::writable(std::uint64_t addr, std::uint64_t n) const {
    if (n == 0) return true;
    const std::uint64_t last = addr + n - 1;
    if (last < addr) return false;
    // Only pages inside the window can be read-only.
    const std::uint64_t lo = std::max(addr, dbase_), hi = std::min(last, dbase_ + dlen_ - 1);
    for (std::uint64_t a = lo & ~(kPageSize - 1); lo <= hi && a <= hi; a += kPageSize)
        if (watch_[(a - dbase_) >> kPageShift] & kWatchReadOnly) return false;
    return true;
}

void Simulator::store_fault(std::uint64_t addr, std::uint64_t pc) const {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "store to 0x%llx, a read-only page (an ELF segment without PF_W: code or constants); "
                  "Linux raises SIGSEGV here",
                  static_cast<unsigned long long>(addr));
    throw Fault(FaultCode::AccessFault, pc, buf, addr);
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
        watch_[off >> kPageShift] |= kWatchCode;
        watch_[(off >> kPageShift) + 1] |= kWatchCode;
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
    if (addr - dbase_ < dlen_) {
        // The store has already been made (the fast path does not check
        // first); the run ends here, so nothing observes it.
        if (!writable(addr, n)) store_fault(addr, pc);
        invalidate_code(addr, n);
    }
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
        // Profiles serve the kernels, which run in user mode or bare M mode:
        // no loop is built for a profile under paging.
        if (vm && prof)
            throw Fault(FaultCode::BadConfig, hart_.pc, "a profile is not available under Sv39 paging");
        bool done;
        if (timing_) {
            done = vm ? loop<true, false, true>(max_instret, max_cycles)
                 : prof ? loop<true, true, false>(max_instret, max_cycles)
                        : loop<true, false, false>(max_instret, max_cycles);
        } else {
            done = vm ? loop<false, false, true>(max_instret, max_cycles)
                 : prof ? loop<false, true, false>(max_instret, max_cycles)
                        : loop<false, false, false>(max_instret, max_cycles);
        }
        if (done) break;
    }
    return exited_;
}

}  // namespace fm::rv
