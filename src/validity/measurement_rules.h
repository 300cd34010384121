// The validity rules of the measurement itself, for every cell, raw or
// cached (results/README.md "Validity" lists every rule with its evidence
// and fix). Each returns Findings (util/finding.h) with these rule ids:
//   no-io        (invalid) a job did no IO in the measured window (a
//                size-bound job done within ramp_time): its 0 is no figure;
//   few-ios      (invalid) a job did fewer than kMinMeasuredIos IOs (or
//                transactions) in its window: too few for a figure;
//   buffered-io  (invalid) a job ran with direct=0: its IO went through the
//                page cache, so the cell measured RAM as much as the disk;
//   cpu          (unknown) the CPUs were not sampled (why);
//   cpu-bound    the machine's CPUs were >= kCpuBoundBusyPct busy over the
//                window, or >= kCpuLimitedBusyPct while the target was busy
//                less than kTargetIdleBusyPct of the window (the disk
//                waited on the CPU: a lab pgbench cell at 86 % CPU and its
//                bcache device busy 39 % measured 1.1x none, where a
//                device-bound run measured 2x), or one job's threads each
//                used >= kCpuBoundThreadPct
//                of a CPU: the CPU, not the disk, set the figure. Invalid on
//                the raw HDD, whose cell exists to measure the slow disk;
//                a caution on the raw SSD and on cache cells, where it means
//                the storage stopped being the limit (the figure is a floor
//                of what the storage allows: the CPU's ceiling);
//   cpu-steal    (caution) >= kStealCautionPct of CPU time was stolen by
//                the hypervisor: a neighbour's load is in the figure;
//   in-flight    (caution) IO was in flight on the target when the cell
//                started: something else was using it;
//   other-io     (invalid) a disk under the cell did more IO than the
//                cell's partitions on it (by more than kOtherIoPct and
//                kOtherIoMin): other IO competed; (unknown) when the disks
//                could not be sampled;
//   drift        (caution) the per-second IOPS of the last third of the
//                window differ from the first third's by more than
//                kDriftPct: the device or cache was not in a steady state
//                (an SSD not preconditioned, a cache still filling).
//                Not for a job that replays a trace at its recorded times
//                (read_iolog= without replay_no_stall): its rate is the
//                trace's.
// Thread-safety: pure functions.
#ifndef TIERBENCH_VALIDITY_MEASUREMENT_RULES_H_
#define TIERBENCH_VALIDITY_MEASUREMENT_RULES_H_

#include <cstdint>
#include <vector>

#include "util/finding.h"
#include "validity/cell_evidence.h"
#include "workload/job_result.h"
#include "workload/job_spec.h"

namespace tierbench {

inline constexpr uint64_t kMinMeasuredIos = 100;
inline constexpr double kCpuBoundBusyPct = 90.0;
inline constexpr double kCpuBoundThreadPct = 90.0;
inline constexpr double kCpuLimitedBusyPct = 75.0;
inline constexpr double kTargetIdleBusyPct = 50.0;
inline constexpr double kStealCautionPct = 10.0;
inline constexpr double kOtherIoPct = 5.0;
inline constexpr uint64_t kOtherIoMin = 20;
inline constexpr double kDriftPct = 25.0;
// The drift rule needs at least this many complete seconds.
inline constexpr size_t kDriftMinSeconds = 6;

// What a cell is for, as the CPU rule judges it.
enum class CellRole { kRawHdd, kRawSsd, kCache };

// `jobs` are the workload's job specs (empty for a DB workload); `host` what
// the machine did over the window.
std::vector<Finding> MeasurementFindings(const RunResult& result,
                                         const std::vector<JobSpec>& jobs,
                                         const HostEvidence& host,
                                         CellRole role = CellRole::kCache);

// The drift rule alone, on one job's per-second IOs (complete seconds).
// Returns true and the two thirds' means when the series drifted.
bool SeriesDrifted(const std::vector<uint64_t>& ios_per_second,
                   double* first_mean, double* last_mean);

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_MEASUREMENT_RULES_H_
