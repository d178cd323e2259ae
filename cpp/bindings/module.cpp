#include "pybind11.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "frontier-measure native measurement core (private; use frontier_measure)";
    bind_errors(m);
    bind_clock(m);
    bind_counters(m);
    bind_affinity(m);
    bind_process(m);
    bind_timing(m);
    bind_scheduler(m);
    bind_observe(m);
    bind_audit(m);
#ifdef FM_HAVE_RISCV
    bind_sim(m);
#endif
}
