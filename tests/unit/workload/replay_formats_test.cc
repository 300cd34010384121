// read_iolog= on every trace format (workload/replay_source.h) through the
// runner on regular files: a non-iolog trace needs a target, a multi-volume
// one a replay_volume=, replay_format= overrides detection, flushes are
// replayed as syncs, replay_scale= / replay_align= / replay_wrap= move the
// offsets as documented, and bad option values are one-line errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/job_text.h"
#include "support/recording_engine.h"
#include "tracefile/iolog.h"
#include "util/errors.h"
#include "workload/job_file.h"
#include "workload/replay_source.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// The recording psync of this file, and what it was handed.
constexpr const char* kReplayFormatsEngine = "tb-test-record-formats";
RecordedIoLog g_replay_formats_ios;

// MSR Cambridge CSV (SNIA IOTTA README): Timestamp (100 ns ticks),
// Hostname, DiskNumber, Type, Offset, Size, ResponseTime.
constexpr const char* kReplayFormatsMsr =
    "128166372003061629,hm,0,Read,8192,4096,1370\n"
    "128166372003071629,hm,0,Write,1048576,8192,2103\n"
    "128166372003081629,hm,1,Read,0,4096,98\n"
    "128166372003091629,hm,0,Read,12288,512,98\n";

// blkparse default output: two writes with a preflush (F before W) and
// FUA (F after W), a read, and flushes without data ("D  FN [proc]").
constexpr const char* kReplayFormatsBlkparse =
    "  8,0    3        1     0.000000000  4162  D  WS 8 + 8 [fio]\n"
    "  8,0    3        2     0.000100000  4162  D  FN [kworker/3:1H]\n"
    "  8,0    3        3     0.000200000  4162  D   R 64 + 16 [fio]\n"
    "  8,0    3        4     0.000300000  4162  D FWFS 128 + 8 [fio]\n"
    "  8,0    3        5     0.000400000  4162  C FWFS 128 + 8 [0]\n"
    "  8,0    3        6     0.000500000  4162  D  FN [kworker/3:1H]\n";

class ReplayFormatsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RegisterRecordingEngine(kReplayFormatsEngine, &g_replay_formats_ios);
  }
  void SetUp() override {
    static int counter = 0;
    dir_ = fs::temp_directory_path() /
           ("tb-replay-formats-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    fs::create_directories(dir_);
    Recorded();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const {
    return (dir_ / name).string();
  }
  void WriteFile(const std::string& name, const std::string& text) {
    std::ofstream(P(name)) << text;
  }
  RunResult Run(const std::string& text) {
    return RunJobTextOn(text, kReplayFormatsEngine);
  }
  std::vector<RecordedIo> Recorded() { return g_replay_formats_ios.Take(); }
  // The message of the ConfigError the run throws ("" if none).
  std::string ConfigErrorOf(const std::string& text) {
    return RunJobTextConfigError(text, kReplayFormatsEngine);
  }

  fs::path dir_;
};

TEST_F(ReplayFormatsTest, MsrTraceNeedsATargetAndAVolume) {
  WriteFile("msr.csv", kReplayFormatsMsr);
  WriteFile("t.dat", std::string(2 << 20, 'x'));
  std::string e = ConfigErrorOf("[j]\nread_iolog=" + P("msr.csv") + "\n");
  EXPECT_EQ(e, P("msr.csv") +
                   ": the MSR Cambridge CSV trace holds 2 volumes: hm_0 "
                   "hm_1. Fix: replay one with replay_volume=V (e.g. "
                   "replay_volume=hm_0)");
  e = ConfigErrorOf("[j]\nread_iolog=" + P("msr.csv") +
                    "\nreplay_volume=hm_0\n");
  EXPECT_EQ(e.rfind(P("msr.csv") +
                        ": the MSR Cambridge CSV trace names no file to "
                        "replay onto (volume hm_0). Job: j (<test>:1); Fix: "
                        "set replay_redirect=",
                    0),
            0u)
      << e;
  EXPECT_TRUE(Recorded().empty());

  const RunResult r = Run(
      "[j]\nread_iolog=" + P("msr.csv") +
      "\nreplay_volume=hm_0\nreplay_no_stall=1\nreplay_redirect=" + P("t.dat") +
      "\n");
  using Io = RecordedIo;
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kRead, 8192, 4096},
                                         {IoDir::kWrite, 1048576, 8192},
                                         {IoDir::kRead, 12288, 512}}));
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].dir[0].ios, 2u);
  EXPECT_EQ(r.jobs[0].dir[1].bytes, 8192u);

  Run("[j]\nread_iolog=" + P("msr.csv") +
      "\nreplay_volume=hm_1\nreplay_no_stall=1\nreplay_redirect=" + P("t.dat") +
      "\n");
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kRead, 0, 4096}}));

  e = ConfigErrorOf("[j]\nread_iolog=" + P("msr.csv") +
                    "\nreplay_volume=hm_7\nreplay_redirect=" + P("t.dat") +
                    "\n");
  EXPECT_EQ(e, P("msr.csv") +
                   ": replay_volume=hm_7 is not in the trace (its volumes: "
                   "hm_0 hm_1). Fix: pass one of them");
}

