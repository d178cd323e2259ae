#include "decoder.hpp"

namespace fm::rv {

namespace {

constexpr const char* kOpNames[] = {
#define FM_RV_NAME(name, cls) #name,
    FM_RV_OPS(FM_RV_NAME)
#undef FM_RV_NAME
};


inline std::uint32_t bits(std::uint32_t w, int hi, int lo) {
    return (w >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

inline std::int32_t sext(std::uint32_t v, int width) {
    const std::uint32_t m = 1u << (width - 1);
    return static_cast<std::int32_t>((v ^ m) - m);
}

inline std::uint8_t xslot(std::uint32_t r) {
    return r == 0 ? kSlotZero : static_cast<std::uint8_t>(r);
}
inline std::uint8_t xdst(std::uint32_t r) {
    return r == 0 ? kSlotSink : static_cast<std::uint8_t>(r);
}
// An integer destination: x0 becomes the sink register (see kSinkReg).
inline void xrd(Insn& d) {
    d.dst = xdst(d.rd);
    if (d.rd == 0) d.rd = kSinkReg;
}
inline std::uint8_t fslot(std::uint32_t r) { return static_cast<std::uint8_t>(32 + r); }

// Operand shapes, to fill the scoreboard slots uniformly.
enum Shape { kNone, kXdX1, kXdX1X2, kX1X2, kXd, kFdX1 /* FP load */, kX1F2 /* FP store */,
             kFdF1F2, kFdF1F2F3, kFdF1, kXdF1F2, kXdF1, kFdX1only };

void set_shape(Insn& d, Shape s) {
    switch (s) {
        case kNone: break;
        case kXd: xrd(d); break;
        case kXdX1: xrd(d); d.src1 = xslot(d.rs1); break;
        case kXdX1X2: xrd(d); d.src1 = xslot(d.rs1); d.src2 = xslot(d.rs2); break;
        case kX1X2: d.src1 = xslot(d.rs1); d.src2 = xslot(d.rs2); break;
        case kFdX1: d.dst = fslot(d.rd); d.src1 = xslot(d.rs1); break;
        case kX1F2: d.src1 = xslot(d.rs1); d.src2 = fslot(d.rs2); break;
        case kFdF1F2: d.dst = fslot(d.rd); d.src1 = fslot(d.rs1); d.src2 = fslot(d.rs2); break;
        case kFdF1F2F3:
            d.dst = fslot(d.rd); d.src1 = fslot(d.rs1); d.src2 = fslot(d.rs2);
            d.src3 = fslot(d.rs3);
            break;
        case kFdF1: d.dst = fslot(d.rd); d.src1 = fslot(d.rs1); break;
        case kXdF1F2: xrd(d); d.src1 = fslot(d.rs1); d.src2 = fslot(d.rs2); break;
        case kXdF1: xrd(d); d.src1 = fslot(d.rs1); break;
        case kFdX1only: d.dst = fslot(d.rd); d.src1 = xslot(d.rs1); break;
    }
}

Op decode_op_fp(std::uint32_t w, Shape& shape) {
    const std::uint32_t f7 = bits(w, 31, 25), rs2 = bits(w, 24, 20), f3 = bits(w, 14, 12);
    const bool dbl = (f7 & 1) != 0;
    if ((f7 & 2) != 0) return Op::ILLEGAL;  // fmt 2/3 (H, Q) not supported
    shape = kFdF1F2;
    switch (f7 >> 2) {
        case 0x00: return dbl ? Op::FADD_D : Op::FADD_S;
        case 0x01: return dbl ? Op::FSUB_D : Op::FSUB_S;
        case 0x02: return dbl ? Op::FMUL_D : Op::FMUL_S;
        case 0x03: return dbl ? Op::FDIV_D : Op::FDIV_S;
        case 0x0b:
            if (rs2 != 0) return Op::ILLEGAL;
            shape = kFdF1;
            return dbl ? Op::FSQRT_D : Op::FSQRT_S;
        case 0x04:
            if (f3 == 0) return dbl ? Op::FSGNJ_D : Op::FSGNJ_S;
            if (f3 == 1) return dbl ? Op::FSGNJN_D : Op::FSGNJN_S;
            if (f3 == 2) return dbl ? Op::FSGNJX_D : Op::FSGNJX_S;
            return Op::ILLEGAL;
        case 0x05:
            if (f3 == 0) return dbl ? Op::FMIN_D : Op::FMIN_S;
            if (f3 == 1) return dbl ? Op::FMAX_D : Op::FMAX_S;
            return Op::ILLEGAL;
        case 0x08:  // fcvt.s.d (f7=0x20, rs2=1) / fcvt.d.s (f7=0x21, rs2=0)
            shape = kFdF1;
            if (!dbl && rs2 == 1) return Op::FCVT_S_D;
            if (dbl && rs2 == 0) return Op::FCVT_D_S;
            return Op::ILLEGAL;
        case 0x14:
            shape = kXdF1F2;
            if (f3 == 2) return dbl ? Op::FEQ_D : Op::FEQ_S;
            if (f3 == 1) return dbl ? Op::FLT_D : Op::FLT_S;
            if (f3 == 0) return dbl ? Op::FLE_D : Op::FLE_S;
            return Op::ILLEGAL;
        case 0x18:  // fcvt.{w,wu,l,lu}.{s,d}
            shape = kXdF1;
            switch (rs2) {
                case 0: return dbl ? Op::FCVT_W_D : Op::FCVT_W_S;
                case 1: return dbl ? Op::FCVT_WU_D : Op::FCVT_WU_S;
                case 2: return dbl ? Op::FCVT_L_D : Op::FCVT_L_S;
                case 3: return dbl ? Op::FCVT_LU_D : Op::FCVT_LU_S;
                default: return Op::ILLEGAL;
            }
        case 0x1a:  // fcvt.{s,d}.{w,wu,l,lu}
            shape = kFdX1only;
            switch (rs2) {
                case 0: return dbl ? Op::FCVT_D_W : Op::FCVT_S_W;
                case 1: return dbl ? Op::FCVT_D_WU : Op::FCVT_S_WU;
                case 2: return dbl ? Op::FCVT_D_L : Op::FCVT_S_L;
                case 3: return dbl ? Op::FCVT_D_LU : Op::FCVT_S_LU;
                default: return Op::ILLEGAL;
            }
        case 0x1c:
            shape = kXdF1;
            if (rs2 != 0) return Op::ILLEGAL;
            if (f3 == 0) return dbl ? Op::FMV_X_D : Op::FMV_X_W;
            if (f3 == 1) return dbl ? Op::FCLASS_D : Op::FCLASS_S;
            return Op::ILLEGAL;
        case 0x1e:
            shape = kFdX1only;
            if (rs2 != 0 || f3 != 0) return Op::ILLEGAL;
            return dbl ? Op::FMV_D_X : Op::FMV_W_X;
        default: return Op::ILLEGAL;
    }
}

Op decode_amo(std::uint32_t w) {
    const std::uint32_t f5 = bits(w, 31, 27), f3 = bits(w, 14, 12), rs2 = bits(w, 24, 20);
    if (f3 != 2 && f3 != 3) return Op::ILLEGAL;
    const bool d = f3 == 3;
    switch (f5) {
        case 0x02: return rs2 == 0 ? (d ? Op::LR_D : Op::LR_W) : Op::ILLEGAL;
        case 0x03: return d ? Op::SC_D : Op::SC_W;
        case 0x01: return d ? Op::AMOSWAP_D : Op::AMOSWAP_W;
        case 0x00: return d ? Op::AMOADD_D : Op::AMOADD_W;
        case 0x04: return d ? Op::AMOXOR_D : Op::AMOXOR_W;
        case 0x0c: return d ? Op::AMOAND_D : Op::AMOAND_W;
        case 0x08: return d ? Op::AMOOR_D : Op::AMOOR_W;
        case 0x10: return d ? Op::AMOMIN_D : Op::AMOMIN_W;
        case 0x14: return d ? Op::AMOMAX_D : Op::AMOMAX_W;
        case 0x18: return d ? Op::AMOMINU_D : Op::AMOMINU_W;
        case 0x1c: return d ? Op::AMOMAXU_D : Op::AMOMAXU_W;
        default: return Op::ILLEGAL;
    }
}

}  // namespace

const char* op_name(Op op) { return kOpNames[static_cast<int>(op)]; }

void decode(std::uint32_t w, Insn& d) {
    d.rd = static_cast<std::uint8_t>(bits(w, 11, 7));
    d.rs1 = static_cast<std::uint8_t>(bits(w, 19, 15));
    d.rs2 = static_cast<std::uint8_t>(bits(w, 24, 20));
    d.rs3 = static_cast<std::uint8_t>(bits(w, 31, 27));
    d.rm = static_cast<std::uint8_t>(bits(w, 14, 12));
    d.imm = 0;
    d.src1 = d.src2 = d.src3 = kSlotZero;
    d.dst = kSlotSink;
    const std::uint32_t opc = bits(w, 6, 0), f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
    const std::int32_t imm_i = static_cast<std::int32_t>(w) >> 20;
    const std::int32_t imm_s = sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
    const std::int32_t imm_b = sext((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) |
                                        (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1), 13);
    const std::int32_t imm_u = static_cast<std::int32_t>(w & 0xfffff000u);
    const std::int32_t imm_j = sext((bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) |
                                        (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1), 21);
    Op op = Op::ILLEGAL;
    Shape shape = kNone;
    if ((w & 3) != 3) {
        d.op = Op::ILLEGAL;
        return;
    }
    switch (opc) {
        case 0x37: op = Op::LUI; d.imm = imm_u; shape = kXd; break;
        case 0x17: op = Op::AUIPC; d.imm = imm_u; shape = kXd; break;
        case 0x6f: op = Op::JAL; d.imm = imm_j; shape = kXd; break;
        case 0x67:
            if (f3 == 0) { op = Op::JALR; d.imm = imm_i; shape = kXdX1; }
            break;
        case 0x63: {
            static constexpr Op kB[8] = {Op::BEQ, Op::BNE, Op::ILLEGAL, Op::ILLEGAL,
                                         Op::BLT, Op::BGE, Op::BLTU, Op::BGEU};
            op = kB[f3];
            d.imm = imm_b;
            shape = kX1X2;
            break;
        }
        case 0x03: {
            static constexpr Op kL[8] = {Op::LB, Op::LH, Op::LW, Op::LD,
                                         Op::LBU, Op::LHU, Op::LWU, Op::ILLEGAL};
            op = kL[f3];
            d.imm = imm_i;
            shape = kXdX1;
            break;
        }
        case 0x23: {
            static constexpr Op kS[8] = {Op::SB, Op::SH, Op::SW, Op::SD,
                                         Op::ILLEGAL, Op::ILLEGAL, Op::ILLEGAL, Op::ILLEGAL};
            op = kS[f3];
            d.imm = imm_s;
            shape = kX1X2;
            break;
        }
        case 0x13:
            d.imm = imm_i;
            shape = kXdX1;
            switch (f3) {
                case 0: op = Op::ADDI; break;
                case 2: op = Op::SLTI; break;
                case 3: op = Op::SLTIU; break;
                case 4: op = Op::XORI; break;
                case 6: op = Op::ORI; break;
                case 7: op = Op::ANDI; break;
                case 1:
                    if ((w >> 26) == 0) { op = Op::SLLI; d.imm = static_cast<std::int32_t>(bits(w, 25, 20)); }
                    break;
                case 5:
                    d.imm = static_cast<std::int32_t>(bits(w, 25, 20));
                    if ((w >> 26) == 0) op = Op::SRLI;
                    else if ((w >> 26) == 0x10) op = Op::SRAI;
                    break;
            }
            break;
        case 0x1b:
            d.imm = imm_i;
            shape = kXdX1;
            if (f3 == 0) op = Op::ADDIW;
            else if (f3 == 1 && f7 == 0) { op = Op::SLLIW; d.imm = d.rs2; }
            else if (f3 == 5 && f7 == 0) { op = Op::SRLIW; d.imm = d.rs2; }
            else if (f3 == 5 && f7 == 0x20) { op = Op::SRAIW; d.imm = d.rs2; }
            break;
        case 0x33:
            shape = kXdX1X2;
            if (f7 == 0) {
                static constexpr Op kR[8] = {Op::ADD, Op::SLL, Op::SLT, Op::SLTU,
                                             Op::XOR, Op::SRL, Op::OR, Op::AND};
                op = kR[f3];
            } else if (f7 == 0x20) {
                if (f3 == 0) op = Op::SUB;
                else if (f3 == 5) op = Op::SRA;
            } else if (f7 == 1) {
                static constexpr Op kM[8] = {Op::MUL, Op::MULH, Op::MULHSU, Op::MULHU,
                                             Op::DIV, Op::DIVU, Op::REM, Op::REMU};
                op = kM[f3];
            }
            break;
        case 0x3b:
            shape = kXdX1X2;
            if (f7 == 0) {
                if (f3 == 0) op = Op::ADDW;
                else if (f3 == 1) op = Op::SLLW;
                else if (f3 == 5) op = Op::SRLW;
            } else if (f7 == 0x20) {
                if (f3 == 0) op = Op::SUBW;
                else if (f3 == 5) op = Op::SRAW;
            } else if (f7 == 1) {
                static constexpr Op kM[8] = {Op::MULW, Op::ILLEGAL, Op::ILLEGAL, Op::ILLEGAL,
                                             Op::DIVW, Op::DIVUW, Op::REMW, Op::REMUW};
                op = kM[f3];
            }
            break;
        case 0x0f:
            if (f3 == 0) op = Op::FENCE;
            else if (f3 == 1) op = Op::FENCE_I;
            break;
        case 0x73:
            if (f3 == 0) {
                if (w == 0x00000073u) op = Op::ECALL;
                else if (w == 0x00100073u) op = Op::EBREAK;
                else if (w == 0x30200073u) op = Op::MRET;
                else if (w == 0x10500073u) op = Op::WFI;
                else if (w == 0x10200073u) op = Op::SRET;
                else if ((w & 0xfe007fffu) == 0x12000073u) { op = Op::SFENCE_VMA; shape = kX1X2; }
            } else if (f3 != 4) {
                static constexpr Op kC[8] = {Op::ILLEGAL, Op::CSRRW, Op::CSRRS, Op::CSRRC,
                                             Op::ILLEGAL, Op::CSRRWI, Op::CSRRSI, Op::CSRRCI};
                op = kC[f3];
                d.imm = static_cast<std::int32_t>(bits(w, 31, 20));
                shape = f3 < 4 ? kXdX1 : kXd;
            }
            break;
        case 0x2f:
            op = decode_amo(w);
            d.rm = static_cast<std::uint8_t>(bits(w, 26, 25));
            shape = kXdX1X2;
            break;
        case 0x07:
            d.imm = imm_i;
            shape = kFdX1;
            if (f3 == 2) op = Op::FLW;
            else if (f3 == 3) op = Op::FLD;
            break;
        case 0x27:
            d.imm = imm_s;
            shape = kX1F2;
            if (f3 == 2) op = Op::FSW;
            else if (f3 == 3) op = Op::FSD;
            break;
        case 0x43: case 0x47: case 0x4b: case 0x4f: {
            const std::uint32_t fmt = bits(w, 26, 25);
            shape = kFdF1F2F3;
            const int k = static_cast<int>((opc >> 2) & 3);  // 0 madd, 1 msub, 2 nmsub, 3 nmadd
            static constexpr Op kS[4] = {Op::FMADD_S, Op::FMSUB_S, Op::FNMSUB_S, Op::FNMADD_S};
            static constexpr Op kD[4] = {Op::FMADD_D, Op::FMSUB_D, Op::FNMSUB_D, Op::FNMADD_D};
            if (fmt == 0) op = kS[k];
            else if (fmt == 1) op = kD[k];
            break;
        }
        case 0x53:
            op = decode_op_fp(w, shape);
            break;
        default: break;
    }
    d.op = op;
    if (op == Op::ILLEGAL) shape = kNone;
    set_shape(d, shape);
    d.tclass = op_class(op);
}

}  // namespace fm::rv
