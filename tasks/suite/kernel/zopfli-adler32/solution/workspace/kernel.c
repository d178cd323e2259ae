/*
Copyright 2013 Google Inc. All Rights Reserved.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.

Author: lode.vandevenne@gmail.com (Lode Vandevenne)
Author: jyrki.alakuijala@gmail.com (Jyrki Alakuijala)
*/

/* Oracle of the zlib_adler32 kernel task (written for frontier-measure, not
   part of zopfli; the licence header above is the one of the file whose
   function it replaces). Same Adler-32 as zopfli's byte loop, computed on
   aligned 64-bit words with SIMD-within-a-register lanes:

   For a block of m words (n = 8m bytes) starting with sums s1, s2,
     s1' = s1 + sum(b_i)
     s2' = s2 + n*s1 + sum((n - i) * b_i),  i = 8w + j
   and n - i = 8*(m-1-w) + (8-j). The four accumulators va[k] hold, in two
   32-bit lanes, the sums of the bytes at positions k and k+4 of each word
   (L_k and L_{k+4}); vp[k] adds va[k] before each word, so its lanes end as
   sum over w of (m-1-w) * b. Then sum((n-i) b_i) = 8 * (all lanes of vp) +
   sum((8-j) L_j). Blocks of at most 4096 words keep every lane below 2^32
   (255 * 4096 * 4095 / 2 < 2^32), and both sums are reduced modulo 65521
   after each block, in 64-bit arithmetic. Bytes before the first 8-byte
   boundary and after the last one go through the byte loop. */
#include <stddef.h>
#include <stdint.h>

typedef uint64_t __attribute__((may_alias)) u64_alias;

#define BASE 65521u
#define BLOCK_WORDS 4096
#define LANES 0x000000ff000000ffull

unsigned zlib_adler32(const unsigned char* data, size_t size) {
  uint64_t s1 = 1, s2 = 0;
  while (size > 0 && ((uintptr_t)data & 7) != 0) {
    s1 += *data++;
    s2 += s1;
    size--;
  }
  while (size >= 8) {
    size_t m = size / 8;
    if (m > BLOCK_WORDS) m = BLOCK_WORDS;
    const u64_alias* w = (const u64_alias*)data;
    uint64_t va0 = 0, va1 = 0, va2 = 0, va3 = 0;
    uint64_t vp0 = 0, vp1 = 0, vp2 = 0, vp3 = 0;
    size_t k = 0;
    for (; k + 2 <= m; k += 2) {
      const uint64_t x = w[k], y = w[k + 1];
      vp0 += va0; vp1 += va1; vp2 += va2; vp3 += va3;
      va0 += x & LANES;
      va1 += (x >> 8) & LANES;
      va2 += (x >> 16) & LANES;
      va3 += (x >> 24) & LANES;
      vp0 += va0; vp1 += va1; vp2 += va2; vp3 += va3;
      va0 += y & LANES;
      va1 += (y >> 8) & LANES;
      va2 += (y >> 16) & LANES;
      va3 += (y >> 24) & LANES;
    }
    if (k < m) {
      const uint64_t x = w[k];
      vp0 += va0; vp1 += va1; vp2 += va2; vp3 += va3;
      va0 += x & LANES;
      va1 += (x >> 8) & LANES;
      va2 += (x >> 16) & LANES;
      va3 += (x >> 24) & LANES;
    }
    const uint64_t l0 = va0 & 0xffffffffu, l4 = va0 >> 32;
    const uint64_t l1 = va1 & 0xffffffffu, l5 = va1 >> 32;
    const uint64_t l2 = va2 & 0xffffffffu, l6 = va2 >> 32;
    const uint64_t l3 = va3 & 0xffffffffu, l7 = va3 >> 32;
    /* Each lane of vp0..vp3 is below 2^32, but their sum could carry from
       the low lane into the high one: the lanes are added separately. */
    const uint64_t plo = (vp0 & 0xffffffffu) + (vp1 & 0xffffffffu) +
                         (vp2 & 0xffffffffu) + (vp3 & 0xffffffffu);
    const uint64_t phi = (vp0 >> 32) + (vp1 >> 32) + (vp2 >> 32) + (vp3 >> 32);
    const uint64_t n = 8 * (uint64_t)m;
    s2 += n * s1 + 8 * (plo + phi) +
          8 * l0 + 7 * l1 + 6 * l2 + 5 * l3 + 4 * l4 + 3 * l5 + 2 * l6 + l7;
    s1 += l0 + l1 + l2 + l3 + l4 + l5 + l6 + l7;
    s1 %= BASE;
    s2 %= BASE;
    data += n;
    size -= n;
  }
  while (size > 0) {
    s1 += *data++;
    s2 += s1;
    size--;
  }
  s1 %= BASE;
  s2 %= BASE;
  return (unsigned)((s2 << 16) | s1);
}
