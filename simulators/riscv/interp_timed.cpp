// The interpreter loop with the timing model on: plain, profiled, and
// under Sv39 paging (see interpreter.inc).
#include "interpreter.inc"

namespace fm::rv {

template bool Simulator::loop<true, false, false>(std::uint64_t, std::uint64_t);
template bool Simulator::loop<true, true, false>(std::uint64_t, std::uint64_t);
template bool Simulator::loop<true, false, true>(std::uint64_t, std::uint64_t);

}  // namespace fm::rv
