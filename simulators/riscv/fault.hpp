// Typed faults of the RISC-V simulator: every way a run can stop other than a
// clean exit carries a code, the PC of the instruction at fault and, where it
// applies, the offending address or value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace fm::rv {

enum class FaultCode : std::uint8_t {
    IllegalInstruction,
    MisalignedAccess,
    AccessFault,       // load/store/fetch outside mapped memory
    UnknownSyscall,
    UnsupportedSyscall,  // a known syscall asked for something we do not model
    Breakpoint,        // ebreak in user mode
    BudgetExceeded,    // instruction or cycle budget reached before exit
    UnhandledTrap,     // machine mode trap with mtvec == 0
    BadConfig,
};

const char* fault_code_name(FaultCode code);

class Fault : public std::runtime_error {
public:
    Fault(FaultCode code, std::uint64_t pc, const std::string& detail, std::uint64_t value = 0);
    FaultCode code() const { return code_; }
    std::uint64_t pc() const { return pc_; }
    // The faulting address, instruction word or syscall number, depending on code.
    std::uint64_t value() const { return value_; }

private:
    FaultCode code_;
    std::uint64_t pc_;
    std::uint64_t value_;
};

}  // namespace fm::rv
