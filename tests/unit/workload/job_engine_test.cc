// The io_uring engine options in job files (workload/job_file_engine.h):
// fio's forms (bare name, numbers, booleans), nonvectored's three values,
// [global] inheritance, and the refusals: with another engine, hipri
// without direct=1, bad values; sqthread_poll_cpu without sqthread_poll is
// a notice, as fio ignores it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/io_uring_engine.h"
#include "report/manifest_builder.h"
#include "support/job_text.h"
#include "util/errors.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

Workload JeParse(const std::string& text) { return ParseJobTextForTest(text); }
std::string JeErrorOf(const std::string& text) { return JobTextError(text); }

const char* kJob = "[j]\nfilename=/dev/null\nsize=1m\n";

TEST(JobEngineOptionsTest, IoUringIsAnEngineAndLibaioStaysUnchanged) {
  Workload w = JeParse(std::string(kJob) + "ioengine=io_uring\n");
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_EQ(w.jobs[0].ioengine, "io_uring");
  EXPECT_EQ(w.jobs[0].uring, IoUringOptions{});  // fio's defaults
  EXPECT_EQ(w.jobs[0].uring.nonvectored, -1);
  EXPECT_EQ(JeParse(kJob).jobs[0].ioengine, "psync");  // fio's default
}

TEST(JobEngineOptionsTest, FioFormsOfEachOption) {
  Workload w =
      JeParse(std::string(kJob) +
              "ioengine=io_uring\ndirect=1\nfixedbufs\n"
              "registerfiles=1\nsqthread_poll=yes\nsqthread_poll_cpu=1\n"
              "hipri=on\nnonvectored=0\n");
  const IoUringOptions& o = w.jobs[0].uring;
  EXPECT_TRUE(o.fixedbufs);
  EXPECT_TRUE(o.registerfiles);
  EXPECT_TRUE(o.sqthread_poll);
  EXPECT_EQ(o.sqthread_poll_cpu, 1);
  EXPECT_TRUE(o.hipri);
  EXPECT_EQ(o.nonvectored, 0);
  // fio: nonvectored is an int; any non-zero but -1 means non-vectored.
  EXPECT_EQ(JeParse(std::string(kJob) + "ioengine=io_uring\nnonvectored=2\n")
                .jobs[0]
                .uring.nonvectored,
            1);
  EXPECT_EQ(JeParse(std::string(kJob) + "ioengine=io_uring\nnonvectored=-1\n")
                .jobs[0]
                .uring.nonvectored,
            -1);
  // =0 unsets a flag set earlier (e.g. in [global]).
  Workload g = JeParse(
      "[global]\nioengine=io_uring\nfixedbufs\nregisterfiles\n"
      "[a]\nfilename=/dev/null\nsize=1m\n"
      "[b]\nfilename=/dev/null\nsize=1m\nfixedbufs=0\n");
  ASSERT_EQ(g.jobs.size(), 2u);
  EXPECT_TRUE(g.jobs[0].uring.fixedbufs);
  EXPECT_TRUE(g.jobs[0].uring.registerfiles);
  EXPECT_FALSE(g.jobs[1].uring.fixedbufs);
  EXPECT_TRUE(g.jobs[1].uring.registerfiles);
}

