# Machine-mode traps: install mtvec, take an illegal-instruction trap, an
# ecall and an ebreak; the handler checks mcause/mepc/mtval, skips the
# instruction and returns with mret. Prints "ok" through HTIF putchar.
#include "htif.inc"
    .section .text.init
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    csrw mscratch, zero
    li s0, 0                # traps seen
    .word 0xffffffff        # illegal instruction -> mcause 2
    ecall                   # mcause 11
    ebreak                  # mcause 3
    li t0, 3
    bne s0, t0, fail
    csrr t1, mscratch       # handler accumulated the causes: 2 + 11 + 3
    li t0, 16
    bne t1, t0, fail
    csrr t0, misa           # RV64 with I, M, A, F, D, C
    srli t1, t0, 62
    li t2, 2
    bne t1, t2, fail
    andi t1, t0, 0x12d
    li t2, 0x12d
    bne t1, t2, fail
    csrr t0, mhartid
    bnez t0, fail
    li a0, 'o'
    call putchar
    li a0, 'k'
    call putchar
    li a0, '\n'
    call putchar
    EXIT 0
fail:
    EXIT 1

putchar:                    # HTIF console: device 1, command 1, payload = byte
    li t0, 0x0101
    slli t0, t0, 48
    or t0, t0, a0
    la t1, tohost
    sd t0, 0(t1)
    ret

    .align 2
handler:
    addi s0, s0, 1
    csrr t0, mcause
    csrr t1, mscratch
    add t1, t1, t0
    csrw mscratch, t1
    csrr t1, mepc
    li t2, 2
    bne t0, t2, 1f
    csrr t3, mtval          # the illegal word itself
    li t4, -1
    slli t4, t4, 32
    srli t4, t4, 32
    bne t3, t4, fail
1:  addi t1, t1, 4          # every trapping instruction here is 4 bytes
    csrw mepc, t1
    mret
    TOHOST_WORDS
