// write_iolog / read_iolog end to end through the runner on regular files:
// a recorded run replays the identical IO sequence, trace timing is
// honoured, bad traces are refused before any IO, and real fio
// (/usr/bin/fio, installed by scripts/install-deps) replays tierbench's
// iolog while tierbench replays fio's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/recording_engine.h"
#include "tracefile/iolog.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

using Io = RecordedIo;

// The recording psync of this file, and what it was handed.
constexpr const char* kReplayRunEngine = "tb-test-record";
RecordedIoLog g_recorded;

std::vector<Io> TraceIos(const IoLog& log) {
  std::vector<Io> out;
  for (const IoLogEntry& e : log.entries) {
    if (e.action == IoLogAction::kRead || e.action == IoLogAction::kWrite) {
      out.push_back(
          {e.action == IoLogAction::kRead ? IoDir::kRead : IoDir::kWrite,
           e.offset, e.length});
    }
  }
  return out;
}

std::string Shell(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *status = ::pclose(p);
  return out;
}

class ReplayRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RegisterRecordingEngine(kReplayRunEngine, &g_recorded);
  }
  void SetUp() override {
    static int counter = 0;
    dir_ =
        fs::temp_directory_path() / ("tb-replay-" + std::to_string(::getpid()) +
                                     "-" + std::to_string(counter++));
    fs::create_directories(dir_);
    g_recorded.Take();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const {
    return (dir_ / name).string();
  }
  // Runs job text; `record` swaps the engine for the recording psync.
  RunResult Run(const std::string& text, bool record = true,
                const JobOverrides& overrides = {}) {
    return RunJobTextOn(text, record ? kReplayRunEngine : "", overrides);
  }
  std::vector<Io> Recorded() { return g_recorded.Take(); }
  void WriteFile(const std::string& name, const std::string& text) {
    std::ofstream(P(name)) << text;
  }
  // The message of the ConfigError the run throws ("" if none).
  std::string ConfigErrorOf(const std::string& text) {
    return RunJobTextConfigError(text, kReplayRunEngine);
  }

  fs::path dir_;
};

TEST_F(ReplayRunTest, WriteIologThenReadIologReplaysTheSameIos) {
  const RunResult rec = Run("[rec]\nfilename=" + P("a.dat") +
                            "\nsize=2m\nrw=randrw\nrwmixread=60\n"
                            "bssplit=4k/50:16k/30:64k/20\nwrite_iolog=" +
                            P("rec.iolog") + "\n");
  const std::vector<Io> issued = Recorded();
  ASSERT_GT(issued.size(), 50u);
  const IoLog log = LoadIoLog(P("rec.iolog"));
  EXPECT_EQ(log.files, std::vector<std::string>{P("a.dat")});
  EXPECT_EQ(TraceIos(log), issued);
  EXPECT_EQ(log.ios[0], rec.jobs[0].dir[0].ios);
  EXPECT_EQ(log.ios[1], rec.jobs[0].dir[1].ios);

  // Onto the trace's own file, then redirected onto a new file (laid out to
  // the trace's extent).
  for (const std::string& redirect :
       std::vector<std::string>{"", "replay_redirect=" + P("b.dat")}) {
    SCOPED_TRACE(redirect);
    const RunResult r = Run("[play]\nread_iolog=" + P("rec.iolog") +
                            "\nreplay_no_stall=1\n" + redirect + "\n");
    EXPECT_EQ(Recorded(), issued);
    ASSERT_EQ(r.jobs.size(), 1u);
    EXPECT_EQ(r.jobs[0].dir[0].ios, log.ios[0]);
    EXPECT_EQ(r.jobs[0].dir[1].bytes, log.bytes[1]);
    EXPECT_EQ(r.jobs[0].spec.rw, RwPattern::kReadWrite);
    EXPECT_EQ(r.jobs[0].spec.filename,
              redirect.empty() ? P("a.dat") : P("b.dat"));
  }
  EXPECT_GE(fs::file_size(P("b.dat")), log.extent);
}

