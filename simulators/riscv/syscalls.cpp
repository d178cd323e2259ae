// Linux user-mode system calls (riscv64 numbers, asm-generic ABI): enough for
// statically linked musl/glibc programs that read stdin, write stdout/stderr,
// allocate memory and ask for the time. Time comes from the simulated cycle
// count and randomness from a fixed-seed generator, so a run is a pure
// function of (program, input, machine). Anything else stops the run with a
// typed fault naming the syscall number and the PC.
#include <cstdio>
#include <cstring>

#include "simulator.hpp"

namespace fm::rv {

namespace {

constexpr std::int64_t kEPERM = 1, kENOENT = 2, kEBADF = 9, kENOMEM = 12, kEFAULT = 14,
                       kEINVAL = 22, kENOTTY = 25, kESPIPE = 29, kENOSYS = 38, kEAGAIN = 11;
constexpr std::uint64_t kPage = 4096;
// Simulated wall clock starts at 2026-01-01T00:00:00Z.
constexpr std::uint64_t kEpochSeconds = 1767225600;

std::uint64_t page_up(std::uint64_t v) { return (v + kPage - 1) & ~(kPage - 1); }

}  // namespace

void Simulator::write_fd(int fd, std::uint64_t addr, std::uint64_t n, std::uint64_t pc,
                         std::int64_t& ret) {
    if (fd != 1 && fd != 2) {
        ret = -kEBADF;
        return;
    }
    std::string& out = fd == 1 ? stdout_ : stderr_;
    ret = 0;
    if (n == 0) return;  // musl's writev passes an empty {NULL, 0} first
    if (out.size() + n > output_limit_)
        throw Fault(FaultCode::UnsupportedSyscall, pc, "output limit exceeded", 64);
    const std::uint8_t* p = mem_.host(addr, n, pc);
    out.append(reinterpret_cast<const char*>(p), n);
    ret = static_cast<std::int64_t>(n);
}

bool Simulator::syscall(std::uint64_t pc) {
    std::uint64_t* a = hart_.x + 10;  // a0..a5
    const std::uint64_t nr = hart_.x[17];
    std::int64_t ret = 0;
    switch (nr) {
        case 93:   // exit
        case 94:   // exit_group
            exited_ = true;
            exit_code_ = static_cast<int>(a[0] & 0xff);
            return true;
        case 63: {  // read
            if (a[0] != 0) { ret = -kEBADF; break; }
            const std::uint64_t n = std::min<std::uint64_t>(a[2], stdin_.size() - stdin_pos_);
            if (!writable(a[1], n)) { ret = -kEFAULT; break; }  // into code or constants, as Linux
            mem_.write(a[1], stdin_.data() + stdin_pos_, n, pc);
            stdin_pos_ += n;
            ret = static_cast<std::int64_t>(n);
            break;
        }
        case 65: {  // readv
            if (a[0] != 0) { ret = -kEBADF; break; }
            for (std::uint64_t i = 0; i < a[2]; ++i) {
                const std::uint64_t base = mem_.load<std::uint64_t>(a[1] + 16 * i, pc);
                const std::uint64_t len = mem_.load<std::uint64_t>(a[1] + 16 * i + 8, pc);
                const std::uint64_t n = std::min<std::uint64_t>(len, stdin_.size() - stdin_pos_);
                if (!writable(base, n)) { ret = ret ? ret : -kEFAULT; break; }
                mem_.write(base, stdin_.data() + stdin_pos_, n, pc);
                stdin_pos_ += n;
                ret += static_cast<std::int64_t>(n);
                if (n < len) break;
            }
            break;
        }
        case 64:  // write
            write_fd(static_cast<int>(a[0]), a[1], a[2], pc, ret);
            break;
        case 66: {  // writev
            for (std::uint64_t i = 0; i < a[2]; ++i) {
                const std::uint64_t base = mem_.load<std::uint64_t>(a[1] + 16 * i, pc);
                const std::uint64_t len = mem_.load<std::uint64_t>(a[1] + 16 * i + 8, pc);
                std::int64_t r = 0;
                write_fd(static_cast<int>(a[0]), base, len, pc, r);
                if (r < 0) { ret = r; break; }
                ret += r;
            }
            break;
        }
        case 214: {  // brk
            const std::uint64_t want = a[0];
            if (want >= brk_start_ && want <= mmap_lo_) {
                // Memory given back and taken again must read as zero.
                const std::uint64_t dirty_end = std::min(want, brk_high_);
                if (dirty_end > brk_) mem_.zero(brk_, dirty_end - brk_, pc);
                brk_ = want;
                brk_high_ = std::max(brk_high_, brk_);
            }
            ret = static_cast<std::int64_t>(brk_);
            break;
        }
        case 222: {  // mmap(addr, len, prot, flags, fd, off)
            const std::uint64_t flags = a[3];
            if (!(flags & 0x20)) throw Fault(FaultCode::UnsupportedSyscall, pc, "mmap of a file", nr);
            if (a[1] == 0) { ret = -kEINVAL; break; }
            const std::uint64_t len = page_up(a[1]);
            if (flags & 0x10) {  // MAP_FIXED inside guest memory
                if (!mem_.contains(a[0], len) || (a[0] & (kPage - 1))) { ret = -kEINVAL; break; }
                // Not over the program's code or read-only pages: Linux would
                // replace them, the decode cache would not see it. Refused.
                if (a[0] < dbase_ + dlen_ && a[0] + len > dbase_) { ret = -kEINVAL; break; }
                mem_.zero(a[0], len, pc);
                ret = static_cast<std::int64_t>(a[0]);
                break;
            }
            const std::uint64_t page_brk = page_up(brk_);
            if (len > mmap_top_ || mmap_top_ - len < page_brk || mmap_top_ - len < mmap_lo_) {
                ret = -kENOMEM;
                break;
            }
            mmap_top_ -= len;
            mem_.zero(mmap_top_, len, pc);
            ret = static_cast<std::int64_t>(mmap_top_);
            break;
        }
        case 215:  // munmap: reclaim only the most recent mapping (a bump allocator)
            if (a[0] == mmap_top_) mmap_top_ += page_up(a[1]);
            ret = 0;
            break;
        case 216: ret = -kENOMEM; break;  // mremap: musl falls back to malloc+copy
        case 226: case 233: ret = 0; break;  // mprotect, madvise
        case 113: case 169: {  // clock_gettime(clk, ts), gettimeofday(tv, tz)
            const std::uint64_t ns = sim_ns();
            const std::uint64_t addr = nr == 113 ? a[1] : a[0];
            if (addr) {
                const bool realtime = nr == 169 || a[0] == 0 || a[0] == 5;
                const std::uint64_t sec = ns / 1000000000u + (realtime ? kEpochSeconds : 0);
                const std::uint64_t sub = nr == 113 ? ns % 1000000000u : (ns % 1000000000u) / 1000u;
                mem_.store<std::uint64_t>(addr, sec, pc);
                mem_.store<std::uint64_t>(addr + 8, sub, pc);
            }
            break;
        }
        case 114:  // clock_getres
            if (a[1]) {
                mem_.store<std::uint64_t>(a[1], 0, pc);
                mem_.store<std::uint64_t>(a[1] + 8, 1, pc);
            }
            break;
        case 278: {  // getrandom: deterministic xorshift stream
            for (std::uint64_t i = 0; i < a[1]; ++i) {
                rng_state_ ^= rng_state_ << 13;
                rng_state_ ^= rng_state_ >> 7;
                rng_state_ ^= rng_state_ << 17;
                mem_.store<std::uint8_t>(a[0] + i, static_cast<std::uint8_t>(rng_state_ >> 24), pc);
            }
            ret = static_cast<std::int64_t>(a[1]);
            break;
        }
        case 160: {  // uname: six 65-byte fields
            static const char* const kFields[6] = {"Linux", "frontier-sim", "6.1.0",
                                                   "#1 SMP frontier-measure", "riscv64", "(none)"};
            char buf[6 * 65] = {};
            for (int i = 0; i < 6; ++i) std::strncpy(buf + 65 * i, kFields[i], 64);
            mem_.write(a[0], buf, sizeof buf, pc);
            break;
        }
        case 29:  // ioctl: no terminal here (TIOCGWINSZ and the rest)
            ret = -kENOTTY;
            break;
        case 96: case 172: case 178: ret = 1000; break;  // set_tid_address, getpid, gettid
        case 173: ret = 1; break;                         // getppid
        case 174: case 175: case 176: case 177: ret = 0; break;  // get[e]uid, get[e]gid
        case 99: case 132: case 134: case 135: ret = 0; break;  // robust list, sigaltstack, sigaction, sigprocmask
        case 124: case 101: case 115: ret = 0; break;  // sched_yield, nanosleep, clock_nanosleep
        case 98:  // futex: single thread, nothing ever waits
            ret = (a[1] & 0x7f) == 0 ? -kEAGAIN : 0;
            break;
        case 261:  // prlimit64: report "unlimited"
            if (a[3]) {
                mem_.store<std::uint64_t>(a[3], ~0ull, pc);
                mem_.store<std::uint64_t>(a[3] + 8, ~0ull, pc);
            }
            break;
        case 129: case 130: case 131: {  // kill, tkill, tgkill: a signal to ourselves ends the run
            const std::uint64_t sig = nr == 131 ? a[2] : a[1];
            if (sig == 0) break;
            exited_ = true;
            exit_code_ = -static_cast<int>(sig);
            return true;
        }
        case 56: case 78: case 79: ret = -kENOENT; break;  // openat, readlinkat, newfstatat
        case 57: ret = a[0] <= 2 ? 0 : -kEBADF; break;      // close
        case 62: ret = -kESPIPE; break;                      // lseek
        case 80: {  // fstat: stdin/stdout/stderr are character devices
            if (a[0] > 2) { ret = -kEBADF; break; }
            std::uint8_t st[128] = {};
            const std::uint32_t mode = 0020620;  // S_IFCHR | 0620
            std::memcpy(st + 16, &mode, 4);
            mem_.write(a[1], st, sizeof st, pc);
            break;
        }
        case 123: {  // sched_getaffinity: one CPU (allocators size their arenas by it)
            if (a[1] < 8) { ret = -kEINVAL; break; }
            mem_.zero(a[2], a[1], pc);
            mem_.store<std::uint8_t>(a[2], 1, pc);
            ret = 8;
            break;
        }
        case 122: ret = 0; break;  // sched_setaffinity
        case 258: ret = -kENOSYS; break;  // riscv_hwprobe
        case 259: invalidate_all(); break;  // riscv_flush_icache
        case 283: ret = -kENOSYS; break;   // membarrier
        default: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "syscall %llu", static_cast<unsigned long long>(nr));
            throw Fault(FaultCode::UnknownSyscall, pc, buf, nr);
        }
    }
    (void)kEPERM;
    a[0] = static_cast<std::uint64_t>(ret);
    return false;
}

}  // namespace fm::rv
