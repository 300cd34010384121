// Unit tests of block generations (workload/block_check.h): the judge on
// filled buffers, and a write/read round on a real file opened O_DIRECT
// (skipped, and failed under CI=true, where the temp dir refuses O_DIRECT).
#include "workload/block_check.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "io/aligned_buffer.h"
#include "support/ci_skip.h"

namespace tierbench {
namespace {

constexpr uint32_t kBlock = 32768;

TEST(BlockCheck, JudgesIntactStaleAndCorrupt) {
  AlignedBuffer buf(kBlock);
  auto* p = static_cast<uint8_t*>(buf.data());
  std::string why;
  FillGenerationBlock(p, kBlock, 65536, 2);
  EXPECT_EQ(JudgeBlock(p, kBlock, 65536, 2, {1}, &why), BlockVerdict::kIntact);
  FillGenerationBlock(p, kBlock, 65536, 1);
  EXPECT_EQ(JudgeBlock(p, kBlock, 65536, 2, {1}, &why), BlockVerdict::kStale);
  // An older generation the caller did not name is no acknowledged version.
  EXPECT_EQ(JudgeBlock(p, kBlock, 65536, 2, {}, &why), BlockVerdict::kCorrupt);
  EXPECT_NE(why.find("verify"), std::string::npos) << why;
  // The right generation at the wrong place (a misdirected write).
  FillGenerationBlock(p, kBlock, 0, 2);
  EXPECT_EQ(JudgeBlock(p, kBlock, 65536, 2, {1}, &why), BlockVerdict::kCorrupt);
  // One flipped payload byte.
  FillGenerationBlock(p, kBlock, 65536, 2);
  p[kBlock - 1] ^= 0x40;
  EXPECT_EQ(JudgeBlock(p, kBlock, 65536, 2, {1}, &why), BlockVerdict::kCorrupt);
  // Zeroes (a block never written, or a discarded one).
  std::memset(p, 0, kBlock);
  EXPECT_EQ(JudgeBlock(p, kBlock, 65536, 2, {1}, &why), BlockVerdict::kCorrupt);
}

TEST(BlockCheck, RegionsMustBeWholeBlocks) {
  EXPECT_TRUE(CheckBlockRegion({0, 1 << 20, kBlock}).ok());
  EXPECT_FALSE(CheckBlockRegion({0, 1 << 20, 1000}).ok());
  EXPECT_FALSE(CheckBlockRegion({0, 0, kBlock}).ok());
  EXPECT_FALSE(CheckBlockRegion({0, kBlock + 4096, kBlock}).ok());
  EXPECT_FALSE(CheckBlockRegion({4096, 1 << 20, kBlock}).ok());
}

TEST(BlockCheck, WritesAndCountsGenerationsOnARealFile) {
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("tb-block-check-" + std::to_string(::getpid()) + ".img"))
          .string();
  std::filesystem::remove(path);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_DIRECT, 0600);
  if (fd < 0) TIERBENCH_SKIP_OR_FAIL_IN_CI("no O_DIRECT file at " + path);
  ASSERT_EQ(::ftruncate(fd, 2 << 20), 0);
  const BlockRegion whole{0, 1 << 20, kBlock};    // 32 blocks
  const BlockRegion first{0, 512 << 10, kBlock};  // 16 blocks
  const BlockWriteResult w1 = WriteGeneration(fd, whole, 1);
  EXPECT_EQ(w1.written, 32u);
  EXPECT_EQ(w1.acknowledged(), 32u);
  EXPECT_EQ(WriteGeneration(fd, first, 2).acknowledged(), 16u);
  // One block of generation 2 overwritten with garbage behind its back.
  std::vector<uint8_t> junk(4096, 0x5a);
  AlignedBuffer j(4096);
  std::memcpy(j.data(), junk.data(), junk.size());
  ASSERT_EQ(::pwrite(fd, j.data(), 4096, 3 * kBlock + 8192), 4096);
  BlockReadResult r = ReadGenerations(fd, whole, 2, {1});
  EXPECT_EQ(r.blocks, 32u);
  EXPECT_EQ(r.intact, 15u);
  EXPECT_EQ(r.stale, 16u);
  EXPECT_EQ(r.corrupt, 1u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(r.silent(), 17u);
  EXPECT_NE(r.first_corrupt.find("block 3 "), std::string::npos)
      << r.first_corrupt;
  // Reading past the end: a short read of every block counts as lost.
  const BlockReadResult past =
      ReadGenerations(fd, {0, 1 << 20, kBlock}, 2, {1}, 2 << 20);
  EXPECT_EQ(past.lost, 32u);
  EXPECT_NE(past.first_error.find("short read"), std::string::npos)
      << past.first_error;
  // The same blocks seen one block further into the device.
  const BlockReadResult shifted =
      ReadGenerations(fd, {0, 512 << 10, kBlock}, 1, {}, kBlock);
  EXPECT_EQ(shifted.corrupt, 16u);  // judged at their unshifted offsets
  ::close(fd);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tierbench
