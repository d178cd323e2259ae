#include "fm/packed.hpp"

namespace fm::packed {

namespace {

uint64_t big_endian(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}

}  // namespace

int64_t count_values(const uint8_t* data, size_t size, int64_t limit) {
    // Only totals matter, so one counter of values still to read stands in
    // for the stack a decoder keeps: each header takes one and adds its children.
    uint64_t pending = 1;
    int64_t seen = 0;
    size_t at = 0;
    while (pending > 0) {
        if (at >= size) return -1;
        const uint8_t b = data[at++];
        uint64_t children = 0;
        uint64_t skip = 0;      // payload bytes after the header
        int length_bytes = 0;   // big-endian length that follows the tag
        int length_factor = 0;  // 0: the length counts bytes; 1/2: array/map children
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
        } else if (b <= 0x8f) {
            children = 2u * (b & 0x0f);
        } else if (b <= 0x9f) {
            children = b & 0x0f;
        } else if (b <= 0xbf) {
            skip = b & 0x1f;
        } else {
            switch (b) {
                case 0xc4: case 0xd9: length_bytes = 1; break;            // bin8, str8
                case 0xc5: case 0xda: length_bytes = 2; break;            // bin16, str16
                case 0xc6: case 0xdb: length_bytes = 4; break;            // bin32, str32
                case 0xc7: length_bytes = 1; skip = 1; break;             // ext8 (+type)
                case 0xc8: length_bytes = 2; skip = 1; break;             // ext16
                case 0xc9: length_bytes = 4; skip = 1; break;             // ext32
                case 0xca: skip = 4; break;                               // float32
                case 0xcb: skip = 8; break;                               // float64
                case 0xcc: case 0xd0: skip = 1; break;
                case 0xcd: case 0xd1: skip = 2; break;
                case 0xce: case 0xd2: skip = 4; break;
                case 0xcf: case 0xd3: skip = 8; break;
                case 0xd4: skip = 2; break;                               // fixext1..16 (+type)
                case 0xd5: skip = 3; break;
                case 0xd6: skip = 5; break;
                case 0xd7: skip = 9; break;
                case 0xd8: skip = 17; break;
                case 0xdc: length_bytes = 2; length_factor = 1; break;    // array16
                case 0xdd: length_bytes = 4; length_factor = 1; break;    // array32
                case 0xde: length_bytes = 2; length_factor = 2; break;    // map16
                case 0xdf: length_bytes = 4; length_factor = 2; break;    // map32
                default: return -1;                                       // 0xc1
            }
        }
        if (length_bytes > 0) {
            if (size - at < static_cast<size_t>(length_bytes)) return -1;
            const uint64_t n = big_endian(data + at, length_bytes);
            at += static_cast<size_t>(length_bytes);
            if (length_factor == 0) skip += n;
            else children = n * static_cast<uint64_t>(length_factor);
        }
        if (skip > size - at) return -1;
        at += static_cast<size_t>(skip);
        if (++seen > limit) return limit + 1;
        pending = pending - 1 + children;
        // More values announced than bytes left to hold them (each takes one).
        if (pending > size - at) return -1;
    }
    return seen;
}

}  // namespace fm::packed
