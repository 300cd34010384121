#include "orchestrate/working_set.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "record/compare_setup.h"
#include "util/errors.h"
#include "util/strings.h"
#include "util/units.h"

namespace tierbench {
namespace {

[[noreturn]] void Bad(const std::string& item, const std::string& why) {
  throw ConfigError("--working-set: " + why + ". Value: '" + item +
                    "'; Fix: percentages of the cache capacity or sizes, "
                    "e.g. --working-set 25%,100%,400% or 64M,1G");
}

}  // namespace

uint64_t WorkingSet::Resolve(uint64_t cache_bytes) const {
  if (!relative) return bytes;
  return static_cast<uint64_t>(static_cast<long double>(cache_bytes) * percent /
                               100.0L);
}

std::vector<WorkingSet> ParseWorkingSets(const std::string& text) {
  std::vector<WorkingSet> out;
  std::set<std::string> seen;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item =
        TrimmedCopy(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (item.empty()) Bad(text, "an empty item");
    WorkingSet ws;
    ws.label = item;
    if (item.back() == '%') {
      const std::string number = item.substr(0, item.size() - 1);
      char* stop = nullptr;
      const double p = std::strtod(number.c_str(), &stop);
      if (number.empty() || stop != number.c_str() + number.size() ||
          !(p > 0) || p > 1e6) {
        Bad(item, "not a percentage above 0");
      }
      ws.relative = true;
      ws.percent = p;
    } else {
      uint64_t bytes = 0;
      if (!ParseSize(item, &bytes).ok() || bytes == 0) {
        Bad(item, "not a size above 0");
      }
      ws.bytes = bytes;
    }
    if (!seen.insert(item).second) Bad(item, "given twice");
    out.push_back(ws);
  }
  return out;
}

std::vector<PreparedWorkload> ExpandWorkingSets(
    const std::vector<PreparedWorkload>& workloads,
    const std::vector<WorkingSet>& sets, int64_t cache_bytes,
    uint64_t region_bytes, std::vector<std::string>* notices) {
  if (sets.empty()) return workloads;
  for (const WorkingSet& ws : sets) {
    if (ws.relative && cache_bytes <= 0) {
      throw ConfigError(
          "--working-set " + ws.label +
          " is relative to the cache capacity, but no --stack reports one "
          "(only raw modes are compared). Fix: give absolute sizes, e.g. "
          "--working-set 64M,1G, or add --stack");
    }
  }
  std::vector<PreparedWorkload> out;
  for (const PreparedWorkload& w : workloads) {
    if (w.is_db) {
      notices->push_back("workload " + w.name +
                         " is a DB workload: --working-set does not size it; "
                         "it runs once");
      out.push_back(w);
      continue;
    }
    for (const WorkingSet& ws : sets) {
      const uint64_t bytes =
          ws.Resolve(cache_bytes < 0 ? 0 : static_cast<uint64_t>(cache_bytes));
      PreparedWorkload copy = w;
      copy.name = w.name + "@" + ws.label;
      copy.working_set = ws.label;
      copy.working_set_bytes = bytes;
      for (JobSpec& j : copy.io.jobs) {
        const uint64_t offset =
            j.offset.set && !j.offset.is_percent ? j.offset.bytes : 0;
        const uint64_t block = std::max<uint64_t>(1, LargestBlock(j));
        const uint64_t size = bytes - bytes % block;
        if (size == 0) {
          throw ConfigError("--working-set " + ws.label + " (" +
                            FormatBytes(bytes) + ") is smaller than job '" +
                            j.name + "''s block size " + FormatBytes(block) +
                            ". Key: job: " + j.origin +
                            "; Fix: a larger working set");
        }
        if (region_bytes > 0 && offset + size > region_bytes) {
          throw ConfigError(
              "--working-set " + ws.label + " (" + FormatBytes(size) +
              " from offset " + FormatBytes(offset) +
              ") does not fit the "
              "smallest target (" +
              FormatBytes(region_bytes) + "). Key: job: " + j.origin +
              "; Fix: a smaller working set or larger --hdd/--ssd/stack "
              "devices");
        }
        j.size = SizeSpec{true, false, size, 0};
      }
      out.push_back(std::move(copy));
    }
  }
  return out;
}

}  // namespace tierbench
