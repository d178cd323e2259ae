# Exercises every RV64C instruction form explicitly (c.* mnemonics), so the
# expansion of each is compared with qemu. Called from compressed_main.c as
# uint64_t rvc_mix(uint64_t *buf, uint64_t x) and double rvc_fp(double *).
    .text
    .option push
    .option rvc
    .globl rvc_mix
rvc_mix:                      # a0 = buf (8 doublewords), a1 = x
    c.addi16sp sp, -64
    c.sdsp ra, 56(sp)
    c.sdsp s0, 48(sp)
    c.sdsp s1, 40(sp)
    c.addi4spn s0, sp, 16     # s0 = sp + 16
    c.mv s1, a1               # s1 = x
    c.li a2, 13
    c.lui a3, 5               # a3 = 5 << 12
    c.add a3, a2              # a3 += 13
    c.addi a3, -3
    c.addiw a3, 7
    c.slli a3, 3
    c.srli s1, 1
    c.srai s1, 2
    c.andi s1, 0x1f
    c.sub a3, s1
    c.xor a3, s1
    c.or a3, s1
    c.and s1, a3
    c.addw a3, s1
    c.subw a3, s1
    c.sd a3, 0(a0)
    c.ld a4, 0(a0)
    c.sw a4, 8(a0)
    c.lw a5, 8(a0)
    c.sd a5, 16(s0)
    c.ld a5, 16(s0)
    c.swsp a5, 4(sp)
    c.lwsp a2, 4(sp)
    c.add a2, a5
    c.beqz a2, 1f
    c.addi a2, 1
1:  c.bnez a2, 2f
    c.addi a2, 2
2:  c.j 3f
    c.addi a2, 30             # skipped
3:  la a4, helper
    c.jalr a4                 # helper adds 1000 to a2
    c.mv a0, a2
    c.ldsp ra, 56(sp)
    c.ldsp s0, 48(sp)
    c.ldsp s1, 40(sp)
    c.addi16sp sp, 64
    c.jr ra
helper:
    addi a2, a2, 1000
    c.jr ra

    .globl rvc_fp
rvc_fp:                       # a0 = double[4]; returns d[0]+d[1] via c.fld/c.fsd/c.fldsp/c.fsdsp
    c.addi sp, -16
    c.fld fa4, 0(a0)
    c.fld fa5, 8(a0)
    fadd.d fa4, fa4, fa5
    c.fsd fa4, 16(a0)
    c.fsdsp fa4, 8(sp)
    c.fldsp fa0, 8(sp)
    c.addi sp, 16
    c.jr ra
    .option pop