TEST_F(ReplayFormatsTest, ReplayFormatOverridesDetection) {
  WriteFile("msr.csv", kReplayFormatsMsr);
  WriteFile("t.dat", std::string(2 << 20, 'x'));
  const std::string e = ConfigErrorOf(
      "[j]\nread_iolog=" + P("msr.csv") +
      "\nreplay_format=blkparse\nreplay_redirect=" + P("t.dat") + "\n");
  EXPECT_EQ(e.rfind(P("msr.csv") + ":1: '128166372003061629,hm,0,Read,8192," +
                        "4096,1370' is not a device MAJ,MIN",
                    0),
            0u)
      << e;
  Run("[j]\nread_iolog=" + P("msr.csv") +
      "\nreplay_format=msr\nreplay_volume=hm_1\nreplay_no_stall=1\n"
      "replay_redirect=" +
      P("t.dat") + "\n");
  EXPECT_EQ(Recorded().size(), 1u);
}

TEST_F(ReplayFormatsTest, BlkparseFlushesAreReplayedAsSyncs) {
  WriteFile("b.txt", kReplayFormatsBlkparse);
  WriteFile("t.dat", std::string(1 << 20, 'x'));
  ::testing::internal::CaptureStderr();
  const RunResult r =
      Run("[j]\nread_iolog=" + P("b.txt") +
          "\nreplay_no_stall=1\nreplay_redirect=" + P("t.dat") + "\n");
  const std::string err = ::testing::internal::GetCapturedStderr();
  using Io = RecordedIo;
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kWrite, 8 * 512, 8 * 512},
                                         {IoDir::kRead, 64 * 512, 16 * 512},
                                         {IoDir::kWrite, 128 * 512, 8 * 512}}));
  ASSERT_EQ(r.jobs.size(), 1u);
  // Two flushes without data, one preflush; the last flush follows the
  // last write and is replayed too.
  EXPECT_EQ(r.jobs[0].syncs, 3u);
  EXPECT_EQ(r.jobs[0].issued_syncs, 3u);
  EXPECT_EQ(r.jobs[0].dir[1].ios, 2u);
  // The FUA write is noted.
  EXPECT_NE(err.find("tierbench: notice: " + P("b.txt") +
                     ": 1 FUA writes are replayed as plain writes"),
            std::string::npos)
      << err;
}

// One blktrace ISSUE record (kernel blktrace_api.h: struct blk_io_trace,
// 48 bytes, little endian here; action __BLK_TA_ISSUE (7) with BLK_TC_ISSUE
// (1 << 6) and the direction's category (READ 1 << 0, WRITE 1 << 1) in the
// high 16 bits; device 8,16 as MAJOR << 20 | MINOR; no pdu).
std::string ReplayFormatsBlktraceIssue(uint64_t time_ns, uint64_t sector,
                                       uint32_t bytes, bool write,
                                       uint32_t cpu) {
  std::string r;
  const auto put = [&r](uint64_t v, int n) {
    for (int i = 0; i < n; ++i) r.push_back(static_cast<char>(v >> 8 * i));
  };
  put(0x65617407, 4);  // magic | version 7
  put(0, 4);           // sequence
  put(time_ns, 8);
  put(sector, 8);
  put(bytes, 4);
  put(7 | ((1u << 6) | (write ? 1u << 1 : 1u << 0)) << 16, 4);
  put(1234, 4);            // pid
  put(8u << 20 | 16u, 4);  // device 8,16
  put(cpu, 4);
  put(0, 2);  // error
  put(0, 2);  // pdu_len
  return r;
}

