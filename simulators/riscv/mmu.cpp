// Sv39 address translation (privileged spec 1.12, section 4.4): three levels
// of 512-entry tables, 4 KiB pages and 2 MiB / 1 GiB superpages. There is no
// TLB: every access walks the tables (paging serves the ISA tests, not the
// timed kernels, and the walk is not charged in cycles). Accessed and dirty
// bits are not set by the hardware: an access that would need them to change
// raises a page fault, which the spec permits (software sets A and D).
#include "simulator.hpp"

namespace fm::rv {

namespace {

constexpr std::uint64_t kPteV = 1, kPteR = 2, kPteW = 4, kPteX = 8, kPteU = 16, kPteA = 64, kPteD = 128;
constexpr std::uint64_t kSatpModeSv39 = 8;
constexpr std::uint64_t kPpnMask = (std::uint64_t{1} << 44) - 1;

std::uint64_t page_fault(Access acc) {
    switch (acc) {
        case Access::Fetch: return kCauseFetchPageFault;
        case Access::Load: return kCauseLoadPageFault;
        case Access::Store: return kCauseStorePageFault;
    }
    return kCauseLoadPageFault;
}

std::uint64_t misaligned_cause(Access acc) {
    return acc == Access::Store ? kCauseMisalignedStore : kCauseMisalignedLoad;
}

}  // namespace

// True when some access of the current mode is translated: fetches below M
// mode, or data accesses whose effective mode (MPRV selects MPP) is below M.
bool Simulator::vm_mode() const {
    const Hart& h = hart_;
    if ((h.satp >> 60) != kSatpModeSv39) return false;
    if (h.priv != kPrivM) return true;
    return (h.mstatus & ms::MPRV) && (h.mstatus & ms::MPP) != ms::MPP;
}

std::uint64_t Simulator::translate(std::uint64_t va, std::uint64_t n, Access acc) {
    const Hart& h = hart_;
    std::uint8_t priv = h.priv;
    if (acc != Access::Fetch && (h.mstatus & ms::MPRV))
        priv = static_cast<std::uint8_t>((h.mstatus & ms::MPP) >> ms::kMppShift);
    if (priv == kPrivM || (h.satp >> 60) != kSatpModeSv39) return va;
    const GuestTrap fault{page_fault(acc), va};
    // Bits 63:39 must all equal bit 38.
    if (static_cast<std::uint64_t>(static_cast<std::int64_t>(va << 25) >> 25) != va) throw fault;
    // A data access that crosses a page would need two translations; the
    // spec lets it raise a misaligned exception instead.
    if (((va & (kPageSize - 1)) + n) > kPageSize) throw GuestTrap{misaligned_cause(acc), va};
    std::uint64_t table = (h.satp & kPpnMask) << kPageShift;
    for (int level = 2; level >= 0; --level) {
        const int shift = kPageShift + 9 * level;
        const std::uint64_t pte_addr = table + ((va >> shift) & 511) * 8;
        if (!mem_.contains(pte_addr, 8)) throw fault;
        const std::uint64_t pte = mem_.load<std::uint64_t>(pte_addr, va);
        if (!(pte & kPteV) || ((pte & kPteW) && !(pte & kPteR))) throw fault;
        const std::uint64_t ppn = (pte >> 10) & kPpnMask;
        if (!(pte & (kPteR | kPteX))) {  // a pointer to the next level
            table = ppn << kPageShift;
            continue;
        }
        // A leaf: permissions for this mode and access.
        const bool user_page = (pte & kPteU) != 0;
        if (priv == kPrivU && !user_page) throw fault;
        if (priv == kPrivS && user_page && (acc == Access::Fetch || !(h.mstatus & ms::SUM))) throw fault;
        switch (acc) {
            case Access::Fetch: if (!(pte & kPteX)) throw fault; break;
            case Access::Load:
                if (!(pte & kPteR) && !((h.mstatus & ms::MXR) && (pte & kPteX))) throw fault;
                break;
            case Access::Store: if (!(pte & kPteW)) throw fault; break;
        }
        // A superpage's physical page number must be aligned to its size.
        const std::uint64_t low_ppn = (std::uint64_t{1} << (9 * level)) - 1;
        if (ppn & low_ppn) throw fault;
        if (!(pte & kPteA) || (acc == Access::Store && !(pte & kPteD))) throw fault;
        const std::uint64_t offset_mask = (std::uint64_t{1} << shift) - 1;
        return ((ppn << kPageShift) & ~offset_mask) | (va & offset_mask);
    }
    throw fault;
}

}  // namespace fm::rv
