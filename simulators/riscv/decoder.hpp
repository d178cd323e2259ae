// Instruction decoding: a 16- or 32-bit instruction word becomes one
// pre-decoded Insn (operation, register numbers, immediate, timing class).
// Compressed instructions are first expanded to their 32-bit equivalents
// (rvc.cpp), so semantics exist once per operation.
#pragma once

#include <cstdint>

namespace fm::rv {

// Timing classes: the machine file gives one latency per class. Loads come
// in four widths because sub-word loads take longer on many in-order cores
// (the extra cycle aligns and sign-extends the value).
enum class TClass : std::uint8_t {
    Alu, LoadB, LoadH, LoadW, LoadD, Store, Mul, Div, Branch, Jump, Csr, System, Amo,
    FAddS, FAddD, FMulS, FMulD, FmaS, FmaD, FDivS, FDivD, FSqrtS, FSqrtD,
    FMisc, FCvt, FMove, FLoad, FStore,
    Count
};

// X(name, timing class)
#define FM_RV_OPS(X)                                                                        \
    X(UNDECODED, Alu) X(NEXT_PAGE, Alu) X(ILLEGAL, System)                                                  \
    X(LUI, Alu) X(AUIPC, Alu) X(JAL, Jump) X(JALR, Jump)                                    \
    X(BEQ, Branch) X(BNE, Branch) X(BLT, Branch) X(BGE, Branch) X(BLTU, Branch)             \
    X(BGEU, Branch)                                                                         \
    X(LB, LoadB) X(LH, LoadH) X(LW, LoadW) X(LD, LoadD) X(LBU, LoadB) X(LHU, LoadH)         \
    X(LWU, LoadW)                                                                           \
    X(SB, Store) X(SH, Store) X(SW, Store) X(SD, Store)                                     \
    X(ADDI, Alu) X(SLTI, Alu) X(SLTIU, Alu) X(XORI, Alu) X(ORI, Alu) X(ANDI, Alu)           \
    X(SLLI, Alu) X(SRLI, Alu) X(SRAI, Alu)                                                  \
    X(ADD, Alu) X(SUB, Alu) X(SLL, Alu) X(SLT, Alu) X(SLTU, Alu) X(XOR, Alu) X(SRL, Alu)    \
    X(SRA, Alu) X(OR, Alu) X(AND, Alu)                                                      \
    X(ADDIW, Alu) X(SLLIW, Alu) X(SRLIW, Alu) X(SRAIW, Alu)                                 \
    X(ADDW, Alu) X(SUBW, Alu) X(SLLW, Alu) X(SRLW, Alu) X(SRAW, Alu)                        \
    X(FENCE, Alu) X(FENCE_I, System) X(ECALL, System) X(EBREAK, System) X(MRET, System)     \
    X(WFI, System) X(SRET, System) X(SFENCE_VMA, System)                                    \
    X(CSRRW, Csr) X(CSRRS, Csr) X(CSRRC, Csr) X(CSRRWI, Csr) X(CSRRSI, Csr) X(CSRRCI, Csr)  \
    X(MUL, Mul) X(MULH, Mul) X(MULHSU, Mul) X(MULHU, Mul) X(DIV, Div) X(DIVU, Div)          \
    X(REM, Div) X(REMU, Div) X(MULW, Mul) X(DIVW, Div) X(DIVUW, Div) X(REMW, Div)           \
    X(REMUW, Div)                                                                           \
    X(LR_W, Amo) X(SC_W, Amo) X(AMOSWAP_W, Amo) X(AMOADD_W, Amo) X(AMOXOR_W, Amo)          \
    X(AMOAND_W, Amo) X(AMOOR_W, Amo) X(AMOMIN_W, Amo) X(AMOMAX_W, Amo) X(AMOMINU_W, Amo)    \
    X(AMOMAXU_W, Amo)                                                                       \
    X(LR_D, Amo) X(SC_D, Amo) X(AMOSWAP_D, Amo) X(AMOADD_D, Amo) X(AMOXOR_D, Amo)          \
    X(AMOAND_D, Amo) X(AMOOR_D, Amo) X(AMOMIN_D, Amo) X(AMOMAX_D, Amo) X(AMOMINU_D, Amo)    \
    X(AMOMAXU_D, Amo)                                                                       \
    X(FLW, FLoad) X(FSW, FStore) X(FLD, FLoad) X(FSD, FStore)                               \
    X(FMADD_S, FmaS) X(FMSUB_S, FmaS) X(FNMSUB_S, FmaS) X(FNMADD_S, FmaS)                   \
    X(FMADD_D, FmaD) X(FMSUB_D, FmaD) X(FNMSUB_D, FmaD) X(FNMADD_D, FmaD)                   \
    X(FADD_S, FAddS) X(FSUB_S, FAddS) X(FMUL_S, FMulS) X(FDIV_S, FDivS) X(FSQRT_S, FSqrtS)  \
    X(FADD_D, FAddD) X(FSUB_D, FAddD) X(FMUL_D, FMulD) X(FDIV_D, FDivD) X(FSQRT_D, FSqrtD)  \
    X(FSGNJ_S, FMisc) X(FSGNJN_S, FMisc) X(FSGNJX_S, FMisc) X(FMIN_S, FMisc)                \
    X(FMAX_S, FMisc)                                                                        \
    X(FSGNJ_D, FMisc) X(FSGNJN_D, FMisc) X(FSGNJX_D, FMisc) X(FMIN_D, FMisc)                \
    X(FMAX_D, FMisc)                                                                        \
    X(FCVT_W_S, FCvt) X(FCVT_WU_S, FCvt) X(FCVT_L_S, FCvt) X(FCVT_LU_S, FCvt)               \
    X(FCVT_W_D, FCvt) X(FCVT_WU_D, FCvt) X(FCVT_L_D, FCvt) X(FCVT_LU_D, FCvt)               \
    X(FCVT_S_W, FCvt) X(FCVT_S_WU, FCvt) X(FCVT_S_L, FCvt) X(FCVT_S_LU, FCvt)               \
    X(FCVT_D_W, FCvt) X(FCVT_D_WU, FCvt) X(FCVT_D_L, FCvt) X(FCVT_D_LU, FCvt)               \
    X(FCVT_S_D, FCvt) X(FCVT_D_S, FCvt)                                                     \
    X(FMV_X_W, FMove) X(FMV_W_X, FMove) X(FMV_X_D, FMove) X(FMV_D_X, FMove)                 \
    X(FEQ_S, FMisc) X(FLT_S, FMisc) X(FLE_S, FMisc) X(FCLASS_S, FMisc)                      \
    X(FEQ_D, FMisc) X(FLT_D, FMisc) X(FLE_D, FMisc) X(FCLASS_D, FMisc)

enum class Op : std::uint16_t {
#define FM_RV_ENUM(name, cls) name,
    FM_RV_OPS(FM_RV_ENUM)
#undef FM_RV_ENUM
    Count
};

const char* op_name(Op op);

// Each op's timing class, usable at compile time (the interpreter's handlers
// leave out the scoreboard work their class never needs).
inline constexpr TClass kOpClass[] = {
#define FM_RV_CLASS(name, cls) TClass::cls,
    FM_RV_OPS(FM_RV_CLASS)
#undef FM_RV_CLASS
};
constexpr TClass op_class(Op op) { return kOpClass[static_cast<int>(op)]; }
// Only fused multiply-adds read a third register.
constexpr bool op_reads_rs3(Op op) {
    return op_class(op) == TClass::FmaS || op_class(op) == TClass::FmaD;
}
// Always an unpipelined unit (divider, FP divide/sqrt); the multiplier is
// one only on some machines (Insn::unit says).
constexpr bool op_always_unit(Op op) {
    const TClass c = op_class(op);
    return c == TClass::Div || c == TClass::FDivS || c == TClass::FDivD || c == TClass::FSqrtS ||
           c == TClass::FSqrtD;
}
// F and D instructions (loads and stores included): the ones mstatus.FS gates.
inline bool is_fp_op(Op op) { return op >= Op::FLW && op < Op::Count; }

// Integer destinations x0 are decoded as this register: writes land in a
// sink slot of Hart::x that nothing reads, so no instruction has to re-zero x0.
constexpr std::uint8_t kSinkReg = 32;

// Scoreboard slots: 0..31 integer registers, 32..63 FP registers. Slot
// kSlotZero is always ready (x0, or no operand); kSlotSink absorbs writes.
constexpr std::uint8_t kSlotZero = 64;
constexpr std::uint8_t kSlotSink = 65;
constexpr int kSlots = 66;

// One pre-decoded instruction, 32 bytes so a decode page is indexed by a
// shift. Decoded once per code address and reused.
struct Insn {
    // Address of this op's handler in the interpreter loop that runs now:
    // dispatch is one indirect jump through it (see Simulator::loop).
    void* handler = nullptr;
    std::int32_t imm = 0;  // immediate; CSR number for Zicsr
    Op op = Op::UNDECODED;
    std::uint8_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;  // an integer rd of 0 reads kSinkReg
    std::uint8_t rm = 0;   // FP rounding mode field, or AMO aq/rl bits
    std::uint8_t len = 4;  // 2 for compressed
    // Timing: scoreboard slots read and written, result latency, class.
    std::uint8_t src1 = kSlotZero, src2 = kSlotZero, src3 = kSlotZero, dst = kSlotSink;
    std::uint8_t lat = 1;
    std::uint8_t unit = 0;  // unpipelined unit used: 0 none, 1 divider, 2 FP div/sqrt, 3 multiplier
    TClass tclass = TClass::Alu;
    // Whether sequential flow into this slot enters a new I-cache line:
    // bit 0 when coming from a 2-byte instruction, bit 1 from a 4-byte one.
    // It depends only on the address, so every slot has it, decoded or not.
    std::uint8_t seq_fetch = 0;
    std::uint16_t func = 0;  // profile bucket (function index)
};
static_assert(sizeof(Insn) == 32, "a decode slot is 32 bytes");

// Expand a compressed instruction to its 32-bit equivalent; 0 if illegal.
std::uint32_t expand_rvc(std::uint16_t c);

// Decode one instruction word (already expanded if it was compressed).
// Sets op (ILLEGAL if unknown), operands, immediate and scoreboard slots;
// len and lat are left to the caller.
void decode(std::uint32_t word, Insn& out);

}  // namespace fm::rv
