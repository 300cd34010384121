// Issue 28 rule 5, "Parse once", through the whole compare against the
// fake bcache sysfs (tests/unit/orchestrate/protocol_fixture.h; the IO runs for
// real on files): a fio workload's jobs are prepared once at setup (its trace
// loaded: a bad one is refused before anything is touched) and placed once
// per target, whatever the number of modes and repetitions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "unit/orchestrate/protocol_fixture.h"
#include "util/errors.h"
#include "workload/prepared_jobs.h"
#include "workload/prepared_run.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

// A replay of `reads` 4 KiB reads: the workload file (named after the
// trace's stem) and its trace, in `dir`.
std::string ReplayWorkload(const std::string& dir, const std::string& name,
                           int reads) {
  std::string trace = "fio version 3 iolog\n0 /dev/tb-traced add\n";
  for (int i = 0; i < reads; ++i) {
    trace += std::to_string(i + 1) + " /dev/tb-traced read " +
             std::to_string(i * 4096) + " 4096\n";
  }
  std::ofstream(dir + "/" + name + ".iolog") << trace;
  const std::string job = dir + "/" + name + ".fio";
  std::ofstream(job) << "[" << name << "]\nread_iolog=" << dir << "/" << name
                     << ".iolog\nreplay_no_stall=1\nioengine=psync\n";
  return job;
}

TEST_F(ProtocolTest, ReplayIsLoadedOnceAndPlacedOncePerTarget) {
  CompareOptions o = Options("randread");
  o.workload_paths = {ReplayWorkload(dir_, "trace", 12)};
  o.repeat = 2;
  CompareHooks hooks;
  // After the first cell the trace changes, then goes: the later cells
  // replay what the setup loaded.
  hooks.after_cell = [this](size_t i) {
    if (i == 0) ReplayWorkload(dir_, "trace", 3);
    if (i == 1) fs::remove(dir_ + "/trace.iolog");
  };
  const uint64_t jobs_before = PreparedJobs::MadeForTest();
  const uint64_t runs_before = PreparedRun::MadeForTest();
  std::ostringstream out;
  const CompareSummary s =
      CompareRunner(o, TestHost(), hooks).Run(MakeCompareReporters(out));
  EXPECT_EQ(s.finished_cells, 8u);  // 4 modes x 2 repetitions
  EXPECT_EQ(s.failed_cells, 0u);
  // One preparation of the workload; one placement per target (the HDD,
  // the SSD, and bcache0 for both cache modes).
  EXPECT_EQ(PreparedJobs::MadeForTest() - jobs_before, 1u);
  EXPECT_EQ(PreparedRun::MadeForTest() - runs_before, 3u);
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  ASSERT_EQ(rows.size(), 1u + 8);  // header + one read row per cell
  const auto& h = rows[0];
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][Col(h, "direction")], "read") << i;
    EXPECT_EQ(rows[i][Col(h, "ios")], "12") << i;
  }
}

TEST_F(ProtocolTest, BadTraceIsRefusedAtSetup) {
  CompareOptions o = Options("randread");
  o.workload_paths = {ReplayWorkload(dir_, "trace", 4)};
  std::ofstream(dir_ + "/trace.iolog")
      << "fio version 3 iolog\n0 /dev/tb-traced add\n"
         "1 /dev/tb-traced rread 0 4096\n";
  std::ostringstream out;
  try {
    CompareRunner(o, TestHost()).Run(MakeCompareReporters(out));
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(":3: unknown IO action 'rread'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fake_.WriteCount("sys/block/bcache0/bcache/cache_mode"), 0);
  EXPECT_FALSE(fs::exists(RunDir()));
}

// A block trace given to --workloads (here MSR Cambridge CSV, told by its
// content) is one replay job named after the file, replayed onto every
// mode's target.
TEST_F(ProtocolTest, TraceFileIsAWorkloadOfOneReplayJob) {
  CompareOptions o = Options("randread");
  const std::string trace = dir_ + "/hm-trace.csv";
  {
    std::ofstream out(trace);
    for (int i = 0; i < 5; ++i) {  // 100 ns ticks: 10 us apart
      out << 128166372003061629LL + i * 100 << ",hm,0,"
          << (i % 2 == 0 ? "Read" : "Write") << "," << i * 8192 << ",4096,"
          << "100\n";
    }
  }
  o.workload_paths = {trace};
  std::ostringstream out;
  const CompareSummary s =
      CompareRunner(o, TestHost()).Run(MakeCompareReporters(out));
  EXPECT_EQ(s.finished_cells, 4u);  // 4 modes
  EXPECT_EQ(s.failed_cells, 0u);
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  ASSERT_EQ(rows.size(), 1u + 4 * 2);  // a read and a write row per cell
  const auto& h = rows[0];
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][Col(h, "workload")], "hm-trace") << i;
    EXPECT_EQ(rows[i][Col(h, "ios")],
              rows[i][Col(h, "direction")] == "read" ? "3" : "2")
        << i;
  }
}

}  // namespace
}  // namespace tierbench