// nrfiles= with write_iolog: each IO line names the file it went to, every
// file is added, opened and closed; the two-file trace then replays once
// (loops= does not repeat a trace, as fio) onto one redirected target.
TEST_F(ReplayRunTest, WriteIologNamesEachOfSeveralFiles) {
  const RunResult rec = Run("[rec]\ndirectory=" + dir_.string() +
                            "\nnrfiles=2\nsize=256k\nrw=randwrite\nbs=4k\n"
                            "fsync=8\nrate=4m\nwrite_iolog=" +
                            P("multi.iolog") + "\n");
  const std::vector<Io> issued = Recorded();
  ASSERT_EQ(issued.size(), 64u);  // 2 files of 128 KiB in 4 KiB writes
  const IoLog log = LoadIoLog(P("multi.iolog"));
  EXPECT_EQ(log.files, (std::vector<std::string>{P("rec.0.0"), P("rec.0.1")}));
  EXPECT_EQ(TraceIos(log), issued);
  uint64_t per_file[2] = {0, 0};
  size_t opens = 0, closes = 0;
  for (const IoLogEntry& e : log.entries) {
    if (e.action == IoLogAction::kWrite) {
      ASSERT_LT(e.file, 2u);
      ++per_file[e.file];
      EXPECT_LT(e.offset, 128u * 1024);
    }
    opens += e.action == IoLogAction::kOpen;
    closes += e.action == IoLogAction::kClose;
  }
  EXPECT_EQ(per_file[0], 32u);  // roundrobin: half the IO on each file
  EXPECT_EQ(per_file[1], 32u);
  EXPECT_EQ(opens, 2u);
  EXPECT_EQ(closes, 2u);
  EXPECT_EQ(rec.jobs[0].syncs,
            7u);  // 64 writes, fsync=8: the last follows none

  const RunResult r = Run(
      "[play]\nread_iolog=" + P("multi.iolog") +
      "\nreplay_no_stall=1\nloops=2\nreplay_redirect=" + P("one.dat") + "\n");
  EXPECT_EQ(Recorded(), issued);
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].dir[1].bytes, 64u * 4096);
}

TEST_F(ReplayRunTest, TimingIsHonouredScaledOrSkipped) {
  // Five reads 100 ms apart: 400 ms of trace time after the first read.
  std::string trace = "fio version 3 iolog\n0 " + P("t.dat") + " add\n";
  for (int i = 0; i < 5; ++i) {
    trace += std::to_string(1000 + i * 100000) + " " + P("t.dat") + " read " +
             std::to_string(i * 4096) + " 4096\n";
  }
  WriteFile("t.iolog", trace);
  WriteFile("t.dat", std::string(64 * 1024, 'x'));
  auto elapsed_ms = [&](const std::string& extra) {
    const uint64_t t0 = NowNs();
    Run("[t]\nread_iolog=" + P("t.iolog") + "\n" + extra);
    return (NowNs() - t0) / kNsPerMs;
  };
  EXPECT_GE(elapsed_ms(""), 400u);
  const uint64_t half = elapsed_ms("replay_time_scale=200\n");
  EXPECT_GE(half, 200u);
  EXPECT_LT(half, 400u);
  EXPECT_LT(elapsed_ms("replay_no_stall=1\n"), 200u);
  EXPECT_EQ(Recorded().size(), 15u);

  // Version 2: "wait 120" holds the following IO until 120 ms after start.
  WriteFile("w.iolog", "fio version 2 iolog\n" + P("t.dat") + " add\n" +
                           P("t.dat") + " read 0 4096\n" + P("t.dat") +
                           " wait 120 0\n" + P("t.dat") + " read 4096 4096\n");
  const uint64_t t0 = NowNs();
  Run("[w]\nread_iolog=" + P("w.iolog") + "\n");
  EXPECT_GE((NowNs() - t0) / kNsPerMs, 120u);
}

