// compare --capture-replay's setup and plan (orchestrate/capture_replay.h)
// against the fake bcache sysfs (tests/unit/orchestrate/protocol_fixture.h):
// the refusals, each one line with the fix and nothing written, and the
// plan that puts each capture before the cells that replay it. The capture
// itself (blktrace on a real block device) and the replays run in the lab
// guest (tests/lab/lab_capture_replay_test.cc); BlockCapture's steps with
// stand-in tools are tests/unit/cli/capture_session_test.cc's.
#include "orchestrate/capture_replay.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "orchestrate/prepare_compare.h"
#include "orchestrate/run_plan.h"
#include "tracefile/iolog.h"
#include "unit/orchestrate/protocol_fixture.h"
#include "util/errors.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

std::string CrDbWorkload(const std::string& dir) {
  const std::string path = dir + "/tpcb.json";
  std::ofstream(path)
      << "{\"schema_version\": 1, \"kind\": \"pgbench\", \"name\": \"tpcb\", "
         "\"description\": \"test\", \"scale\": 1, \"clients\": 1, "
         "\"duration\": \"2s\", \"builtin\": \"tpcb-like\"}";
  return path;
}

// "<exit code>: <message>" of PrepareCompare, or "".
std::string CrPrepareError(const CompareOptions& o, const Host& host) {
  try {
    PrepareCompare(o, host);
  } catch (const HarnessError& e) {
    return std::to_string(e.exit_code()) + ": " + e.what();
  }
  return "";
}

TEST_F(ProtocolTest, CaptureReplayNeedsADbWorkloadTheRawHddAndBlktrace) {
  CompareOptions o = Options("randread");
  o.capture_replay = true;
  // A fio workload only.
  std::string error = CrPrepareError(o, TestHost());
  EXPECT_EQ(error.substr(0, 3), "2: ") << error;
  EXPECT_NE(error.find("no --workloads file is one"), std::string::npos)
      << error;
  EXPECT_NE(error.find("Fix: add a pgbench workload"), std::string::npos)
      << error;
  // A DB workload, but no raw HDD mode.
  o.workload_paths.push_back(CrDbWorkload(dir_));
  const std::vector<std::string> all_modes = o.mode_paths;
  o.mode_paths = {all_modes[2]};  // writeback
  error = CrPrepareError(o, TestHost());
  EXPECT_EQ(error.substr(0, 3), "2: ") << error;
  EXPECT_NE(error.find("mode hdd is not compared"), std::string::npos) << error;
  EXPECT_NE(error.find("Fix: add --hdd DEV and modes/hdd.json"),
            std::string::npos)
      << error;
  // The raw HDD runs every other workload but not the DB one.
  o.mode_paths = all_modes;
  o.workload_modes = {{"tpcb", {"writeback"}}};
  error = CrPrepareError(o, TestHost());
  EXPECT_EQ(error.substr(0, 3), "2: ") << error;
  EXPECT_NE(error.find("workload tpcb does not run in mode hdd"),
            std::string::npos)
      << error;
  // Everything asked for, but --hdd is a file: no capture (blktrace traces
  // block devices), a system error naming it (or blktrace, on a host
  // without it).
  o.workload_modes.clear();
  error = CrPrepareError(o, TestHost());
  EXPECT_EQ(error.substr(0, 3), "3: ") << error;
  EXPECT_TRUE(error.find("is not a block device") != std::string::npos ||
              error.find("blktrace is not on PATH") != std::string::npos)
      << error;
  EXPECT_FALSE(fs::exists(o.results_dir)) << error;
}

TEST_F(ProtocolTest, WithoutCaptureReplayADbCompareHasNoReplay) {
  CompareOptions o = Options("randread");
  o.workload_paths.push_back(CrDbWorkload(dir_));
  const CompareSetup setup = PrepareCompare(o, TestHost());
  ASSERT_EQ(setup.workloads.size(), 2u);
  for (const PreparedWorkload& w : setup.workloads) {
    EXPECT_EQ(w.capture_of, -1) << w.name;
  }
}

