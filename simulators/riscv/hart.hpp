// Architectural state of one hart: integer and FP registers, pc, the FP
// control/status fields, the privilege mode and the machine- and
// supervisor-mode CSRs (privileged spec 1.12: M, S and U modes, Sv39).
#pragma once

#include <cstdint>

namespace fm::rv {

// Exception causes (privileged spec, mcause/scause values).
enum TrapCause : std::uint64_t {
    kCauseMisalignedFetch = 0,
    kCauseIllegalInstruction = 2,
    kCauseBreakpoint = 3,
    kCauseMisalignedLoad = 4,
    kCauseMisalignedStore = 6,
    kCauseEcallU = 8,
    kCauseEcallS = 9,
    kCauseEcallM = 11,
    kCauseFetchPageFault = 12,
    kCauseLoadPageFault = 13,
    kCauseStorePageFault = 15,
};

// Privilege modes as encoded in mstatus.MPP.
enum Priv : std::uint8_t { kPrivU = 0, kPrivS = 1, kPrivM = 3 };

// mstatus fields used by the simulator.
namespace ms {
constexpr std::uint64_t SIE = 1u << 1, MIE = 1u << 3, SPIE = 1u << 5, MPIE = 1u << 7;
constexpr std::uint64_t SPP = 1u << 8;
constexpr int kMppShift = 11;
constexpr std::uint64_t MPP = 3u << kMppShift;
constexpr int kFsShift = 13;
constexpr std::uint64_t FS = 3u << kFsShift;
constexpr std::uint64_t XS = 3u << 15;
constexpr std::uint64_t MPRV = 1u << 17, SUM = 1u << 18, MXR = 1u << 19;
constexpr std::uint64_t TVM = 1u << 20, TW = 1u << 21, TSR = 1u << 22;
constexpr std::uint64_t UXL = std::uint64_t{3} << 32, SXL = std::uint64_t{3} << 34;
constexpr std::uint64_t SD = std::uint64_t{1} << 63;
// XLEN = 64 for U and S mode (read-only).
constexpr std::uint64_t kXl64 = (std::uint64_t{2} << 32) | (std::uint64_t{2} << 34);
// The sstatus view of mstatus.
constexpr std::uint64_t kSstatusMask = SIE | SPIE | SPP | FS | XS | SUM | MXR | UXL | SD;
}  // namespace ms

// FS (and SD) states.
enum FsState : std::uint8_t { kFsOff = 0, kFsInitial = 1, kFsClean = 2, kFsDirty = 3 };

struct Hart {
    std::uint64_t x[33] = {};  // x[32] is the sink for writes to x0 (kSinkReg)
    std::uint64_t f[32] = {};  // FP registers; singles are NaN-boxed
    std::uint64_t pc = 0;
    std::uint32_t frm = 0;     // dynamic rounding mode (fcsr[7:5])
    std::uint32_t fflags = 0;  // accrued exceptions not yet folded from the host FPU
    std::uint8_t priv = kPrivM;
    // Machine mode. mstatus holds every field, sstatus is a view of it.
    std::uint64_t mstatus = 0, mtvec = 0, mepc = 0, mcause = 0, mtval = 0, mscratch = 0;
    std::uint64_t mie = 0, mip = 0, medeleg = 0, mideleg = 0, mcounteren = 0, menvcfg = 0;
    // Supervisor mode.
    std::uint64_t stvec = 0, sepc = 0, scause = 0, stval = 0, sscratch = 0, scounteren = 0;
    std::uint64_t senvcfg = 0, satp = 0;
    // PMP registers are stored (granularity 4 bytes) but not enforced.
    std::uint64_t pmpcfg[8] = {}, pmpaddr[64] = {};
    // Debug triggers: one slot, tdata1 type 0 ("no trigger here").
    std::uint64_t tdata2 = 0, tdata3 = 0;
    // Writable counters: the value read is the model's count plus this bias.
    std::uint64_t mcycle_bias = 0, minstret_bias = 0;
    // LR/SC reservation.
    bool reserved = false;
    std::uint64_t reservation = 0;

    std::uint32_t fs() const { return static_cast<std::uint32_t>((mstatus & ms::FS) >> ms::kFsShift); }
};

}  // namespace fm::rv
