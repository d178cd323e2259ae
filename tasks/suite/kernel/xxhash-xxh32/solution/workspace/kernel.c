/*
 * xxHash - Extremely Fast Hash algorithm
 * XXH32, as in xxHash 0.8.2's xxhash.h (vendored by the Python package
 * xxhash 3.5.0 as deps/xxhash/xxhash.h). Its licence:
 *
 * xxHash Library
 * Copyright (c) 2012-2021 Yann Collet
 * All rights reserved.
 *
 * BSD 2-Clause License (https://www.opensource.org/licenses/bsd-license.php)
 *
 * Redistribution and use in source and binary forms, with or without modification,
 * are permitted provided that the following conditions are met:
 *
 * * Redistributions of source code must retain the above copyright notice, this
 *   list of conditions and the following disclaimer.
 *
 * * Redistributions in binary form must reproduce the above copyright notice, this
 *   list of conditions and the following disclaimer in the documentation and/or
 *   other materials provided with the distribution.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
 * ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
 * WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
 * DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR
 * ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
 * (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
 * LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON
 * ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
 * SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 */

/* Oracle of the XXH32 kernel task (written for frontier-measure, not part of
   xxHash; the licence header above is the one of the code it replaces). Same
   XXH32: the four-lane loop reads its 16-byte stripes as two aligned 64-bit
   words whatever the alignment of the input, joining two neighbouring aligned
   words with shifts when the input does not start on an 8-byte boundary
   (three instructions per 8 bytes, where a possibly unaligned 32-bit read
   through memcpy is four byte loads and six shifts and ors on a core without
   fast unaligned access). An aligned word is only read when it holds at least
   one byte of the input, so no read crosses into a page the input does not
   touch. The last 0-15 bytes are mixed as in xxhash.h. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define P1 0x9E3779B1u
#define P2 0x85EBCA77u
#define P3 0xC2B2AE3Du
#define P4 0x27D4EB2Fu
#define P5 0x165667B1u

typedef uint64_t __attribute__((may_alias)) u64_alias;

static inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static inline uint32_t round32(uint32_t acc, uint32_t input) {
  acc += input * P2;
  acc = rotl32(acc, 13);
  return acc * P1;
}

static uint32_t read_le32(const unsigned char* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

uint32_t XXH32(const void* input, size_t len, uint32_t seed) {
  const unsigned char* p = (const unsigned char*)input;
  uint32_t h;
  if (len >= 16) {
    size_t stripes = len / 16;
    uint32_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    const unsigned shift = (unsigned)((uintptr_t)p & 7) * 8;
    const u64_alias* w = (const u64_alias*)((uintptr_t)p - ((uintptr_t)p & 7));
    if (shift == 0) {
      do {
        const uint64_t a = w[0], b = w[1];
        v1 = round32(v1, (uint32_t)a);
        v2 = round32(v2, (uint32_t)(a >> 32));
        v3 = round32(v3, (uint32_t)b);
        v4 = round32(v4, (uint32_t)(b >> 32));
        w += 2;
      } while (--stripes);
    } else {
      const unsigned back = 64 - shift;
      uint64_t cur = w[0];
      do {
        const uint64_t n1 = w[1], n2 = w[2];
        const uint64_t a = (cur >> shift) | (n1 << back);
        const uint64_t b = (n1 >> shift) | (n2 << back);
        v1 = round32(v1, (uint32_t)a);
        v2 = round32(v2, (uint32_t)(a >> 32));
        v3 = round32(v3, (uint32_t)b);
        v4 = round32(v4, (uint32_t)(b >> 32));
        cur = n2;
        w += 2;
      } while (--stripes);
    }
    p += len & ~(size_t)15;
    h = rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18);
  } else {
    h = seed + P5;
  }
  h += (uint32_t)len;
  size_t rest = len & 15;
  while (rest >= 4) {
    h += read_le32(p) * P3;
    p += 4;
    h = rotl32(h, 17) * P4;
    rest -= 4;
  }
  while (rest > 0) {
    h += (*p++) * P5;
    h = rotl32(h, 11) * P1;
    --rest;
  }
  h ^= h >> 15;
  h *= P2;
  h ^= h >> 13;
  h *= P3;
  h ^= h >> 16;
  return h;
}
