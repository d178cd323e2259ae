# A test that fails on purpose: exits through tohost with code 7, the way
# the ISA tests report "test case 7 failed".
#include "htif.inc"
    .section .text.init
    .globl _start
_start:
    li a0, 3
    li a1, 4
    add a2, a0, a1
    EXIT 7
    TOHOST_WORDS
