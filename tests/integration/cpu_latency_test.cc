// `--cpu-latency` on the real kernel: while `tierbench run --cpu-latency 0`
// runs, /dev/cpu_dma_latency reads 0 (no CPU may enter an idle state); after
// it exits, and after it is killed with SIGKILL, the limit is back to what
// it was (the kernel drops the request with the descriptor: nothing to
// restore by hand). `compare --cpu-latency 0` on loop devices records the
// limit it read back in manifest.json. And cpus_allowed= in a job file pins
// the job's thread, as read from /proc while it runs; a CPU the process may
// not use is refused before any IO.
#include "util/cpu_latency.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_env.h"
#include "util/sysfs.h"

namespace tierbench {
namespace {

// Starts `tierbench run --quiet [--cpu-latency 0] JOB` (output discarded).
pid_t StartRun(const std::string& job, bool hold_latency = true) {
  // Built before the fork: the child only execs.
  std::vector<const char*> argv = {TIERBENCH_BINARY, "run", "--quiet"};
  if (hold_latency) argv.insert(argv.end(), {"--cpu-latency", "0"});
  argv.insert(argv.end(), {job.c_str(), nullptr});
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execv(TIERBENCH_BINARY, const_cast<char* const*>(argv.data()));
    ::_exit(121);
  }
  return pid;
}

// Polls the limit every 20 ms until it reads `want` or `pid` has exited.
bool SeenWhileRunning(const Sysfs& root, pid_t pid, int64_t want) {
  for (int i = 0; i < 500; ++i) {
    if (ReadCpuLatencyLimit(root) == want) return true;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// One test, its steps in sequence: two tests holding the limit at once (ctest
// runs tests in parallel) could not tell their holds apart.
TEST(CpuLatencyRealTest, HeldWhileMeasuringAndReleasedOnExitAndKill) {
  TIERBENCH_REQUIRE_ROOT();
  const Sysfs root("/");
  const std::optional<int64_t> before = ReadCpuLatencyLimit(root);
  if (!before) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI(
        "/dev/cpu_dma_latency unreadable: a kernel without PM QoS");
  }
  if (*before == 0) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI(
        "another process holds /dev/cpu_dma_latency at 0, so a hold by "
        "tierbench cannot be seen (is a benchmark running?)");
  }
  testing::TempDir dir;
  // A cheap job: 4k reads of a small file at 200 IOPS.
  const std::string job = dir.path() + "/slow.fio";
  std::ofstream(job) << "[slow]\nfilename=" << dir.path()
                     << "/data\nsize=1m\nioengine=psync\nrw=randread\n"
                        "bs=4k\nrate_iops=200\ntime_based\nruntime=1\n";

  // 1. run: held while the jobs run, released at a normal exit.
  pid_t pid = StartRun(job);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(SeenWhileRunning(root, pid, 0))
      << "/dev/cpu_dma_latency never read 0 while tierbench run ran";
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(ReadCpuLatencyLimit(root), before);

  // 2. SIGKILL in the middle: the kernel drops the request with the process.
  std::ofstream(job, std::ios::app) << "runtime=30\n";  // the last one counts
  pid = StartRun(job);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(SeenWhileRunning(root, pid, 0));
  ::kill(pid, SIGKILL);
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(ReadCpuLatencyLimit(root), before);

  // 3. compare: the manifest reads the held limit back, and records the
  // option and the idle setup; released afterwards.
  testing::LoopDevice hdd(16ull << 20), ssd(16ull << 20);
  ASSERT_TRUE(hdd.ok()) << hdd.error();
  ASSERT_TRUE(ssd.ok()) << ssd.error();
  std::ofstream(dir.path() + "/hdd.json")
      << R"({"schema_version": 1, "name": "hdd", "description": "raw",
             "layer": "raw", "target": "hdd"})";
  std::ofstream(dir.path() + "/r.fio")
      << "[r]\nrw=randread\nbs=4k\nsize=4M\nioengine=libaio\ndirect=1\n"
         "runtime=1s\ntime_based\n";
  std::string out;
  ASSERT_EQ(testing::RunShell(
                std::string(TIERBENCH_BINARY) + " compare --hdd " +
                    hdd.device() + " --ssd " + ssd.device() + " --modes " +
                    dir.path() + "/hdd.json --workloads " + dir.path() +
                    "/r.fio --results " + dir.path() +
                    "/results --run-id c --quiet --destructive --cpu-latency 0",
                &out),
            0)
      << out;
  std::ifstream in(dir.path() + "/results/c/manifest.json");
  const nlohmann::json m = nlohmann::json::parse(in);
  EXPECT_EQ(m["schema_version"], 4);
  EXPECT_EQ(m["options"]["cpu_latency_us"], 0);
  EXPECT_EQ(m["cpu"]["latency_limit_us"], 0) << m["cpu"].dump();
  EXPECT_TRUE(m["cpu"]["idle_states"].is_array());
  EXPECT_EQ(ReadCpuLatencyLimit(root), before);
}

// Cpus_allowed_list of every thread of `pid` but the first (the main one).
std::vector<std::string> WorkerCpuLists(pid_t pid) {
  std::vector<std::string> out;
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  std::error_code ec;
  for (const auto& t : std::filesystem::directory_iterator(dir, ec)) {
    if (t.path().filename() == std::to_string(pid)) continue;
    std::ifstream in(t.path() / "status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("Cpus_allowed_list:", 0) == 0) {
        std::istringstream fields(line.substr(18));
        std::string list;
        fields >> list;
        out.push_back(list);
      }
    }
  }
  return out;
}

TEST(CpuAffinityRealTest, CpusAllowedPinsTheJobThread) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI("needs 2 CPUs to tell a pinned thread apart");
  }
  int last = 0;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &allowed)) last = c;
  }
  testing::TempDir dir;
  const std::string job = dir.path() + "/pinned.fio";
  std::ofstream(job) << "[pinned]\nfilename=" << dir.path()
                     << "/data\nsize=1m\nioengine=psync\nrw=randread\n"
                        "bs=4k\nrate_iops=200\ntime_based\nruntime=3\n"
                        "cpus_allowed="
                     << last << "\n";
  const pid_t pid = StartRun(job, false);
  ASSERT_GT(pid, 0);
  // The job thread pins itself after it is created, on its way to the start
  // line (workload/start_line.h): a reading taken between its creation and
  // its pinning shows the process's whole set. So poll until the one job
  // thread shows the pinned CPU, for up to 2 s of the job's 3 (the line
  // opens 100 ms after the set starts); the last reading is what is checked.
  const std::string want = std::to_string(last);
  std::vector<std::string> lists;
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    lists = WorkerCpuLists(pid);
    if (lists.size() == 1 && lists[0] == want) break;
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ASSERT_EQ(lists.size(), 1u) << "one job thread expected";
  EXPECT_EQ(lists[0], want);

  // A CPU outside this process's set: refused before any IO, exit 2.
  std::string out;
  std::ofstream(job, std::ios::app) << "cpus_allowed=" << last << "\n";
  const int rc =
      testing::RunShell("taskset -c 0 " + std::string(TIERBENCH_BINARY) +
                            " run --quiet " + job + " 2>&1",
                        &out);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("is not available to this process (it may use 0)"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace tierbench
