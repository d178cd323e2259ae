// The interpreter loop with the timing model off: plain, profiled, and
// under Sv39 paging (see interpreter.inc).
#include "interpreter.inc"

namespace fm::rv {

template bool Simulator::loop<false, false, false>(std::uint64_t, std::uint64_t);
template bool Simulator::loop<false, true, false>(std::uint64_t, std::uint64_t);
template bool Simulator::loop<false, false, true>(std::uint64_t, std::uint64_t);

}  // namespace fm::rv
