// JobStream against the engine itself: each job runs for real (psync on a
// file) with write_iolog=, and the stream computed without IO must be the
// reads and writes the engine logged, in order. Then the options that make
// a stream unknown before the run, each with its reason.
#include "workload/job_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "support/recording_engine.h"
#include "tracefile/iolog.h"
#include "workload/job_file.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

using JsIo = std::tuple<IoLogAction, uint64_t, uint32_t>;

std::vector<JsIo> JsReadsAndWrites(const IoLog& log) {
  std::vector<JsIo> out;
  for (const IoLogEntry& e : log.entries) {
    if (e.action == IoLogAction::kRead || e.action == IoLogAction::kWrite) {
      out.emplace_back(e.action, e.offset, e.length);
    }
  }
  return out;
}

class JobStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    dir_ = fs::temp_directory_path() /
           ("tb-jobstream-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `options` on a file of `bytes` with write_iolog= and returns the
  // engine's log of what it issued, next to JobStream's stream.
  void RunAndCompute(const std::string& options, uint64_t bytes,
                     std::vector<JsIo>* issued, std::vector<JsIo>* computed) {
    const std::string file = (dir_ / "t.dat").string();
    const std::string log = (dir_ / "t.iolog").string();
    const std::string text = "[t]\nfilename=" + file +
                             "\nioengine=psync\ndirect=0\n" + options + "\n";
    const Workload w = ParseJobText(text, "<test>", {});
    ASSERT_EQ(w.jobs.size(), 1u);
    std::string why;
    const std::shared_ptr<const IoLog> stream =
        JobStream(w.jobs[0], bytes, "t", &why);
    ASSERT_NE(stream, nullptr) << why;
    EXPECT_EQ(why, "");
    const RunResult r = RunJobTextOn(text + "write_iolog=" + log + "\n", "");
    ASSERT_EQ(r.jobs.size(), 1u);
    ASSERT_EQ(r.jobs[0].error, "");
    *issued = JsReadsAndWrites(LoadIoLog(log));
    *computed = JsReadsAndWrites(*stream);
    EXPECT_EQ(stream->ios[0] + stream->ios[1], computed->size());
  }

  fs::path dir_;
};

TEST_F(JobStreamTest, IsWhatTheEngineIssues) {
  const struct {
    const char* options;
    uint64_t bytes;
    size_t min_ios;
  } cases[] = {
      // zipf: hot blocks repeat (norandommap implied), one pass of 2 MiB.
      {"rw=randread\nbs=4k\nsize=2m\nrandom_distribution=zipf:1.2", 2 << 20,
       512},
      // Mixed directions, three block sizes, two passes (the second a new
      // random order).
      {"rw=randrw\nrwmixread=70\nbssplit=4k/50:16k/30:64k/20\nsize=2m\n"
       "loops=2",
       2 << 20, 100},
      // number_ios= ends the pass early.
      {"rw=randread\nbs=4k\nsize=1m\nnumber_ios=50\nrandseed=7", 1 << 20, 50},
      // Sequential mix from an offset.
      {"rw=readwrite\nbs=8k\noffset=512k\nsize=1m", (1 << 20) + (512 << 10),
       128},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.options);
    std::vector<JsIo> issued, computed;
    RunAndCompute(c.options, c.bytes, &issued, &computed);
    ASSERT_GE(issued.size(), c.min_ios);
    EXPECT_EQ(computed, issued);
  }
}

TEST_F(JobStreamTest, OptionsThatLeaveTheStreamToTheDeviceAreNamed) {
  const struct {
    const char* options;
    const char* why;
  } cases[] = {
      {"time_based\nruntime=5", "time_based"},
      {"runtime=5", "runtime="},
      {"numjobs=2", "numjobs="},
      {"randrepeat=0", "seeded from the clock"},
      {"ramp_time=1", "ramp_time="},
      {"io_size=4m", "io_size="},
      {"verify=crc32c", "verify="},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.options);
    const Workload w =
        ParseJobText(std::string("[t]\nfilename=/dev/null\nrw=randrw\n"
                                 "bs=4k\nsize=1m\n") +
                         c.options + "\n",
                     "<test>", {});
    std::string why;
    EXPECT_EQ(JobStream(w.jobs[0], 1 << 20, "t", &why), nullptr);
    EXPECT_NE(why.find(c.why), std::string::npos) << why;
    EXPECT_EQ(JobStreamUnknownWhy(w.jobs[0]), why);
  }
  // Too long a stream is refused, not computed.
  const Workload w = ParseJobText(
      "[t]\nfilename=/dev/null\nrw=randread\nbs=4k\nsize=1m\n", "<test>", {});
  std::string why;
  EXPECT_EQ(JobStream(w.jobs[0], 1 << 20, "t", &why, /*max_ios=*/100), nullptr);
  EXPECT_NE(why.find("more than 100 IOs"), std::string::npos) << why;
  EXPECT_NE(JobStream(w.jobs[0], 1 << 20, "t", &why, 256), nullptr) << why;
}

}  // namespace
}  // namespace tierbench
