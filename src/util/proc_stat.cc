#include "util/proc_stat.h"

#include <charconv>
#include <string>
#include <vector>

namespace tierbench {
namespace {

// Whitespace-separated fields of `line`.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool ParseU64(std::string_view s, uint64_t* v) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

Status ParseCpuTimes(std::string_view text, CpuTimes* out) {
  CpuTimes t;
  bool seen = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.starts_with("cpu")) continue;
    const std::vector<std::string_view> f = Fields(line);
    if (f.empty()) continue;
    if (f[0] != "cpu") {
      ++t.cpus;
      continue;
    }
    if (f.size() < 5) {
      return Status::InvalidArgument(
          "/proc/stat: the cpu line has fewer than 4 fields");
    }
    uint64_t* dst[] = {&t.user,   &t.nice, &t.system,  &t.idle,
                       &t.iowait, &t.irq,  &t.softirq, &t.steal};
    for (size_t i = 1; i < f.size() && i <= 8; ++i) {
      if (!ParseU64(f[i], dst[i - 1])) {
        return Status::InvalidArgument(
            "/proc/stat: cpu field " + std::to_string(i) +
            " is not a number: '" + std::string(f[i]) + "'");
      }
    }
    seen = true;
  }
  if (!seen) return Status::InvalidArgument("/proc/stat: no cpu line");
  *out = t;
  return Status::Ok();
}

Status ReadCpuTimes(const Sysfs& os, CpuTimes* out) {
  std::string text;
  Status s = os.Read("proc/stat", &text);
  if (!s.ok()) return s;
  return ParseCpuTimes(text, out);
}

bool DiffCpuTimes(const CpuTimes& b, const CpuTimes& a, CpuUse* out) {
  const uint64_t* before[] = {&b.user,   &b.nice, &b.system,  &b.idle,
                              &b.iowait, &b.irq,  &b.softirq, &b.steal};
  const uint64_t* after[] = {&a.user,   &a.nice, &a.system,  &a.idle,
                             &a.iowait, &a.irq,  &a.softirq, &a.steal};
  for (int i = 0; i < 8; ++i) {
    if (*after[i] < *before[i]) return false;
  }
  const double total = static_cast<double>(a.Total() - b.Total());
  if (total <= 0) return false;
  out->busy_pct = 100.0 * static_cast<double>(a.Busy() - b.Busy()) / total;
  out->steal_pct = 100.0 * static_cast<double>(a.steal - b.steal) / total;
  out->iowait_pct = 100.0 * static_cast<double>(a.iowait - b.iowait) / total;
  return true;
}

}  // namespace tierbench
