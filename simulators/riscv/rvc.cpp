// RVC: each compressed instruction is rewritten as the 32-bit instruction it
// stands for (RISC-V unprivileged spec, chapter "C" standard extension), so
// the decoder and the semantics see one form only. RV64C mapping.
#include "decoder.hpp"

namespace fm::rv {

namespace {

inline std::uint32_t b(std::uint32_t c, int hi, int lo) {
    return (c >> lo) & ((1u << (hi - lo + 1)) - 1u);
}
inline std::uint32_t bit(std::uint32_t c, int i) { return (c >> i) & 1u; }

// 32-bit encoders. Immediates arrive as two's-complement values.
inline std::uint32_t enc_r(std::uint32_t opc, std::uint32_t rd, std::uint32_t f3,
                           std::uint32_t rs1, std::uint32_t rs2, std::uint32_t f7) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
inline std::uint32_t enc_i(std::uint32_t opc, std::uint32_t rd, std::uint32_t f3,
                           std::uint32_t rs1, std::int32_t imm) {
    return (static_cast<std::uint32_t>(imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) |
           (rd << 7) | opc;
}
inline std::uint32_t enc_s(std::uint32_t opc, std::uint32_t f3, std::uint32_t rs1,
                           std::uint32_t rs2, std::int32_t imm) {
    const std::uint32_t u = static_cast<std::uint32_t>(imm);
    return (b(u, 11, 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (b(u, 4, 0) << 7) | opc;
}
inline std::uint32_t enc_b(std::uint32_t f3, std::uint32_t rs1, std::uint32_t rs2, std::int32_t imm) {
    const std::uint32_t u = static_cast<std::uint32_t>(imm);
    return (bit(u, 12) << 31) | (b(u, 10, 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
           (b(u, 4, 1) << 8) | (bit(u, 11) << 7) | 0x63;
}
inline std::uint32_t enc_j(std::uint32_t rd, std::int32_t imm) {
    const std::uint32_t u = static_cast<std::uint32_t>(imm);
    return (bit(u, 20) << 31) | (b(u, 10, 1) << 21) | (bit(u, 11) << 20) | (b(u, 19, 12) << 12) |
           (rd << 7) | 0x6f;
}
inline std::int32_t sx(std::uint32_t v, int width) {
    const std::uint32_t m = 1u << (width - 1);
    return static_cast<std::int32_t>((v ^ m) - m);
}

}  // namespace

std::uint32_t expand_rvc(std::uint16_t h) {
    const std::uint32_t c = h;
    const std::uint32_t q = c & 3, f3 = b(c, 15, 13);
    const std::uint32_t rdp = b(c, 4, 2) + 8, rs1p = b(c, 9, 7) + 8;  // x8..x15
    const std::uint32_t rd = b(c, 11, 7), rs2 = b(c, 6, 2);
    if (c == 0) return 0;
    if (q == 0) {
        switch (f3) {
            case 0: {  // c.addi4spn
                const std::uint32_t imm = (b(c, 12, 11) << 4) | (b(c, 10, 7) << 6) |
                                          (bit(c, 6) << 2) | (bit(c, 5) << 3);
                if (imm == 0) return 0;
                return enc_i(0x13, rdp, 0, 2, static_cast<std::int32_t>(imm));
            }
            case 1: {  // c.fld
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (b(c, 6, 5) << 6);
                return enc_i(0x07, rdp, 3, rs1p, static_cast<std::int32_t>(imm));
            }
            case 2: {  // c.lw
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (bit(c, 6) << 2) | (bit(c, 5) << 6);
                return enc_i(0x03, rdp, 2, rs1p, static_cast<std::int32_t>(imm));
            }
            case 3: {  // c.ld
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (b(c, 6, 5) << 6);
                return enc_i(0x03, rdp, 3, rs1p, static_cast<std::int32_t>(imm));
            }
            case 5: {  // c.fsd
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (b(c, 6, 5) << 6);
                return enc_s(0x27, 3, rs1p, rdp, static_cast<std::int32_t>(imm));
            }
            case 6: {  // c.sw
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (bit(c, 6) << 2) | (bit(c, 5) << 6);
                return enc_s(0x23, 2, rs1p, rdp, static_cast<std::int32_t>(imm));
            }
            case 7: {  // c.sd
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (b(c, 6, 5) << 6);
                return enc_s(0x23, 3, rs1p, rdp, static_cast<std::int32_t>(imm));
            }
            default: return 0;
        }
    }
    if (q == 1) {
        const std::int32_t imm6 = sx((bit(c, 12) << 5) | b(c, 6, 2), 6);
        switch (f3) {
            case 0: return enc_i(0x13, rd, 0, rd, imm6);  // c.addi / c.nop
            case 1:                                        // c.addiw
                if (rd == 0) return 0;
                return enc_i(0x1b, rd, 0, rd, imm6);
            case 2: return enc_i(0x13, rd, 0, 0, imm6);  // c.li
            case 3:
                if (rd == 2) {  // c.addi16sp
                    const std::int32_t imm = sx((bit(c, 12) << 9) | (bit(c, 6) << 4) |
                                                    (bit(c, 5) << 6) | (b(c, 4, 3) << 7) |
                                                    (bit(c, 2) << 5), 10);
                    if (imm == 0) return 0;
                    return enc_i(0x13, 2, 0, 2, imm);
                } else {  // c.lui
                    if (imm6 == 0) return 0;
                    return (static_cast<std::uint32_t>(imm6) << 12) | (rd << 7) | 0x37;
                }
            case 4: {
                const std::uint32_t f2 = b(c, 11, 10);
                const std::uint32_t shamt = (bit(c, 12) << 5) | b(c, 6, 2);
                if (f2 == 0) return enc_i(0x13, rs1p, 5, rs1p, static_cast<std::int32_t>(shamt));
                if (f2 == 1)
                    return enc_i(0x13, rs1p, 5, rs1p, static_cast<std::int32_t>(shamt | 0x400));
                if (f2 == 2) return enc_i(0x13, rs1p, 7, rs1p, imm6);
                const std::uint32_t sub = b(c, 6, 5);
                if (bit(c, 12) == 0) {
                    static constexpr std::uint32_t kF3[4] = {0, 4, 6, 7};
                    return enc_r(0x33, rs1p, kF3[sub], rs1p, rdp, sub == 0 ? 0x20 : 0);
                }
                if (sub == 0) return enc_r(0x3b, rs1p, 0, rs1p, rdp, 0x20);  // c.subw
                if (sub == 1) return enc_r(0x3b, rs1p, 0, rs1p, rdp, 0);     // c.addw
                return 0;
            }
            case 5: {  // c.j
                const std::int32_t off = sx((bit(c, 12) << 11) | (bit(c, 11) << 4) |
                                                (b(c, 10, 9) << 8) | (bit(c, 8) << 10) |
                                                (bit(c, 7) << 6) | (bit(c, 6) << 7) |
                                                (b(c, 5, 3) << 1) | (bit(c, 2) << 5), 12);
                return enc_j(0, off);
            }
            default: {  // 6 c.beqz, 7 c.bnez
                const std::int32_t off = sx((bit(c, 12) << 8) | (b(c, 11, 10) << 3) |
                                                (b(c, 6, 5) << 6) | (b(c, 4, 3) << 1) |
                                                (bit(c, 2) << 5), 9);
                return enc_b(f3 == 6 ? 0 : 1, rs1p, 0, off);
            }
        }
    }
    if (q == 2) {
        switch (f3) {
            case 0: {  // c.slli
                const std::uint32_t shamt = (bit(c, 12) << 5) | b(c, 6, 2);
                return enc_i(0x13, rd, 1, rd, static_cast<std::int32_t>(shamt));
            }
            case 1: {  // c.fldsp
                const std::uint32_t imm = (bit(c, 12) << 5) | (b(c, 6, 5) << 3) | (b(c, 4, 2) << 6);
                return enc_i(0x07, rd, 3, 2, static_cast<std::int32_t>(imm));
            }
            case 2: {  // c.lwsp
                if (rd == 0) return 0;
                const std::uint32_t imm = (bit(c, 12) << 5) | (b(c, 6, 4) << 2) | (b(c, 3, 2) << 6);
                return enc_i(0x03, rd, 2, 2, static_cast<std::int32_t>(imm));
            }
            case 3: {  // c.ldsp
                if (rd == 0) return 0;
                const std::uint32_t imm = (bit(c, 12) << 5) | (b(c, 6, 5) << 3) | (b(c, 4, 2) << 6);
                return enc_i(0x03, rd, 3, 2, static_cast<std::int32_t>(imm));
            }
            case 4:
                if (bit(c, 12) == 0) {
                    if (rs2 == 0) {  // c.jr
                        if (rd == 0) return 0;
                        return enc_i(0x67, 0, 0, rd, 0);
                    }
                    return enc_r(0x33, rd, 0, 0, rs2, 0);  // c.mv
                }
                if (rs2 == 0) {
                    if (rd == 0) return 0x00100073u;        // c.ebreak
                    return enc_i(0x67, 1, 0, rd, 0);        // c.jalr
                }
                return enc_r(0x33, rd, 0, rd, rs2, 0);      // c.add
            case 5: {  // c.fsdsp
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (b(c, 9, 7) << 6);
                return enc_s(0x27, 3, 2, rs2, static_cast<std::int32_t>(imm));
            }
            case 6: {  // c.swsp
                const std::uint32_t imm = (b(c, 12, 9) << 2) | (b(c, 8, 7) << 6);
                return enc_s(0x23, 2, 2, rs2, static_cast<std::int32_t>(imm));
            }
            default: {  // c.sdsp
                const std::uint32_t imm = (b(c, 12, 10) << 3) | (b(c, 9, 7) << 6);
                return enc_s(0x23, 3, 2, rs2, static_cast<std::int32_t>(imm));
            }
        }
    }
    return 0;
}

}  // namespace fm::rv
