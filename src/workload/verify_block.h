// VerifyBlock: fio's on-media verify format (fio 2.x-3.40 verify.h/verify.c)
// for one IO buffer: filling a block that is about to be written, and
// checking a block that was read back.
//
// A block of `len` bytes is cut into intervals of VerifySpec::interval bytes
// (the whole block when the interval is larger). Each interval starts with
// fio's struct verify_header, 40 bytes, little-endian, no padding:
//
//   offset  0  u16 magic        0xacca
//   offset  2  u16 verify_type  fio's VERIFY_* (VerifyType)
//   offset  4  u32 len          the interval's length
//   offset  8  u64 rand_seed    seed of the random payload
//   offset 16  u64 offset       the interval's offset in the file
//   offset 24  u32 time_sec     when the write was prepared
//   offset 28  u32 time_nsec
//   offset 32  u16 thread       fio's thread_number (1-based clone number)
//   offset 34  u16 numberio     writes the job issued before this one
//   offset 36  u32 crc32        fio_crc32c() of bytes 0..35
//
// followed by the type's trailer (crc32c: u32 at 40, fio's vhdr_crc32;
// md5: 16 digest bytes at 40, fio's vhdr_md5) holding the checksum of the
// interval's remaining bytes (after header + trailer). meta and pattern types
// have no trailer; verify=pattern has no header at all. The payload is random
// bytes from rand_seed, or verify_pattern= repeated from the block's start
// (its %o fields hold the IO's offset). verify_offset=N swaps the header +
// trailer with the bytes at N after filling (and back before checking).
// fio_crc32c() is CRC-32C without the final inversion (util/checksum.h).
//
// Check() follows fio's verify_header() and verify_io_u(): magic, len,
// rand_seed (when expected), offset, numberio (when expected), header crc,
// then the checksum or pattern. It writes fio's diagnostics ("verify: bad
// magic header ...", "crc32c: verify failed at file ...", "Expected CRC:",
// "Received CRC:") to `lines`. A bad header ends the check of the block (as
// fio returns at once); a bad checksum goes on to the next interval unless
// VerifySpec::fatal is set.
//
// Pure functions over caller buffers; thread-safe.
#ifndef TIERBENCH_WORKLOAD_VERIFY_BLOCK_H_
#define TIERBENCH_WORKLOAD_VERIFY_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "workload/verify_spec.h"

namespace tierbench {

inline constexpr uint16_t kVerifyMagic = 0xacca;
inline constexpr uint32_t kVerifyHeaderBytes = 40;
inline constexpr uint32_t kVerifyHeaderCrcOffset = 36;

// Header + trailer bytes of `type` (fio's __hdr_size(); 0 for pattern).
uint32_t VerifyHeaderSize(VerifyType type);

// What a write puts into each header besides offsets and lengths.
struct VerifyStamp {
  uint64_t rand_seed = 0;
  uint16_t thread = 1;
  uint16_t numberio = 0;
  uint32_t time_sec = 0;
  uint32_t time_nsec = 0;
};

// What the reader knows about the block it checks.
struct VerifyExpect {
  bool check_seed = false;
  uint64_t rand_seed = 0;
  bool check_numberio = false;
  uint16_t numberio = 0;
};

// The bytes of one verify_header, decoded.
struct VerifyHeader {
  uint16_t magic = 0;
  uint16_t verify_type = 0;
  uint32_t len = 0;
  uint64_t rand_seed = 0;
  uint64_t offset = 0;
  uint32_t time_sec = 0;
  uint32_t time_nsec = 0;
  uint16_t thread = 0;
  uint16_t numberio = 0;
  uint32_t crc32 = 0;
};
VerifyHeader DecodeVerifyHeader(const uint8_t* p);
void EncodeVerifyHeader(const VerifyHeader& h, uint8_t* p);

// The interval of a block of `len` bytes (fio's get_hdr_inc()).
uint32_t VerifyInterval(const VerifySpec& spec, uint32_t len);

// Fills `buf` (`len` bytes, written at `offset` of the file) for writing.
void FillVerifyBlock(const VerifySpec& spec, uint8_t* buf, uint32_t len,
                     uint64_t offset, const VerifyStamp& stamp);

// Checks `buf` read from `offset` of `file`; returns the number of bad
// intervals (0: good) and appends fio's diagnostic lines to `lines`. May
// modify `buf` (verify_offset swaps).
uint32_t CheckVerifyBlock(const VerifySpec& spec, uint8_t* buf, uint32_t len,
                          uint64_t offset, const std::string& file,
                          const VerifyExpect& expect,
                          std::vector<std::string>* lines);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_VERIFY_BLOCK_H_
