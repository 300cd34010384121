// The runner (workload/runner.h) end to end on regular files in /tmp: the
// null engine for exact accounting, psync and libaio for real IO, and the
// checks that must fail before any IO.
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/ci_skip.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    dir_ =
        fs::temp_directory_path() / ("tb-runner-" + std::to_string(::getpid()) +
                                     "-" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs job-file text; "@F" in it stands for a file in the test directory.
  RunResult Run(std::string text, bool destructive = false) {
    for (size_t p; (p = text.find("@F")) != std::string::npos;) {
      text.replace(p, 2, (dir_ / "data").string());
    }
    Workload w = ParseJobText(text, "<test>", JobOverrides{});
    RunOptions options;
    options.progress = false;
    options.destructive = destructive;
    return RunWorkload(w, options);
  }

  fs::path dir_;
};

TEST_F(RunnerTest, NullEngineIssuesExactlyTheBudget) {
  struct Case {
    const char* rw;
    uint32_t iodepth;
    uint64_t reads;
    uint64_t writes;
  } cases[] = {
      {"randread", 1, 1024, 0}, {"randread", 16, 1024, 0},
      {"read", 4, 1024, 0},     {"randwrite", 8, 0, 1024},
      {"write", 1, 0, 1024},
  };
  for (const Case& c : cases) {
    RunResult r = Run(
        std::string("[j]\nioengine=null\nfilename=@F\nsize=4m\nbs=4k\nrw=") +
        c.rw + "\niodepth=" + std::to_string(c.iodepth) + "\n");
    ASSERT_EQ(r.jobs.size(), 1u) << c.rw;
    const JobResult& j = r.jobs[0];
    EXPECT_EQ(j.dir[0].ios, c.reads) << c.rw;
    EXPECT_EQ(j.dir[1].ios, c.writes) << c.rw;
    EXPECT_EQ(j.dir[0].bytes + j.dir[1].bytes, 4ull << 20) << c.rw;
    EXPECT_EQ(j.dir[0].errors + j.dir[1].errors, 0u);
    EXPECT_EQ(j.dir[0].clat_hist.count() + j.dir[1].clat_hist.count(), 1024u);
    EXPECT_TRUE(j.error.empty()) << j.error;
    // The null engine creates nothing.
    EXPECT_FALSE(fs::exists(dir_ / "data"));
  }
}

TEST_F(RunnerTest, MixFollowsRwmixread) {
  for (uint32_t mix : {0u, 25u, 75u, 100u}) {
    RunResult r =
        Run("[j]\nioengine=null\nfilename=@F\nsize=16m\nbs=4k\nrw="
            "randrw\nrwmixread=" +
            std::to_string(mix) + "\n");
    const JobResult& j = r.jobs[0];
    const double total = static_cast<double>(j.dir[0].ios + j.dir[1].ios);
    EXPECT_EQ(total, 4096);
    EXPECT_NEAR(j.dir[0].ios / total, mix / 100.0, 0.04) << "rwmixread=" << mix;
  }
}

TEST_F(RunnerTest, GroupReportingMergesClonesAndGroups) {
  struct Case {
    const char* text;
    size_t results;
    uint32_t jobs_in_first;
  } cases[] = {
      // Clones without group_reporting: one result each.
      {"[a]\nnumjobs=3\n", 3, 1},
      // Clones with group_reporting: one result.
      {"[a]\nnumjobs=3\ngroup_reporting\n", 1, 3},
      // group_reporting in [global]: all jobs of the group merge.
      {"[global]\ngroup_reporting\n[a]\nnumjobs=2\n[b]\n", 1, 3},
      // A stonewall starts a new group, reported apart.
      {"[global]\ngroup_reporting\n[a]\nnumjobs=2\n[b]\nstonewall\n", 2, 2},
  };
  for (const Case& c : cases) {
    RunResult r = Run(
        std::string(
            "[global]\nioengine=null\nfilename=@F\nsize=1m\nrw=randread\n") +
        c.text);
    ASSERT_EQ(r.jobs.size(), c.results) << c.text;
    EXPECT_EQ(r.jobs[0].jobs, c.jobs_in_first) << c.text;
    EXPECT_EQ(r.jobs[0].dir[0].ios, 256u * c.jobs_in_first) << c.text;
  }
}

TEST_F(RunnerTest, StonewallRunsGroupsOneAfterAnother) {
  // Sequential sets cannot overlap: their measured windows sum to at most
  // the wall time. Concurrent jobs measure over the same window.
  const std::string base =
      "[global]\nioengine=null\nfilename=@F\nsize=1m\nrw=randread\ntime_"
      "based\nruntime=300ms\n"
      "[a]\n[b]\n";
  RunResult walled = Run(base + "stonewall\n");
  ASSERT_EQ(walled.jobs.size(), 2u);
  EXPECT_LE(walled.jobs[0].runtime_ns + walled.jobs[1].runtime_ns,
            walled.wall_ns);
  EXPECT_GE(walled.jobs[0].runtime_ns, 300 * kNsPerMs);
  RunResult together = Run(base);
  ASSERT_EQ(together.jobs.size(), 2u);
  EXPECT_GT(together.jobs[0].runtime_ns + together.jobs[1].runtime_ns,
            together.wall_ns);
}

TEST_F(RunnerTest, RampIsNotCounted) {
  // 1000 IOPS for 300 ms of ramp and 300 ms of measurement: only the second
  // part is counted.
  RunResult r =
      Run("[j]\nioengine=null\nfilename=@F\nsize=1m\nrw=randread\ntime_based\n"
          "ramp_time=300ms\nruntime=300ms\nrate_iops=1000\n");
  const JobResult& j = r.jobs[0];
  EXPECT_GT(j.dir[0].ios, 0u);
  EXPECT_LE(j.dir[0].ios, 302u);
  EXPECT_LT(j.runtime_ns, 600 * kNsPerMs);
  EXPECT_GE(j.runtime_ns, 250 * kNsPerMs);
}

