// Every shipped fio job file (workloads/**/*.fio) parses and runs briefly
// with `tierbench run` on a loop device (root), and for seed 000's cases
// (workloads/seed000/caseNN-*.fio) tierbench's normal output has the line
// kinds and fields that fio printed for that case in the seed. The seed's fio
// output of each case is kept verbatim in tests/golden/seed000/caseNN.txt.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_env.h"
#include "workload/job_file.h"

namespace tierbench::testing {
namespace {

namespace fs = std::filesystem;

// Sparse; large enough for workloads/example-trace.iolog (256 MiB extent).
constexpr uint64_t kShippedDeviceBytes = 272ull << 20;
const std::string kWorkloads = std::string(TIERBENCH_SOURCE_DIR) + "/workloads";
const std::string kGolden =
    std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/seed000";

std::string ShippedReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The .fio files under `dir`, recursively, sorted.
std::vector<fs::path> JobFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".fio")
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Runs `tierbench run` on `job` against a fresh 64 MiB loop device with
// --runtime and --size replaced; returns the exit code, the report in
// *report and the console output (notices, errors) in *console.
int RunShort(const fs::path& job, const std::string& runtime,
             std::string* report, std::string* console) {
  LoopDevice loop(kShippedDeviceBytes);
  if (!loop.ok()) {
    *console = loop.error();
    return -1;
  }
  TempDir dir;
  const std::string out = dir.path() + "/report.txt";
  // From the repository root, as a user runs them (read_iolog paths are
  // relative to the current directory, as in fio).
  const int rc = RunShell("cd " + std::string(TIERBENCH_SOURCE_DIR) + " && " +
                              std::string(TIERBENCH_BINARY) +
                              " run --quiet --destructive --filename " +
                              loop.device() + " --runtime " + runtime +
                              " --size 8M --output " + out + " " + job.string(),
                          console);
  *report = ShippedReadAll(out);
  return rc;
}

// The kinds of lines in fio's normal result block, each with the names of
// its key=value fields: "cpu", "cpu: majf=", "read", "read: BW=",
// "percentiles: 99.99th=", "READ: min-max per job", ... Values, units and
// fio's preamble (job
// lines, "fio-3.28", "Starting N processes", "Jobs:", "Laying out IO file")
// are not kinds.
std::set<std::string> LineKinds(const std::string& text) {
  struct Kind {
    std::regex pattern;
    std::string name;  // "$1" takes the first group
    bool fields;       // add the key=value names as kinds
  };
  static const std::vector<Kind> kKinds = {
      {std::regex(R"(^\S.*: \(groupid=\d+, jobs=\d+\): err=)"), "job", true},
      {std::regex(R"(^\s+(read|write|trim)\s*: IOPS=)"), "$1", true},
      {std::regex(R"(^\s+(slat|clat|lat) \((nsec|usec|msec)\): min=)"), "$1",
       true},
      {std::regex(R"(^\s+clat percentiles \()"), "clat percentiles", false},
      {std::regex(R"(^\s+\|)"), "percentiles", true},
      {std::regex(R"(^\s+bw \(\s*\S+/s\):)"), "bw", true},
      {std::regex(R"(^\s+iops\s+:)"), "iops", true},
      {std::regex(R"(^\s+lat \((nsec|usec|msec)\)\s+:)"), "lat buckets", false},
      {std::regex(R"(^\s+cpu\s+:)"), "cpu", true},
      {std::regex(R"(^\s+IO depths\s+:)"), "IO depths", true},
      {std::regex(R"(^\s+submit\s+:)"), "submit", true},
      {std::regex(R"(^\s+complete\s+:)"), "complete", true},
      {std::regex(R"(^\s+issued rwts:)"), "issued rwts", true},
      {std::regex(R"(^\s+latency\s+:)"), "latency", true},
      {std::regex(R"(^Run status group \d+ \(all jobs\):)"), "Run status group",
       false},
      {std::regex(R"(^\s+(READ|WRITE): bw=)"), "$1", true},
  };
  static const std::regex kField(R"(((?:>=)?[^\s,=:\[\]()|]+)=)");
  static const std::regex kBwRange(R"(, \S+/s-\S+/s \()");
  std::set<std::string> kinds;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    for (const Kind& k : kKinds) {
      std::smatch m;
      if (!std::regex_search(line, m, k.pattern)) continue;
      const std::string name = m.format(k.name);
      kinds.insert(name);
      if (k.fields) {
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kField);
             it != std::sregex_iterator(); ++it) {
          kinds.insert(name + ": " + (*it)[1].str() + "=");
        }
      }
      if ((name == "READ" || name == "WRITE") &&
          std::regex_search(line, kBwRange)) {
        kinds.insert(name + ": min-max per job");
      }
      if (line.find("zone resets") != std::string::npos)
        kinds.insert(name + ": zone resets");
      break;
    }
  }
  return kinds;
}

// What fio prints and tierbench does not (README, "normal (fio-style
// text)"): a kind here must be missing from tierbench's output wherever the
// seed has it, so this list cannot go stale.
const std::map<std::string, std::string>& KnownMissing() {
  static const std::map<std::string, std::string> kMissing = {
      {"write: zone resets", "zoned block device resets"},
  };
  return kMissing;
}

