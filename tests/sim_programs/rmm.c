/* RMM (round to nearest, ties to max magnitude), which the host FPU cannot
   do: exact ties in add/sub/mul/fma/conversions, subnormal and overflow
   boundaries, static rm and dynamic frm, with the flags each raises. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint64_t bd(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static uint32_t bf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
#define T2D(insn, a, b) { double r; unsigned f; double x = (a), y = (b); \
  asm volatile("fsflags zero\n\t" insn " %0, %2, %3, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(x), "f"(y)); \
  printf("%-8s %016llx %x\n", insn, (unsigned long long)bd(r), f); }
#define T2S(insn, a, b) { float r; unsigned f; float x = (a), y = (b); \
  asm volatile("fsflags zero\n\t" insn " %0, %2, %3, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(x), "f"(y)); \
  printf("%-8s %08x %x\n", insn, bf(r), f); }
int main(void) {
  double e53 = 0x1p-53, e52 = 0x1p-52;
  T2D("fadd.d", 1.0, e53) T2D("fadd.d", -1.0, -e53) T2D("fadd.d", 1.0 + e52, e53) T2D("fsub.d", 1.0, e53 / 2)
  T2D("fmul.d", 0x1p-1074, 0.5) T2D("fmul.d", -0x1p-1074, 0.5) T2D("fmul.d", 0x1.fffffffffffffp1023, 1.0 + e52)
  T2D("fmul.d", 1.0 + e52, 1.0 + e52) T2D("fdiv.d", 1.0, 3.0) T2D("fdiv.d", 0x1p-1073, 4.0) T2D("fmul.d", 0x1p-1022, 0x1.fffffffffffffp-1)
  T2S("fadd.s", 1.0f, 0x1p-24f) T2S("fadd.s", -1.0f, -0x1p-24f) T2S("fmul.s", 0x1p-149f, 0.5f) T2S("fmul.s", 0x1.fffffep127f, 1.0f + 0x1p-23f)
  T2S("fdiv.s", 2.0f, 3.0f) T2S("fsub.s", 0x1p-126f, 0x1p-150f)
  { double r; unsigned f; double a = 1.0, b = 1.0, c = 0x1p-53;
    asm volatile("fsflags zero\n\tfmadd.d %0, %2, %3, %4, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a), "f"(b), "f"(c));
    printf("fmadd.d %016llx %x\n", (unsigned long long)bd(r), f); }
  { float r; unsigned f; float a = 1.0f, b = 1.0f, c = 0x1p-24f;
    asm volatile("fsflags zero\n\tfnmsub.s %0, %2, %3, %4, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a), "f"(b), "f"(c));
    printf("fnmsub.s %08x %x\n", bf(r), f); }
  { float r; unsigned f; double d = 1.0 + 0x1p-24; asm volatile("fsflags zero\n\tfcvt.s.d %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(d)); printf("fcvt.s.d %08x %x\n", bf(r), f); }
  { float r; unsigned f; double d = -0x1p-150; asm volatile("fsflags zero\n\tfcvt.s.d %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(d)); printf("fcvt.s.d %08x %x\n", bf(r), f); }
  { float r; unsigned f; int64_t v = (1LL << 24) + 1; asm volatile("fsflags zero\n\tfcvt.s.l %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "r"(v)); printf("fcvt.s.l %08x %x\n", bf(r), f); }
  { double r; unsigned f; int64_t v = (1LL << 53) + 1; asm volatile("fsflags zero\n\tfcvt.d.l %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "r"(v)); printf("fcvt.d.l %016llx %x\n", (unsigned long long)bd(r), f); }
  { double r; unsigned f; uint64_t v = ~0ULL; asm volatile("fsflags zero\n\tfcvt.d.lu %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "r"(v)); printf("fcvt.d.lu %016llx %x\n", (unsigned long long)bd(r), f); }
  { float r; unsigned f; int64_t v = 0x7fffffffffffffffLL; asm volatile("fsflags zero\n\tfcvt.s.l %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "r"(v)); printf("fcvt.s.l %08x %x\n", bf(r), f); }
  { double r; unsigned f; double a = 2.0; asm volatile("fsflags zero\n\tfsqrt.d %0, %2, rmm\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a)); printf("fsqrt.d %016llx %x\n", (unsigned long long)bd(r), f); }
  /* dynamic rounding mode set to RMM through frm */
  { double r; unsigned f; double x = 1.0, y = 0x1p-53; asm volatile("fsrmi 4\n\tfsflags zero\n\tfadd.d %0, %2, %3\n\tfrflags %1\n\tfsrmi 0" : "=&f"(r), "=&r"(f) : "f"(x), "f"(y)); printf("dyn %016llx %x\n", (unsigned long long)bd(r), f); }
  return 0;
}
