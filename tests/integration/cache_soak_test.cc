// Soak on the REAL kernel bcache (issue 11 item 7; the lab guest runs it
// after the compare of LabCompare.RealBcacheModesBehaveAsDocumented):
// kSwitches mode switches through BcacheLayer::ApplyMode (writethrough ->
// writeback -> writearound -> none, the bcache mode files of modes/, compiled
// in as guest_mode_files.h because the guest has no source tree), a MakeCold
// (detach + attach) every kColdEvery switches, while a thread runs a 4k
// randrw job on the stack device through tierbench's own runner (the code
// `tierbench run` uses: job file text -> ParseJobText -> RunWorkload, libaio,
// O_DIRECT) in back-to-back one-second runs.
//
// Checked: no failed switch, no IO error, every switch reads back its mode;
// after a warm-up of kWarmupSwitches switches, the open file descriptors
// come back to the same count and the RSS grows by less than kRssGrowthBound;
// RestoreOriginal() is ok and the read-back equals the one before the soak.
// The figures go to stdout (one "soak:" line, which the lab greps from
// lab/guest-tests.log) and to the test's properties.
// Skips visibly where bcache is missing (this development machine).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cache/bcache/bcache_device.h"
#include "cache/bcache/bcache_layer.h"
#include "cache/registry/mode_file.h"
#include "guest_mode_files.h"
#include "real_bcache_stack.h"
#include "test_env.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench::testing {
namespace {

constexpr int kSwitches = 200;
constexpr int kColdEvery = 25;
constexpr int kWarmupSwitches = 20;
// Pacing: 200 switches over ~20 s, so each mode sees IO (the job runs at
// kIops reads plus kIops writes a second) rather than switches back to back.
constexpr auto kSwitchInterval = std::chrono::milliseconds(100);
constexpr int kIops = 300;
constexpr double kColdTimeoutS = 60;
// RSS growth allowed between the warm-up and the end. glibc keeps freed
// memory and the per-run job threads may fault in a few more arena pages;
// measured in the lab guest: 5412 -> 5176 KiB (-236 KiB) over 180 switches,
// ~10,600 IOs and 18 runs after the warm-up. A leak of 12 KiB per switch (a
// few knob snapshots), 200 B per IO or 120 KiB per one-second run (a latency
// histogram, an IO buffer pool) exceeds 2 MiB over those.
constexpr long kRssGrowthBound = 2l << 20;

long RssBytes() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

int OpenFds() {
  int n = 0;
  for ([[maybe_unused]] const auto& e :
       std::filesystem::directory_iterator("/proc/self/fd")) {
    ++n;
  }
  return n - 1;  // The iterator's own descriptor.
}

// Runs the job in back-to-back runs until Stop(). Pause() returns once the
// run in progress has ended (or the loop has stopped) and holds the next one
// until Resume().
class IoLoop {
 public:
  explicit IoLoop(const std::string& device)
      : job_("[soak]\nfilename=" + device +
             "\nioengine=libaio\ndirect=1\niodepth=4\nbs=4k\nrw=randrw\n"
             "size=32m\ntime_based=1\nruntime=1\nrate_iops=" +
             std::to_string(kIops) + "\n"),
        thread_([this] { Loop(); }) {}
  ~IoLoop() { Stop(); }

  void Pause() {
    std::unique_lock<std::mutex> lock(mu_);
    pause_ = true;
    cv_.wait(lock, [this] { return paused_ || done_; });
  }
  void Resume() {
    std::lock_guard<std::mutex> lock(mu_);
    pause_ = false;
    cv_.notify_all();
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      cv_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }

  // Read after Stop() only.
  uint64_t runs() const { return runs_; }
  uint64_t ios() const { return ios_; }
  uint64_t io_errors() const { return io_errors_; }
  // Every failure (exception or job error), one line each.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  void Loop() {
    RunOptions options;
    options.progress = false;
    options.destructive = true;
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        paused_ = pause_;
        cv_.notify_all();
        cv_.wait(lock, [this] { return !pause_ || stop_; });
        paused_ = false;
        if (stop_) break;
      }
      try {
        const RunResult r = RunWorkload(
            ParseJobText(job_, "<soak job>", JobOverrides{}), options);
        for (const JobResult& j : r.jobs) {
          for (const DirectionStats& d : j.dir) {
            ios_ += d.ios;
            io_errors_ += d.errors;
          }
          if (!j.error.empty()) failures_.push_back("job: " + j.error);
        }
      } catch (const std::exception& e) {
        failures_.push_back(std::string("run: ") + e.what());
        break;
      }
      ++runs_;
    }
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    cv_.notify_all();
  }

  std::string job_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool pause_ = false, paused_ = false, stop_ = false, done_ = false;
  uint64_t runs_ = 0, ios_ = 0, io_errors_ = 0;
  std::vector<std::string> failures_;
  std::thread thread_;  // Last: starts once the rest is initialised.
};

