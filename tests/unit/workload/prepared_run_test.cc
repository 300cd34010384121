// PreparedJobs / PreparedRun / RunPrepared (issue 28 rule 5, "Parse
// once"): a prepared run keeps the trace it loaded and the files it planned
// and inspected, and runs any number of times without preparing again;
// RunWorkload makes exactly one of each; errors of the preparation come
// before anything is written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/errors.h"
#include "util/log.h"
#include "workload/job_file.h"
#include "workload/prepared_jobs.h"
#include "workload/prepared_run.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

class PreparedRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    dir_ = fs::temp_directory_path() /
           ("tb-prepared-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    fs::create_directories(dir_);
    options_.progress = false;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const {
    return (dir_ / name).string();
  }
  void WriteFile(const std::string& name, const std::string& text) {
    std::ofstream(P(name)) << text;
  }
  // A version 3 trace of `reads` 4 KiB reads of `file`, from offset 0.
  std::string Trace(const std::string& file, int reads) {
    std::string t = "fio version 3 iolog\n0 " + file + " add\n";
    for (int i = 0; i < reads; ++i) {
      t += std::to_string(i + 1) + " " + file + " read " +
           std::to_string(i * 4096) + " 4096\n";
    }
    return t;
  }

  fs::path dir_;
  RunOptions options_;
};

TEST_F(PreparedRunTest, ReplaysTheLoadedTraceEveryRun) {
  WriteFile("a.dat", std::string(64 * 1024, 'a'));
  WriteFile("t.iolog", Trace(P("a.dat"), 5));
  const Workload w = ParseJobText(
      "[play]\nread_iolog=" + P("t.iolog") + "\nreplay_no_stall=1\n", "<test>",
      JobOverrides{});
  const uint64_t jobs_before = PreparedJobs::MadeForTest();
  const uint64_t runs_before = PreparedRun::MadeForTest();
  const PreparedJobs jobs(w);
  const PreparedRun run(jobs);
  // The trace changes, then goes: the runs replay what was loaded.
  WriteFile("t.iolog", Trace(P("a.dat"), 2));
  for (int i = 0; i < 2; ++i) {
    const RunResult r = RunPrepared(run, options_);
    ASSERT_EQ(r.jobs.size(), 1u);
    EXPECT_EQ(r.jobs[0].dir[0].ios, 5u) << i;
    EXPECT_EQ(r.jobs[0].error, "");
    fs::remove(P("t.iolog"));
  }
  EXPECT_EQ(PreparedJobs::MadeForTest() - jobs_before, 1u);
  EXPECT_EQ(PreparedRun::MadeForTest() - runs_before, 1u);
}

TEST_F(PreparedRunTest, PlacesEveryJobOnTheTargetGiven) {
  WriteFile("a.dat", std::string(64 * 1024, 'a'));
  WriteFile("b.dat", std::string(128 * 1024, 'b'));
  const Workload w =
      ParseJobText("[r]\nfilename=" + P("a.dat") +
                       "\nrw=read\nbs=4k\n\n[s]\nfilename=" + P("a.dat") +
                       "\nrw=read\nbs=8k\n",
                   "<test>", JobOverrides{});
  const PreparedJobs jobs(w);
  const PreparedRun own(jobs);
  const PreparedRun on_b(jobs, P("b.dat"));
  for (const PreparedRun::Job& j : on_b.jobs()) {
    EXPECT_EQ(j.spec.filename, P("b.dat"));
    ASSERT_EQ(j.clone_files.size(), 1u);
    EXPECT_EQ(j.clone_files[0][0].plan.path, P("b.dat"));
    EXPECT_EQ(j.clone_files[0][0].bytes, 128u * 1024);
  }
  EXPECT_EQ(own.jobs()[0].clone_files[0][0].bytes, 64u * 1024);
  const RunResult r = RunPrepared(on_b, options_);
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].dir[0].bytes, 128u * 1024);  // all of b.dat, not a.dat
  EXPECT_EQ(r.jobs[1].dir[0].ios, 16u);
}