// The plan of a compare with modes hdd, ssd, writeback and workloads (fio,
// DB, DB's replay), two repetitions: the first repetition's DB cell on the
// raw HDD comes first, every other cell in BuildRunPlan's order.
TEST(CaptureReplayPlan, TheCaptureComesBeforeEveryCellThatReplaysIt) {
  CompareSetup setup;
  ModeSpec hdd, ssd, wb;
  hdd.name = "hdd";
  hdd.layer = kRawLayerName;
  hdd.target = RawTarget::kHdd;
  ssd.name = "ssd";
  ssd.layer = kRawLayerName;
  ssd.target = RawTarget::kSsd;
  wb.name = "writeback";
  wb.layer = "bcache";
  setup.modes = {ssd, hdd, wb};
  setup.workloads.resize(3);
  setup.workloads[0].name = "fio";
  setup.workloads[1].name = "tpcb";
  setup.workloads[1].is_db = true;
  setup.workloads[2].name = "tpcb-replay";
  setup.workloads[2].capture_of = 1;
  const std::vector<bool> db = {false, true, false};
  const std::vector<std::vector<bool>> runs(3, std::vector<bool>(3, true));
  const std::vector<Cell> built = BuildRunPlan(3, 3, 2, runs, db, {-1, -2, 0});
  std::vector<Cell> plan = built;
  MoveCapturesFirst(setup, &plan);
  ASSERT_EQ(plan.size(), built.size());
  EXPECT_EQ(plan[0].mode, 1u);
  EXPECT_EQ(plan[0].workload, 1u);
  EXPECT_EQ(plan[0].repetition, 1);
  // The rest keeps its order.
  std::vector<Cell> rest;
  for (const Cell& c : built) {
    if (!(c.mode == 1 && c.workload == 1 && c.repetition == 1)) {
      rest.push_back(c);
    }
  }
  for (size_t i = 0; i < rest.size(); ++i) {
    EXPECT_EQ(plan[i + 1].mode, rest[i].mode) << i;
    EXPECT_EQ(plan[i + 1].workload, rest[i].workload) << i;
    EXPECT_EQ(plan[i + 1].repetition, rest[i].repetition) << i;
  }
  // In the built plan the replay's cells came before the capture.
  size_t capture_at = 0, first_replay_at = built.size();
  for (size_t i = 0; i < built.size(); ++i) {
    const Cell& c = built[i];
    if (c.mode == 1 && c.workload == 1 && c.repetition == 1) capture_at = i;
    if (c.workload == 2) first_replay_at = std::min(first_replay_at, i);
  }
  EXPECT_LT(first_replay_at, capture_at);
}

// A capture a filesystem with 1 KiB blocks made (the lab's DB cells before
// they asked mke2fs for 4 KiB blocks): every target with 512-byte blocks
// takes it; one 4 KiB target (dm-writecache's) fails every mode's replay,
// naming the first request it refuses, the target and the fix.
TEST(CaptureReplayMisfit, ALargerLogicalBlockOnAnyTargetFailsEveryReplay) {
  const IoLog capture = ParseIoLog(
      "fio version 3 iolog\n"
      "0 /dev/vda4 add\n"
      "0 /dev/vda4 open\n"
      "10 /dev/vda4 read 8192 4096\n"
      "20 /dev/vda4 sync 0 0\n"
      "30 /dev/vda4 write 279258112 16384\n"
      "40 /dev/vda4 write 1024 1024\n"
      "50 /dev/vda4 close\n",
      "vda4.iolog");
  EXPECT_EQ(ReplayMisfit(capture, {}), "");
  EXPECT_EQ(ReplayMisfit(capture, {{"/dev/vda4", 512}, {"/dev/bcache0", 512}}),
            "");
  const std::string why =
      ReplayMisfit(capture, {{"/dev/vda4", 512},
                             {"/dev/mapper/tb-writecache", 4096},
                             {"/dev/bcache0", 512}});
  EXPECT_EQ(why.rfind("vda4.iolog:6: offset 279258112 / length 16384 is not a "
                      "multiple of the logical block size of "
                      "/dev/mapper/tb-writecache (4096)",
                      0),
            0u)
      << why;
  EXPECT_NE(why.find("no mode replays the capture"), std::string::npos) << why;
  EXPECT_NE(why.find("replay_align=4096"), std::string::npos) << why;
  // 4 KiB-aligned requests (a filesystem with 4 KiB blocks) fit it.
  const IoLog aligned = ParseIoLog(
      "fio version 3 iolog\n0 /dev/vda4 add\n0 /dev/vda4 open\n"
      "10 /dev/vda4 write 279257088 16384\n20 /dev/vda4 close\n",
      "a.iolog");
  EXPECT_EQ(ReplayMisfit(aligned, {{"/dev/mapper/tb-writecache", 4096}}), "");
}

}  // namespace
}  // namespace tierbench