TEST(CacheSoakTest, ModeSwitchesUnderIoLeakNothing) {
  TIERBENCH_REQUIRE_ROOT();
  if (!BcacheDevice::ModulePresent(Sysfs())) {
    GTEST_SKIP() << "SKIPPED: no bcache in this kernel (/sys/fs/bcache "
                    "missing); runs in the lab guest";
  }
  if (!HaveTool("make-bcache")) {
    GTEST_SKIP() << "SKIPPED: make-bcache not found (apt-get install "
                    "bcache-tools)";
  }
  std::vector<ModeSpec> modes;
  for (const GuestModeFile& f : kGuestModeFiles) {
    modes.push_back(ParseModeJson(f.text, f.path));
  }
  ASSERT_EQ(modes.size(), 4u);

  RealBcacheStack stack;
  ASSERT_EQ("", stack.Build());
  BcacheLayer layer(Sysfs(), "/dev/" + stack.bcache());
  layer.CaptureOriginal();
  const LayerReadback before = layer.ReadBack();

  int switches = 0, colds = 0;
  std::vector<std::string> failures;
  long rss_warm = 0;
  int fds_warm = 0;
  const auto start = std::chrono::steady_clock::now();
  {
    IoLoop io("/dev/" + stack.bcache());
    for (int i = 0; i < kSwitches; ++i) {
      const ModeSpec& mode = modes[i % modes.size()];
      try {
        if (i > 0 && i % kColdEvery == 0) {
          layer.MakeCold(kColdTimeoutS);
          ++colds;
        }
        const LayerReadback rb = layer.ApplyMode(mode, nullptr);
        if (rb.cache_mode != mode.cache_mode) {
          failures.push_back("switch " + std::to_string(i) + ": asked " +
                             mode.cache_mode + ", read back " + rb.cache_mode);
        }
        ++switches;
      } catch (const std::exception& e) {
        failures.push_back("switch " + std::to_string(i) + " to " + mode.name +
                           ": " + e.what());
      }
      if (i + 1 == kWarmupSwitches) {
        // Between two runs: no job thread and no target descriptor open.
        io.Pause();
        rss_warm = RssBytes();
        fds_warm = OpenFds();
        io.Resume();
      }
      std::this_thread::sleep_for(kSwitchInterval);
    }
    io.Stop();
    for (const std::string& f : io.failures()) failures.push_back("IO " + f);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    const long rss_end = RssBytes();
    const int fds_end = OpenFds();
    std::ostringstream figures;
    figures.precision(3);
    figures << "soak: switches=" << switches << " colds=" << colds
            << " seconds=" << seconds << " io_runs=" << io.runs()
            << " ios=" << io.ios() << " io_errors=" << io.io_errors()
            << " rss_warm_kib=" << rss_warm / 1024
            << " rss_end_kib=" << rss_end / 1024
            << " rss_growth_kib=" << (rss_end - rss_warm) / 1024
            << " fds_warm=" << fds_warm << " fds_end=" << fds_end;
    std::printf("%s\n", figures.str().c_str());
    std::fflush(stdout);
    RecordProperty("switches", switches);
    RecordProperty("colds", colds);
    RecordProperty("seconds", static_cast<int>(seconds));
    RecordProperty("ios", static_cast<int>(io.ios()));
    RecordProperty("rss_warm_kib", static_cast<int>(rss_warm / 1024));
    RecordProperty("rss_end_kib", static_cast<int>(rss_end / 1024));
    RecordProperty("fds_warm", fds_warm);
    RecordProperty("fds_end", fds_end);

    EXPECT_TRUE(failures.empty())
        << failures.size() << " failures, first: " << failures.front();
    EXPECT_EQ(switches, kSwitches);
    EXPECT_EQ(colds, (kSwitches - 1) / kColdEvery);
    EXPECT_GT(io.runs(), 0u);
    EXPECT_GT(io.ios(), 0u);
    EXPECT_EQ(io.io_errors(), 0u);
    EXPECT_EQ(fds_end, fds_warm);
    EXPECT_LT(rss_end - rss_warm, kRssGrowthBound)
        << "RSS " << rss_warm << " -> " << rss_end << " bytes";
  }

  const RestoreReport report = layer.RestoreOriginal();
  EXPECT_TRUE(report.ok()) << report.failures.front();
  const LayerReadback after = layer.ReadBack();
  EXPECT_EQ(after.cache_mode, before.cache_mode);
  EXPECT_EQ(after.settings, before.settings);
  // Attached again (a MakeCold that failed halfway would leave it detached).
  EXPECT_NE(layer.State(), "no cache");
}

}  // namespace
}  // namespace tierbench::testing
