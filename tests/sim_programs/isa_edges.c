/* Instruction-level edge cases, each through inline asm so the compiler
   cannot fold them: jalr clearing bit 0, W-shifts using only 5 bits of the
   amount, 32-bit wrap-around in *W ops, immediate sign extension, narrow
   loads, Zicsr forms on fcsr, NaN-boxing of single-precision moves and
   sign injection, fclass of an improperly boxed value. */
#include <stdint.h>
#include <stdio.h>

static uint64_t r[64];
static int nr;
#define OUT(v) (r[nr++] = (uint64_t)(v))

int main(void) {
    uint64_t x, y;
    /* jalr to an odd address: bit 0 is cleared. */
    __asm__ volatile(
        "la t0, 1f\n\taddi t0, t0, 1\n\tli %0, 0\n\tjalr t1, 0(t0)\n\tli %0, 99\n"
        "1:\tli %0, 7\n" : "=r"(x) : : "t0", "t1");
    OUT(x);
    __asm__ volatile("li t0, 5\n\tsltiu %0, t0, -1" : "=r"(x) : : "t0");   /* 5 < 0xfff..f */
    OUT(x);
    __asm__ volatile("li t0, -1\n\tsltiu %0, t0, -1" : "=r"(x) : : "t0");
    OUT(x);
    __asm__ volatile("li t0, 0x7fffffff\n\taddiw %0, t0, 1" : "=r"(x) : : "t0");
    OUT(x);
    __asm__ volatile("li t0, 0x80000000\n\tli t1, 33\n\tsraw %0, t0, t1" : "=r"(x) : : "t0", "t1");
    OUT(x);
    __asm__ volatile("li t0, 0x80000000\n\tli t1, 33\n\tsrlw %0, t0, t1" : "=r"(x) : : "t0", "t1");
    OUT(x);
    __asm__ volatile("li t0, 3\n\tli t1, 63\n\tsllw %0, t0, t1" : "=r"(x) : : "t0", "t1");
    OUT(x);
    __asm__ volatile("li t0, -8\n\tsrai %0, t0, 63" : "=r"(x) : : "t0");
    OUT(x);
    __asm__ volatile("li t0, 1\n\tslli %0, t0, 63" : "=r"(x) : : "t0");
    OUT(x);
    __asm__ volatile("li t0, -1\n\tsrliw %0, t0, 31" : "=r"(x) : : "t0");
    OUT(x);
    __asm__ volatile("li t0, 0x40000000\n\tslliw %0, t0, 1" : "=r"(x) : : "t0");
    OUT(x);
    __asm__ volatile("lui %0, 0x80000" : "=r"(x));  /* sign-extended on RV64 */
    OUT(x);
    __asm__ volatile("li t0, 0x7fffffff\n\tli t1, 0x7fffffff\n\tmulw %0, t0, t1" : "=r"(x) : : "t0", "t1");
    OUT(x);
    __asm__ volatile("li t0, 0x100000000\n\taddw %0, t0, t0" : "=r"(x) : : "t0");
    OUT(x);
    static const unsigned char bytes[8] = {0x80, 0xff, 0x7f, 0x80, 0x01, 0x80, 0x00, 0xff};
    __asm__ volatile("lb %0, 0(%1)" : "=r"(x) : "r"(bytes));
    OUT(x);
    __asm__ volatile("lh %0, 2(%1)" : "=r"(x) : "r"(bytes));
    OUT(x);
    __asm__ volatile("lwu %0, 4(%1)" : "=r"(x) : "r"(bytes));
    OUT(x);
    __asm__ volatile("lw %0, 4(%1)" : "=r"(x) : "r"(bytes));
    OUT(x);
    /* Zicsr on fcsr: csrrwi frm, csrrsi/csrrci fflags, csrrw fcsr returns old. */
    __asm__ volatile("csrrwi %0, frm, 3\n\tcsrrsi x0, fflags, 0x15\n\tcsrrci %1, fflags, 0x4"
                     : "=r"(x), "=r"(y));
    OUT(x);
    OUT(y);
    __asm__ volatile("csrrw %0, fcsr, zero" : "=r"(x));
    OUT(x);
    __asm__ volatile("frcsr %0" : "=r"(x));
    OUT(x);
    /* NaN-boxing. */
    __asm__ volatile("li t0, 0xbf800000\n\tfmv.w.x ft0, t0\n\tfmv.x.w %0, ft0" : "=r"(x) : : "t0", "ft0");
    OUT(x);  /* -1.0f, sign-extended */
    __asm__ volatile("li t0, 0xbf800000\n\tfmv.w.x ft0, t0\n\tfmv.x.d %0, ft0" : "=r"(x) : : "t0", "ft0");
    OUT(x);  /* boxed: upper 32 bits all ones */
    __asm__ volatile("li t0, 0x3f800000\n\tfmv.d.x ft0, t0\n\tfsgnjn.s ft1, ft0, ft0\n\tfmv.x.d %0, ft1"
                     : "=r"(x) : : "t0", "ft0", "ft1");
    OUT(x);  /* unboxed input reads as the canonical NaN */
    __asm__ volatile("li t0, 0x3f800000\n\tfmv.d.x ft0, t0\n\tfclass.s %0, ft0" : "=r"(x) : : "t0", "ft0");
    OUT(x);
    static float fbuf[2] = {2.5f, -0.0f};
    static uint64_t dbuf;
    __asm__ volatile("flw ft0, 0(%1)\n\tfsd ft0, 0(%2)\n\tld %0, 0(%2)" : "=r"(x) : "r"(fbuf), "r"(&dbuf) : "ft0", "memory");
    OUT(x);
    __asm__ volatile("flw ft0, 4(%1)\n\tfcvt.d.s ft1, ft0\n\tfmv.x.d %0, ft1" : "=r"(x) : "r"(fbuf) : "ft0", "ft1");
    OUT(x);
    for (int i = 0; i < nr; i++) printf("%2d %016llx\n", i, (unsigned long long)r[i]);
    return nr;
}
