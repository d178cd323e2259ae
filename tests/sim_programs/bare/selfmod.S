# Self-modifying code: patch an instruction, fence.i, run it again. The
# decode cache must see the new instruction. Exits 0 when a0 == 2 + 40.
#include "htif.inc"
    .section .text.init
    .globl _start
_start:
    li a0, 0
    call target             # a0 += 2
    la t0, target
    la t1, replacement
    lw t2, 0(t1)
    sw t2, 0(t0)            # target now adds 40
    fence.i
    call target
    li t0, 42
    bne a0, t0, fail
    EXIT 0
fail:
    EXIT 1
    .align 2
target:
    .option push
    .option norvc
    addi a0, a0, 2
    .option pop
    ret
replacement:
    .option push
    .option norvc
    addi a0, a0, 40
    .option pop
    TOHOST_WORDS
