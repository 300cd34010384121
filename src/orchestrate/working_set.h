// Working sets of `tierbench compare --working-set 25%,100%,400%`: each fio
// workload is run once per working set, its jobs' regions sized relative to
// the cache capacity the stacks report (or to an absolute size), so the
// comparison shows how the benefit of a cache falls when the working set
// outgrows it.
//
// Contract:
//  - ParseWorkingSets: a comma-separated list of percentages of the cache
//    capacity (above 0, e.g. 25%, 400%) or absolute sizes (e.g. 64M, 1G).
//    Duplicates, empty items and bad values throw ConfigError with one line
//    naming --working-set and the fix.
//  - ExpandWorkingSets: for every fio workload and every working set, a copy
//    named "<name>@<label>" whose every job's size is the working set's bytes
//    (rounded down to a whole number of the job's largest block). The
//    reference capacity is the smallest cache_bytes among the stacks; a
//    percentage without any stack reporting a capacity, a working set that
//    does not fit the smallest target after the job's offset, or one smaller
//    than a job's block throws ConfigError. DB workloads are not sized by a
//    working set: they are kept once, unchanged, with a notice.
//    An empty list returns the workloads unchanged.
// Pure; no IO.
#ifndef TIERBENCH_ORCHESTRATE_WORKING_SET_H_
#define TIERBENCH_ORCHESTRATE_WORKING_SET_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tierbench {

struct PreparedWorkload;

struct WorkingSet {
  std::string label;      // as given, e.g. "25%" or "1G"
  bool relative = false;  // a percentage of the cache capacity
  double percent = 0;     // when relative, > 0
  uint64_t bytes = 0;     // when absolute, > 0
  // The bytes against a cache of `cache_bytes`.
  uint64_t Resolve(uint64_t cache_bytes) const;
};

std::vector<WorkingSet> ParseWorkingSets(const std::string& text);

// cache_bytes: the reference capacity (< 0: no stack reports one);
// region_bytes: the smallest target (0: unknown, not checked).
std::vector<PreparedWorkload> ExpandWorkingSets(
    const std::vector<PreparedWorkload>& workloads,
    const std::vector<WorkingSet>& sets, int64_t cache_bytes,
    uint64_t region_bytes, std::vector<std::string>* notices);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_WORKING_SET_H_