std::string Join(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& k : s) out += "\n  " + k;
  return out;
}

TEST(ShippedWorkloadsTest, LineKindsOfFiosOutput) {
  const std::string fio =
      "job1: (groupid=0, jobs=4): err= 0: pid=7: Sat Feb  8 13:38:22 2025\n"
      "  write: IOPS=1976, BW=494MiB/s (518MB/s)(58.0GiB/120240msec); 0 zone "
      "resets\n"
      "   bw (  KiB/s): min=210432, max=797184, per=100.00%, avg=1.0, "
      "stdev=2.0, samples=960\n"
      "  lat (msec)   : 4=0.01%, 10=0.14%, >=2000=0.01%\n"
      "  IO depths    : 1=0.1%, >=64=99.9%\n"
      "  WRITE: bw=494MiB/s (518MB/s), 494MiB/s-494MiB/s (518MB/s-518MB/s), "
      "io=58.0GiB (62.3GB), run=120240-120240msec\n"
      "fio-3.28\n";
  const std::set<std::string> expect = {"job",
                                        "job: groupid=",
                                        "job: jobs=",
                                        "job: err=",
                                        "job: pid=",
                                        "write",
                                        "write: IOPS=",
                                        "write: BW=",
                                        "write: zone resets",
                                        "bw",
                                        "bw: min=",
                                        "bw: max=",
                                        "bw: per=",
                                        "bw: avg=",
                                        "bw: stdev=",
                                        "bw: samples=",
                                        "lat buckets",
                                        "IO depths",
                                        "IO depths: 1=",
                                        "IO depths: >=64=",
                                        "WRITE",
                                        "WRITE: bw=",
                                        "WRITE: io=",
                                        "WRITE: run=",
                                        "WRITE: min-max per job"};
  EXPECT_EQ(LineKinds(fio), expect) << Join(LineKinds(fio));
}

TEST(ShippedWorkloadsTest, EveryJobFileParsesAndRunsBriefly) {
  TIERBENCH_REQUIRE_ROOT();
  const std::vector<fs::path> files = JobFiles(kWorkloads);
  ASSERT_FALSE(files.empty());
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    // As shipped (only the target given): the options parse and validate.
    JobOverrides target;
    target.filename = "/dev/null";
    Workload parsed;
    ASSERT_NO_THROW(parsed = ParseJobFiles({f.string()}, target));
    EXPECT_FALSE(parsed.jobs.empty());
    // seed000's cases run in Seed000CasesPrintTheSeedsFields.
    if (f.parent_path().filename() == "seed000") continue;
    std::string report, console;
    ASSERT_EQ(RunShort(f, "1", &report, &console), 0) << console;
    EXPECT_NE(report.find("Run status group 0 (all jobs):"), std::string::npos)
        << report;
    EXPECT_NE(report.find("err= 0"), std::string::npos) << report;
  }
}

TEST(ShippedWorkloadsTest, Seed000CasesPrintTheSeedsFields) {
  TIERBENCH_REQUIRE_ROOT();
  const std::vector<fs::path> files = JobFiles(kWorkloads + "/seed000");
  ASSERT_EQ(files.size(), 14u);  // the seed's cases 1 to 14
  std::set<std::string> missing_anywhere;
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    const std::string name = f.filename().string();
    ASSERT_EQ(name.rfind("case", 0), 0u) << "name seed000 files caseNN-...";
    const std::string golden = kGolden + "/" + name.substr(0, 6) + ".txt";
    const std::set<std::string> seed = LineKinds(ShippedReadAll(golden));
    ASSERT_TRUE(seed.count("Run status group")) << golden;
    // 2 s: the per-second bw/iops lines need one complete second.
    std::string report, console;
    ASSERT_EQ(RunShort(f, "2", &report, &console), 0) << console;
    const std::set<std::string> ours = LineKinds(report);
    std::set<std::string> missing, extra;
    std::set_difference(seed.begin(), seed.end(), ours.begin(), ours.end(),
                        std::inserter(missing, missing.end()));
    std::set_difference(ours.begin(), ours.end(), seed.begin(), seed.end(),
                        std::inserter(extra, extra.end()));
    std::set<std::string> unexpected;
    for (const std::string& k : missing) {
      if (!KnownMissing().count(k)) unexpected.insert(k);
      missing_anywhere.insert(k);
    }
    EXPECT_TRUE(unexpected.empty())
        << "fio printed, tierbench did not:" << Join(unexpected) << "\n"
        << report;
    EXPECT_TRUE(extra.empty())
        << "tierbench printed, fio did not:" << Join(extra) << "\n"
        << report;
    for (const auto& [kind, why] : KnownMissing()) {
      if (seed.count(kind)) {
        EXPECT_FALSE(ours.count(kind)) << "tierbench now prints '" << kind
                                       << "': remove it from KnownMissing()";
      }
    }
  }
  // Every entry of the list is a kind some seed case has.
  for (const auto& [kind, why] : KnownMissing())
    EXPECT_TRUE(missing_anywhere.count(kind)) << kind << " (" << why << ")";
}

}  // namespace
}  // namespace tierbench::testing
