// The compare's setup and restore against the fake bcache sysfs
// (tests/unit/orchestrate/protocol_fixture.h): validation refusing before
// anything is touched, the default mode list, percentage offsets rounded to the
// jobs' alignment, and the original knobs restored after a failure, an
// interrupt or a kill (from the restore state file), with the rows of finished
// cells kept.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "orchestrate/compare_runner.h"
#include "orchestrate/prepare_compare.h"
#include "orchestrate/restore_state.h"
#include "report/reporters.h"
#include "unit/orchestrate/protocol_fixture.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

TEST_F(ProtocolTest, RestoresAfterAFailureAndKeepsFinishedCells) {
  CompareOptions o = Options("randread");
  Host host = TestHost();
  CompareHooks hooks;
  hooks.after_cell = [](size_t i) {
    if (i == 2) throw SysError("simulated failure");
  };
  std::ostringstream out;
  EXPECT_THROW(CompareRunner(o, host, hooks).Run(MakeCompareReporters(out)),
               SysError);
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  EXPECT_EQ(rows.size(), 1u + 3);  // hdd, ssd, writeback
  const auto m = nlohmann::json::parse(ReadAll(RunDir() + "/manifest.json"));
  EXPECT_EQ(m["status"], "failed: simulated failure");
  EXPECT_EQ(m["restore"]["ok"], true);
  EXPECT_TRUE(fs::exists(RunDir() + "/comparison.csv"));
}

TEST_F(ProtocolTest, RestoresAfterAnInterrupt) {
  CompareOptions o = Options("randread");
  Host host = TestHost();
  CompareHooks hooks;
  hooks.after_cell = [](size_t i) {
    if (i == 2) RaiseInterruptForTest(SIGINT);
  };
  std::ostringstream out;
  try {
    CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
    FAIL() << "no InterruptedError";
  } catch (const InterruptedError& e) {
    EXPECT_EQ(e.exit_code(), 130);
  }
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  EXPECT_EQ(rows.size(), 1u + 3);
  const auto cmp = ParseCsv(ReadAll(RunDir() + "/comparison.csv"));
  EXPECT_EQ(cmp.size(), 1u + 3);
  const auto m = nlohmann::json::parse(ReadAll(RunDir() + "/manifest.json"));
  EXPECT_EQ(m["status"], "interrupted");
}

// A compare killed before it restored (SIGKILL, crash): the state file it
// wrote before its first change lets `tierbench restore` put the mode back,
// and until then a new compare refuses to start.
TEST_F(ProtocolTest, KilledCompareIsUndoneByRestoreFromTheStateFile) {
  CompareOptions o = Options("randread");
  Host host = TestHost();
  CompareHooks hooks;
  const std::string state_path = StateFilePath(fake_.sysfs());
  std::string state_mid_run, mode_mid_run;
  hooks.after_cell = [&](size_t i) {
    if (i != 2) return;  // the writeback cell
    state_mid_run = ReadAll(state_path);
    mode_mid_run = Backing("cache_mode");
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  // A compare that restored removes its state and keeps a copy.
  EXPECT_FALSE(fs::exists(state_path));
  EXPECT_EQ(ReadAll(RunDir() + "/restore-state.json"), state_mid_run);
  ASSERT_FALSE(state_mid_run.empty());
  const auto state = nlohmann::json::parse(state_mid_run);
  EXPECT_EQ(state["stacks"][0]["layer"], "bcache");
  EXPECT_EQ(state["stacks"][0]["original"]["cache_mode"], "writethrough");
  EXPECT_EQ(mode_mid_run, "writethrough [writeback] writearound none");

  // Now as if the process had died in that cell.
  ASSERT_TRUE(fake_.sysfs()
                  .Write(fake_.BackingBcacheDir() + "/cache_mode", "writeback")
                  .ok());
  ASSERT_TRUE(fake_.sysfs()
                  .Write(fake_.BackingBcacheDir() + "/sequential_cutoff", "0")
                  .ok());
  WriteFile(state_path, state_mid_run);
  CompareOptions again = Options("randread");
  again.run_id = "t2";
  try {
    PrepareCompare(again, HostOn(fake_.sysfs()));
    FAIL() << "a stale state was not refused";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("Fix: tierbench restore"),
              std::string::npos)
        << e.what();
  }
  std::ostringstream restore_out;
  EXPECT_TRUE(RestoreFromState(HostOn(fake_.sysfs()), restore_out));
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  EXPECT_EQ(Backing("sequential_cutoff"), "4.0M");
  EXPECT_FALSE(fs::exists(state_path));
  EXPECT_NE(restore_out.str().find("restored " + bcache_target_),
            std::string::npos)
      << restore_out.str();
  // Nothing left: restore says so and succeeds.
  std::ostringstream nothing;
  EXPECT_TRUE(RestoreFromState(HostOn(fake_.sysfs()), nothing));
  EXPECT_NE(nothing.str().find("nothing to restore"), std::string::npos);
}

