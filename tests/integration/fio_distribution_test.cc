// random_distribution= against the real fio (/usr/bin/fio, installed by
// scripts/install-deps): fio runs the job with ioengine=null and writes its
// IO log; tierbench's IoPattern generates the same job in-process. The share
// of the IO that the hottest 1% and 10% of the blocks receive must agree
// within 2 percentage points. The streams differ (different generators and
// seeds), the distributions must not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "test_env.h"
#include "workload/io_pattern.h"
#include "workload/job_file.h"

namespace tierbench {
namespace {

using testing::HaveTool;
using testing::RunShell;
using testing::TempDir;

constexpr uint64_t kRegion = 1ULL << 30;  // size=1g
constexpr uint64_t kBlock = 4096;         // bs=4k
constexpr uint64_t kBlocks = kRegion / kBlock;
constexpr int kIos = 200000;  // number_ios

struct Shares {
  double top1;   // share of the IO on the hottest 1% of the blocks
  double top10;  // ... 10%
  size_t ios;
};

Shares SharesOf(const std::vector<uint64_t>& offsets) {
  std::unordered_map<uint64_t, uint64_t> per_block;
  for (uint64_t off : offsets) ++per_block[off / kBlock];
  std::vector<uint64_t> counts;
  counts.reserve(per_block.size());
  for (const auto& [block, count] : per_block) counts.push_back(count);
  std::sort(counts.begin(), counts.end(), std::greater<>());
  auto top = [&](uint64_t blocks) {
    uint64_t sum = 0;
    for (size_t i = 0; i < blocks && i < counts.size(); ++i) sum += counts[i];
    return static_cast<double>(sum) / static_cast<double>(offsets.size());
  };
  return {top(kBlocks / 100), top(kBlocks / 10), offsets.size()};
}

// Read offsets from a fio IO log, version 2 ("file action offset length")
// or 3 ("time file action offset length").
std::vector<uint64_t> ReadIologOffsets(const std::string& path) {
  std::ifstream in(path);
  std::vector<uint64_t> offsets;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::vector<std::string> f;
    for (std::string t; ss >> t;) f.push_back(t);
    for (size_t i = 1; i + 1 < f.size(); ++i) {
      if (f[i] == "read") {
        offsets.push_back(std::stoull(f[i + 1]));
        break;
      }
    }
  }
  return offsets;
}

std::string JobText(const std::string& dist) {
  return "[dist]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\n"
         "random_distribution=" +
         dist + "\nnumber_ios=" + std::to_string(kIos) + "\n";
}

Shares FioShares(const std::string& dist) {
  TempDir dir;
  const std::string job = dir.path() + "/dist.fio";
  const std::string log = dir.path() + "/dist.iolog";
  std::ofstream(job) << JobText(dist);
  std::string out;
  const int rc = RunShell("cd " + dir.path() + " && fio --output=/dev/null " +
                              "--write_iolog=" + log + " " + job,
                          &out);
  EXPECT_EQ(rc, 0) << out;
  const std::vector<uint64_t> offsets = ReadIologOffsets(log);
  EXPECT_EQ(offsets.size(), static_cast<size_t>(kIos)) << out;
  return SharesOf(offsets);
}

Shares TierbenchShares(const std::string& dist) {
  // tierbench has no number_ios: the same job without it, cut at kIos.
  const Workload w = ParseJobText(
      "[dist]\nfilename=/dev/null\nioengine=null\nrw=randread\n"
      "bs=4k\nsize=1g\nrandom_distribution=" +
          dist + "\n",
      "<test>", JobOverrides{});
  IoPattern pattern(w.jobs.at(0), kRegion, 0);
  std::vector<uint64_t> offsets;
  IoDir d;
  uint64_t offset;
  uint32_t length;
  while (offsets.size() < static_cast<size_t>(kIos) &&
         pattern.Next(&d, &offset, &length)) {
    offsets.push_back(offset);
  }
  return SharesOf(offsets);
}

TEST(FioDistributionTest, HottestBlocksGetTheSameShareAsInFio) {
  ASSERT_TRUE(HaveTool("fio"))
      << "fio is needed (scripts/install-deps installs it)";
  for (const char* dist : {"zipf:1.2", "pareto:0.9", "zipf:0.8", "normal"}) {
    SCOPED_TRACE(dist);
    const Shares fio = FioShares(dist);
    const Shares tb = TierbenchShares(dist);
    ASSERT_EQ(tb.ios, static_cast<size_t>(kIos));
    std::printf(
        "[ measured ] %-10s hottest 1%%: fio %.2f%% tierbench %.2f%%; "
        "hottest 10%%: fio %.2f%% tierbench %.2f%%\n",
        dist, 100 * fio.top1, 100 * tb.top1, 100 * fio.top10, 100 * tb.top10);
    EXPECT_NEAR(tb.top1, fio.top1, 0.02);
    EXPECT_NEAR(tb.top10, fio.top10, 0.02);
  }
}

TEST(FioDistributionTest, ZonedSharesMatchFio) {
  ASSERT_TRUE(HaveTool("fio"))
      << "fio is needed (scripts/install-deps installs it)";
  // Share of the IO in each of the HOWTO's zones: 60/10:30/20:8/30:2/40.
  const std::string dist = "zoned:60/10:30/20:8/30:2/40";
  const uint64_t bounds[] = {0, kBlocks * 10 / 100, kBlocks * 30 / 100,
                             kBlocks * 60 / 100, kBlocks};
  auto zone_shares = [&](const std::vector<uint64_t>& offsets) {
    std::vector<double> share(4);
    for (uint64_t off : offsets) {
      for (int z = 0; z < 4; ++z) {
        if (off / kBlock >= bounds[z] && off / kBlock < bounds[z + 1])
          share[z] += 1.0 / static_cast<double>(offsets.size());
      }
    }
    return share;
  };
  TempDir dir;
  const std::string job = dir.path() + "/zoned.fio";
  const std::string log = dir.path() + "/zoned.iolog";
  std::ofstream(job) << JobText(dist);
  std::string out;
  ASSERT_EQ(RunShell("cd " + dir.path() + " && fio --output=/dev/null " +
                         "--write_iolog=" + log + " " + job,
                     &out),
            0)
      << out;
  const std::vector<double> fio = zone_shares(ReadIologOffsets(log));
  const Workload w = ParseJobText(
      "[z]\nfilename=/dev/null\nrw=randread\nbs=4k\nsize=1g\n"
      "random_distribution=" +
          dist + "\n",
      "<test>", JobOverrides{});
  IoPattern pattern(w.jobs.at(0), kRegion, 0);
  std::vector<uint64_t> offsets;
  IoDir d;
  uint64_t offset;
  uint32_t length;
  while (offsets.size() < static_cast<size_t>(kIos) &&
         pattern.Next(&d, &offset, &length)) {
    offsets.push_back(offset);
  }
  const std::vector<double> tb = zone_shares(offsets);
  for (int z = 0; z < 4; ++z) {
    std::printf("[ measured ] %s zone %d: fio %.2f%% tierbench %.2f%%\n",
                dist.c_str(), z + 1, 100 * fio[z], 100 * tb[z]);
    EXPECT_NEAR(tb[z], fio[z], 0.02) << "zone " << z + 1;
  }
}

}  // namespace
}  // namespace tierbench
