# Sums 1..1000 with a loop and a multiply check, then exits through tohost
# with code 0 (pass) if the sum is 500500, else with code 2.
#include "htif.inc"
    .section .text.init
    .globl _start
_start:
    li a0, 0
    li a1, 1000
1:  add a0, a0, a1
    addi a1, a1, -1
    bnez a1, 1b
    li a2, 1001
    li a3, 500
    mul a2, a2, a3          # 500500 the other way
    bne a0, a2, fail
    EXIT 0
fail:
    EXIT 2
    TOHOST_WORDS
