// Traps: exception entry (with delegation to S mode through medeleg) and the
// trap returns mret/sret (privileged spec 1.12, sections 3.1.6 and 4.1.1).
// In the Linux user-mode environment there is no kernel to trap into: an
// exception there ends the run with a typed Fault.
#include <cstdio>

#include "simulator.hpp"

namespace fm::rv {

namespace {

// The xPP/xPIE/xIE dance shared by both trap levels: previous interrupt
// enable takes the current one, the current one is cleared.
std::uint64_t push_ie(std::uint64_t s, std::uint64_t ie, std::uint64_t pie) {
    return (s & ~(ie | pie)) | ((s & ie) ? pie : 0);
}

}  // namespace

std::uint64_t Simulator::trap(std::uint64_t cause, std::uint64_t pc, std::uint64_t tval) {
    if (env_ == Env::User) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "instruction word 0x%llx", static_cast<unsigned long long>(tval));
        throw Fault(FaultCode::IllegalInstruction, pc, buf, tval);
    }
    Hart& h = hart_;
    if (h.priv == kPrivM && h.mtvec == 0) {
        // No handler installed: the ISA-test convention "ecall with a7 = 93"
        // still ends the run with exit code a0.
        if (cause == kCauseEcallM && h.x[17] == 93) {
            exited_ = true;
            exit_code_ = static_cast<int>(h.x[10] & 0xffffffff);
            return pc + 4;
        }
        if (cause == kCauseIllegalInstruction)
            throw Fault(FaultCode::IllegalInstruction, pc, "no trap handler (mtvec = 0)", tval);
        char buf[64];
        std::snprintf(buf, sizeof buf, "mcause %llu with mtvec = 0", static_cast<unsigned long long>(cause));
        throw Fault(FaultCode::UnhandledTrap, pc, buf, cause);
    }
    // Exceptions taken below M mode go to S mode when medeleg says so.
    if (h.priv != kPrivM && ((h.medeleg >> cause) & 1)) {
        h.sepc = pc;
        h.scause = cause;
        h.stval = tval;
        std::uint64_t s = push_ie(h.mstatus, ms::SIE, ms::SPIE);
        s = (s & ~ms::SPP) | (h.priv == kPrivS ? ms::SPP : 0);
        h.mstatus = s;
        h.priv = kPrivS;
        return h.stvec & ~std::uint64_t{3};
    }
    h.mepc = pc;
    h.mcause = cause;
    h.mtval = tval;
    std::uint64_t s = push_ie(h.mstatus, ms::MIE, ms::MPIE);
    s = (s & ~ms::MPP) | (std::uint64_t{h.priv} << ms::kMppShift);
    h.mstatus = s;
    h.priv = kPrivM;
    return h.mtvec & ~std::uint64_t{3};
}

std::uint64_t Simulator::mret() {
    Hart& h = hart_;
    const auto to = static_cast<std::uint8_t>((h.mstatus & ms::MPP) >> ms::kMppShift);
    std::uint64_t s = h.mstatus;
    s = (s & ~ms::MIE) | ((s & ms::MPIE) ? ms::MIE : 0);
    s |= ms::MPIE;
    s &= ~ms::MPP;  // MPP = U, the least-privileged mode
    if (to != kPrivM) s &= ~ms::MPRV;
    h.mstatus = s;
    h.priv = to;
    return h.mepc;
}

std::uint64_t Simulator::sret() {
    Hart& h = hart_;
    const std::uint8_t to = (h.mstatus & ms::SPP) ? kPrivS : kPrivU;
    std::uint64_t s = h.mstatus;
    s = (s & ~ms::SIE) | ((s & ms::SPIE) ? ms::SIE : 0);
    s |= ms::SPIE;
    s &= ~ms::SPP;
    s &= ~ms::MPRV;  // the new mode is below M
    h.mstatus = s;
    h.priv = to;
    return h.sepc;
}

}  // namespace fm::rv
