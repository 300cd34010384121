// Signals against the real binary on a loop device: SIGTERM and SIGINT end
// a run cleanly (exit 143 / 130, its IO drained),
// and a second signal aborts at once with one line (exit 128 + it) naming
// `tierbench restore`.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "test_env.h"

namespace tierbench {
namespace {

using testing::LoopDevice;
using testing::TempDir;

struct Outcome {
  int exit_code = -1;
  std::string output;
  double seconds = 0;
};

// Starts `tierbench run JOB`, lets it run 1.5 s, sends `signals` back to
// back, and collects the outcome.
Outcome RunAndSignal(const std::string& job, const std::vector<int>& signals) {
  TempDir dir;
  const std::string out_path = dir.path() + "/out.txt";
  pid_t pid = fork();
  if (pid == 0) {
    FILE* out = std::freopen(out_path.c_str(), "w", stdout);
    (void)out;
    dup2(fileno(stdout), STDERR_FILENO);
    execl(TIERBENCH_BINARY, TIERBENCH_BINARY, "run", "--destructive",
          job.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto start = std::chrono::steady_clock::now();
  for (int sig : signals) kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  Outcome o;
  o.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  o.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(out_path);
  o.output.assign(std::istreambuf_iterator<char>(in), {});
  return o;
}

std::string LongJob(const TempDir& dir, const std::string& device) {
  const std::string path = dir.path() + "/long.fio";
  std::ofstream(path) << "[long]\nfilename=" << device
                      << "\nrw=randwrite\nbs=4k\nsize=32m\ndirect=1\n"
                         "ioengine=libaio\niodepth=4\ntime_based=1\n"
                         "runtime=60\n";
  return path;
}

TEST(SignalTest, TermAndIntEndTheRunCleanly) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(64ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  const std::string job = LongJob(dir, loop.device());
  for (int sig : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(sig);
    Outcome o = RunAndSignal(job, {sig});
    EXPECT_EQ(o.exit_code, 128 + sig) << o.output;
    // The run stopped early (runtime=60), after draining its IO.
    EXPECT_LT(o.seconds, 30.0);
    EXPECT_NE(o.output.find("Interrupted; the jobs were stopped and their IO "
                            "drained"),
              std::string::npos)
        << o.output;
    EXPECT_EQ(o.output.find("second signal"), std::string::npos) << o.output;
  }
}

TEST(SignalTest, SecondSignalAbortsAtOnceNamingRestore) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(64ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  // Two different signals (the same one twice could merge while pending);
  // the process exits 128 + whichever the kernel delivered second.
  Outcome o = RunAndSignal(LongJob(dir, loop.device()), {SIGINT, SIGTERM});
  EXPECT_TRUE(o.exit_code == 130 || o.exit_code == 143) << o.output;
  EXPECT_LT(o.seconds, 30.0);
  EXPECT_NE(o.output.find("second signal: aborting now without cleanup; if a "
                          "compare changed a cache layer, 'tierbench "
                          "restore' puts it back"),
            std::string::npos)
      << o.output;
}

}  // namespace
}  // namespace tierbench
