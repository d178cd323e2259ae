#include "memory.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace fm::rv {

Memory::Memory(std::uint64_t base, std::uint64_t size) : base_(base), size_(size), host_(nullptr) {
    if (size < 4096 || size > (std::uint64_t{1} << 40) || base + size < base)
        throw Fault(FaultCode::BadConfig, 0, "memory size out of range");
    // MAP_NORESERVE: the region is committed page by page as the guest touches
    // it, and pages start zeroed as a fresh Linux process expects.
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        throw Fault(FaultCode::BadConfig, 0,
                    std::string("cannot reserve guest memory: ") + std::strerror(errno));
    host_ = static_cast<std::uint8_t*>(p);
}

Memory::~Memory() {
    if (host_) ::munmap(host_, size_);
}

void Memory::out_of_range(std::uint64_t addr, std::uint64_t n, std::uint64_t pc,
                          const char* what) const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s of %llu bytes at 0x%llx outside memory [0x%llx, 0x%llx)",
                  what, static_cast<unsigned long long>(n), static_cast<unsigned long long>(addr),
                  static_cast<unsigned long long>(base_),
                  static_cast<unsigned long long>(base_ + size_));
    throw Fault(FaultCode::AccessFault, pc, buf, addr);
}

const std::uint8_t* Memory::host(std::uint64_t addr, std::uint64_t n, std::uint64_t pc) const {
    if (!contains(addr, n)) out_of_range(addr, n, pc, "access");
    return host_ + (addr - base_);
}

void Memory::write(std::uint64_t addr, const void* src, std::uint64_t n, std::uint64_t pc) {
    if (n == 0) return;
    if (!contains(addr, n)) out_of_range(addr, n, pc, "store");
    std::memcpy(host_ + (addr - base_), src, n);
}

void Memory::read(std::uint64_t addr, void* dst, std::uint64_t n, std::uint64_t pc) const {
    if (n == 0) return;
    if (!contains(addr, n)) out_of_range(addr, n, pc, "load");
    std::memcpy(dst, host_ + (addr - base_), n);
}

void Memory::zero(std::uint64_t addr, std::uint64_t n, std::uint64_t pc) {
    if (n == 0) return;
    if (!contains(addr, n)) out_of_range(addr, n, pc, "store");
    std::uint8_t* p = host_ + (addr - base_);
    // Large spans go back to the kernel (which re-zeroes them lazily).
    const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
    const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(p) + n) & ~std::uintptr_t{4095};
    if (hi > lo + 65536) {
        std::memset(p, 0, lo - reinterpret_cast<std::uintptr_t>(p));
        ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
        std::memset(reinterpret_cast<void*>(hi), 0, reinterpret_cast<std::uintptr_t>(p) + n - hi);
    } else {
        std::memset(p, 0, n);
    }
}

}  // namespace fm::rv
