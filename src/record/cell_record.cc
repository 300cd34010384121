#include "record/cell_record.h"

#include <algorithm>

namespace tierbench {

double CellRecord::HarnessOverheadPct() const {
  if (cell_wall_s <= 0 || io_s < 0) return -1;
  const double overhead = cell_wall_s - io_s - warm_io_s -
                          std::max(0.0, drain_before_s) -
                          std::max(0.0, drain_after_s);
  return 100.0 * std::max(0.0, overhead) / cell_wall_s;
}

}  // namespace tierbench
