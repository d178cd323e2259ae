/* RV64F/D: arithmetic in every rounding mode, exception flags, NaN handling
   (canonical NaNs, NaN-boxing), min/max, conversions with saturation. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static volatile double dv[] = {1.0, -1.0, 3.0, 0.1, -0.0, 0.0, 1e308, 1e-310, INFINITY, -INFINITY, NAN};
static volatile float fv[] = {1.0f, -1.0f, 3.0f, 0.1f, -0.0f, 0.0f, 3e38f, 1e-40f, INFINITY, NAN};
#define ND (int)(sizeof dv / sizeof dv[0])
#define NF (int)(sizeof fv / sizeof fv[0])

static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void flags(const char* what) {
    int e = fetestexcept(FE_ALL_EXCEPT);
    printf("%s flags:%s%s%s%s%s\n", what, e & FE_INVALID ? " NV" : "", e & FE_DIVBYZERO ? " DZ" : "",
           e & FE_OVERFLOW ? " OF" : "", e & FE_UNDERFLOW ? " UF" : "", e & FE_INEXACT ? " NX" : "");
    feclearexcept(FE_ALL_EXCEPT);
}

int main(void) {
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    static const char* names[] = {"rne", "rtz", "rdn", "rup"};
    for (int m = 0; m < 4; m++) {
        fesetround(modes[m]);
        uint64_t h = 0;
        for (int i = 0; i < ND; i++) {
            for (int j = 0; j < ND; j++) {
                double a = dv[i], b = dv[j];
                h = h * 31 + dbits(a + b);
                h = h * 31 + dbits(a - b);
                h = h * 31 + dbits(a * b);
                h = h * 31 + dbits(a / b);
                h = h * 31 + dbits(fma(a, b, 0.5));
            }
            h = h * 31 + dbits(sqrt(dv[i]));
            h = h * 31 + (uint64_t)(int64_t)lrint(dv[i] * 1000.5);
        }
        for (int i = 0; i < NF; i++) {
            for (int j = 0; j < NF; j++) {
                float a = fv[i], b = fv[j];
                h = h * 31 + fbits(a + b);
                h = h * 31 + fbits(a * b);
                h = h * 31 + fbits(a / b);
                h = h * 31 + fbits(fmaf(a, b, -0.25f));
            }
            h = h * 31 + fbits(sqrtf(fv[i]));
            h = h * 31 + fbits((float)dv[i]);
        }
        printf("%s: %016llx  1/3=%a  2/3f=%a  rint(2.5)=%g rint(-2.5)=%g\n", names[m],
               (unsigned long long)h, dv[0] / dv[2], (double)(2.0f / (float)dv[2]),
               rint(2.5), rint(-2.5));
        flags(names[m]);
    }
    fesetround(FE_TONEAREST);

    volatile double z = 0.0, one = 1.0, big = 1e308, tiny = 1e-308;
    volatile double r;
    r = one / z; flags("1/0");
    r = z / z; flags("0/0");
    r = big * 10; flags("overflow");
    r = tiny / 1e10; flags("underflow");
    r = one / 3; flags("inexact");
    r = sqrt(-one); flags("sqrt(-1)");
    (void)r;

    /* Conversions: RISC-V saturates and flags NV; the asm makes it defined. */
    static volatile double conv[] = {1.5, -1.5, 2.5, -0.7, 3e9, -3e9, 1e19, 2e19, -1e19, INFINITY, -INFINITY, NAN};
    for (int i = 0; i < (int)(sizeof conv / sizeof conv[0]); i++) {
        double d = conv[i];
        int64_t w, wu, l, lu, lrne;
        __asm__ volatile("fcvt.w.d %0, %1, rtz" : "=r"(w) : "f"(d));
        __asm__ volatile("fcvt.wu.d %0, %1, rtz" : "=r"(wu) : "f"(d));
        __asm__ volatile("fcvt.l.d %0, %1, rtz" : "=r"(l) : "f"(d));
        __asm__ volatile("fcvt.lu.d %0, %1, rtz" : "=r"(lu) : "f"(d));
        __asm__ volatile("fcvt.l.d %0, %1, rne" : "=r"(lrne) : "f"(d));
        printf("cvt %g: w=%lld wu=%llx l=%lld lu=%llx rne=%lld\n", d, (long long)w,
               (unsigned long long)wu, (long long)l, (unsigned long long)lu, (long long)lrne);
        flags("  cvt");
    }
    /* Single conversions and int->float rounding. */
    volatile int64_t bigint = (1LL << 53) + 1;
    printf("i2d %.1f i2f %.1f u2f %.1f\n", (double)bigint, (float)bigint,
           (float)(uint64_t)0xffffffffffffffffULL);
    flags("i2f");

    /* NaN-boxing: a double bit pattern read as a single is the canonical NaN. */
    float boxed;
    uint64_t raw = 0x000000003f800000ULL; /* 1.0f without the upper ones */
    __asm__ volatile("fmv.d.x %0, %1\n\tfadd.s %0, %0, %0" : "=&f"(boxed) : "r"(raw));
    printf("unboxed read: %08x\n", fbits(boxed));
    uint64_t back;
    float onef = 1.0f;
    __asm__ volatile("fmv.x.d %0, %1" : "=r"(back) : "f"(onef));
    printf("boxed single: %016llx\n", (unsigned long long)back);
    /* NaN results are canonical (sign clear, quiet bit only). */
    volatile double nn = -NAN;
    printf("canonical: %016llx %08x\n", (unsigned long long)dbits(nn + 1.0), fbits((float)nn * 2.0f));
    /* fmin/fmax: NaN operand yields the other; -0 < +0. */
    printf("fmin %g %g %g fmax %g %g\n", fmin(NAN, 2.0), fmin(-0.0, 0.0), fminf(3.0f, NAN),
           fmax(-0.0, 0.0), fmax(NAN, NAN));
    uint64_t cls[6];
    double cl_in[6] = {-INFINITY, -1.0, -0.0, 1e-310, NAN, 2.0};
    for (int i = 0; i < 6; i++) __asm__ volatile("fclass.d %0, %1" : "=r"(cls[i]) : "f"(cl_in[i]));
    printf("fclass %llx %llx %llx %llx %llx %llx\n", (unsigned long long)cls[0], (unsigned long long)cls[1],
           (unsigned long long)cls[2], (unsigned long long)cls[3], (unsigned long long)cls[4],
           (unsigned long long)cls[5]);
    printf("cmp %d %d %d\n", dv[10] == dv[10], dv[0] < dv[10], dv[4] == dv[5]);
    flags("cmp");
    printf("math %.17g %.17g %.17g %.9g\n", exp(1.0), log(10.0), sin(1.0), (double)powf(2.0f, 0.5f));
    return 0;
}
