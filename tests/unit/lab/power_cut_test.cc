// Unit tests of the power cut's host side: the layers it accepts, its
// lab.conf, the job files it ships (parsed by tierbench's own job parser and
// run on a regular file: written, checked intact, a fresh file lacking every
// block, one corrupted block found), and the parsing of what the guest
// leaves (lab/power_cut_record.h).
#include "lab/lab_power_cut.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "lab/power_cut_record.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// Shapes of what the 6.1 guest printed (lab.md; dmsetup shows
// major:minor in tables).
const char kDmCacheStatus[] =
    "0 1046528 cache 8 27/4096 64 512/8192 0 0 0 512 0 512 512 1 writeback 2 "
    "migration_threshold 0 smq 0 rw -";
const char kWritecacheTable[] = "0 1046528 writecache s 254:3 254:19 4096 0";
const char kWritecacheStatus[] =
    "0 1046528 writecache 0 65536 61440 0 0 0 4096 0 0 0 4096 0 1 0";

std::string JobReport(uint64_t write_ios, uint64_t verify_blocks,
                      uint64_t verify_errors, const std::string& error = "") {
  return "{\"schema_version\": 3, \"jobs\": [{\"jobname\": \"power-cut\", "
         "\"error_message\": \"" +
         error + "\", \"write\": {\"total_ios\": " + std::to_string(write_ios) +
         "}, \"verify_errors\": " + std::to_string(verify_errors) +
         ", \"verify_blocks\": " + std::to_string(verify_blocks) + "}]}";
}

TEST(CheckPowerCutLayers, AcceptsTheDefaultLayersAndRefusesLvmcache) {
  EXPECT_TRUE(CheckPowerCutLayers(PowerCutLayers()).ok());
  EXPECT_TRUE(CheckPowerCutLayers({"dm-writecache", "bcache"}).ok());
  Status s = CheckPowerCutLayers({"bcache", "lvmcache"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'lvmcache' has no power cut"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("bcache, dm-cache, dm-writecache"),
            std::string::npos)
      << s.message();
  EXPECT_FALSE(CheckPowerCutLayers({}).ok());
  EXPECT_FALSE(CheckPowerCutLayers({"bcache", "bcache"}).ok());
}

TEST(PowerCutConfText, AddsTheScenarioAndPhaseToTheLabConf) {
  LabOptions o;
  o.layers = {"bcache", "dm-writecache"};
  const std::string conf = PowerCutConfText(o, "pc", "recover");
  EXPECT_EQ(conf.find(LabConfText(o, "pc")), 0u);
  EXPECT_NE(conf.find("\nSCENARIO=power-cut\n"), std::string::npos) << conf;
  EXPECT_NE(conf.find("\nPOWER_CUT_PHASE=recover\n"), std::string::npos);
  EXPECT_NE(conf.find("LAYERS='bcache dm-writecache'"), std::string::npos);
}

TEST(PowerCutJobText, WritesAcknowledgedFlushedCrc32cBlocks) {
  const Workload w =
      ParseJobText(PowerCutJobText(false), "<write>", JobOverrides{});
  ASSERT_EQ(w.jobs.size(), 1u);
  const JobSpec& j = w.jobs[0];
  EXPECT_EQ(j.rw, RwPattern::kWrite);
  EXPECT_TRUE(j.direct);
  EXPECT_TRUE(j.end_fsync);
  EXPECT_EQ(j.bs[1].min, kPowerCutBlockBytes);
  EXPECT_EQ(j.bs[1].max, kPowerCutBlockBytes);
  EXPECT_EQ(j.verify.type, VerifyType::kCrc32c);
  EXPECT_FALSE(j.verify.do_verify);
  EXPECT_FALSE(j.verify.verify_only);

  const Workload v =
      ParseJobText(PowerCutJobText(true), "<verify>", JobOverrides{});
  ASSERT_EQ(v.jobs.size(), 1u);
  EXPECT_TRUE(v.jobs[0].verify.verify_only);
  EXPECT_TRUE(v.jobs[0].verify.continue_on_error);
  EXPECT_EQ(v.jobs[0].verify.type, VerifyType::kCrc32c);
}

// The two jobs on a regular file, as the guest runs them on the stack and
// on the bare origin.
class PowerCutJobRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tb-power-cut-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  JobResult Run(bool verify_only, const std::string& file) {
    JobOverrides o;
    o.filename = (dir_ / file).string();
    Workload w = ParseJobText(PowerCutJobText(verify_only), "<t>", o);
    RunOptions options;
    options.progress = false;
    options.report_verify_failures = true;  // as `tierbench run` does
    RunResult r = RunWorkload(w, options);
    EXPECT_EQ(r.jobs.size(), 1u);
    return r.jobs.empty() ? JobResult{} : r.jobs[0];
  }

  fs::path dir_;
};