TEST(JobEngineOptionsTest, OptionsOfAnotherEngineAreRefused) {
  for (const char* opt : {"fixedbufs", "registerfiles", "sqthread_poll",
                          "hipri", "nonvectored=1", "sqthread_poll_cpu=0"}) {
    const std::string e = JeErrorOf(std::string(kJob) +
                                    "ioengine=libaio\ndirect=1\n" + opt + "\n");
    const std::string name =
        std::string(opt).substr(0, std::string(opt).find('='));
    EXPECT_NE(e.find("t.fio:"), std::string::npos) << e;
    EXPECT_NE(e.find("option '" + name + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("ioengine=libaio"), std::string::npos) << e;
    EXPECT_NE(e.find("Fix: set ioengine=io_uring"), std::string::npos) << e;
  }
}

TEST(JobEngineOptionsTest, BadValuesAndRulesNameTheOption) {
  const std::string base = std::string(kJob) + "ioengine=io_uring\n";
  std::string e = JeErrorOf(base + "fixedbufs=maybe\n");
  EXPECT_NE(e.find("t.fio:5: option 'fixedbufs': 'maybe' is not a number"),
            std::string::npos)
      << e;
  e = JeErrorOf(base + "sqthread_poll_cpu=-3\n");
  EXPECT_NE(e.find("option 'sqthread_poll_cpu'"), std::string::npos) << e;
  e = JeErrorOf(base + "nonvectored=x\n");
  EXPECT_NE(e.find("option 'nonvectored'"), std::string::npos) << e;
  e = JeErrorOf(base + "hipri\n");
  EXPECT_NE(e.find("option 'hipri'"), std::string::npos) << e;
  EXPECT_NE(e.find("Fix: add direct=1"), std::string::npos) << e;
  EXPECT_EQ(JeErrorOf(base + "hipri\ndirect=1\n"), "");
  Workload w = JeParse(base + "sqthread_poll_cpu=0\n");
  bool noticed = false;
  for (const std::string& n : w.notices)
    noticed = noticed || n.find("sqthread_poll_cpu") != std::string::npos;
  EXPECT_TRUE(noticed);
  e = JeErrorOf(std::string(kJob) + "ioengine=uring\n");
  EXPECT_NE(e.find("use ioengine=libaio, io_uring, psync or null"),
            std::string::npos)
      << e;
}

// The runner on io_uring: two files written with fixedbufs and registered
// files at iodepth 8, then verified (crc32c), every block once.
TEST(JobEngineOptionsTest, RunsAndVerifiesWithFixedBuffersAndFiles) {
  const Status avail = IoUringEngine::Available();
  if (!avail.ok()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true")
      GTEST_FAIL() << "io_uring unavailable: " << avail.message();
    GTEST_SKIP() << "SKIPPED: io_uring unavailable: " << avail.message();
  }
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("tb-uring-run-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Workload w = JeParse("[j]\ndirectory=" + dir.string() +
                       "\nioengine=io_uring\nfixedbufs\nregisterfiles\n"
                       "nrfiles=2\nsize=2m\nbs=4k\nrw=randwrite\niodepth=8\n"
                       "verify=crc32c\n");
  RunOptions options;
  options.progress = false;
  RunResult r = RunWorkload(w, options);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.jobs.size(), 1u);
  const JobResult& j = r.jobs[0];
  EXPECT_EQ(j.error, "");
  EXPECT_EQ(j.dir[1].ios, 512u);  // 2 MiB of 4 KiB blocks
  EXPECT_EQ(j.verify_errors, 0u);
  EXPECT_EQ(j.verify_blocks, 512u);
}

TEST(JobEngineOptionsTest, ManifestRecordsTheIoUringOptions) {
  PreparedWorkload w;
  w.io = JeParse(std::string(kJob) +
                 "ioengine=io_uring\nfixedbufs\nsqthread_poll=1\n"
                 "sqthread_poll_cpu=1\nnonvectored=0\n");
  const nlohmann::json o = WorkloadToJson(w)["jobs"][0]["engine_options"];
  EXPECT_EQ(o["fixedbufs"], true);
  EXPECT_EQ(o["registerfiles"], false);
  EXPECT_EQ(o["sqthread_poll"], true);
  EXPECT_EQ(o["sqthread_poll_cpu"], 1);
  EXPECT_EQ(o["hipri"], false);
  EXPECT_EQ(o["nonvectored"], false);
  // Unset: nonvectored is probed, no poll CPU; libaio has no such options.
  w.io = JeParse(std::string(kJob) + "ioengine=io_uring\n");
  EXPECT_EQ(WorkloadToJson(w)["jobs"][0]["engine_options"]["nonvectored"],
            "probe");
  EXPECT_TRUE(
      WorkloadToJson(w)["jobs"][0]["engine_options"]["sqthread_poll_cpu"]
          .is_null());
  w.io = JeParse(kJob);
  EXPECT_TRUE(WorkloadToJson(w)["jobs"][0]["engine_options"].is_null());
}

}  // namespace
}  // namespace tierbench
