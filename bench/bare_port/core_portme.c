/* CoreMark port for frontier-measure's RISC-V simulator (see core_portme.h). */
#include "coremark.h"

/* Seeds of a performance run, read through volatiles so the compiler cannot
 * fold the benchmark's inputs. */
volatile ee_s32 seed1_volatile = 0x0;
volatile ee_s32 seed2_volatile = 0x0;
volatile ee_s32 seed3_volatile = 0x66;
volatile ee_s32 seed4_volatile = ITERATIONS;
volatile ee_s32 seed5_volatile = 0;

ee_u32 default_num_contexts = 1;

static CORE_TICKS start_cycles, stop_cycles;

static CORE_TICKS read_mcycle(void) {
    CORE_TICKS c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

void start_time(void) { start_cycles = read_mcycle(); }
void stop_time(void) { stop_cycles = read_mcycle(); }
CORE_TICKS get_time(void) { return stop_cycles - start_cycles; }

/* The simulated clock is the machine file's; seconds only feed CoreMark's own
 * "at least 10 s" remark, which does not apply to a simulator. */
#define TICKS_PER_SEC 1000000000u
secs_ret time_in_secs(CORE_TICKS ticks) { return (secs_ret)(ticks / TICKS_PER_SEC); }

void portable_init(core_portable *p, int *argc, char *argv[]) {
    (void)argc;
    (void)argv;
    p->portable_id = 1;
}

void portable_fini(core_portable *p) { p->portable_id = 0; }
