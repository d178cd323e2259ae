// The simulator: one RV64IMAFDC hart, its memory, an execution environment
// (Linux user mode or bare-metal machine mode) and an optional timing model.
//
// run() interprets pre-decoded instructions until the program exits, a fault
// is raised, or the instruction/cycle budget is reached. Everything that
// decides a cycle count is a function of the program, its input and the
// machine description — never of host time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cache.hpp"
#include "decoder.hpp"
#include "fault.hpp"
#include "hart.hpp"
#include "machine_config.hpp"
#include "memory.hpp"
#include "predictor.hpp"

namespace fm::rv {

enum class Env : std::uint8_t { User, Machine };

// A synchronous exception the guest handles itself (page fault, ...): thrown
// from deep inside an access, caught by the interpreter loop, which enters
// the trap handler. Faults that end the run are fm::rv::Fault.
struct GuestTrap {
    std::uint64_t cause;
    std::uint64_t tval;
};

enum class Access : std::uint8_t { Fetch, Load, Store };

struct Stats {
    std::uint64_t instructions = 0;
    std::uint64_t cycles = 0;
    std::uint64_t l1i_accesses = 0, l1i_misses = 0;
    std::uint64_t l1d_accesses = 0, l1d_misses = 0;
    std::uint64_t l2_accesses = 0, l2_misses = 0;
    std::uint64_t branches = 0, jumps = 0, mispredicts = 0;
    std::uint64_t decoded = 0;  // decode-cache fills (decode once, execute many)
};

class Simulator {
public:
    Simulator(Env env, std::uint64_t mem_base, std::uint64_t mem_size, const MachineConfig& machine);

    Memory& memory() { return mem_; }
    Hart& hart() { return hart_; }
    const MachineConfig& machine() const { return cfg_; }

    // Executable memory [lo, hi): instructions are fetched (and decoded once,
    // into a decode cache allocated page by page) only from here; a fetch
    // outside it faults. Machine-mode programs pass the whole memory, so code
    // they write at run time executes after fence.i like any other.
    void set_code_range(std::uint64_t lo, std::uint64_t hi);
    // User mode: the pages overlapping [lo, hi) are read-only, as Linux maps
    // an ELF segment without PF_W (.text, .rodata). A store to them (or a
    // read(2) into them) is a fault naming the address, as SIGSEGV is under
    // Linux. Call after set_code_range. The check costs nothing per store:
    // these pages join the watched window that stores to decoded code
    // already leave the fast path for.
    void protect(std::uint64_t lo, std::uint64_t hi);
    // False when any byte of [addr, addr + n) lies on a read-only page.
    bool writable(std::uint64_t addr, std::uint64_t n) const;
    void set_timing(bool on) { timing_ = on; }
    bool timing() const { return timing_; }
    // Function ranges [lo, hi) for the cycle profile, one bucket each plus "other".
    void set_profile_ranges(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges);
    // Machine mode: the HTIF tohost word (0 = none).
    void set_tohost(std::uint64_t addr) { tohost_ = addr ? addr : ~0ull; }
    // Machine mode: the HTIF fromhost word, set to 1 when a proxied syscall is done.
    void set_fromhost(std::uint64_t addr) { fromhost_ = addr ? addr : ~0ull; }
    // User mode: stdin bytes, program break start and the mmap area [lo, hi).
    void set_stdin(std::string data) { stdin_ = std::move(data); stdin_pos_ = 0; }
    void set_brk(std::uint64_t addr) { brk_start_ = brk_ = brk_high_ = addr; }
    void set_mmap_area(std::uint64_t lo, std::uint64_t hi) { mmap_lo_ = lo; mmap_top_ = hi; }
    void set_output_limit(std::uint64_t bytes) { output_limit_ = bytes; }

    // Runs until exit, fault, instret >= max_instret or cycles >= max_cycles.
    // Returns true once the program has exited.
    bool run(std::uint64_t max_instret, std::uint64_t max_cycles);