// A per-CPU blktrace set named by its base, as blkparse -i takes it: the
// CPUs' files are merged by time and replayed in that order.
TEST_F(ReplayFormatsTest, BlktraceSetIsReplayedByItsBaseName) {
  WriteFile("sdb.blktrace.0",
            ReplayFormatsBlktraceIssue(1000, 8, 4096, false, 0) +
                ReplayFormatsBlktraceIssue(3000, 64, 8192, true, 0));
  WriteFile("sdb.blktrace.1",
            ReplayFormatsBlktraceIssue(2000, 16, 4096, true, 1));
  WriteFile("t.dat", std::string(1 << 20, 'x'));
  const RunResult r =
      Run("[j]\nread_iolog=" + P("sdb") +
          "\nreplay_no_stall=1\nreplay_redirect=" + P("t.dat") + "\n");
  using Io = RecordedIo;
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kRead, 8 * 512, 4096},
                                         {IoDir::kWrite, 16 * 512, 4096},
                                         {IoDir::kWrite, 64 * 512, 8192}}));
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].dir[1].ios, 2u);
  // A base without a set is still a missing file.
  EXPECT_NE(ConfigErrorOf("[j]\nread_iolog=" + P("sdc") +
                          "\nreplay_redirect=" + P("t.dat") + "\n")
                .find("Cannot read the trace of read_iolog="),
            std::string::npos);
}

TEST_F(ReplayFormatsTest, ScaleAlignAndWrapMoveTheOffsets) {
  // Two writes, the second past a 1 MiB target.
  const std::string trace =
      "fio version 3 iolog\n0 /dev/x add\n"
      "1 /dev/x write 1000000 4096\n"
      "2 /dev/x write 3149824 8192\n";
  WriteFile("w.iolog", trace);
  WriteFile("t.dat", std::string(1 << 20, 'x'));
  const std::string job = "[j]\nread_iolog=" + P("w.iolog") +
                          "\nreplay_no_stall=1\nreplay_redirect=" + P("t.dat") +
                          "\n";
  std::string e = ConfigErrorOf(job);
  EXPECT_EQ(
      e.rfind(P("w.iolog") + ":4: the trace's IO reaches byte 3158016", 0), 0u)
      << e;
  EXPECT_NE(e.find("or fold the offsets into it with replay_wrap=1 (or "
                   "divide them with replay_scale=N)"),
            std::string::npos)
      << e;

  using Io = RecordedIo;
  // fio: offset / scale, then aligned down to the power of 2.
  Run(job + "replay_scale=4\nreplay_align=4k\n");
  EXPECT_EQ(Recorded(), (std::vector<Io>{
                            {IoDir::kWrite, 1000000 / 4 / 4096 * 4096, 4096},
                            {IoDir::kWrite, 3149824 / 4 / 4096 * 4096, 8192}}));
  Run(job + "replay_scale=4\n");
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kWrite, 250000, 4096},
                                         {IoDir::kWrite, 787456, 8192}}));

  // Folded modulo 1 MiB: 1000000 fits; 3149824 % 1048576 = 4096.
  Run(job + "replay_wrap=1\n");
  EXPECT_EQ(Recorded(), (std::vector<Io>{{IoDir::kWrite, 1000000, 4096},
                                         {IoDir::kWrite, 4096, 8192}}));
}