TEST_F(PowerCutJobRunTest, VerifyFindsIntactFreshAndCorruptedBlocks) {
  const uint64_t blocks = kPowerCutBytes / kPowerCutBlockBytes;
  const JobResult write = Run(false, "stack");
  ASSERT_TRUE(write.error.empty()) << write.error;
  EXPECT_EQ(write.dir[1].ios, blocks);

  const JobResult intact = Run(true, "stack");
  EXPECT_EQ(intact.verify_blocks, blocks);
  EXPECT_EQ(intact.verify_errors, 0u) << intact.error;

  // A bare origin that never got the data: every block fails.
  {
    std::ofstream zeros(dir_ / "origin", std::ios::binary);
    zeros << std::string(kPowerCutBytes, '\0');
  }
  const JobResult origin = Run(true, "origin");
  EXPECT_EQ(origin.verify_blocks, blocks);
  EXPECT_EQ(origin.verify_errors, blocks);

  // One flipped byte in block 7: exactly one mismatch.
  {
    std::fstream f(dir_ / "stack",
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(7 * kPowerCutBlockBytes + 100);
    f.put('\x5a');
  }
  const JobResult corrupt = Run(true, "stack");
  EXPECT_EQ(corrupt.verify_blocks, blocks);
  EXPECT_EQ(corrupt.verify_errors, 1u);
}

TEST(ParsePowerCutRecord, ReadsLayerKeyValueLines) {
  const PowerCutRecord r = ParsePowerCutRecord(
      "bcache.dirty=16.0M\r\n"
      "dm-cache.status=0 1 cache a=b c\n"
      "noise without equals\n"
      "nodot=1\n"
      "=x\n"
      "bcache.dirty=15.6M\n");
  EXPECT_EQ(r.size(), 2u);
  EXPECT_EQ(r.at("bcache.dirty"), "15.6M");  // the later line wins
  EXPECT_EQ(r.at("dm-cache.status"), "0 1 cache a=b c");
}

TEST(ParsePowerCutJobReport, ReadsTheCountsAndRefusesOtherJson) {
  PowerCutJobReport r;
  ASSERT_TRUE(ParsePowerCutJobReport(JobReport(512, 0, 0), &r).ok());
  EXPECT_EQ(r.write_ios, 512u);
  ASSERT_TRUE(ParsePowerCutJobReport(JobReport(0, 512, 3, "bad"), &r).ok());
  EXPECT_EQ(r.verify_blocks, 512u);
  EXPECT_EQ(r.verify_errors, 3u);
  EXPECT_EQ(r.error, "bad");
  for (const char* bad :
       {"", "not json", "[]", "{\"jobs\": []}",
        "{\"jobs\": [{\"verify_blocks\": 1}]}",
        "{\"jobs\": [{\"verify_blocks\": 1, \"verify_errors\": 0}, {}]}",
        "{\"jobs\": [{\"verify_blocks\": -1, \"verify_errors\": 0}]}"}) {
    EXPECT_FALSE(ParsePowerCutJobReport(bad, &r).ok()) << bad;
  }
}

TEST(PowerCutDirtyAtCut, ReadsEachLayersOwnMeasure) {
  uint64_t bytes = 0;
  std::string text;
  ASSERT_TRUE(
      PowerCutDirtyAtCut("bcache", {{"bcache.dirty", "16.0M"}}, &bytes, &text)
          .ok());
  EXPECT_EQ(bytes, 16ull << 20);
  EXPECT_EQ(text, "16.0M");

  ASSERT_TRUE(PowerCutDirtyAtCut("dm-cache",
                                 {{"dm-cache.status", kDmCacheStatus}}, &bytes,
                                 &text)
                  .ok());
  EXPECT_EQ(bytes, 512ull * 32 * 1024);
  EXPECT_EQ(text, "512 x 32 KiB");

  ASSERT_TRUE(PowerCutDirtyAtCut("dm-writecache",
                                 {{"dm-writecache.table", kWritecacheTable},
                                  {"dm-writecache.status", kWritecacheStatus}},
                                 &bytes, &text)
                  .ok());
  EXPECT_EQ(bytes, 4096ull * 4096);
  EXPECT_EQ(text, "4096 x 4 KiB");
}

TEST(PowerCutDirtyAtCut, RefusesMissingOrForeignLines) {
  uint64_t bytes = 0;
  std::string text;
  EXPECT_FALSE(PowerCutDirtyAtCut("bcache", {}, &bytes, &text).ok());
  EXPECT_FALSE(
      PowerCutDirtyAtCut("bcache", {{"bcache.dirty", "lots"}}, &bytes, &text)
          .ok());
  // A writecache status where a dm-cache one belongs.
  EXPECT_FALSE(PowerCutDirtyAtCut("dm-cache",
                                  {{"dm-cache.status", kWritecacheStatus}},
                                  &bytes, &text)
                   .ok());
  // dm-writecache needs its table for the block size.
  EXPECT_FALSE(PowerCutDirtyAtCut("dm-writecache",
                                  {{"dm-writecache.status", kWritecacheStatus}},
                                  &bytes, &text)
                   .ok());
  EXPECT_FALSE(PowerCutDirtyAtCut("lvmcache", {}, &bytes, &text).ok());
}

TEST(PowerCutLayerFromGuest, BuildsTheRowFromTheRecordAndTheReports) {
  const PowerCutRecord record = {{"bcache.device", "/dev/bcache0"},
                                 {"bcache.dirty", "16.0M"},
                                 {"bcache.recovery_ms", "80"}};
  PowerCutLayer l;
  ASSERT_TRUE(PowerCutLayerFromGuest("bcache", record, JobReport(512, 0, 0),
                                     JobReport(0, 512, 512),
                                     JobReport(0, 512, 0), &l)
                  .ok());
  EXPECT_EQ(l.layer, "bcache");
  EXPECT_EQ(l.device, "/dev/bcache0");
  EXPECT_EQ(l.blocks_written, 512u);
  EXPECT_EQ(l.block_bytes, kPowerCutBlockBytes);
  EXPECT_EQ(l.dirty_bytes_at_cut, 16ull << 20);
  EXPECT_EQ(l.blocks_origin_lacked, 512u);
  EXPECT_EQ(l.recovery_ms, 80);
  EXPECT_EQ(l.blocks_checked, 512u);
  EXPECT_EQ(l.mismatches, 0u);
  EXPECT_EQ(PowerCutVerdict(l), "intact");

  // A missing report or recovery time is named.
  Status s = PowerCutLayerFromGuest("bcache", record, JobReport(512, 0, 0), "",
                                    JobReport(0, 512, 0), &l);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bcache-origin.json"), std::string::npos)
      << s.message();
  PowerCutRecord no_time = record;
  no_time.erase("bcache.recovery_ms");
  s = PowerCutLayerFromGuest("bcache", no_time, JobReport(512, 0, 0),
                             JobReport(0, 512, 512), JobReport(0, 512, 0), &l);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("recovery_ms"), std::string::npos);
}

