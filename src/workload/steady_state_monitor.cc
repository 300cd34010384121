#include "workload/steady_state_monitor.h"

#include <algorithm>

namespace tierbench {

SteadyStateMonitor::SteadyStateMonitor(const std::vector<JobThread*>& set,
                                       uint64_t start_ns) {
  std::vector<int> unit_group;  // group id of a group_reporting unit, or -1
  for (JobThread* t : set) {
    const JobSpec& s = t->spec();
    if (!s.steadystate.enabled()) continue;
    const int key = s.group_reporting ? s.group_id : -1;
    if (key >= 0) {
      auto it = std::find(unit_group.begin(), unit_group.end(), key);
      if (it != unit_group.end()) {
        units_[static_cast<size_t>(it - unit_group.begin())].threads.push_back(
            t);
        continue;
      }
    }
    Unit u{{t}, SteadyStateWindow(s.steadystate)};
    u.next_ns = start_ns + s.ramp_time_ns;  // boundary 0: the baseline
    units_.push_back(std::move(u));
    unit_group.push_back(key);
  }
}

void SteadyStateMonitor::Totals(const Unit& u, uint64_t* ios, uint64_t* bytes) {
  *ios = 0;
  *bytes = 0;
  for (const JobThread* t : u.threads) {
    for (IoDir d : {IoDir::kRead, IoDir::kWrite}) {
      *ios += t->live_ios(d);
      *bytes += t->live_bytes(d);
    }
  }
}

void SteadyStateMonitor::Poll(uint64_t now_ns) {
  for (Unit& u : units_) {
    if (u.done || now_ns < u.next_ns) continue;
    if (std::all_of(u.threads.begin(), u.threads.end(),
                    [](const JobThread* t) { return t->finished(); })) {
      u.done = true;
      continue;
    }
    uint64_t ios = 0;
    uint64_t bytes = 0;
    Totals(u, &ios, &bytes);
    if (u.baseline) {
      const SteadyStateSpec& spec = u.threads.front()->spec().steadystate;
      if (u.next_index >= spec.first_sample() &&
          u.window.Add(ios - u.prev_ios, bytes - u.prev_bytes)) {
        u.done = true;
        for (JobThread* t : u.threads) t->RequestStop();
      }
      ++u.next_index;
    }
    u.baseline = true;
    u.prev_ios = ios;
    u.prev_bytes = bytes;
    // One sample per boundary; a poll later than a whole interval skips the
    // missed boundaries rather than inventing empty seconds.
    do {
      u.next_ns += SteadyStateSpec::kIntervalNs;
    } while (u.next_ns <= now_ns);
  }
}

uint64_t SteadyStateMonitor::NextDeadlineNs() const {
  uint64_t next = UINT64_MAX;
  for (const Unit& u : units_) {
    if (!u.done) next = std::min(next, u.next_ns);
  }
  return next;
}

void SteadyStateMonitor::Finish() {
  for (const Unit& u : units_) {
    for (JobThread* t : u.threads) t->SetSteadyState(u.window.result());
  }
}

}  // namespace tierbench
