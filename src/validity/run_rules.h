// The validity rule that needs the whole run: whether a workload can tell
// caches apart at all. Rule id:
//   no-discrimination (invalid, every cell of the workload) the raw SSD was
//                 less than kMinBaselineRatio times as fast as the raw HDD
//                 on every series of the workload: the disks did not bound
//                 it (the CPU, locks or the client did), so no mode of any
//                 cache can show a difference that is the cache's. The text
//                 names the run's most discriminating workload for scale
//                 (the workload itself is the row's).
// Thread-safety: pure functions.
#ifndef TIERBENCH_VALIDITY_RUN_RULES_H_
#define TIERBENCH_VALIDITY_RUN_RULES_H_

#include <map>
#include <string>
#include <vector>

#include "util/finding.h"

namespace tierbench {

inline constexpr double kMinBaselineRatio = 1.5;

// The raw baselines' medians of one series (workload, job, direction).
struct BaselinePair {
  std::string workload;
  std::string series;  // "job/direction"
  std::string unit;    // "IOPS" or "tps"
  double hdd = 0;
  double ssd = 0;
};

// Per workload that does not discriminate, its finding.
std::map<std::string, Finding> DiscriminationFindings(
    const std::vector<BaselinePair>& pairs);

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_RUN_RULES_H_