// The rounds' jobs: disjoint regions, one after another, same verify
// layout as the power cut's.
TEST(LogReplayJobText, WritesEachRoundInItsOwnRegion) {
  for (int r = 0; r < kLogReplayRounds; ++r) {
    SCOPED_TRACE(r);
    const Workload w =
        ParseJobText(LogReplayJobText(r, false), "<w>", JobOverrides{});
    ASSERT_EQ(w.jobs.size(), 1u);
    EXPECT_EQ(w.jobs[0].name, "log-replay-r" + std::to_string(r));
    EXPECT_EQ(w.jobs[0].offset.bytes, r * kLogReplayRoundBytes);
    EXPECT_EQ(w.jobs[0].size.bytes, kLogReplayRoundBytes);
    EXPECT_TRUE(w.jobs[0].end_fsync);
    const Workload v =
        ParseJobText(LogReplayJobText(r, true), "<v>", JobOverrides{});
    EXPECT_TRUE(v.jobs[0].verify.verify_only);
    EXPECT_EQ(v.jobs[0].offset.bytes, r * kLogReplayRoundBytes);
  }
}

// Rounds of 64 blocks; at mark K rounds 0..K are checked and round K + 1
// must be missing.
class LogReplayFromGuestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    record_["bcache.lr_marks"] = "3";
    for (int k = 0; k < 3; ++k) {
      const std::string m = std::to_string(k);
      record_["bcache.lr_m" + m + "_replay"] =
          "replay-log: " + std::to_string(100 * (k + 1)) +
          " of 400 entries replayed onto /tmp/lr-cache.img (up to mark r" + m +
          ")";
      record_["bcache.lr_m" + m + "_state"] = "dirty " + m + ".6M";
      for (int r = 0; r <= k + 1 && r < 3; ++r) {
        json_["bcache/m" + m + "-r" + std::to_string(r) + ".json"] =
            r <= k ? JobReport(0, 64, 0) : JobReport(0, 64, 64);
      }
    }
  }
  Status Parse() {
    return LogReplayFromGuest(
        "bcache", record_, 3,
        [this](const std::string& n) {
          auto it = json_.find(n);
          return it == json_.end() ? std::string() : it->second;
        },
        &marks_);
  }
  PowerCutRecord record_;
  std::map<std::string, std::string> json_;
  std::vector<LogReplayMark> marks_;
};

