// Sustained throughput of a compare cell: what a cache's writeback costs
// when the disk must end up clean.
//   iops_sustained = IOs / (runtime + time to clean)
//                  = iops * runtime / (runtime + time_to_clean)
// per job and direction, with the job's measured runtime (after ramp) and
// the cell's time to clean (CellRecord::drain_after_s, timed from the IO
// stop). A layer with nothing dirty has time to clean 0, so its sustained
// equals its burst IOPS; so does a raw cell (a raw device has no deferred
// writeback). Unknown (empty) when the drain timed out (the disk did not
// end up clean), the cell failed or the job has no runtime.
//
// Thread-safety: pure functions.
#ifndef TIERBENCH_RECORD_SUSTAINED_H_
#define TIERBENCH_RECORD_SUSTAINED_H_

#include <optional>

#include "record/cell_record.h"
#include "workload/job_result.h"

namespace tierbench {

// IOs of direction `d` of `job` over runtime + `time_to_clean_s`; empty
// when the job has no runtime or time_to_clean_s < 0.
std::optional<double> SustainedIops(const JobResult& job, IoDir d,
                                    double time_to_clean_s);

// SustainedIops with the cell's time to clean (0 for raw cells); empty
// for a failed cell or a drain that timed out.
std::optional<double> CellSustainedIops(const CellRecord& rec,
                                        const JobResult& job, IoDir d);

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_SUSTAINED_H_
