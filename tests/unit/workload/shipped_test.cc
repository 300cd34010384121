// Tests of the shipped job files added for the seeds' workloads: seed 000's
// cases (workloads/seed000) against the job lines fio printed in the seed
// (tests/golden/seed000/caseNN.txt), and the numbers that
// anandtech-heavy.fio and oltp-8k.fio derive in their headers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "workload/job_file.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kShippedKiB = 1024;
constexpr uint64_t kShippedMiB = 1024 * kShippedKiB;
const std::string kSource = TIERBENCH_SOURCE_DIR;

Workload ParseShipped(const std::string& path) {
  JobOverrides o;
  o.filename = "/dev/null";  // seed000's files leave the target to the CLI
  return ParseJobFiles({kSource + "/workloads/" + path}, o);
}

std::string ShippedReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// fio prints block sizes as "4096B", "256KiB", "1024KiB" (powers of 1024).
uint64_t FioBytes(const std::string& number, const std::string& unit) {
  static const std::map<std::string, uint64_t> kUnits = {
      {"B", 1}, {"KiB", kShippedKiB}, {"MiB", kShippedMiB}};
  return std::stoull(number) * kUnits.at(unit);
}

TEST(ShippedWorkloadFilesTest, Seed000CasesMatchTheJobLinesFioPrinted) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kSource + "/workloads/seed000"))
    files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 14u);
  const std::regex job_line(
      R"(rw=(\w+), bs=\(R\) (\d+)(B|KiB|MiB)-(\d+)(B|KiB|MiB), .*ioengine=(\w+), iodepth=(\d+))");
  const std::regex group_line(R"(\(groupid=0, jobs=(\d+)\))");
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i].filename().string();
    SCOPED_TRACE(name);
    const std::string prefix = std::string(i + 1 < 10 ? "case0" : "case") +
                               std::to_string(i + 1) + "-";
    ASSERT_EQ(name.rfind(prefix, 0), 0u) << "expected " << prefix << "...";
    const std::string golden = ShippedReadAll(
        kSource + "/tests/golden/seed000/" + name.substr(0, 6) + ".txt");
    std::smatch job, group;
    ASSERT_TRUE(std::regex_search(golden, job, job_line));
    ASSERT_TRUE(std::regex_search(golden, group, group_line));
    const Workload w = ParseShipped("seed000/" + name);
    ASSERT_FALSE(w.jobs.empty());
    // The seed's first printed job is the file's first job.
    const JobSpec& j = w.jobs[0];
    EXPECT_EQ(std::string(RwPatternName(j.rw)), job[1].str());
    EXPECT_EQ(j.bs[0].min, FioBytes(job[2], job[3]));
    EXPECT_EQ(j.bs[0].max, FioBytes(job[4], job[5]));
    EXPECT_EQ(j.ioengine, job[6].str());
    EXPECT_EQ(j.iodepth, std::stoul(job[7]));
    EXPECT_TRUE(j.direct);
    EXPECT_TRUE(j.time_based);
    EXPECT_TRUE(j.group_reporting);
    EXPECT_EQ(j.filename, "/dev/null");  // no /scratch path left
    // Clones: the seed's jobs=N, doubled for the two-node cases 3 and 4.
    uint32_t clones = 0;
    for (const JobSpec& s : w.jobs) {
      clones += s.numjobs;
      EXPECT_EQ(s.group_id, 0);  // all clones run at once, as on the nodes
    }
    const uint32_t nodes = (i + 1 == 3 || i + 1 == 4) ? 2 : 1;
    EXPECT_EQ(clones, std::stoul(group[1]) * nodes);
  }
}

TEST(ShippedWorkloadFilesTest, AnandtechHeavyEncodesThePublishedNumbers) {
  const Workload w = ParseShipped("anandtech-heavy.fio");
  ASSERT_EQ(w.jobs.size(), 3u);
  const std::vector<std::pair<uint64_t, uint32_t>> split = {
      {4 * kShippedKiB, 28},
      {16 * kShippedKiB, 10},
      {32 * kShippedKiB, 10},
      {64 * kShippedKiB, 4},
      {128 * kShippedKiB, 48}};
  double ios = 0, ios_at_qd1 = 0, depth_sum = 0, mean_kib = 0;
  for (const auto& [size, weight] : split)
    mean_kib += static_cast<double>(size) / kShippedKiB * weight / 100.0;
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const JobSpec& j = w.jobs[i];
    SCOPED_TRACE(j.name);
    EXPECT_EQ(j.group_id, static_cast<int>(i));  // phases, one at a time
    EXPECT_EQ(j.rw, RwPattern::kRandReadWrite);
    EXPECT_EQ(j.rwmixread, 60u);
    EXPECT_EQ(j.percentage_random, 58u);  // 42% sequential
    for (int d = 0; d < kNumDirs; ++d) EXPECT_EQ(j.bs[d].split, split);
    EXPECT_EQ(j.blockalign[0], 4 * kShippedKiB);
    EXPECT_TRUE(j.norandommap);
    EXPECT_TRUE(j.direct);
    EXPECT_EQ(j.ioengine, "libaio");
    EXPECT_EQ(j.numjobs, 1u);
    EXPECT_FALSE(j.time_based);  // a phase's IOs are set by its bytes
    ASSERT_TRUE(j.size.set);
    ASSERT_FALSE(j.size.is_percent);
    // IOs of the phase: its bytes over the mean IO of the bssplit.
    const double n = static_cast<double>(j.size.bytes) / kShippedKiB / mean_kib;
    ios += n;
    if (j.iodepth == 1) ios_at_qd1 += n;
    depth_sum += n * j.iodepth;
  }
  EXPECT_NEAR(mean_kib, 69.92, 1e-9);
  EXPECT_NEAR(ios_at_qd1 / ios, 0.59, 1e-12);
  EXPECT_NEAR(depth_sum / ios, 4.625, 1e-12);
  EXPECT_EQ(w.jobs[0].size.bytes + w.jobs[1].size.bytes + w.jobs[2].size.bytes,
            1600 * kShippedMiB);
}

TEST(ShippedWorkloadFilesTest, Oltp8kIsTheClassicDatabasePattern) {
  const Workload w = ParseShipped("oltp-8k.fio");
  ASSERT_EQ(w.jobs.size(), 1u);
  const JobSpec& j = w.jobs[0];
  EXPECT_EQ(j.rw, RwPattern::kRandReadWrite);
  EXPECT_EQ(j.rwmixread, 70u);
  EXPECT_EQ(j.bs[0].min, 8 * kShippedKiB);
  EXPECT_EQ(j.bs[1].max, 8 * kShippedKiB);
  EXPECT_EQ(j.iodepth, 16u);
  EXPECT_EQ(j.numjobs, 4u);
  EXPECT_TRUE(j.direct);
  EXPECT_EQ(j.ioengine, "libaio");
  EXPECT_TRUE(j.time_based);
  EXPECT_EQ(j.runtime_ns, 60ull * 1000 * 1000 * 1000);
  EXPECT_FALSE(j.size.set);  // the whole target
}

}  // namespace
}  // namespace tierbench
