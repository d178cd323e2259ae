// How many values a MessagePack buffer holds, counted without decoding it.
//
// A side's worker replies in MessagePack, and decoding builds one Python
// object per value: 32 MiB of nested empty arrays would become gigabytes in
// the evaluator. Counting first (one pass over the bytes, no allocation)
// lets the evaluator refuse a reply over its cap before it builds anything.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fm::packed {

// The number of values in the first complete value of data[0, size), every
// nested one included; limit + 1 as soon as it exceeds limit; -1 if the
// bytes end inside a value or hold a byte MessagePack never uses.
int64_t count_values(const uint8_t* data, size_t size, int64_t limit);

}  // namespace fm::packed
