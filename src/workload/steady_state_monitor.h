// SteadyStateMonitor: fio's steadystate_check() for one run set (the jobs
// between stonewalls), driven by the runner's wait loop.
//
// A unit is one clone whose job sets ss_dur, or, with group_reporting, all
// clones of a reporting group together (fio sums the group). Once a second
// from the unit's start of measurement (after ramp_time) the monitor reads
// the clones' completed IOs and bytes (both directions, as fio) and feeds
// that second's totals to a SteadyStateWindow, skipping the seconds before
// ss_ramp. When the criterion is met, every clone of the unit is asked to
// stop (RequestStop) and the unit's outcome is marked attained. Finish()
// hands each clone its unit's SteadyStateResult.
//
// Poll() and NextDeadlineNs() run on the runner's thread only; the clones'
// counters are read through their relaxed atomics.
#ifndef TIERBENCH_WORKLOAD_STEADY_STATE_MONITOR_H_
#define TIERBENCH_WORKLOAD_STEADY_STATE_MONITOR_H_

#include <cstdint>
#include <vector>

#include "stats/steady_state.h"
#include "workload/job_spec.h"
#include "workload/job_thread.h"

namespace tierbench {

class SteadyStateMonitor {
 public:
  // `set`: the clones started at `start_ns` (absolute, NowNs()).
  SteadyStateMonitor(const std::vector<JobThread*>& set, uint64_t start_ns);

  bool active() const { return !units_.empty(); }
  // Samples every unit whose next second boundary is at or before `now_ns`.
  void Poll(uint64_t now_ns);
  // The earliest next boundary of a unit still sampling; UINT64_MAX if none.
  uint64_t NextDeadlineNs() const;
  // Stores each unit's outcome in its clones (call after they finished).
  void Finish();

 private:
  struct Unit {
    std::vector<JobThread*> threads;
    SteadyStateWindow window;
    uint64_t next_ns = 0;     // next boundary (absolute)
    uint64_t next_index = 0;  // index of the second that ends at next_ns
    uint64_t prev_ios = 0;    // counters at the previous boundary
    uint64_t prev_bytes = 0;
    bool baseline = false;  // prev_* read at the start of measurement
    bool done = false;      // attained, or every clone finished
  };
  static void Totals(const Unit& u, uint64_t* ios, uint64_t* bytes);

  std::vector<Unit> units_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_STEADY_STATE_MONITOR_H_