TEST_F(LogReplayFromGuestTest, BuildsOneRowPerMark) {
  ASSERT_TRUE(Parse().ok());
  ASSERT_EQ(marks_.size(), 3u);
  EXPECT_EQ(marks_[0].layer, "bcache");
  EXPECT_EQ(marks_[0].mark, "r0");
  EXPECT_EQ(marks_[0].entries_replayed, 100u);
  EXPECT_EQ(marks_[1].state_after_replay, "dirty 1.6M");
  EXPECT_EQ(marks_[0].blocks_expected, 64u);
  EXPECT_EQ(marks_[0].blocks_checked, 64u);
  EXPECT_EQ(marks_[0].next_round_blocks, 64u);
  EXPECT_EQ(marks_[0].next_round_lacked, 64u);
  EXPECT_EQ(marks_[2].blocks_expected, 192u);
  EXPECT_EQ(marks_[2].blocks_checked, 192u);
  EXPECT_EQ(marks_[2].next_round_blocks, 0u);  // the last mark
  for (const LogReplayMark& m : marks_)
    EXPECT_EQ(LogReplayVerdict(m), "intact");
}

TEST_F(LogReplayFromGuestTest, ALostBlockOrAPresentNextRoundShows) {
  json_["bcache/m1-r0.json"] = JobReport(0, 64, 1);
  json_["bcache/m0-r1.json"] = JobReport(0, 64, 0);  // round 1 there at mark r0
  ASSERT_TRUE(Parse().ok());
  EXPECT_EQ(marks_[1].mismatches, 1u);
  EXPECT_EQ(LogReplayVerdict(marks_[1]), "lost");
  EXPECT_EQ(marks_[0].next_round_lacked, 0u);
  EXPECT_EQ(LogReplayVerdict(marks_[0]), "unproven");
}

TEST_F(LogReplayFromGuestTest, RefusesAnUnfinishedCheck) {
  record_["bcache.lr_marks"] = "1";
  Status s = Parse();
  EXPECT_NE(s.message().find("the log replay did not finish"),
            std::string::npos)
      << s.message();
  record_["bcache.lr_marks"] = "3";
  json_.erase("bcache/m2-r1.json");
  s = Parse();
  EXPECT_NE(s.message().find("log-replay/bcache/m2-r1.json: missing"),
            std::string::npos)
      << s.message();
  json_["bcache/m2-r1.json"] = JobReport(0, 64, 0);
  record_.erase("bcache.lr_m1_replay");
  s = Parse();
  EXPECT_NE(s.message().find("no bcache.lr_m1_replay line"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace tierbench
