// Tests of fio iologs: the v2/v3 parser (tracefile/iolog.h), the v3 writer
// (workload/iolog_writer.h) with exact lines and a round trip, the replay
// timing of ReplaySource (workload/replay_source.h) against fio's
// delay_since_ttime(), and the job-file options that drive them.
#include "tracefile/iolog.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/job_text.h"
#include "util/errors.h"
#include "workload/iolog_writer.h"
#include "workload/job_file.h"
#include "workload/replay_source.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

std::string IologErrorOf(const std::string& text) {
  try {
    ParseIoLog(text, "t.iolog");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string IologReadAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path TempPath(const std::string& name) {
  return fs::temp_directory_path() /
         ("tb-iolog-" + std::to_string(::getpid()) + "-" + name);
}

TEST(IoLogTest, ParsesVersion3AsFioWritesIt) {
  // The lines fio 3.33 wrote for a 6-IO randrw job (psync, /tmp file).
  const IoLog log = ParseIoLog(
      "fio version 3 iolog\n"
      "29 /tmp/fio-t.dat add\n"
      "181 /tmp/fio-t.dat open\n"
      "184 /tmp/fio-t.dat read 61440 4096\n"
      "462 /tmp/fio-t.dat read 774144 4096\n"
      "619 /tmp/fio-t.dat write 491520 8192\n"
      "791 /tmp/fio-t.dat close\n",
      "t.iolog");
  EXPECT_EQ(log.version, 3);
  ASSERT_EQ(log.files, std::vector<std::string>{"/tmp/fio-t.dat"});
  ASSERT_EQ(log.entries.size(), 6u);
  const IoLogEntry& w = log.entries[4];
  EXPECT_EQ(w.action, IoLogAction::kWrite);
  EXPECT_EQ(w.time_us, 619u);
  EXPECT_EQ(w.offset, 491520u);
  EXPECT_EQ(w.length, 8192u);
  EXPECT_EQ(w.line, 6u);
  EXPECT_EQ(log.ios[0], 2u);
  EXPECT_EQ(log.ios[1], 1u);
  EXPECT_EQ(log.bytes[0], 8192u);
  EXPECT_EQ(log.bytes[1], 8192u);
  EXPECT_EQ(log.min_length[1], 8192u);
  EXPECT_EQ(log.max_length[0], 4096u);
  EXPECT_EQ(log.extent, 774144u + 4096u);
  EXPECT_EQ(log.extent_line, 5u);
}

TEST(IoLogTest, ParsesVersion2WithWaitSyncAndSkipsTrim) {
  const IoLog log = ParseIoLog(
      "fio version 2 iolog\n"
      "/dev/sdb add\n"
      "/dev/sdb open\n"
      "/dev/sdb write 0 4096\n"
      "\n"
      "/dev/sdb wait 20 0\n"
      "/dev/sdb sync 0 0\n"
      "/dev/sdb trim 8192 4096\n"
      "/dev/sdb read 4096 512\n"
      "/dev/sdb close\n",
      "t.iolog");
  EXPECT_EQ(log.version, 2);
  ASSERT_EQ(log.entries.size(), 8u);
  EXPECT_EQ(log.entries[3].action, IoLogAction::kWait);
  EXPECT_EQ(log.entries[3].offset, 20u);
  EXPECT_EQ(log.entries[4].action, IoLogAction::kSync);
  EXPECT_EQ(log.entries[5].action, IoLogAction::kSkipped);
  EXPECT_EQ(log.syncs, 1u);
  EXPECT_EQ(log.skipped, 1u);
  EXPECT_EQ(log.ios[0], 1u);
  EXPECT_EQ(log.ios[1], 1u);
  EXPECT_EQ(log.extent, 4608u);  // trim is not replayed, so not counted
}

TEST(IoLogTest, MalformedLinesNameFileAndLine) {
  const std::string v3 = "fio version 3 iolog\n0 /f add\n";
  const std::string v2 = "fio version 2 iolog\n/f add\n";
  struct Case {
    std::string text;
    const char* message;  // a substring of the error
  } cases[] = {
      {"fio version 1 iolog\n", "t.iolog:1: not a fio iolog of version 2 or 3"},
      {"", "t.iolog: the iolog is empty"},
      {v3 + "5 /f read 0\n", "t.iolog:3: expected 3 or 5 fields, found 4"},
      {v2 + "/f read 0 4096 7\n", "t.iolog:3: expected 2 or 4 fields, found 5"},
      {v3 + "5 /f append 0 4096\n", "t.iolog:3: unknown IO action 'append'"},
      {v3 + "5 /f reopen\n", "t.iolog:3: unknown file action 'reopen'"},
      {v3 + "5 /f read 0x10 4096\n", "t.iolog:3: offset '0x10' is not"},
      {v3 + "-5 /f read 0 4096\n", "t.iolog:3: timestamp '-5' is not"},
      {v3 + "5 /f write 0 0\n", "t.iolog:3: length 0 is outside"},
      {v3 + "5 /f write 0 268435457\n", "t.iolog:3: length 268435457 is"},
      {v3 + "5 /g read 0 4096\n", "t.iolog:3: file '/g' is used before its"},
      {v3 + "5 /f wait 100 0\n", "t.iolog:3: 'wait' is not allowed"},
      {v3 + "5 /f open\n", "t.iolog: the iolog has no read or write"},
  };
  for (const Case& c : cases) {
    const std::string error = IologErrorOf(c.text);
    EXPECT_EQ(error.rfind(c.message, 0), 0u) << c.text << "\n-> " << error;
    EXPECT_NE(error.find("Fix: "), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(IologWriterTest, WritesFioVersion3LinesExactly) {
  const fs::path path = TempPath("exact");
  {
    IologWriter w(path.string(), "/dev/loop7");
    const uint64_t t0 = 5'000'000'000;
    w.Begin(t0);
    w.Open(t0 + 152'999);  // 152.999 us: truncated to 152, as fio
    w.Io(t0 + 155'000, IoDir::kRead, 61440, 4096);
    w.Io(t0 + 2'000'000, IoDir::kWrite, 1ULL << 40, 131072);
    ASSERT_TRUE(w.Close(t0 + 3'000'123).ok());
    EXPECT_TRUE(w.Close(t0 + 4'000'000).ok());  // once only
  }
  EXPECT_EQ(IologReadAll(path),
            "fio version 3 iolog\n"
            "0 /dev/loop7 add\n"
            "152 /dev/loop7 open\n"
            "155 /dev/loop7 read 61440 4096\n"
            "2000 /dev/loop7 write 1099511627776 131072\n"
            "3000 /dev/loop7 close\n");
  fs::remove(path);
}

TEST(IologWriterTest, RoundTripsThroughTheParser) {
  const fs::path path = TempPath("roundtrip");
  struct Io {
    IoDir dir;
    uint64_t offset;
    uint32_t length;
  };
  std::vector<Io> ios;
  for (uint32_t i = 0; i < 100; ++i) {
    ios.push_back({i % 3 == 0 ? IoDir::kWrite : IoDir::kRead,
                   (i * 7919ULL % 1000) * 4096, 4096u << (i % 4)});
  }
  {
    IologWriter w(path.string(), "/tmp/target");
    w.Begin(1000);
    w.Open(2000);
    for (size_t i = 0; i < ios.size(); ++i)
      w.Io(3000 + i * 10'000, ios[i].dir, ios[i].offset, ios[i].length);
    ASSERT_TRUE(w.Close(5'000'000).ok());
  }
  const IoLog log = LoadIoLog(path.string());
  EXPECT_EQ(log.version, 3);
  ASSERT_EQ(log.entries.size(), ios.size() + 3);
  for (size_t i = 0; i < ios.size(); ++i) {
    const IoLogEntry& e = log.entries[i + 2];
    EXPECT_EQ(e.action, ios[i].dir == IoDir::kRead ? IoLogAction::kRead
                                                   : IoLogAction::kWrite);
    EXPECT_EQ(e.offset, ios[i].offset);
    EXPECT_EQ(e.length, ios[i].length);
    EXPECT_EQ(e.time_us, (3000 + i * 10'000 - 1000) / 1000);
  }
  fs::remove(path);
}

TEST(IologWriterTest, UnwritablePathIsASystemError) {
  EXPECT_THROW(IologWriter("/nonexistent-dir/x.iolog", "/f"), SysError);
}

// Drains a ReplaySource: (due us or -1 when unscheduled, not-before ms) per
// IO.
std::vector<std::pair<int64_t, uint64_t>> Timings(const std::string& text,
                                                  const JobSpec& spec) {
  auto log = std::make_shared<IoLog>(ParseIoLog(text, "t.iolog"));
  ReplaySource source(log, spec, 0);
  std::vector<std::pair<int64_t, uint64_t>> out;
  IoDir dir;
  uint64_t offset;
  uint32_t length;
  while (source.Next(&dir, &offset, &length)) {
    const IoTiming t = source.timing();
    out.emplace_back(t.scheduled ? static_cast<int64_t>(t.due_ns / 1000) : -1,
                     t.not_before_ns / 1'000'000);
  }
  source.Rewind();  // a trace is replayed once
  EXPECT_FALSE(source.Next(&dir, &offset, &length));
  return out;
}

TEST(ReplaySourceTest, Version3IsAnAbsoluteScheduleFromTheFirstEntry) {
  // Each IO is due its timestamp minus the first entry's, whatever the IOs
  // before it; time going back adds nothing (due with the previous IO).
  const std::string trace =
      "fio version 3 iolog\n"
      "1000 /f add\n"
      "1100 /f open\n"
      "1300 /f read 0 4096\n"   // 300
      "1700 /f write 0 4096\n"  // 700
      "1600 /f read 0 4096\n"   // backwards: 700
      "2000 /f close\n"
      "3000 /f add\n"
      "3600 /f read 0 4096\n";  // 3600 - 1000 = 2600
  JobSpec spec;
  using V = std::vector<std::pair<int64_t, uint64_t>>;
  EXPECT_EQ(Timings(trace, spec), (V{{300, 0}, {700, 0}, {700, 0}, {2600, 0}}));
  spec.replay_time_scale = 200;  // twice the rate: half the times
  EXPECT_EQ(Timings(trace, spec), (V{{150, 0}, {350, 0}, {350, 0}, {1300, 0}}));
  spec.replay_time_scale = 50;
  EXPECT_EQ(Timings(trace, spec),
            (V{{600, 0}, {1400, 0}, {1400, 0}, {5200, 0}}));
  spec.replay_no_stall = true;
  EXPECT_EQ(Timings(trace, spec), (V{{-1, 0}, {-1, 0}, {-1, 0}, {-1, 0}}));
}

TEST(ReplaySourceTest, DueTimeScalesWithoutOverflow) {
  EXPECT_EQ(ReplayDueNs(2'000'000, 100), 2'000'000'000u);
  EXPECT_EQ(ReplayDueNs(3, 300), 1000u);
  EXPECT_EQ(ReplayDueNs(UINT64_MAX / 1000, 100),
            (UINT64_MAX / 1000) * 1000);  // no 64-bit overflow on the way
  EXPECT_EQ(ReplayDueNs(UINT64_MAX, 1), UINT64_MAX);  // saturates
}

TEST(ReplaySourceTest, SyncEntriesAreReplayedAsSyncsOfLengthZero) {
  const std::string trace =
      "fio version 3 iolog\n"
      "0 /f add\n"
      "10 /f write 4096 4096\n"
      "20 /f sync 0 0\n"
      "30 /f datasync 0 0\n"
      "40 /f trim 0 4096\n"
      "50 /f read 0 512\n";
  auto log = std::make_shared<IoLog>(ParseIoLog(trace, "t.iolog"));
  ReplaySource source(log, JobSpec{}, 0);
  std::vector<std::pair<IoSync, uint32_t>> got;
  std::vector<uint64_t> due_us;
  IoDir dir;
  uint64_t offset;
  uint32_t length;
  while (source.Next(&dir, &offset, &length)) {
    got.emplace_back(source.timing().sync, length);
    due_us.push_back(source.timing().due_ns / 1000);
  }
  using V = std::vector<std::pair<IoSync, uint32_t>>;
  EXPECT_EQ(got, (V{{IoSync::kNone, 4096},
                    {IoSync::kSync, 0},
                    {IoSync::kDatasync, 0},
                    {IoSync::kNone, 512}}));
  EXPECT_EQ(due_us, (std::vector<uint64_t>{10, 20, 30, 50}));
}

TEST(ReplaySourceTest, Version2WaitIsMillisecondsSinceTheStart) {
  const std::string trace =
      "fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n"
      "/f wait 30 0\n/f read 0 4096\n/f wait 10 0\n/f write 0 4096\n";
  JobSpec spec;
  using V = std::vector<std::pair<int64_t, uint64_t>>;
  EXPECT_EQ(Timings(trace, spec), (V{{-1, 0}, {-1, 30}, {-1, 30}}));
  spec.replay_no_stall = true;
  EXPECT_EQ(Timings(trace, spec), (V{{-1, 0}, {-1, 0}, {-1, 0}}));
}

TEST(ReplayOptionsTest, TargetComesFromRedirectCommandLineOrTrace) {
  const std::string job = "[r]\nread_iolog=/x.iolog\nfilename=/dev/ignored\n";
  Workload w = ParseJobText(job, "t.fio", {});
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_EQ(w.jobs[0].read_iolog, "/x.iolog");
  EXPECT_FALSE(w.jobs[0].replay_redirected);
  EXPECT_EQ(w.jobs[0].filename, "");  // the trace names the target
  ASSERT_EQ(w.notices.size(), 1u);
  EXPECT_EQ(w.notices[0].rfind("t.fio:3: job 'r': filename=/directory= is "
                               "ignored with read_iolog",
                               0),
            0u)
      << w.notices[0];

  w = ParseJobText(job + "replay_redirect=/dev/sdc\n", "t.fio", {});
  EXPECT_TRUE(w.jobs[0].replay_redirected);
  EXPECT_EQ(w.jobs[0].filename, "/dev/sdc");

  JobOverrides cli;
  cli.filename = "/dev/cli";  // --filename (and compare's target) redirect
  w = ParseJobText(job + "replay_redirect=/dev/sdc\n", "t.fio", cli);
  EXPECT_TRUE(w.jobs[0].replay_redirected);
  EXPECT_EQ(w.jobs[0].filename, "/dev/cli");

  w = ParseJobText(
      "[r]\nread_iolog=a\nwrite_iolog=b\nreplay_no_stall=1\n"
      "replay_time_scale=250\nreplay_redirect=/f\n",
      "t.fio", {});
  EXPECT_EQ(w.jobs[0].write_iolog, "");  // fio: read_iolog overrides it
  EXPECT_TRUE(w.jobs[0].replay_no_stall);
  EXPECT_EQ(w.jobs[0].replay_time_scale, 250u);
  ASSERT_EQ(w.notices.size(), 1u);
  EXPECT_NE(w.notices[0].find("read_iolog overrides write_iolog"),
            std::string::npos);
}

TEST(ReplayOptionsTest, BadValuesAreOneLineErrors) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"[j]\nfilename=/f\nreplay_time_scale=0\n",
       "t.fio:3: option 'replay_time_scale': 0 is out of range"},
      {"[j]\nread_iolog=a:b\n", "t.fio:2: option 'read_iolog': one trace per"},
      {"[j]\nfilename=/f\nwrite_iolog=x\nnumjobs=2\n",
       "t.fio:3: option 'write_iolog': job 'j' has numjobs=2"},
      {"[a]\nfilename=/f\nwrite_iolog=x\n[b]\nfilename=/f\nwrite_iolog=x\n",
       "t.fio:6: option 'write_iolog': job 'b' writes the same iolog as job "
       "'a'"},
  };
  for (const Case& c : cases) {
    const std::string error = JobTextError(c.text);
    EXPECT_EQ(error.rfind(c.message, 0), 0u) << c.text << "\n-> " << error;
  }
}

}  // namespace
}  // namespace tierbench
