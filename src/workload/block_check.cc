#include "workload/block_check.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/aligned_buffer.h"
#include "workload/verify_block.h"
#include "workload/verify_spec.h"

namespace tierbench {
namespace {

VerifySpec GenerationSpec(uint32_t block_bytes) {
  VerifySpec spec;
  spec.type = VerifyType::kCrc32c;
  spec.interval = block_bytes;  // one header per block
  return spec;
}

std::string Where(uint64_t index, uint64_t offset, const std::string& what) {
  return "block " + std::to_string(index) + " (offset " +
         std::to_string(offset) + "): " + what;
}

// Why a pread/pwrite that returned `n` did not move the whole block: errno's
// text, or "short read of N bytes".
std::string IoFailure(ssize_t n, const char* what) {
  return n < 0 ? std::string(std::strerror(errno))
               : "short " + std::string(what) + " of " + std::to_string(n) +
                     " bytes";
}

}  // namespace

Status CheckBlockRegion(const BlockRegion& r) {
  if (r.block_bytes < 4096 || r.block_bytes % 4096 != 0) {
    return Status::InvalidArgument(
        "the block size must be a multiple of 4 KiB, got " +
        std::to_string(r.block_bytes) + " bytes");
  }
  if (r.bytes == 0 || r.bytes % r.block_bytes != 0 ||
      r.offset % r.block_bytes != 0) {
    return Status::InvalidArgument(
        "the offset and size must be whole blocks of " +
        std::to_string(r.block_bytes) + " bytes (size " +
        std::to_string(r.bytes) + ", offset " + std::to_string(r.offset) + ")");
  }
  return Status::Ok();
}

void FillGenerationBlock(uint8_t* buf, uint32_t block_bytes, uint64_t offset,
                         uint64_t generation) {
  VerifyStamp stamp;
  stamp.rand_seed = generation;
  FillVerifyBlock(GenerationSpec(block_bytes), buf, block_bytes, offset, stamp);
}

BlockVerdict JudgeBlock(uint8_t* buf, uint32_t block_bytes, uint64_t offset,
                        uint64_t expect, const std::vector<uint64_t>& older,
                        std::string* diagnostic) {
  const VerifySpec spec = GenerationSpec(block_bytes);
  VerifyExpect e;
  e.check_seed = true;
  e.rand_seed = expect;
  std::vector<std::string> lines;
  if (CheckVerifyBlock(spec, buf, block_bytes, offset, "device", e, &lines) ==
      0) {
    return BlockVerdict::kIntact;
  }
  for (uint64_t g : older) {
    e.rand_seed = g;
    std::vector<std::string> ignored;
    if (CheckVerifyBlock(spec, buf, block_bytes, offset, "device", e,
                         &ignored) == 0) {
      return BlockVerdict::kStale;
    }
  }
  if (diagnostic != nullptr) {
    diagnostic->clear();
    for (const std::string& l : lines) {
      *diagnostic += (diagnostic->empty() ? "" : " | ") + l;
    }
  }
  return BlockVerdict::kCorrupt;
}

BlockWriteResult WriteGeneration(int fd, const BlockRegion& region,
                                 uint64_t generation) {
  BlockWriteResult out;
  out.blocks = region.blocks();
  AlignedBuffer buf(region.block_bytes);
  auto* p = static_cast<uint8_t*>(buf.data());
  for (uint64_t i = 0; i < out.blocks; ++i) {
    const uint64_t off = region.offset + i * region.block_bytes;
    FillGenerationBlock(p, region.block_bytes, off, generation);
    const ssize_t n = ::pwrite(fd, p, region.block_bytes, off);
    if (n == static_cast<ssize_t>(region.block_bytes)) {
      ++out.written;
      continue;
    }
    ++out.write_errors;
    if (out.first_error.empty()) {
      out.first_error = Where(i, off, IoFailure(n, "write"));
    }
  }
  out.synced = ::fdatasync(fd) == 0;
  if (!out.synced && out.first_error.empty()) {
    out.first_error = std::string("fdatasync: ") + std::strerror(errno);
  }
  return out;
}

BlockReadResult ReadGenerations(int fd, const BlockRegion& region,
                                uint64_t expect,
                                const std::vector<uint64_t>& older,
                                uint64_t shift) {
  BlockReadResult out;
  out.blocks = region.blocks();
  AlignedBuffer buf(region.block_bytes);
  auto* p = static_cast<uint8_t*>(buf.data());
  for (uint64_t i = 0; i < out.blocks; ++i) {
    const uint64_t off = region.offset + i * region.block_bytes;
    const ssize_t n = ::pread(fd, p, region.block_bytes, shift + off);
    if (n != static_cast<ssize_t>(region.block_bytes)) {
      ++out.lost;
      if (out.first_error.empty()) {
        out.first_error = Where(i, off, IoFailure(n, "read"));
      }
      continue;
    }
    std::string diagnostic;
    switch (
        JudgeBlock(p, region.block_bytes, off, expect, older, &diagnostic)) {
      case BlockVerdict::kIntact:
        ++out.intact;
        break;
      case BlockVerdict::kStale:
        ++out.stale;
        break;
      case BlockVerdict::kCorrupt:
        ++out.corrupt;
        if (out.first_corrupt.empty()) {
          out.first_corrupt = Where(i, off, diagnostic);
        }
        break;
    }
  }
  return out;
}

}  // namespace tierbench
