// Unit tests of the lab's disk layout and MBR (lab/lab_disk.h).
#include "lab/lab_disk.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tierbench {
namespace {

uint32_t Le32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

TEST(LabEqualRegionLayout, TwoRegionsSplitAfterTheFirstMibEqualAndAligned) {
  struct Case {
    uint64_t disk;
    uint64_t start1, sectors;
  } cases[] = {
      {2ull << 30, 2048,
       1023ull * 2048},  // 2 GiB: (2048 - 1) MiB / 2 -> 1023 MiB
      {1ull << 30, 2048, 511ull * 2048},
      {(129ull << 20), 2048, 64ull * 2048},
      {(130ull << 20) + 4096, 2048, 64ull * 2048},  // rounds down to whole MiB
  };
  for (const Case& c : cases) {
    std::vector<LabPartition> parts;
    ASSERT_TRUE(LabEqualRegionLayout(c.disk, 2, 64ull << 20, &parts).ok())
        << c.disk;
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].start_sector, c.start1) << c.disk;
    EXPECT_EQ(parts[0].sectors, c.sectors) << c.disk;
    EXPECT_EQ(parts[1].start_sector, c.start1 + c.sectors) << c.disk;
    EXPECT_EQ(parts[1].sectors, c.sectors) << c.disk;
    EXPECT_LE((parts[1].start_sector + parts[1].sectors) * kLabSectorBytes,
              c.disk);
  }
}

TEST(LabEqualRegionLayout, RefusesDisksTooSmallOrTooLarge) {
  std::vector<LabPartition> parts;
  EXPECT_FALSE(LabEqualRegionLayout(128ull << 20, 2, 64ull << 20, &parts).ok());
  EXPECT_FALSE(LabEqualRegionLayout(1ull << 20, 2, 0, &parts).ok());
  EXPECT_FALSE(LabEqualRegionLayout(3ull << 40, 2, 64ull << 20, &parts).ok());
  Status s = LabEqualRegionLayout(256ull << 20, 4, 64ull << 20, &parts);
  EXPECT_FALSE(s.ok());  // 255 MiB / 4 < 64 MiB
  EXPECT_NE(s.message().find("4 regions"), std::string::npos) << s.message();
  EXPECT_TRUE(LabEqualRegionLayout(257ull << 20, 4, 64ull << 20, &parts).ok());
}

TEST(LabEqualRegionLayout, FourRegionsFollowOneAnotherWithoutGaps) {
  std::vector<LabPartition> parts;
  ASSERT_TRUE(LabEqualRegionLayout(2ull << 30, 4, 64ull << 20, &parts).ok());
  ASSERT_EQ(parts.size(), 4u);
  uint64_t next = 2048;
  for (const LabPartition& p : parts) {
    EXPECT_EQ(p.start_sector, next);
    EXPECT_EQ(p.sectors, 511ull * 2048);  // (2048 - 1) MiB / 4, whole MiB
    EXPECT_EQ(p.start_sector % 2048, 0u) << "1 MiB aligned";
    next = p.start_sector + p.sectors;
  }
  EXPECT_LE(next * kLabSectorBytes, 2ull << 30);
}

TEST(LabRegionLayout, ExtrasEnlargeSingleRegionsByExactAmounts) {
  std::vector<LabPartition> parts;
  const uint64_t mib = 1ull << 20;
  // 1 + 4 * 256 + 16 MiB: base 256 MiB, region 2 is 272 MiB.
  ASSERT_TRUE(
      LabRegionLayout(1041 * mib, {0, 16 * mib, 0, 0}, 64 * mib, &parts).ok());
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].sectors, 256 * 2048u);
  EXPECT_EQ(parts[1].sectors, 272 * 2048u);
  EXPECT_EQ(parts[2].sectors, 256 * 2048u);
  EXPECT_EQ(parts[3].sectors, 256 * 2048u);
  EXPECT_EQ(parts[1].start_sector, 2048 + 256 * 2048u);
  EXPECT_EQ(parts[2].start_sector, 2048 + 528 * 2048u);
  EXPECT_EQ((parts[3].start_sector + parts[3].sectors) * kLabSectorBytes,
            1041 * mib);
  EXPECT_EQ(LabDiskBytesFor(256 * mib, {0, 16 * mib, 0, 0}), 1041 * mib);
  // One MiB less: the base drops to whole 255 MiB, the extra stays exact.
  ASSERT_TRUE(
      LabRegionLayout(1040 * mib, {0, 16 * mib, 0, 0}, 64 * mib, &parts).ok());
  EXPECT_EQ(parts[0].sectors, 255 * 2048u);
  EXPECT_EQ(parts[1].sectors, 271 * 2048u);
}

TEST(LabRegionLayout, RefusesBadCountsAndExtras) {
  std::vector<LabPartition> parts;
  const uint64_t mib = 1ull << 20;
  EXPECT_FALSE(LabRegionLayout(1ull << 30, {}, 0, &parts).ok());
  EXPECT_FALSE(LabRegionLayout(1ull << 30, {0, 0, 0, 0, 0}, 0, &parts).ok());
  EXPECT_FALSE(LabRegionLayout(1ull << 30, {0, 4096}, 0, &parts).ok());
  // The extra counts against the disk: 1 + 2 * 64 + 16 MiB needed.
  Status s = LabRegionLayout(144 * mib, {16 * mib, 0}, 64 * mib, &parts);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("145"), std::string::npos) << s.message();
  EXPECT_TRUE(LabRegionLayout(145 * mib, {16 * mib, 0}, 64 * mib, &parts).ok());
}

TEST(LabMasterBootRecord, HoldsTheEntriesAndTheSignature) {
  std::string mbr = LabMasterBootRecord({{2048, 100}, {2148, 0x12345678}});
  ASSERT_EQ(mbr.size(), 512u);
  EXPECT_EQ(static_cast<unsigned char>(mbr[510]), 0x55);
  EXPECT_EQ(static_cast<unsigned char>(mbr[511]), 0xAA);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(static_cast<unsigned char>(mbr[446 + 16 * i + 4]), 0x83) << i;
    EXPECT_EQ(static_cast<unsigned char>(mbr[446 + 16 * i]), 0x00)
        << "not bootable";
  }
  EXPECT_EQ(Le32(mbr, 446 + 8), 2048u);
  EXPECT_EQ(Le32(mbr, 446 + 12), 100u);
  EXPECT_EQ(Le32(mbr, 462 + 8), 2148u);
  EXPECT_EQ(Le32(mbr, 462 + 12), 0x12345678u);
  // Entries 3 and 4 stay empty.
  EXPECT_EQ(mbr.substr(478, 32), std::string(32, '\0'));
}

TEST(CreateLabDiskImage, WritesASparseImageWithTheMbrAndRefusesToOverwrite) {
  std::string path = std::filesystem::temp_directory_path().string() +
                     "/lab_disk_test." + std::to_string(getpid()) + ".img";
  std::vector<LabPartition> parts;
  ASSERT_TRUE(LabEqualRegionLayout(256ull << 20, 2, 64ull << 20, &parts).ok());
  ASSERT_TRUE(CreateLabDiskImage(path, 256ull << 20, parts).ok());
  EXPECT_EQ(std::filesystem::file_size(path), 256ull << 20);
  std::ifstream in(path, std::ios::binary);
  std::string first(512, '\0');
  in.read(first.data(), 512);
  EXPECT_EQ(first, LabMasterBootRecord(parts));
  Status again = CreateLabDiskImage(path, 256ull << 20, parts);
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find(path), std::string::npos) << again.message();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tierbench