    bool exited() const { return exited_; }
    int exit_code() const { return exit_code_; }  // negative: killed by that signal
    const std::string& stdout_data() const { return stdout_; }
    const std::string& stderr_data() const { return stderr_; }
    Stats stats() const;
    std::uint64_t instret() const { return instret_; }
    std::uint64_t cycles() const { return timing_ ? cycle_ : instret_; }
    // Per-range profile: cycles (timing on) or instructions (off); last = other.
    const std::vector<std::uint64_t>& profile() const { return profile_; }
    std::uint64_t fflags();  // guest fflags, folding in the host's sticky flags

private:
    static constexpr int kPageShift = 12;
    static constexpr std::uint64_t kPageSize = std::uint64_t{1} << kPageShift;
    // Decode slots per page: one per halfword, plus two sentinels (NEXT_PAGE)
    // that sequential execution runs into when it leaves the page.
    static constexpr std::size_t kPageSlots = kPageSize / 2;
    static constexpr std::size_t kPageAlloc = kPageSlots + 2;

    // Returns false when the loop stopped only because the translation mode
    // changed (run() then continues in the other instantiation).
    template <bool kTiming, bool kProfile, bool kVM>
    bool loop(std::uint64_t max_instret, std::uint64_t max_cycles);

    // The decode slot for physical address pa (allocating its page).
    Insn* slot(std::uint64_t pa, std::uint64_t pc);
    Insn& fill(Insn& d, std::uint64_t pa, std::uint64_t pc);
    // Point a slot at its op's handler, for its length, in the running loop.
    void bind(Insn& d) const {
        void* const* table = d.len == 2 ? labels2_ : labels4_;
        d.handler = table ? table[static_cast<int>(d.op)] : nullptr;
    }
    void rebind_all();
    std::uint32_t insn_bits(std::uint64_t pa, std::uint64_t pc) const;  // the word at pa, for tval
    // Insn::seq_fetch for an address: does stepping onto it from the
    // instruction before (2 or 4 bytes long) enter a new I-cache line?
    std::uint8_t seq_fetch(std::uint64_t addr) const {
        const std::uint64_t off = addr & ((std::uint64_t{1} << l1i_.line_shift()) - 1);
        return static_cast<std::uint8_t>((off < 2 ? 1 : 0) | (off < 4 ? 2 : 0));
    }
    void invalidate_code(std::uint64_t addr, std::uint64_t n);
    void invalidate_all();
    bool store_hook(std::uint64_t addr, std::uint64_t n, std::uint64_t pc);
    // Traps (trap.cpp): exception entry with delegation, returns the handler's pc.
    std::uint64_t trap(std::uint64_t cause, std::uint64_t pc, std::uint64_t tval);
    std::uint64_t mret();
    std::uint64_t sret();
    // Sv39 (mmu.cpp): virtual to physical, or GuestTrap with a page fault.
    bool vm_mode() const;
    std::uint64_t translate(std::uint64_t va, std::uint64_t n, Access acc);
    void write_status(std::uint64_t value, std::uint64_t mask);
    // Zicsr access; false means the CSR does not exist here (illegal instruction).
    bool csr_read(std::uint32_t csr, std::uint64_t& out);
    bool csr_write(std::uint32_t csr, std::uint64_t value);
    static bool csr_changes_mode(std::uint32_t csr);
    [[noreturn]] void misaligned(std::uint64_t pc, std::uint64_t addr);
    bool syscall(std::uint64_t pc);  // true when the program exited
    void write_fd(int fd, std::uint64_t addr, std::uint64_t n, std::uint64_t pc, std::int64_t& ret);
    void set_frm(std::uint32_t frm);
    std::uint64_t sim_ns() const;

    // An iterative divider's latency for these operand magnitudes (see MachineConfig).
    std::uint32_t div_latency(std::uint64_t a, std::uint64_t b, std::uint32_t width) const {
        std::uint32_t qbits = width;
        if (cfg_.div_early_out) {
            const auto bitlen = [](std::uint64_t v) { return v ? 64u - static_cast<std::uint32_t>(__builtin_clzll(v)) : 0u; };
            const std::uint32_t la = bitlen(a), lb = bitlen(b);
            qbits = (b == 0 || la < lb) ? 0 : la - lb + 1;
        }
        const std::uint32_t l = cfg_.div_base + (qbits + cfg_.div_bits_per_cycle - 1) / cfg_.div_bits_per_cycle;
        return l ? l : 1;
    }

