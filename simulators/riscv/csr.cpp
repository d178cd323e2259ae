// Zicsr: the CSR file. User programs see fflags, frm, fcsr and the counters
// cycle, time, instret (hpmcounter3..31 read 0); bare-metal programs also see
// the machine- and supervisor-mode CSRs of privileged spec 1.12. Access rules:
// a CSR's address names the lowest mode that may use it (bits 9:8) and
// whether it is read-only (bits 11:10); mcounteren/scounteren gate the user
// counters below M mode; mstatus.FS gates the FP CSRs; mstatus.TVM gates
// satp in S mode.
#include <cfenv>

#include "fpu.hpp"
#include "simulator.hpp"

namespace fm::rv {

namespace {
__extension__ typedef unsigned __int128 u128;

// Writable bits.
constexpr std::uint64_t kMstatusWritable = ms::SIE | ms::MIE | ms::SPIE | ms::MPIE | ms::SPP |
                                           ms::MPP | ms::FS | ms::MPRV | ms::SUM | ms::MXR |
                                           ms::TVM | ms::TW | ms::TSR;
constexpr std::uint64_t kSstatusWritable = ms::SIE | ms::SPIE | ms::SPP | ms::FS | ms::SUM | ms::MXR;
constexpr std::uint64_t kSsip = 1u << 1;
constexpr std::uint64_t kSInterrupts = (1u << 1) | (1u << 5) | (1u << 9);      // SSI, STI, SEI
constexpr std::uint64_t kAllInterrupts = kSInterrupts | (1u << 3) | (1u << 7) | (1u << 11);
// Every exception but an ecall from M mode may be delegated.
constexpr std::uint64_t kDelegableExceptions = 0xb3ff & ~(std::uint64_t{1} << kCauseEcallM);
constexpr std::uint64_t kPmpAddrMask = (std::uint64_t{1} << 54) - 1;
// misa: RV64 with I, M, A, F, D, C, S and U.
constexpr std::uint64_t kMisa = (std::uint64_t{2} << 62) | (1u << 0) | (1u << 2) | (1u << 3) |
                                (1u << 5) | (1u << 8) | (1u << 12) | (1u << 18) | (1u << 20);
}  // namespace

void Simulator::set_frm(std::uint32_t frm) {
    hart_.frm = frm & 7;
    std::fesetround(fpu::host_round(hart_.frm));
}

std::uint64_t Simulator::fflags() { return hart_.fflags; }

bool Simulator::csr_changes_mode(std::uint32_t csr) {
    return csr == 0x300 || csr == 0x100 || csr == 0x180;  // mstatus, sstatus, satp
}

// mstatus (or its sstatus view) written: FS changes redo the decode cache,
// where FP instructions are gated (see fill()).
void Simulator::write_status(std::uint64_t value, std::uint64_t mask) {
    Hart& h = hart_;
    const std::uint64_t old = h.mstatus;
    std::uint64_t s = (old & ~mask) | (value & mask);
    // MPP is WARL over the modes that exist: the reserved value 2 becomes U.
    if (((s & ms::MPP) >> ms::kMppShift) == 2) s &= ~ms::MPP;
    h.mstatus = s;
    if ((s ^ old) & ms::FS) invalidate_all();
}

bool Simulator::csr_read(std::uint32_t csr, std::uint64_t& out) {
    Hart& h = hart_;
    const std::uint32_t min_priv = (csr >> 8) & 3;
    if (min_priv > h.priv) return false;
    // User counters: cycle, time, instret, hpmcounter3..31.
    if (csr >= 0xc00 && csr < 0xc20) {
        const std::uint32_t bit = csr - 0xc00;
        if (h.priv < kPrivM && !((h.mcounteren >> bit) & 1)) return false;
        if (h.priv == kPrivU && !((h.scounteren >> bit) & 1)) return false;
        switch (bit) {
            case 0: out = cycles() + h.mcycle_bias; return true;
            case 1: {
                const u128 t = static_cast<u128>(cycles()) * cfg_.timebase_hz / cfg_.freq_hz;
                out = static_cast<std::uint64_t>(t);
                return true;
            }
            case 2: out = instret_ + h.minstret_bias; return true;
            default: out = 0; return true;
        }
    }
    if (csr <= 0x003) {
        if (csr == 0 || h.fs() == kFsOff) return false;
        hart_.fflags |= fpu::host_flags();
        std::feclearexcept(FE_ALL_EXCEPT);
        out = csr == 0x001 ? h.fflags : csr == 0x002 ? h.frm : (h.frm << 5) | h.fflags;
        return true;
    }
    if (env_ != Env::Machine) return false;
    const std::uint64_t sd = h.fs() == kFsDirty ? ms::SD : 0;
    switch (csr) {
        // Supervisor mode.
        case 0x100: out = (h.mstatus & ms::kSstatusMask) | sd; return true;
        case 0x104: out = h.mie & h.mideleg; return true;
        case 0x105: out = h.stvec; return true;
        case 0x106: out = h.scounteren; return true;
        case 0x10a: out = h.senvcfg; return true;
        case 0x140: out = h.sscratch; return true;
        case 0x141: out = h.sepc; return true;
        case 0x142: out = h.scause; return true;
        case 0x143: out = h.stval; return true;
        case 0x144: out = h.mip & h.mideleg; return true;
        case 0x180:
            if (h.priv == kPrivS && (h.mstatus & ms::TVM)) return false;
            out = h.satp;
            return true;
        // Machine mode.
        case 0x300: out = h.mstatus | sd; return true;
        case 0x301: out = kMisa; return true;
        case 0x302: out = h.medeleg; return true;
        case 0x303: out = h.mideleg; return true;
        case 0x304: out = h.mie; return true;
        case 0x305: out = h.mtvec; return true;
        case 0x306: out = h.mcounteren; return true;
        case 0x30a: out = h.menvcfg; return true;
        case 0x320: out = 0; return true;  // mcountinhibit: counters always count
        case 0x340: out = h.mscratch; return true;
        case 0x341: out = h.mepc; return true;
        case 0x342: out = h.mcause; return true;
        case 0x343: out = h.mtval; return true;
        case 0x344: out = h.mip; return true;
        case 0xb00: out = cycles() + h.mcycle_bias; return true;
        case 0xb02: out = instret_ + h.minstret_bias; return true;
        // Debug triggers: one slot whose tdata1 says "no trigger" (type 0).
        case 0x7a0: out = 0; return true;      // tselect
        case 0x7a1: out = 0; return true;      // tdata1
        case 0x7a2: out = h.tdata2; return true;
        case 0x7a3: out = h.tdata3; return true;
        case 0x7a4: out = 1; return true;      // tinfo: only type 0
        case 0xf11: case 0xf12: case 0xf13: case 0xf14: case 0xf15: out = 0; return true;
        default: break;
    }
    if (csr >= 0xb03 && csr < 0xb20) { out = 0; return true; }  // mhpmcounter3..31
    if (csr >= 0x323 && csr < 0x340) { out = 0; return true; }  // mhpmevent3..31
    if (csr >= 0x3a0 && csr < 0x3b0) {  // pmpcfg0..15: the even ones exist on RV64
        if (csr & 1) return false;
        out = h.pmpcfg[(csr - 0x3a0) / 2];
        return true;
    }
    if (csr >= 0x3b0 && csr < 0x3f0) { out = h.pmpaddr[csr - 0x3b0]; return true; }
    return false;
}

bool Simulator::csr_write(std::uint32_t csr, std::uint64_t v) {
    Hart& h = hart_;
    if ((csr >> 10) == 3) return false;  // read-only CSR space
    // csr_read has already checked the mode and existence.
    switch (csr) {
        case 0x001: case 0x002: case 0x003:
            if (csr != 0x002) {
                h.fflags = static_cast<std::uint32_t>(v & 31);
                std::feclearexcept(FE_ALL_EXCEPT);
            }
            if (csr == 0x002) set_frm(static_cast<std::uint32_t>(v & 7));
            if (csr == 0x003) set_frm(static_cast<std::uint32_t>((v >> 5) & 7));
            h.mstatus |= ms::FS;  // FP state written: dirty
            return true;
        default: break;
    }
    if (env_ != Env::Machine) return false;
    switch (csr) {
        case 0x100: write_status(v, kSstatusWritable); return true;
        case 0x104: h.mie = (h.mie & ~h.mideleg) | (v & h.mideleg & kAllInterrupts); return true;
        case 0x105: h.stvec = v & ~std::uint64_t{3}; return true;  // direct mode only
        case 0x106: h.scounteren = v & 0xffffffffu; return true;
        case 0x10a: return true;  // senvcfg: no optional field implemented
        case 0x140: h.sscratch = v; return true;
        case 0x141: h.sepc = v & ~std::uint64_t{1}; return true;
        case 0x142: h.scause = v; return true;
        case 0x143: h.stval = v; return true;
        case 0x144: h.mip = (h.mip & ~(h.mideleg & kSsip)) | (v & h.mideleg & kSsip); return true;
        case 0x180: {
            // Bare (0) or Sv39 (8); a write naming another mode has no effect.
            const std::uint64_t mode = v >> 60;
            if (mode == 0 || mode == 8) h.satp = v & ((std::uint64_t{0xf} << 60) | (std::uint64_t{0xffff} << 44) |
                                                      ((std::uint64_t{1} << 44) - 1));
            return true;
        }
        case 0x300: write_status(v, kMstatusWritable); return true;
        case 0x301: return true;  // misa is fixed
        case 0x302: h.medeleg = v & kDelegableExceptions; return true;
        case 0x303: h.mideleg = v & kSInterrupts; return true;
        case 0x304: h.mie = v & kAllInterrupts; return true;
        case 0x305: h.mtvec = v & ~std::uint64_t{3}; return true;  // direct mode only
        case 0x306: h.mcounteren = v & 0xffffffffu; return true;
        case 0x30a: return true;  // menvcfg: no optional field implemented
        case 0x320: return true;  // mcountinhibit reads 0
        case 0x340: h.mscratch = v; return true;
        case 0x341: h.mepc = v & ~std::uint64_t{1}; return true;
        case 0x342: h.mcause = v; return true;
        case 0x343: h.mtval = v; return true;
        case 0x344: h.mip = (h.mip & ~kSInterrupts) | (v & kSInterrupts); return true;
        // The value written is what the next instruction reads: the writing
        // instruction's own retirement does not count (its increment is suppressed).
        case 0xb00: h.mcycle_bias = v - cycles(); return true;
        case 0xb02: h.minstret_bias = v - (instret_ + 1); return true;
        case 0x7a0: case 0x7a1: return true;  // a single slot without a trigger
        case 0x7a2: h.tdata2 = v; return true;
        case 0x7a3: h.tdata3 = v; return true;
        case 0x7a4: return true;
        default: break;
    }
    if ((csr >= 0xb03 && csr < 0xb20) || (csr >= 0x323 && csr < 0x340)) return true;
    if (csr >= 0x3a0 && csr < 0x3b0) { h.pmpcfg[(csr - 0x3a0) / 2] = v; return true; }
    if (csr >= 0x3b0 && csr < 0x3f0) { h.pmpaddr[csr - 0x3b0] = v & kPmpAddrMask; return true; }
    return false;
}

}  // namespace fm::rv
