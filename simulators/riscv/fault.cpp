#include "fault.hpp"

#include <cstdio>

namespace fm::rv {

const char* fault_code_name(FaultCode code) {
    switch (code) {
        case FaultCode::IllegalInstruction: return "illegal_instruction";
        case FaultCode::MisalignedAccess: return "misaligned_access";
        case FaultCode::AccessFault: return "access_fault";
        case FaultCode::UnknownSyscall: return "unknown_syscall";
        case FaultCode::UnsupportedSyscall: return "unsupported_syscall";
        case FaultCode::Breakpoint: return "breakpoint";
        case FaultCode::BudgetExceeded: return "budget_exceeded";
        case FaultCode::UnhandledTrap: return "unhandled_trap";
        case FaultCode::BadConfig: return "bad_config";
    }
    return "unknown";
}

namespace {
std::string describe(FaultCode code, std::uint64_t pc, const std::string& detail) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " at pc=0x%llx", static_cast<unsigned long long>(pc));
    return std::string(fault_code_name(code)) + buf + (detail.empty() ? "" : ": " + detail);
}
}  // namespace

Fault::Fault(FaultCode code, std::uint64_t pc, const std::string& detail, std::uint64_t value)
    : std::runtime_error(describe(code, pc, detail)), code_(code), pc_(pc), value_(value) {}

}  // namespace fm::rv
