// CRC32C (Castagnoli) and MD5, self-contained, for fio-compatible data
// verification (workload/verify_block.h).
//
// Crc32c() is the standard CRC-32C (reflected polynomial 0x82F63B78, initial
// value and final XOR 0xFFFFFFFF): Crc32c("123456789") == 0xE3069283.
// FioCrc32c() is what fio's fio_crc32c() returns: the same register without
// the final XOR (fio's crc32c_sw()/crc32c_intel() start from ~0 and return
// the register as is), so FioCrc32c(x) == ~Crc32c(x). Both use SSE4.2's
// crc32 instruction when the CPU has it, a slicing table otherwise.
//
// Md5 is RFC 1321 MD5; Digest() returns the 16 digest bytes, which on a
// little-endian host are fio's vhdr_md5.md5_digest words as stored.
//
// Pure functions / a plain value type; thread-safe.
#ifndef TIERBENCH_UTIL_CHECKSUM_H_
#define TIERBENCH_UTIL_CHECKSUM_H_

#include <array>
#include <cstddef>
#include <cstdint>

namespace tierbench {

// Continues a CRC-32C register `crc` (no pre/post inversion) over `data`.
uint32_t Crc32cUpdate(uint32_t crc, const void* data, size_t len);

inline uint32_t Crc32c(const void* data, size_t len) {
  return ~Crc32cUpdate(0xFFFFFFFFu, data, len);
}
inline uint32_t FioCrc32c(const void* data, size_t len) {
  return Crc32cUpdate(0xFFFFFFFFu, data, len);
}

class Md5 {
 public:
  Md5();
  void Update(const void* data, size_t len);
  // Finishes the digest; the object must not be updated afterwards.
  std::array<uint8_t, 16> Digest();

  static std::array<uint8_t, 16> Of(const void* data, size_t len) {
    Md5 m;
    m.Update(data, len);
    return m.Digest();
  }

 private:
  void Transform(const uint8_t* block);

  uint32_t h_[4];
  uint8_t block_[64];
  uint64_t bytes_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_CHECKSUM_H_