TEST_F(ReplayRunTest, BadTracesAreRefusedBeforeAnyIo) {
  const std::string data = std::string(1 << 20, 'z');
  WriteFile("small.dat", data);
  // A missing device without replay_redirect.
  WriteFile("dev.iolog",
            "fio version 3 iolog\n0 /dev/tb-no-such-disk add\n"
            "5 /dev/tb-no-such-disk write 0 4096\n");
  std::string e = ConfigErrorOf("[j]\nread_iolog=" + P("dev.iolog") + "\n");
  EXPECT_EQ(e.rfind(P("dev.iolog") + ":2: the trace replays onto "
                                     "/dev/tb-no-such-disk, which does not "
                                     "exist",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("Fix: set replay_redirect="), std::string::npos) << e;

  // A missing trace.
  e = ConfigErrorOf("[j]\nread_iolog=" + P("none.iolog") + "\n");
  EXPECT_EQ(e.rfind("Cannot read the trace of read_iolog=. Job: j (<test>:1); "
                    "Path: " +
                        P("none.iolog"),
                    0),
            0u)
      << e;

  // A malformed line.
  WriteFile("bad.iolog", "fio version 3 iolog\n0 " + P("small.dat") +
                             " add\n7 " + P("small.dat") + " rread 0 4096\n");
  e = ConfigErrorOf("[j]\nread_iolog=" + P("bad.iolog") + "\n");
  EXPECT_EQ(e.rfind(P("bad.iolog") + ":3: unknown IO action 'rread'", 0), 0u)
      << e;

  // Offsets past the target's end: refused on the trace's file and on a
  // short redirect target, accepted on a big enough one.
  WriteFile("big.iolog", "fio version 3 iolog\n0 " + P("small.dat") +
                             " add\n1 " + P("small.dat") + " write 0 4096\n2 " +
                             P("small.dat") + " write 2093056 4096\n");
  for (const std::string& redirect :
       std::vector<std::string>{"", "replay_redirect=" + P("small.dat")}) {
    e = ConfigErrorOf("[j]\nread_iolog=" + P("big.iolog") + "\n" + redirect);
    EXPECT_EQ(e.rfind(P("big.iolog") +
                          ":4: the trace's IO reaches byte "
                          "2097152 (2MiB), past the end of " +
                          P("small.dat"),
                      0),
              0u)
        << e;
  }
  EXPECT_TRUE(Recorded().empty());
  std::ifstream in(P("small.dat"));
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_TRUE(s.str() == data);  // nothing was written
  WriteFile("big.dat", std::string(2 << 20, 'y'));
  Run("[j]\nread_iolog=" + P("big.iolog") +
      "\nreplay_redirect=" + P("big.dat") + "\n");
  EXPECT_EQ(Recorded().size(), 2u);
}

TEST_F(ReplayRunTest, TwoFileTraceNeedsARedirectAndThenGoesToOneTarget) {
  WriteFile("two.iolog",
            "fio version 2 iolog\n/dev/sda add\n/dev/sdb add\n"
            "/dev/sda open\n/dev/sdb open\n/dev/sda read 0 4096\n"
            "/dev/sdb write 8192 8192\n/dev/sda read 4096 512\n");
  const std::string e =
      ConfigErrorOf("[j]\nread_iolog=" + P("two.iolog") + "\n");
  EXPECT_EQ(e.rfind(P("two.iolog") + ": the trace replays onto 2 files "
                                     "(/dev/sda, /dev/sdb)",
                    0),
            0u)
      << e;
  Run("[j]\nread_iolog=" + P("two.iolog") +
      "\nreplay_redirect=" + P("one.dat") + "\n");
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kRead, 0, 4096},
                                         {IoDir::kWrite, 8192, 8192},
                                         {IoDir::kRead, 4096, 512}}));
}

