// Architectural state of one hart: integer and FP registers, pc, the FP
// control/status fields and the machine-mode CSRs.
#pragma once

#include <cstdint>

namespace fm::rv {

// Machine-mode trap causes (privileged spec, mcause values).
enum TrapCause : std::uint64_t {
    kCauseMisalignedFetch = 0,
    kCauseIllegalInstruction = 2,
    kCauseBreakpoint = 3,
    kCauseMisalignedLoad = 4,
    kCauseMisalignedStore = 6,
    kCauseEcallU = 8,
    kCauseEcallM = 11,
};

struct Hart {
    std::uint64_t x[32] = {};
    std::uint64_t f[32] = {};  // FP registers; singles are NaN-boxed
    std::uint64_t pc = 0;
    std::uint32_t frm = 0;     // dynamic rounding mode (fcsr[7:5])
    std::uint32_t fflags = 0;  // accrued exceptions not yet folded from the host FPU
    // Machine mode.
    std::uint64_t mstatus = 0, mtvec = 0, mepc = 0, mcause = 0, mtval = 0, mscratch = 0;
    std::uint64_t mie = 0, mip = 0, medeleg = 0, mideleg = 0, mcounteren = 0;
    std::uint64_t satp = 0, pmpcfg0 = 0, pmpaddr0 = 0;
    // LR/SC reservation.
    bool reserved = false;
    std::uint64_t reservation = 0;
};

}  // namespace fm::rv