TEST(ReplayFormatsMathTest, WrapMovesAnIoCrossingTheEndBackByWholeUnits) {
  IoLog log;
  log.path = "t.iolog";
  log.files = {"/f"};
  for (uint64_t offset : {uint64_t{0}, uint64_t{10} << 20, uint64_t{1048064},
                          uint64_t{3} << 20 | 4096}) {
    IoLogEntry e;
    e.action = IoLogAction::kWrite;
    e.offset = offset;
    e.length = 8192;
    log.entries.push_back(e);
  }
  SummarizeIoLog(&log);
  JobSpec spec;
  spec.filename = "/f";
  // 1 MiB + 100 bytes: 1 MiB usable in 512-byte blocks.
  const auto w = WrapReplay(log, spec, (1 << 20) + 100, 512);
  std::vector<uint64_t> offsets;
  for (const IoLogEntry& e : w->entries) offsets.push_back(e.offset);
  // 1048064 + 8192 crosses 1 MiB by 7680 bytes = 15 blocks back.
  EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 0, 1048064 - 7680, 4096}));
  EXPECT_EQ(w->extent, uint64_t{1} << 20);
  EXPECT_EQ(log.entries[1].offset, uint64_t{10} << 20);  // a copy

  // replay_align= is the fold's unit when larger than the block.
  spec.replay_align = 4096;
  const auto a = WrapReplay(log, spec, (1 << 20) + 100, 512);
  EXPECT_EQ(a->entries[2].offset, 1048064u - 8192);  // 2 units back

  std::string e;
  try {
    WrapReplay(log, spec, 4096, 512);
  } catch (const ConfigError& err) {
    e = err.what();
  }
  EXPECT_EQ(e.rfind("t.iolog:0: an IO of 8192 bytes does not fit in /f (4096 "
                    "usable bytes) even with replay_wrap=1",
                    0),
            0u)
      << e;
}

TEST(ReplayFormatsMathTest, ScaleDividesThenAligns) {
  IoLog log;
  log.files = {"/f"};
  IoLogEntry e;
  e.action = IoLogAction::kRead;
  e.offset = 12345678;
  e.length = 4096;
  log.entries.push_back(e);
  e.action = IoLogAction::kSync;
  e.offset = 777;
  e.length = 0;
  log.entries.push_back(e);
  ScaleReplayOffsets(&log, 3, 512);
  EXPECT_EQ(log.entries[0].offset, 12345678 / 3 / 512 * 512);
  EXPECT_EQ(log.entries[1].offset, 777u);  // a sync has no offset to move
  EXPECT_EQ(log.extent, 12345678 / 3 / 512 * 512 + 4096);
  EXPECT_EQ(log.syncs, 1u);
}

TEST(ReplayFormatsOptionsTest, ParsedAndBadValuesAreOneLineErrors) {
  Workload w = ParseJobText(
      "[r]\nread_iolog=/x.csv\nreplay_redirect=/f\nreplay_format=MSR\n"
      "replay_volume=hm_1\nreplay_scale=8\nreplay_align=4k\nreplay_wrap=1\n",
      "t.fio", {});
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_EQ(w.jobs[0].replay_format, "msr");
  EXPECT_EQ(w.jobs[0].replay_volume, "hm_1");
  EXPECT_EQ(w.jobs[0].replay_scale, 8u);
  EXPECT_EQ(w.jobs[0].replay_align, 4096u);
  EXPECT_TRUE(w.jobs[0].replay_wrap);

  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"[j]\nfilename=/f\nreplay_format=csv\n",
       "t.fio:3: option 'replay_format': 'csv' is not a trace format. Fix: "
       "write replay_format=auto|iolog|blkparse|msr|cbs|alibaba"},
      {"[j]\nfilename=/f\nreplay_align=3000\n",
       "t.fio:3: option 'replay_align': replay_align=3000 is not a power of "
       "2. Fix: write a power of 2, e.g. replay_align=4k"},
      {"[j]\nfilename=/f\nreplay_scale=0\n",
       "t.fio:3: option 'replay_scale': 0 is out of range"},
      {"[j]\nfilename=/f\nreplay_volume=\n",
       "t.fio:3: option 'replay_volume': the volume is empty. Fix: write "
       "replay_volume=<volume of the trace>"},
      {"[j]\nfilename=/f\nreplay_wrap=maybe\n",
       "t.fio:3: option 'replay_wrap': 'maybe' is not a boolean"},
  };
  for (const Case& c : cases) {
    const std::string error = JobTextError(c.text);
    EXPECT_EQ(error.rfind(c.message, 0), 0u) << c.text << "\n-> " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace tierbench
