// SteadyStateTracker: decides when a cell warmed by `--cache-state
// warm-until-steady` has reached steady state, from one sample per chunk of
// the workload (its IOPS and, when it read, the share of its reads served
// without the origin).
//
// Steady means, over the last `window` samples:
//  - IOPS: every sample within +-iops_tolerance_pct of their mean (fio's
//    steadystate=iops:10% criterion, applied to chunk averages), and the
//    trend across the window (least-squares slope x (window - 1)) within
//    +-iops_tolerance_pct of the mean too (fio's iops_slope idea): a cache
//    still filling climbs a few percent per chunk, which the band alone
//    would accept;
//  - read hit ratio: the samples that carry one span at most
//    hit_tolerance_pts percentage points, and at least `window` - 1 of the
//    window's samples carry one (a mixed workload's chunk may, rarely,
//    show no reads). Samples without reads (-1) are
//    otherwise ignored; a write-only workload is judged on IOPS alone, and
//    so is a window where no sample carries a ratio.
// Fewer than `window` samples are never steady. Pure; not thread-safe.
#ifndef TIERBENCH_ORCHESTRATE_STEADY_STATE_H_
#define TIERBENCH_ORCHESTRATE_STEADY_STATE_H_

#include <string>
#include <vector>

namespace tierbench {

struct SteadySample {
  double iops = 0;
  double read_hit_pct = -1;  // < 0: the chunk showed no counted reads
};

class SteadyStateTracker {
 public:
  SteadyStateTracker(int window = 3, double iops_tolerance_pct = 10,
                     double hit_tolerance_pts = 3);

  void Add(const SteadySample& s);
  bool Steady() const;
  // The last window, for logs and warnings: "IOPS 480..530 (mean 505,
  // +-5.0%), read hits 61..63%".
  std::string Describe() const;
  // The hit ratio of the newest sample that has one; -1 if none.
  double LastHitPct() const;
  size_t samples() const { return samples_.size(); }

 private:
  int window_;
  double iops_tolerance_pct_;
  double hit_tolerance_pts_;
  std::vector<SteadySample> samples_;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_STEADY_STATE_H_
