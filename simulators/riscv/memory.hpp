// Guest memory: one flat, bounds-checked region [base, base + size) backed by
// a lazily committed host mapping, so untouched pages cost nothing. Every
// access is checked with a single unsigned compare; an access outside the
// region raises Fault(AccessFault) naming the PC and the address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fault.hpp"

namespace fm::rv {

class Memory {
public:
    Memory(std::uint64_t base, std::uint64_t size);
    ~Memory();
    Memory(const Memory&) = delete;
    Memory& operator=(const Memory&) = delete;

    std::uint64_t base() const { return base_; }
    std::uint64_t size() const { return size_; }
    std::uint64_t end() const { return base_ + size_; }

    bool contains(std::uint64_t addr, std::uint64_t n) const {
        return addr - base_ <= size_ - n && addr >= base_;
    }

    template <class T>
    T load(std::uint64_t addr, std::uint64_t pc) const {
        const std::uint64_t off = addr - base_;
        if (__builtin_expect(off > size_ - sizeof(T), 0)) out_of_range(addr, sizeof(T), pc, "load");
        T v;
        std::memcpy(&v, host_ + off, sizeof(T));
        return v;
    }

    template <class T>
    void store(std::uint64_t addr, T v, std::uint64_t pc) {
        const std::uint64_t off = addr - base_;
        if (__builtin_expect(off > size_ - sizeof(T), 0)) out_of_range(addr, sizeof(T), pc, "store");
        std::memcpy(host_ + off, &v, sizeof(T));
    }

    // Bulk copies for the loader and syscalls; they fault like guest accesses.
    void write(std::uint64_t addr, const void* src, std::uint64_t n, std::uint64_t pc = 0);
    void read(std::uint64_t addr, void* dst, std::uint64_t n, std::uint64_t pc = 0) const;
    void zero(std::uint64_t addr, std::uint64_t n, std::uint64_t pc = 0);
    // Host pointer for an in-range span (used by the decoder and syscalls).
    const std::uint8_t* host(std::uint64_t addr, std::uint64_t n, std::uint64_t pc = 0) const;

    [[noreturn]] void out_of_range(std::uint64_t addr, std::uint64_t n, std::uint64_t pc,
                                   const char* what) const;

private:
    std::uint64_t base_;
    std::uint64_t size_;
    std::uint8_t* host_;
};

}  // namespace fm::rv