TEST_F(RunnerTest, RealEnginesOnAFile) {
  struct Case {
    const char* engine;
    bool direct;
    uint32_t iodepth;
  } cases[] = {{"psync", false, 1},
               {"psync", true, 1},
               {"libaio", false, 4},
               {"libaio", true, 8},
               {"libaio", true, 1}};
  for (const Case& c : cases) {
    const std::string head =
        std::string("[global]\nfilename=@F\nsize=2m\nbs=4k\nioengine=") +
        c.engine + "\ndirect=" + (c.direct ? "1" : "0") +
        "\niodepth=" + std::to_string(c.iodepth) + "\n";
    RunResult r;
    try {
      r = Run(head + "[w]\nrw=randwrite\n[r]\nstonewall\nrw=randread\n");
    } catch (const SysError& e) {
      if (c.direct &&
          std::string(e.what()).find("O_DIRECT") != std::string::npos) {
        TIERBENCH_SKIP_OR_FAIL_IN_CI(e.what());
      }
      throw;
    }
    ASSERT_EQ(r.jobs.size(), 2u);
    EXPECT_EQ(r.jobs[0].dir[1].ios, 512u) << c.engine;
    EXPECT_EQ(r.jobs[1].dir[0].ios, 512u) << c.engine;
    EXPECT_EQ(fs::file_size(dir_ / "data"), 2u << 20);
    EXPECT_GT(r.jobs[1].dir[0].clat.mean(), 0);
    uint64_t depth_total = 0;
    for (uint64_t n : r.jobs[1].depth_hist) depth_total += n;
    EXPECT_EQ(depth_total, 512u);
    fs::remove(dir_ / "data");
  }
}

TEST_F(RunnerTest, LaysOutAShortFileForReadJobs) {
  std::ofstream(dir_ / "data") << std::string(4096, 'a');
  RunResult r = Run("[j]\nioengine=psync\nfilename=@F\nsize=1m\nrw=read\n");
  EXPECT_EQ(fs::file_size(dir_ / "data"), 1u << 20);
  EXPECT_EQ(r.jobs[0].dir[0].ios, 256u);
}

TEST_F(RunnerTest, ChecksFailBeforeAnyIo) {
  struct Case {
    const char* name;
    const char* text;
    int exit_code;
    const char* expect;
  } cases[] = {
      {"missing file, no size", "[j]\nioengine=psync\nfilename=@F\nrw=read\n",
       kExitConfig, "does not exist"},
      {"missing directory",
       "[j]\nioengine=psync\nfilename=@F/sub/x\nsize=1m\nrw=read\n",
       kExitSystem, "Cannot create"},
      {"offset not aligned",
       "[j]\nioengine=psync\nfilename=@F\nsize=1m\noffset=100\nbs="
       "4k\nblockalign=4k\ndirect=1\n"
       "rw=read\n",
       kExitConfig, "offset"},
      {"a later job is bad: nothing created",
       "[ok]\nioengine=psync\nfilename=@F\nsize=1m\nrw=write\n"
       "[bad]\nioengine=psync\nfilename=@F.nope/x\nsize=1m\nrw=read\n",
       kExitSystem, "Cannot create"},
  };
  for (const Case& c : cases) {
    try {
      Run(c.text);
      ADD_FAILURE() << c.name << ": no error";
    } catch (const HarnessError& e) {
      EXPECT_EQ(e.exit_code(), c.exit_code) << c.name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos)
          << c.name << ": " << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos)
          << "one line";
    }
    EXPECT_FALSE(fs::exists(dir_ / "data"))
        << c.name << ": wrote before the checks passed";
  }
}

// Root ignores file permissions, so as root (CI) the check runs in a child
// that dropped to the unprivileged user nobody (65534) first.
TEST_F(RunnerTest, UnreadableFileIsASystemError) {
  std::ofstream(dir_ / "data") << std::string(8192, 'a');
  chmod((dir_ / "data").c_str(), 0);
  chmod(dir_.c_str(), 0755);
  auto check = [this]() -> std::string {
    try {
      Run("[j]\nioengine=psync\nfilename=@F\nrw=read\n");
      return "no error";
    } catch (const SysError& e) {
      if (std::string(e.what()).find("Permission denied") == std::string::npos)
        return e.what();
      return "";
    }
  };
  if (geteuid() != 0) {
    EXPECT_EQ(check(), "");
    return;
  }
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(pipe_fds[0]);
    std::string why;
    if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 ||
        setuid(65534) != 0) {
      why = "cannot drop to nobody";
    } else {
      why = check();
    }
    ssize_t n = write(pipe_fds[1], why.data(), why.size());
    _exit(n == static_cast<ssize_t>(why.size()) ? 0 : 1);
  }
  close(pipe_fds[1]);
  std::string why;
  char buf[512];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;)
    why.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(why, "") << "as nobody";
}

TEST_F(RunnerTest, InterruptStopsTheRun) {
  // Raised before the run: every job stops at once and the run reports it.
  RaiseInterruptForTest(SIGINT);
  try {
    Run("[j]\nioengine=null\nfilename=@F\nsize=1m\nrw=randread\ntime_"
        "based\nruntime=60\n");
    ADD_FAILURE() << "no error";
  } catch (const InterruptedError& e) {
    EXPECT_EQ(e.exit_code(), 128 + SIGINT);
  }
  ResetInterruptForTest();
}

}  // namespace
}  // namespace tierbench
