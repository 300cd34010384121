// StartLine (workload/start_line.h): a set's threads leave the line
// together, only after every one arrived and the settle time passed.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "util/clock.h"
#include "workload/start_line.h"

namespace tierbench {
namespace {

TEST(StartLineTest, NoRunnerLeavesBeforeTheLastArrivedOrTheLineOpened) {
  constexpr int kRunners = 3;
  StartLine line(kRunners, 20'000'000);  // 20 ms
  std::atomic<int> arrived{0};
  std::atomic<uint64_t> last_arrival_ns{0};
  std::vector<uint64_t> left_ns(kRunners);
  std::vector<int> arrived_before_leaving(kRunners);
  std::vector<std::thread> threads;
  for (int i = 0; i < kRunners; ++i) {
    threads.emplace_back([&, i] {
      // The last runner arrives well after the line would have opened.
      if (i == kRunners - 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        last_arrival_ns = NowNs();
      }
      ++arrived;
      line.ArriveAndWait();
      left_ns[i] = NowNs();
      arrived_before_leaving[i] = arrived.load();
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kRunners; ++i) {
    EXPECT_EQ(arrived_before_leaving[i], kRunners) << "runner " << i;
    EXPECT_GE(left_ns[i], last_arrival_ns.load()) << "runner " << i;
    EXPECT_GE(left_ns[i], line.opens_at_ns()) << "runner " << i;
  }
}

TEST(StartLineTest, ALoneRunnerWaitsOutTheSettleTime) {
  const uint64_t before = NowNs();
  StartLine line(1, 30'000'000);  // 30 ms
  EXPECT_GE(line.opens_at_ns(), before + 30'000'000);
  line.ArriveAndWait();
  EXPECT_GE(NowNs(), line.opens_at_ns());
}

}  // namespace
}  // namespace tierbench
