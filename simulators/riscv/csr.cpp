// Zicsr and machine-mode traps: the CSR file seen by user programs (fflags,
// frm, fcsr, cycle, time, instret) and by bare-metal programs (mstatus, misa,
// mtvec, mepc, mcause, mtval, mscratch, mhartid, ...), and trap entry.
#include <cfenv>
#include <cstdio>

#include "fpu.hpp"
#include "simulator.hpp"

namespace fm::rv {

namespace {
__extension__ typedef unsigned __int128 u128;
}  // namespace

std::uint64_t Simulator::trap(std::uint64_t cause, std::uint64_t pc, std::uint64_t tval) {
    if (env_ == Env::User) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "instruction word 0x%llx", static_cast<unsigned long long>(tval));
        throw Fault(FaultCode::IllegalInstruction, pc, buf, tval);
    }
    if (hart_.mtvec == 0) {
        // No handler installed: the ISA-test convention "ecall with a7 = 93"
        // still ends the run with exit code a0.
        if (cause == kCauseEcallM && hart_.x[17] == 93) {
            exited_ = true;
            exit_code_ = static_cast<int>(hart_.x[10] & 0xffffffff);
            return pc + 4;
        }
        if (cause == kCauseIllegalInstruction)
            throw Fault(FaultCode::IllegalInstruction, pc, "no trap handler (mtvec = 0)", tval);
        char buf[64];
        std::snprintf(buf, sizeof buf, "mcause %llu with mtvec = 0", static_cast<unsigned long long>(cause));
        throw Fault(FaultCode::UnhandledTrap, pc, buf, cause);
    }
    hart_.mepc = pc;
    hart_.mcause = cause;
    hart_.mtval = tval;
    std::uint64_t s = hart_.mstatus;
    const std::uint64_t mie = (s >> 3) & 1;
    s = (s & ~(std::uint64_t{1} << 7)) | (mie << 7);  // MPIE = MIE
    s &= ~(std::uint64_t{1} << 3);                     // MIE = 0
    s |= std::uint64_t{3} << 11;                        // MPP = M
    hart_.mstatus = s;
    return hart_.mtvec & ~std::uint64_t{3};
}

void Simulator::set_frm(std::uint32_t frm) {
    hart_.frm = frm & 7;
    std::fesetround(fpu::host_round(hart_.frm));
}

std::uint64_t Simulator::fflags() { return hart_.fflags; }

bool Simulator::csr_read(std::uint32_t csr, std::uint64_t& out) {
    switch (csr) {
        case 0x001: hart_.fflags |= fpu::host_flags(); std::feclearexcept(FE_ALL_EXCEPT); out = hart_.fflags; return true;
        case 0x002: out = hart_.frm; return true;
        case 0x003:
            hart_.fflags |= fpu::host_flags();
            std::feclearexcept(FE_ALL_EXCEPT);
            out = (hart_.frm << 5) | hart_.fflags;
            return true;
        case 0xc00: case 0xb00: out = cycles(); return true;
        case 0xc02: case 0xb02: out = instret_; return true;
        case 0xc01: {
            const u128 t = static_cast<u128>(cycles()) * cfg_.timebase_hz / cfg_.freq_hz;
            out = static_cast<std::uint64_t>(t);
            return true;
        }
        default: break;
    }
    if (env_ != Env::Machine) return false;
    switch (csr) {
        case 0x300: out = hart_.mstatus; return true;
        case 0x301:  // RV64 IMAFDC
            out = (std::uint64_t{2} << 62) | (1u << 0) | (1u << 2) | (1u << 3) | (1u << 5) |
                  (1u << 8) | (1u << 12);
            return true;
        case 0x302: out = hart_.medeleg; return true;
        case 0x303: out = hart_.mideleg; return true;
        case 0x304: out = hart_.mie; return true;
        case 0x305: out = hart_.mtvec; return true;
        case 0x306: out = hart_.mcounteren; return true;
        case 0x340: out = hart_.mscratch; return true;
        case 0x341: out = hart_.mepc; return true;
        case 0x342: out = hart_.mcause; return true;
        case 0x343: out = hart_.mtval; return true;
        case 0x344: out = hart_.mip; return true;
        case 0x180: out = hart_.satp; return true;
        case 0x3a0: out = hart_.pmpcfg0; return true;
        case 0x3b0: out = hart_.pmpaddr0; return true;
        case 0xf11: case 0xf12: case 0xf13: case 0xf14: out = 0; return true;  // ids, mhartid
        default: return false;
    }
}

bool Simulator::csr_write(std::uint32_t csr, std::uint64_t v) {
    if ((csr >> 10) == 3) return false;  // read-only CSR space
    switch (csr) {
        case 0x001: hart_.fflags = static_cast<std::uint32_t>(v & 31); std::feclearexcept(FE_ALL_EXCEPT); return true;
        case 0x002: set_frm(static_cast<std::uint32_t>(v & 7)); return true;
        case 0x003:
            hart_.fflags = static_cast<std::uint32_t>(v & 31);
            std::feclearexcept(FE_ALL_EXCEPT);
            set_frm(static_cast<std::uint32_t>((v >> 5) & 7));
            return true;
        default: break;
    }
    if (env_ != Env::Machine) return false;
    switch (csr) {
        case 0x300: {
            // Writable: MIE, MPIE, FS; MPP stays M (the only mode modelled).
            const std::uint64_t mask = (1u << 3) | (1u << 7) | (3u << 13);
            hart_.mstatus = (hart_.mstatus & ~mask) | (v & mask) | (std::uint64_t{3} << 11);
            return true;
        }
        case 0x301: return true;  // misa is fixed
        case 0x302: hart_.medeleg = v; return true;
        case 0x303: hart_.mideleg = v; return true;
        case 0x304: hart_.mie = v; return true;
        case 0x305: hart_.mtvec = v; return true;
        case 0x306: hart_.mcounteren = v; return true;
        case 0x340: hart_.mscratch = v; return true;
        case 0x341: hart_.mepc = v & ~std::uint64_t{1}; return true;
        case 0x342: hart_.mcause = v; return true;
        case 0x343: hart_.mtval = v; return true;
        case 0x344: hart_.mip = v; return true;
        case 0x180: return true;  // bare addressing only
        case 0x3a0: hart_.pmpcfg0 = v; return true;
        case 0x3b0: hart_.pmpaddr0 = v; return true;
        case 0xb00: case 0xb02: return true;  // counters are derived, writes ignored
        default: return false;
    }
}

}  // namespace fm::rv
