// Statistics across repetitions of one measurement (one value per run),
// in the style of google/benchmark's StatisticsMean/Median/StdDev: pure free
// functions over a vector of doubles, used by `tierbench compare` to
// summarize the repetitions of a (mode, workload) cell.
//
// Every function accepts any input, including an empty vector, and returns 0
// where the statistic is undefined (stated per function). The input need not
// be sorted. Thread-safe (no shared state).
#ifndef TIERBENCH_STATS_AGGREGATE_H_
#define TIERBENCH_STATS_AGGREGATE_H_

#include <cstddef>
#include <vector>

namespace tierbench {

// Arithmetic mean; 0 when empty.
double Mean(const std::vector<double>& v);

// Median (mean of the two middle values for an even count); 0 when empty.
double Median(const std::vector<double>& v);

// Sample standard deviation (n-1 denominator); 0 for fewer than 2 values.
double Stddev(const std::vector<double>& v);

// Smallest / largest value; 0 when empty.
double Min(const std::vector<double>& v);
double Max(const std::vector<double>& v);

// Percentile `p` in [0, 100] by linear interpolation between the closest
// ranks (numpy's default): position p/100 * (n-1) in the sorted values.
// 0 when empty.
double Percentile(const std::vector<double>& v, double p);

// Interquartile range: Percentile(75) - Percentile(25); 0 when empty.
double Iqr(const std::vector<double>& v);

// Two-sided 95 % quantile of Student's t distribution for `df` degrees of
// freedom (table for 1..30, then 40, 60, 120, 1000; a df between table rows
// uses the smaller row, which is conservative). 0 for df 0.
double StudentT95(size_t df);

// Half-width of the 95 % confidence interval of the mean:
// t(0.975, n-1) * stddev / sqrt(n). 0 for fewer than 2 values.
double ConfidenceHalfWidth95(const std::vector<double>& v);

// Relative spread in percent: (max - min) / |median| * 100. 0 for fewer
// than 2 values or when the median is 0.
double RelativeSpreadPct(const std::vector<double>& v);

}  // namespace tierbench

#endif  // TIERBENCH_STATS_AGGREGATE_H_