    std::uint32_t mul_latency(std::uint64_t mplier, std::uint32_t width, bool high) const {
        std::uint32_t bits = width;
        if (cfg_.mul_early_out && !high)
            bits = mplier ? 64u - static_cast<std::uint32_t>(__builtin_clzll(mplier)) : 0u;
        const std::uint32_t l = cfg_.mul_base + (bits + cfg_.mul_bits_per_cycle - 1) / cfg_.mul_bits_per_cycle;
        return l ? l : 1;
    }

    // Extra cycles of an access of n bytes at addr that is not naturally
    // aligned: the machine's penalty plus the second cache line, when the
    // access crosses into one (the first was charged as for any access).
    std::uint32_t misaligned_cost(std::uint64_t addr, std::uint32_t n) {
        const std::uint32_t shift = l1d_.line_shift();
        std::uint32_t c = cfg_.misaligned_penalty;
        if ((addr >> shift) != ((addr + n - 1) >> shift)) c += mem_penalty(l1d_, addr + n - 1);
        return c;
    }

    // Cycles an access to addr stalls: 0 on an L1 hit (inlined, the common
    // case), else the L2 or memory latency.
    __attribute__((always_inline)) std::uint32_t mem_penalty(Cache& l1, std::uint64_t addr) {
        if (__builtin_expect(l1.access(addr), 1)) return 0;
        return l2_.access(addr) ? cfg_.l2_latency : cfg_.l2_latency + cfg_.mem_latency;
    }

    Env env_;
    MachineConfig cfg_;
    Memory mem_;
    Hart hart_;
    bool timing_ = true;

    // Decode cache over executable memory [code_lo_, code_lo_ + code_len_),
    // in pages of kPageAlloc slots over the window [dbase_, dbase_ + dlen_)
    // (code_lo_ rounded down to a page, widened to cover the read-only
    // pages). watch_[p] has kWatchCode when page p or p - 1 holds decoded
    // code, so a store there must invalidate (an instruction may straddle
    // the boundary), and kWatchReadOnly when page p may not be written.
    std::vector<std::unique_ptr<Insn[]>> dpages_;
    std::vector<Insn*> dpage_ptrs_;  // the same pages, for the interpreter's inline lookup
    // Handler tables (4- and 2-byte instructions) of the loop instantiation last run.
    void* const* labels4_ = nullptr;
    void* const* labels2_ = nullptr;
    static constexpr std::uint8_t kWatchCode = 1, kWatchReadOnly = 2;
    std::vector<std::uint8_t> watch_;
    [[noreturn]] void store_fault(std::uint64_t addr, std::uint64_t pc) const;
    std::uint64_t code_lo_ = 0, code_len_ = 0, dbase_ = 0, dlen_ = 0;
    std::uint64_t decoded_ = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;
    std::vector<std::uint64_t> profile_;

    std::uint64_t instret_ = 0;
    std::uint64_t budget_instret_ = 0, budget_cycles_ = 0;  // of the running loop() call
    // Timing model state.
    std::uint64_t cycle_ = 0;
    std::uint64_t ready_[kSlots] = {};
    // Busy-until cycle of the unpipelined units (Insn::unit): 1 integer
    // divider, 2 FP divide/sqrt, 3 multiplier (when not pipelined).
    std::uint64_t unit_free_[4] = {};
    std::uint64_t last_fetch_line_ = ~0ull;
    Cache l1i_, l1d_, l2_;
    Predictor bp_;

    // Environment.
    std::uint64_t tohost_ = ~0ull, fromhost_ = ~0ull;
    bool exited_ = false;
    int exit_code_ = 0;
    std::string stdin_;
    std::size_t stdin_pos_ = 0;
    std::string stdout_, stderr_;
    std::uint64_t output_limit_ = 64ull << 20;
    std::uint64_t brk_start_ = 0, brk_ = 0, brk_high_ = 0;
    std::uint64_t mmap_lo_ = 0, mmap_top_ = 0;
    std::uint64_t rng_state_ = 0x9e3779b97f4a7c15ull;
};

}  // namespace fm::rv