TEST_F(ReplayRunTest, ShippedExampleTraceReplaysOntoTheGivenTarget) {
  const std::string dir = std::string(TIERBENCH_SOURCE_DIR) + "/workloads/";
  const IoLog log = LoadIoLog(dir + "example-trace.iolog");
  EXPECT_EQ(log.version, 3);
  EXPECT_GE(log.ios[0] + log.ios[1], 1000u);
  EXPECT_GT(log.ios[0], log.ios[1]);  // recorded with rwmixread=70
  EXPECT_LE(log.extent, 256u << 20);
  EXPECT_EQ(log.skipped, 0u);

  // --filename (as compare's target) redirects the replay.
  JobOverrides cli;
  cli.filename = P("target.dat");
  Workload w = ParseJobFiles({dir + "example-trace.fio"}, cli);
  ASSERT_EQ(w.jobs.size(), 1u);
  JobSpec& j = w.jobs[0];
  EXPECT_EQ(j.read_iolog, "workloads/example-trace.iolog");  // as in fio
  EXPECT_TRUE(j.replay_redirected);
  EXPECT_EQ(j.filename, P("target.dat"));
  j.read_iolog = dir + "example-trace.iolog";  // the test's cwd is build/
  j.ioengine = "null";
  j.replay_no_stall = true;
  RunOptions options;
  options.progress = false;
  const RunResult r = RunWorkload(w, options);
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].dir[0].ios, log.ios[0]);
  EXPECT_EQ(r.jobs[0].dir[1].ios, log.ios[1]);
  EXPECT_EQ(r.jobs[0].dir[0].bytes + r.jobs[0].dir[1].bytes,
            log.bytes[0] + log.bytes[1]);
}

TEST_F(ReplayRunTest, FioReplaysTierbenchsIologAndTierbenchReplaysFios) {
  // tierbench records; fio (null engine) replays the trace redirected.
  Run("[rec]\nfilename=" + P("a.dat") +
      "\nsize=1m\nrw=randrw\nbssplit=4k/70:32k/30\nwrite_iolog=" +
      P("tb.iolog") + "\n");
  const std::vector<Io> issued = Recorded();
  ASSERT_FALSE(issued.empty());
  int status = 0;
  const std::string out = Shell(
      "/usr/bin/fio --name=replay --ioengine=null --debug=io "
      "--read_iolog=" +
          P("tb.iolog") + " --replay_redirect=" + P("a.dat") + " 2>&1",
      &status);
  ASSERT_EQ(status, 0) << out;
  std::vector<Io> fio_queued;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    unsigned long long off = 0, len = 0;
    int ddir = -1;
    const size_t q = line.find(" queue: io_u ");
    if (q == std::string::npos) continue;
    const size_t f = line.find("off=", q);
    ASSERT_NE(f, std::string::npos) << line;
    ASSERT_EQ(std::sscanf(line.c_str() + f, "off=%llx,len=%llx,ddir=%d", &off,
                          &len, &ddir),
              3)
        << line;
    fio_queued.push_back({ddir == 0 ? IoDir::kRead : IoDir::kWrite, off,
                          static_cast<uint32_t>(len)});
  }
  EXPECT_EQ(fio_queued, issued);

  // fio records (psync on a file); tierbench replays its v3 trace.
  const std::string cmd =
      "/usr/bin/fio --name=rec --ioengine=psync --filename=" + P("f.dat") +
      " --size=1m --rw=randrw --bs=8k --number_ios=100 --write_iolog=" +
      P("fio.iolog") + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const IoLog fio_log = LoadIoLog(P("fio.iolog"));
  EXPECT_EQ(fio_log.version, 3);
  EXPECT_EQ(fio_log.ios[0] + fio_log.ios[1], 100u);
  Run("[play]\nread_iolog=" + P("fio.iolog") +
      "\nreplay_redirect=" + P("g.dat") + "\n");
  EXPECT_EQ(Recorded(), TraceIos(fio_log));
}

}  // namespace
}  // namespace tierbench