TEST_F(ProtocolTest, StateOfALiveCompareIsNotRestoredAndMalformedIsRefused) {
  const std::string state_path = StateFilePath(fake_.sysfs());
  fs::create_directories(fs::path(state_path).parent_path());
  WriteFile(state_path,
            "{\"schema_version\": 1, \"pid\": 4242, \"run_dir\": \"r\", "
            "\"started\": \"s\", \"stacks\": []}");
  fs::create_directories(fake_.root() + "/proc/4242");
  WriteFile(fake_.root() + "/proc/4242/comm", "tierbench\n");
  std::ostringstream out;
  try {
    RestoreFromState(HostOn(fake_.sysfs()), out);
    FAIL() << "restored under a live compare";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("still running (pid 4242)"),
              std::string::npos)
        << e.what();
  }
  try {
    PrepareCompare(Options("randread"), HostOn(fake_.sysfs()));
    FAIL() << "started beside a live compare";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("another tierbench compare is "
                                         "running"),
              std::string::npos)
        << e.what();
  }
  WriteFile(state_path, "{\"schema_version\": 1, \"pid\": \"x\"}");
  EXPECT_THROW(RestoreFromState(HostOn(fake_.sysfs()), out), ConfigError);
}

// The default mode list names every layer's modes: those of layers without
// a --stack are left out; an explicit list with such a mode is refused.
TEST_F(ProtocolTest, DefaultModesKeepOnlyTheLayersGiven) {
  CompareOptions o = Options("read");
  o.mode_paths.push_back(
      Mode("dmc", "\"layer\": \"dm-cache\", \"cache_mode\": \"writeback\""));
  try {
    PrepareCompare(o, HostOn(fake_.sysfs()));
    FAIL() << "a dm-cache mode without a dm-cache stack was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("need a dm-cache stack"),
              std::string::npos)
        << e.what();
  }
  o.modes_are_default = true;
  const CompareSetup setup = PrepareCompare(o, HostOn(fake_.sysfs()));
  ASSERT_EQ(setup.modes.size(), 4u);
  for (const ModeSpec& m : setup.modes) EXPECT_NE(m.layer, "dm-cache");
  ASSERT_EQ(setup.stacks.size(), 1u);
  EXPECT_EQ(setup.stacks[0].layer->layer(), "bcache");
}

// The lab's --quick failed on anandtech-mix: offset=10% of a 1 GiB
// partition is not a multiple of 512, and direct IO refused it. fio rounds
// a percentage offset down to blockalign (else the minimum block size).
TEST_F(ProtocolTest, PercentOffsetsAreRoundedDownToTheJobAlignment) {
  CompareOptions o = Options("read");
  const std::string job = dir_ + "/pct.fio";
  WriteFile(job,
            "[a]\nrw=read\nbs=4k\nsize=64k\noffset=10%\n"
            "[b]\nrw=read\nbs=16k\nblockalign=8k\nsize=64k\noffset=30%\n");
  o.workload_paths = {job};
  const CompareSetup setup = PrepareCompare(o, HostOn(fake_.sysfs()));
  ASSERT_EQ(setup.workloads.size(), 1u);
  const std::vector<JobSpec>& jobs = setup.workloads[0].io.jobs;
  ASSERT_EQ(jobs.size(), 2u);
  // Targets are 1 MiB: 10% = 104857 -> 102400; 30% = 314572 -> 311296.
  EXPECT_EQ(jobs[0].offset.bytes, 102400u);
  EXPECT_EQ(jobs[1].offset.bytes, 311296u);
}

TEST_F(ProtocolTest, ValidationRefusesBeforeTouchingAnything) {
  const std::string mode_file = "sys/block/bcache0/bcache/cache_mode";
  struct Case {
    const char* name;
    std::function<void(CompareOptions*)> edit;
    int exit_code;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"writes need --destructive",
       [](CompareOptions* o) { o->destructive = false; }, kExitSafety,
       "--destructive"},
      {"raw HDD is the backing device",
       [this](CompareOptions* o) {
         o->hdd = fake_.root() + "/dev/vda";
         WriteFile(o->hdd, "");
       },
       kExitSafety, "part of the bcache stack"},
      {"no cache attached", [this](CompareOptions*) { fake_.Detach(); },
       kExitSystem, "has no cache attached"},
      {"not a bcache device",
       [this](CompareOptions* o) {
         o->stacks = {fake_.root() + "/dev/bcache7"};
       },
       kExitSystem, "bcache7"},
      {"bad repeat", [](CompareOptions* o) { o->repeat = 0; }, kExitConfig,
       "--repeat"},
      {"missing mode file",
       [this](CompareOptions* o) { o->mode_paths.push_back(dir_ + "/x.json"); },
       kExitConfig, "x.json"},
      {"raw mode without --ssd", [](CompareOptions* o) { o->ssd.clear(); },
       kExitConfig, "--ssd"},
      {"no bcache module",
       [this](CompareOptions*) {
         fs::remove_all(fake_.root() + "/sys/fs/bcache");
       },
       kExitSystem, "no bcache in this kernel"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    CompareOptions o = Options("randwrite");
    c.edit(&o);
    std::ostringstream out;
    try {
      CompareRunner(o, TestHost()).Run(MakeCompareReporters(out));
      ADD_FAILURE() << "accepted";
    } catch (const HarnessError& e) {
      EXPECT_EQ(e.exit_code(), c.exit_code) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(fake_.WriteCount(mode_file), 0);
    EXPECT_FALSE(fs::exists(RunDir()));
    if (std::string(c.name) == "no cache attached") fake_.Attach();
  }
}

}  // namespace
}  // namespace tierbench
