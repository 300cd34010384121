// Steady-state detection, as fio's steadystate.c (options steadystate=,
// ss_dur=, ss_ramp=): the settings, the criterion math over a rolling window
// of per-second samples, and the outcome reported per job.
//
// Every second after ss_ramp the job's (or its group_reporting group's)
// completed IOs and bytes of that second are added to a window of
// n = ss_dur / 1 s samples. Once the window is full, each new sample
// recomputes the criterion over the last n samples:
//   iops / bw             max |y_i - mean| (fio's "mean dev"); with a % limit
//                         100 * max_deviation / mean
//   iops_slope / bw_slope least-squares slope of y over x = 0..n-1; with a %
//                         limit 100 * slope / mean, where mean is the
//                         integer quotient sum_y / n (as fio computes it)
// and steady state is attained when the criterion (its magnitude for slopes)
// is below the limit. A mean of 0 with a % limit never attains (the
// criterion is not finite). Pure and deterministic; not thread-safe.
#ifndef TIERBENCH_STATS_STEADY_STATE_H_
#define TIERBENCH_STATS_STEADY_STATE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tierbench {

enum class SteadyStateMetric { kIops, kBw };

struct SteadyStateSpec {
  static constexpr uint64_t kIntervalNs = 1000000000;  // fio's ss_interval

  SteadyStateMetric metric = SteadyStateMetric::kIops;
  bool slope = true;     // *_slope criterion; else maximum mean deviation
  bool percent = true;   // limit is a percentage of the window mean
  double limit = 0.01;   // fio's default criterion: iops_slope:0.01%
  uint64_t dur_ns = 0;   // ss_dur; below one interval: detection is off
  uint64_t ramp_ns = 0;  // ss_ramp: time after ramp_time before sampling

  bool enabled() const { return dur_ns >= kIntervalNs; }
  // Samples in the window: ss_dur in whole seconds (fio truncates too).
  uint32_t intervals() const {
    return static_cast<uint32_t>(dur_ns / kIntervalNs);
  }
  // Index of the first per-second sample used: ceil(ss_ramp / 1 s).
  uint64_t first_sample() const {
    return (ramp_ns + kIntervalNs - 1) / kIntervalNs;
  }
  // fio's json "ss" text: "iops_slope:0.010000%", "bw:1048576.000000".
  std::string Describe() const;
  bool operator==(const SteadyStateSpec& o) const {
    return metric == o.metric && slope == o.slope && percent == o.percent &&
           limit == o.limit && dur_ns == o.dur_ns && ramp_ns == o.ramp_ns;
  }
  bool operator!=(const SteadyStateSpec& o) const { return !(*this == o); }
};

// What a job reports (fio's json "steadystate" object).
struct SteadyStateResult {
  bool enabled = false;  // the job had ss_dur set
  SteadyStateSpec spec;
  bool attained = false;     // the criterion was met; the job ended there
  bool evaluated = false;    // the window filled up at least once
  double criterion = 0;      // last computed value (percent when spec.percent)
  double slope = 0;          // last slope (slope criteria)
  double max_deviation = 0;  // last maximum deviation (deviation criteria)
  // The window at the end, oldest first: IOs and bytes per second.
  std::vector<uint64_t> iops;
  std::vector<uint64_t> bw;

  // Integer means of the window (fio: sum / samples); 0 when empty.
  uint64_t IopsMean() const;
  uint64_t BwMean() const;
};

class SteadyStateWindow {
 public:
  explicit SteadyStateWindow(const SteadyStateSpec& spec);

  // Adds one interval's sample (IOs and bytes completed in it). Returns
  // true when steady state is attained with this sample.
  bool Add(uint64_t ios, uint64_t bytes);

  const SteadyStateResult& result() const { return result_; }

  // Least-squares slope of y over x = 0..n-1 (fio's formula with
  // sum_x = n(n-1)/2, sum_x2 = (n-1)n(2n-1)/6); NaN for fewer than 2 values.
  static double Slope(const std::vector<uint64_t>& y);
  // max |y_i - mean| with the mean sum/n as a double; 0 when empty.
  static double MaxDeviation(const std::vector<uint64_t>& y);

 private:
  SteadyStateSpec spec_;
  SteadyStateResult result_;
};

}  // namespace tierbench

#endif  // TIERBENCH_STATS_STEADY_STATE_H_
