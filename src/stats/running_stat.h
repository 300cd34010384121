// RunningStat: count, min, max, mean and standard deviation of a stream of
// samples, updated online with Welford's algorithm (as fio's add_stat_sample)
// and mergeable (Chan et al. parallel combination), so each job thread keeps
// its own and the results are merged at the end.
//
// Not thread-safe; one instance per thread, merged afterwards.
#ifndef TIERBENCH_STATS_RUNNING_STAT_H_
#define TIERBENCH_STATS_RUNNING_STAT_H_

#include <cstdint>

namespace tierbench {

class RunningStat {
 public:
  void Add(double x);
  // Combines `other` into this, as if all of its samples had been added here.
  void Merge(const RunningStat& other);

  uint64_t count() const { return n_; }
  double min() const { return n_ ? min_ : 0.0; }
  double max() const { return n_ ? max_ : 0.0; }
  double mean() const { return n_ ? mean_ : 0.0; }
  // Sample standard deviation (n-1 denominator, as fio); 0 for n < 2.
  double stddev() const;

 private:
  uint64_t n_ = 0;
  double min_ = 0;
  double max_ = 0;
  double mean_ = 0;
  double m2_ = 0;  // Sum of squared deviations from the mean.
};

}  // namespace tierbench

#endif  // TIERBENCH_STATS_RUNNING_STAT_H_
