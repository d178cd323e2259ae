/* F/D exception flags and results, instruction by instruction (inline asm
   with fsflags/frflags), over special values: zeros, infinities, quiet and
   signalling NaNs, subnormals, extremes and integer boundaries, in each
   rounding mode. Prints hashes plus a few readable lines. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint64_t dvals[] = {0x0000000000000000ULL, 0x8000000000000000ULL, 0x3ff0000000000000ULL, 0xbff0000000000000ULL,
  0x7ff0000000000000ULL, 0xfff0000000000000ULL, 0x7ff8000000000000ULL, 0x7ff4000000000000ULL /*sNaN*/,
  0x0000000000000001ULL, 0x000fffffffffffffULL, 0x7fefffffffffffffULL, 0x4008000000000000ULL, 0x3fb999999999999aULL,
  0xc1e0000000000000ULL, 0x41dfffffffc00000ULL, 0x43e0000000000000ULL, 0xfff8000000000001ULL};
static uint32_t svals[] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fa00000u,
  1u, 0x007fffffu, 0x7f7fffffu, 0x40400000u, 0x3dcccccdu, 0xcf000000u, 0x4f000000u};
#define ND (int)(sizeof dvals/8)
#define NS (int)(sizeof svals/4)
static uint64_t h = 0;
static void mix(uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; }
int main(void) {
  for (int rm = 0; rm < 5; rm++) { /* RNE, RTZ, RDN, RUP, RMM */
    asm volatile("fsrm %0" :: "r"(rm));
    for (int i = 0; i < ND; i++) for (int j = 0; j < ND; j++) {
      double a, b, r; memcpy(&a, &dvals[i], 8); memcpy(&b, &dvals[j], 8);
      unsigned f; uint64_t u;
#define DO(insn) asm volatile("fsflags zero\n\t" insn " %0, %2, %3\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a), "f"(b)); memcpy(&u,&r,8); mix(u); mix(f); if (rm==0 && i<3 && j<3) printf("%s %d %d %016llx %x\n", insn, i, j, (unsigned long long)u, f);
      DO("fadd.d") DO("fsub.d") DO("fmul.d") DO("fdiv.d") DO("fmin.d") DO("fmax.d") DO("fsgnjx.d")
      asm volatile("fsflags zero\n\tfmadd.d %0, %2, %3, %2\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a), "f"(b)); memcpy(&u,&r,8); mix(u); mix(f);
      int64_t c; asm volatile("fsflags zero\n\tflt.d %0, %2, %3\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a), "f"(b)); mix((uint64_t)c); mix(f);
      asm volatile("fsflags zero\n\tfeq.d %0, %2, %3\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a), "f"(b)); mix((uint64_t)c); mix(f);
    }
    for (int i = 0; i < ND; i++) {
      double a; memcpy(&a, &dvals[i], 8); unsigned f; int64_t c; double r; uint64_t u; float s;
      asm volatile("fsflags zero\n\tfcvt.w.d %0, %2\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a)); mix((uint64_t)c); mix(f);
      asm volatile("fsflags zero\n\tfcvt.lu.d %0, %2\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a)); mix((uint64_t)c); mix(f);
      asm volatile("fsflags zero\n\tfcvt.wu.d %0, %2\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a)); mix((uint64_t)c); mix(f);
      asm volatile("fsflags zero\n\tfsqrt.d %0, %2\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a)); memcpy(&u,&r,8); mix(u); mix(f);
      asm volatile("fsflags zero\n\tfcvt.s.d %0, %2\n\tfrflags %1" : "=&f"(s), "=&r"(f) : "f"(a)); uint32_t us; memcpy(&us,&s,4); mix(us); mix(f);
      asm volatile("fclass.d %0, %1" : "=r"(c) : "f"(a)); mix((uint64_t)c);
      int64_t iv = (int64_t)dvals[i];
      asm volatile("fsflags zero\n\tfcvt.d.l %0, %2\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "r"(iv)); memcpy(&u,&r,8); mix(u); mix(f);
      asm volatile("fsflags zero\n\tfcvt.s.lu %0, %2\n\tfrflags %1" : "=&f"(s), "=&r"(f) : "r"(iv)); memcpy(&us,&s,4); mix(us); mix(f);
    }
    for (int i = 0; i < NS; i++) for (int j = 0; j < NS; j++) {
      float a, b, r; memcpy(&a, &svals[i], 4); memcpy(&b, &svals[j], 4); unsigned f; uint32_t u;
#define DOS(insn) asm volatile("fsflags zero\n\t" insn " %0, %2, %3\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a), "f"(b)); memcpy(&u,&r,4); mix(u); mix(f);
      DOS("fadd.s") DOS("fsub.s") DOS("fmul.s") DOS("fdiv.s") DOS("fmin.s") DOS("fmax.s")
      asm volatile("fsflags zero\n\tfnmsub.s %0, %2, %3, %3\n\tfrflags %1" : "=&f"(r), "=&r"(f) : "f"(a), "f"(b)); memcpy(&u,&r,4); mix(u); mix(f);
      int64_t c; asm volatile("fsflags zero\n\tfle.s %0, %2, %3\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a), "f"(b)); mix((uint64_t)c); mix(f);
      asm volatile("fsflags zero\n\tfcvt.l.s %0, %2\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(a)); mix((uint64_t)c); mix(f);
      asm volatile("fsflags zero\n\tfcvt.d.s %0, %2\n\tfrflags %1" : "=&f"(*(double*)&c), "=&r"(f) : "f"(a)); mix((uint64_t)c); mix(f);
    }
    printf("rm %d hash %016llx\n", rm, (unsigned long long)h);
  }
  /* RMM conversions to integer at ties. */
  static const double ties[] = {0.5, 1.5, 2.5, -0.5, -2.5, 1e10 + 0.5, 2.4999, -7.5};
  for (int i = 0; i < 8; i++) {
    int64_t c, w; unsigned f;
    asm volatile("fsflags zero\n\tfcvt.l.d %0, %2, rmm\n\tfrflags %1" : "=&r"(c), "=&r"(f) : "f"(ties[i]));
    asm volatile("fcvt.w.d %0, %1, rmm" : "=r"(w) : "f"(ties[i]));
    printf("rmm %g -> %lld %lld flags %x\n", ties[i], (long long)c, (long long)w, f);
  }
  return 0;
}
