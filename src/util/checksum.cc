// CRC32C and MD5 (see the header).
#include "util/checksum.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace tierbench {
namespace {

constexpr uint32_t kCrc32cPoly = 0x82F63B78u;

struct Crc32cTables {
  uint32_t t[8][256];
  Crc32cTables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? kCrc32cPoly : 0);
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
      for (int s = 1; s < 8; ++s)
        t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
    }
  }
};

const Crc32cTables& Tables() {
  static const Crc32cTables kTables;
  return kTables;
}

// Slicing-by-8 (little-endian words).
uint32_t Crc32cSoftware(uint32_t crc, const uint8_t* p, size_t len) {
  const Crc32cTables& tb = Tables();
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    w ^= crc;
    crc = tb.t[7][w & 0xFF] ^ tb.t[6][(w >> 8) & 0xFF] ^
          tb.t[5][(w >> 16) & 0xFF] ^ tb.t[4][(w >> 24) & 0xFF] ^
          tb.t[3][(w >> 32) & 0xFF] ^ tb.t[2][(w >> 40) & 0xFF] ^
          tb.t[1][(w >> 48) & 0xFF] ^ tb.t[0][w >> 56];
    p += 8;
    len -= 8;
  }
  while (len-- > 0) crc = tb.t[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cSse42(uint32_t crc,
                                                       const uint8_t* p,
                                                       size_t len) {
  uint64_t c = crc;
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    c = __builtin_ia32_crc32di(c, w);
    p += 8;
    len -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (len-- > 0) c32 = __builtin_ia32_crc32qi(c32, *p++);
  return c32;
}

bool HaveSse42() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (ecx & bit_SSE4_2) != 0;
}
#endif

inline uint32_t Rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

}  // namespace

uint32_t Crc32cUpdate(uint32_t crc, const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
#if defined(__x86_64__)
  static const bool kHw = HaveSse42();
  if (kHw) return Crc32cSse42(crc, p, len);
#endif
  return Crc32cSoftware(crc, p, len);
}

Md5::Md5() : h_{0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u} {}

void Md5::Transform(const uint8_t* block) {
  static constexpr uint32_t kK[64] = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
      0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
      0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
      0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
      0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
      0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
      0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
      0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
      0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
      0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
      0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
  static constexpr int kS[64] = {
      7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
      5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
      4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
      6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = static_cast<uint32_t>(block[i * 4]) |
           static_cast<uint32_t>(block[i * 4 + 1]) << 8 |
           static_cast<uint32_t>(block[i * 4 + 2]) << 16 |
           static_cast<uint32_t>(block[i * 4 + 3]) << 24;
  }
  uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
  for (int i = 0; i < 64; ++i) {
    uint32_t f;
    int g;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) % 16;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) % 16;
    }
    const uint32_t tmp = d;
    d = c;
    c = b;
    b = b + Rotl(a + f + kK[i] + m[g], kS[i]);
    a = tmp;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
}

void Md5::Update(const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  size_t used = static_cast<size_t>(bytes_ & 63);
  bytes_ += len;
  if (used > 0) {
    const size_t take = std::min(len, 64 - used);
    std::memcpy(block_ + used, p, take);
    p += take;
    len -= take;
    if (used + take < 64) return;
    Transform(block_);
  }
  while (len >= 64) {
    Transform(p);
    p += 64;
    len -= 64;
  }
  std::memcpy(block_, p, len);
}

std::array<uint8_t, 16> Md5::Digest() {
  const uint64_t bits = bytes_ << 3;
  const uint8_t pad = 0x80;
  Update(&pad, 1);
  const uint8_t zero[64] = {};
  const size_t used = static_cast<size_t>(bytes_ & 63);
  Update(zero, used <= 56 ? 56 - used : 120 - used);
  uint8_t len_bytes[8];
  for (int i = 0; i < 8; ++i)
    len_bytes[i] = static_cast<uint8_t>(bits >> (8 * i));
  Update(len_bytes, 8);
  std::array<uint8_t, 16> out{};
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 4; ++k)
      out[i * 4 + k] = static_cast<uint8_t>(h_[i] >> (8 * k));
  }
  return out;
}

}  // namespace tierbench