TEST_F(PreparedRunTest, RunWorkloadPreparesOnceAndLaysOutOnce) {
  const Workload w = ParseJobText(
      "[new]\nfilename=" + P("new.dat") + "\nsize=64k\nrw=read\nbs=4k\n",
      "<test>", JobOverrides{});
  const uint64_t jobs_before = PreparedJobs::MadeForTest();
  const uint64_t runs_before = PreparedRun::MadeForTest();
  EXPECT_EQ(RunWorkload(w, options_).jobs.at(0).dir[0].ios, 16u);
  EXPECT_EQ(PreparedJobs::MadeForTest() - jobs_before, 1u);
  EXPECT_EQ(PreparedRun::MadeForTest() - runs_before, 1u);

  // A file the preparation found missing is laid out by the first run only.
  fs::remove(P("new.dat"));
  const PreparedRun run{PreparedJobs(w)};
  ASSERT_TRUE(run.jobs()[0].clone_files[0][0].needs_layout);
  SetQuiet(false);
  for (const bool first : {true, false}) {
    testing::internal::CaptureStderr();
    const RunResult r = RunPrepared(run, options_);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(
        err.find("laying out IO file " + P("new.dat")) != std::string::npos,
        first)
        << err;
    EXPECT_EQ(r.jobs.at(0).dir[0].ios, 16u);
  }
  EXPECT_EQ(fs::file_size(P("new.dat")), 64u * 1024);
}

TEST_F(PreparedRunTest, RunWindowChangesOnlyTheCopy) {
  WriteFile("a.dat", std::string(64 * 1024, 'a'));
  const PreparedRun run{PreparedJobs(
      ParseJobText("[r]\nfilename=" + P("a.dat") + "\nrw=randread\nbs=4k\n",
                   "<test>", JobOverrides{}))};
  PreparedRun timed = run;
  RunWindow window;
  window.time_based = true;
  window.runtime_ns = 200 * 1000 * 1000;
  window.draw_stream = 3;
  timed.SetRunWindow(window);
  EXPECT_EQ(timed.jobs()[0].clone_files[0][0].plan.pattern_spec.draw_stream,
            3u);
  EXPECT_EQ(run.jobs()[0].spec.draw_stream, 0u);
  const RunResult once = RunPrepared(run, options_);
  const RunResult looped = RunPrepared(timed, options_);
  EXPECT_EQ(once.jobs.at(0).dir[0].ios, 16u);    // one pass
  EXPECT_GT(looped.jobs.at(0).dir[0].ios, 16u);  // time-based: passes repeat
  EXPECT_GE(looped.jobs.at(0).runtime_ns, window.runtime_ns * 9 / 10);
}

TEST_F(PreparedRunTest, PreparationErrorsComeBeforeAnyWrite) {
  // A trace that cannot be read: the PreparedJobs.
  const Workload missing =
      ParseJobText("[j]\nread_iolog=" + P("none.iolog") +
                       "\nreplay_redirect=" + P("x.dat") + "\n",
                   "<test>", JobOverrides{});
  try {
    PreparedJobs jobs(missing);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "Cannot read the trace of read_iolog=. Job: j", 0),
              0u)
        << e.what();
  }
  // A trace past the end of the target: the PreparedRun on it, not the
  // PreparedJobs (its other target is big enough).
  WriteFile("small.dat", std::string(8 * 1024, 's'));
  WriteFile("big.dat", std::string(64 * 1024, 'b'));
  WriteFile("t.iolog", Trace(P("big.dat"), 4));
  const PreparedJobs jobs(ParseJobText("[j]\nread_iolog=" + P("t.iolog") +
                                           "\nreplay_redirect=" + P("big.dat") +
                                           "\n",
                                       "<test>", JobOverrides{}));
  EXPECT_NO_THROW(PreparedRun(jobs, P("big.dat")));
  try {
    PreparedRun on_small(jobs, P("small.dat"));
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("past the end of " + P("small.dat")),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fs::file_size(P("small.dat")), 8u * 1024);
}

}  // namespace
}  // namespace tierbench
