#include "record/compare_options.h"

#include "util/errors.h"

namespace tierbench {

void AddWorkloadModes(const std::string& value,
                      std::map<std::string, std::vector<std::string>>* out) {
  const size_t eq = value.find('=');
  std::vector<std::string> modes;
  if (eq != std::string::npos) {
    size_t start = eq + 1;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      if (comma > start) modes.push_back(value.substr(start, comma - start));
      start = comma + 1;
    }
  }
  if (eq == std::string::npos || eq == 0 || modes.empty()) {
    throw ConfigError("Bad value for --workload-modes: '" + value +
                      "'. Fix: WORKLOAD=MODE,MODE..., e.g. "
                      "--workload-modes pgbench-tpcb=hdd,ssd,writeback,none");
  }
  if (!out->emplace(value.substr(0, eq), modes).second) {
    throw ConfigError("--workload-modes: '" + value.substr(0, eq) +
                      "' is given twice. Fix: one --workload-modes per "
                      "workload");
  }
}

}  // namespace tierbench
