// RatePacer: the issue schedule of one direction of a rated job (fio's
// rate=, rate_iops=, rate_process=; backend.c usec_for_io()).
//
// The schedule is open-loop: due_ns() is when the next IO is due, counted
// from the pacer's epoch (the job's start, restarted when ramp_time ends, as
// fio's reset_all_stats). An IO may be issued once the clock reaches its due
// time; a job that fell behind (the target was slow) issues the overdue IOs
// at once, so the schedule never slips and the delay shows as
// scheduled latency. The next due time after Issued(bytes):
//   linear, rate= or rate_iops= with a fixed size or a bs range
//           bytes issued so far / bps, with bps = rate or rate_iops x min bs
//           (a larger IO takes a longer share, as fio)
//   linear, rate_iops= with bssplit
//           previous due + 1 s / rate_iops (per IO, whatever its size)
//   poisson previous due + (1 s / IOPS) x -ln(U), U uniform in (0, 1] and
//           IOPS = bps / min bs: exponential inter-arrival times with mean
//           1 / IOPS (a Poisson process)
// A default-constructed pacer is unlimited (limited() false). Not
// thread-safe: one per direction per job clone.
#ifndef TIERBENCH_WORKLOAD_RATE_PACER_H_
#define TIERBENCH_WORKLOAD_RATE_PACER_H_

#include <cstdint>

#include "util/rng.h"
#include "workload/job_spec.h"

namespace tierbench {

class RatePacer {
 public:
  RatePacer() = default;
  // The pacer of direction `dir` of `spec`; `seed` drives the Poisson draws.
  RatePacer(const JobSpec& spec, IoDir dir, uint64_t seed);

  bool limited() const { return bps_ > 0; }
  // Bytes per second the schedule targets (0: unlimited).
  uint64_t bps() const { return bps_; }
  // When the next IO is due, in ns since the epoch.
  uint64_t due_ns() const { return due_ns_; }
  // Books one IO of `bytes` issued; moves due_ns() on.
  void Issued(uint64_t bytes);
  // Starts the schedule anew (fio resets it when ramp_time ends).
  void Restart();
  // rate_ignore_thinktime: the job slept `slept_ns` in thinktime; shift the
  // schedule so that the sleep is not caught up afterwards (fio's
  // handle_thinktime(): the bytes the rate would have issued meanwhile,
  // less one block when the sleep covered at least one IO's period).
  void SkipIdle(uint64_t slept_ns);

 private:
  enum class Mode { kBytes, kPerIo, kPoisson };
  void Draw();

  Mode mode_ = Mode::kBytes;
  uint64_t bps_ = 0;
  uint64_t min_bs_ = 1;
  uint64_t iops_ = 0;  // kPerIo and kPoisson
  uint64_t issued_bytes_ = 0;
  uint64_t due_ns_ = 0;
  Rng rng_{0};
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_RATE_PACER_H_
