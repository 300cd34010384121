// Block generations: writes a region of a device in fixed blocks, each with
// fio's verify header (verify=crc32c, workload/verify_block.h) whose
// rand_seed is the block's generation, and reads such a region back,
// telling each block apart as
//   intact   the header and checksum are good and the generation is the
//            newest one the caller wrote (`expect`);
//   stale    good, but of an older generation the caller names (`older`):
//            a version that was acknowledged and then overwritten;
//   lost     the read returned an error (EIO: the stack said it has no
//            good copy);
//   corrupt  the read succeeded, but the block holds no good header, a
//            wrong offset, a bad checksum or an unknown generation.
// stale + corrupt is what a reader cannot tell from good data: silent
// corruption. `tierbench lab --fault` (lab/lab_fault.h) drives both through
// the hidden `tierbench check-blocks` command in its guest.
//
// Every block is read or written with its own pread/pwrite on an O_DIRECT
// descriptor, so an error is counted against the one block it hit; a write
// pass ends with fdatasync, and only a pass whose fdatasync succeeded
// acknowledged its blocks. Thread-compatible; no global state.
#ifndef TIERBENCH_WORKLOAD_BLOCK_CHECK_H_
#define TIERBENCH_WORKLOAD_BLOCK_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"

namespace tierbench {

struct BlockRegion {
  uint64_t offset = 0;       // bytes, a multiple of block_bytes
  uint64_t bytes = 0;        // a multiple of block_bytes
  uint32_t block_bytes = 0;  // >= 4 KiB, a multiple of 4 KiB
  uint64_t blocks() const { return block_bytes ? bytes / block_bytes : 0; }
};

struct BlockWriteResult {
  uint64_t blocks = 0;        // blocks of the region
  uint64_t written = 0;       // pwrite returned the whole block
  uint64_t write_errors = 0;  // pwrite failed or was short
  bool synced = false;        // the closing fdatasync succeeded
  std::string first_error;    // "block 12 (offset 393216): Input/output error"
  // Blocks whose write the device acknowledged durably: written when the
  // fdatasync succeeded, else 0.
  uint64_t acknowledged() const { return synced ? written : 0; }
};

struct BlockReadResult {
  uint64_t blocks = 0;
  uint64_t intact = 0;
  uint64_t stale = 0;
  uint64_t lost = 0;  // read errors
  uint64_t corrupt = 0;
  std::string first_error;    // the first failed read, as above
  std::string first_corrupt;  // the first corrupt block's verify diagnostic
  uint64_t silent() const { return stale + corrupt; }
};

// InvalidArgument when `region` is not usable (zero or unaligned sizes).
Status CheckBlockRegion(const BlockRegion& region);

// Fills one block of generation `generation` at byte `offset` (pure; for
// the tests and the writer).
void FillGenerationBlock(uint8_t* buf, uint32_t block_bytes, uint64_t offset,
                         uint64_t generation);

// What a block read back from `offset` holds: 0 intact (generation
// `expect`), 1 stale (one of `older`), 2 corrupt. `diagnostic` gets the
// verify lines of a corrupt block. Pure.
enum class BlockVerdict { kIntact, kStale, kCorrupt };
BlockVerdict JudgeBlock(uint8_t* buf, uint32_t block_bytes, uint64_t offset,
                        uint64_t expect, const std::vector<uint64_t>& older,
                        std::string* diagnostic);

// Writes the region on the open descriptor `fd` (O_DIRECT), generation
// `generation`, then fdatasync. IO errors are counted, not returned.
BlockWriteResult WriteGeneration(int fd, const BlockRegion& region,
                                 uint64_t generation);

// Reads the region back from `fd` (O_DIRECT) and judges every block. With
// `shift`, block i is read at shift + its offset (the same data seen
// through a device that starts `shift` bytes in, such as a bcache backing
// device's data offset) and judged at its offset.
BlockReadResult ReadGenerations(int fd, const BlockRegion& region,
                                uint64_t expect,
                                const std::vector<uint64_t>& older,
                                uint64_t shift = 0);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_BLOCK_CHECK_H_
