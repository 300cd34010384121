#include "record/compare_setup.h"

#include <algorithm>

namespace tierbench {

bool PreparedWorkload::Writes() const {
  if (is_db) return true;
  return std::any_of(io.jobs.begin(), io.jobs.end(),
                     [](const JobSpec& j) { return PatternWrites(j.rw); });
}

uint64_t WorkloadRegionBytes(const PreparedWorkload& w) {
  uint64_t region = 0;
  if (w.is_db) return 0;
  for (const JobSpec& j : w.io.jobs) {
    const uint64_t offset =
        j.offset.set && !j.offset.is_percent ? j.offset.bytes : 0;
    if (j.size.set && !j.size.is_percent) {
      region = std::max(region, offset + j.size.bytes);
    }
  }
  return region;
}

const CompareStack* CompareSetup::StackFor(const ModeSpec& mode) const {
  if (mode.is_raw()) return nullptr;
  for (const CompareStack& s : stacks) {
    if (s.layer->layer() == mode.layer) return &s;
  }
  return nullptr;
}

}  // namespace tierbench
