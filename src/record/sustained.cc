#include "record/sustained.h"

namespace tierbench {

std::optional<double> SustainedIops(const JobResult& job, IoDir d,
                                    double time_to_clean_s) {
  if (job.runtime_ns == 0 || time_to_clean_s < 0) return std::nullopt;
  if (time_to_clean_s == 0) return job.Iops(d);  // exactly the burst
  const double runtime_s = static_cast<double>(job.runtime_ns) / 1e9;
  const double ios = static_cast<double>(job.dir[static_cast<int>(d)].ios);
  return ios / (runtime_s + time_to_clean_s);
}

std::optional<double> CellSustainedIops(const CellRecord& rec,
                                        const JobResult& job, IoDir d) {
  if (!rec.error.empty() || !job.error.empty()) return std::nullopt;
  if (rec.mode->is_raw()) return SustainedIops(job, d, 0);
  if (rec.drain_after_timed_out || rec.drain_after_s < 0) return std::nullopt;
  return SustainedIops(job, d, rec.drain_after_s);
}

}  // namespace tierbench
