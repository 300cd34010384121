// Unit tests of the lab's disk layout and MBR (orchestrate/lab_disk.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "orchestrate/lab_disk.h"

namespace tierbench {
namespace {

uint32_t Le32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

TEST(LabTwoRegionLayout, SplitsAfterTheFirstMibIntoEqualAlignedRegions) {
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
    ASSERT_TRUE(LabTwoRegionLayout(c.disk, 64ull << 20, &parts).ok()) << c.disk;
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].start_sector, c.start1) << c.disk;
    EXPECT_EQ(parts[0].sectors, c.sectors) << c.disk;
    EXPECT_EQ(parts[1].start_sector, c.start1 + c.sectors) << c.disk;
    EXPECT_EQ(parts[1].sectors, c.sectors) << c.disk;
    EXPECT_LE((parts[1].start_sector + parts[1].sectors) * kLabSectorBytes,
              c.disk);
  }
}

TEST(LabTwoRegionLayout, RefusesDisksTooSmallOrTooLarge) {
  std::vector<LabPartition> parts;
  EXPECT_FALSE(LabTwoRegionLayout(128ull << 20, 64ull << 20, &parts).ok());
  EXPECT_FALSE(LabTwoRegionLayout(1ull << 20, 0, &parts).ok());
  EXPECT_FALSE(LabTwoRegionLayout(3ull << 40, 64ull << 20, &parts).ok());
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
  ASSERT_TRUE(LabTwoRegionLayout(256ull << 20, 64ull << 20, &parts).ok());
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
