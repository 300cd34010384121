// The start line of a set of job threads, as fio's: fio's jobs set
// themselves up, mark themselves initialized and wait on their semaphore;
// the parent, which sleeps 100 ms between its checks (backend.c run_threads,
// do_usleep(100000)), then releases them together. So every fio job pauses
// about 100 ms between its setup and its first IO, and the jobs of a set
// start at one moment.
//
// The pause matters on its own (results/benchmarks.md, "Eleventh session"):
// on a VM whose idle vCPUs halt, a QD1 job that goes from setup straight to
// IO settles, more often than not, where the loop worker and the submitter
// wake each other across CPUs (two halted-vCPU wake-ups per IO), and stays
// there; after a pause it starts where one CPU does the whole round trip, as
// fio's jobs do.
//
// Contract: constructed by the thread that starts `runners` threads, before
// it starts them. Each runner calls ArriveAndWait() exactly once, after its
// own setup (whether or not that failed, so no runner waits for a failed
// one); the call returns once every runner has arrived and `settle_ns` has
// passed since construction, or at an interrupt (util/interrupt.h) once all
// have arrived. Thread-safe.
#ifndef TIERBENCH_WORKLOAD_START_LINE_H_
#define TIERBENCH_WORKLOAD_START_LINE_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace tierbench {

class StartLine {
 public:
  // fio's parent's sleep between its checks of its jobs' setup.
  static constexpr uint64_t kFioSettleNs = 100'000'000;

  StartLine(size_t runners, uint64_t settle_ns);
  StartLine(const StartLine&) = delete;
  StartLine& operator=(const StartLine&) = delete;

  void ArriveAndWait();

  // When the line opens (CLOCK_MONOTONIC ns), for tests.
  uint64_t opens_at_ns() const { return opens_at_ns_; }

 private:
  std::mutex mu_;
  std::condition_variable all_arrived_;
  const size_t runners_;
  size_t arrived_ = 0;
  const uint64_t opens_at_ns_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_START_LINE_H_
