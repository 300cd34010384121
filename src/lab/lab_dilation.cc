#include "lab/lab_dilation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace tierbench {

Status ParseLabDilation(const std::string& text, LabDilation* out) {
  if (text == "auto") {
    *out = {LabDilation::Mode::kAuto, 1};
    return Status::Ok();
  }
  if (text == "full") {
    *out = {LabDilation::Mode::kFull, 1};
    return Status::Ok();
  }
  if (text == "off") {
    *out = {LabDilation::Mode::kOff, 1};
    return Status::Ok();
  }
  const char* begin = text.c_str();
  char* end = nullptr;
  const double f = text.empty() ? NAN : std::strtod(begin, &end);
  if (text.empty() || end != begin + text.size() || !std::isfinite(f)) {
    return Status::InvalidArgument("not auto, full, off or a number");
  }
  if (f < 1 || f > kLabMaxDilation) {
    return Status::InvalidArgument("the factor must be in [1, 1000]");
  }
  *out = {LabDilation::Mode::kFixed, RoundLabDilation(f)};
  return Status::Ok();
}

std::string LabDilationName(const LabDilation& d) {
  switch (d.mode) {
    case LabDilation::Mode::kAuto:
      return "auto";
    case LabDilation::Mode::kFull:
      return "full";
    case LabDilation::Mode::kOff:
      return "off";
    case LabDilation::Mode::kFixed:
      break;
  }
  return FormatLabDilationFactor(d.factor);
}

double RoundLabDilation(double raw) {
  if (!(raw >= 1)) return 1;  // also NaN
  if (raw >= kLabMaxDilation) return kLabMaxDilation;
  return static_cast<double>(std::llround(raw * 100)) / 100;
}

std::string FormatLabDilationFactor(double f) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", f);
  return buf;
}

double LabCpuSlowdown(uint64_t guest_ns, uint64_t host_ns) {
  if (host_ns == 0) return 0;
  return static_cast<double>(guest_ns) / static_cast<double>(host_ns);
}

double LabDilationFactor(const LabDilation& setting, uint64_t guest_ns,
                         uint64_t host_ns) {
  switch (setting.mode) {
    case LabDilation::Mode::kAuto:
      return std::min(kLabAutoDilationCap,
                      RoundLabDilation(LabCpuSlowdown(guest_ns, host_ns)));
    case LabDilation::Mode::kFull:
      return RoundLabDilation(LabCpuSlowdown(guest_ns, host_ns));
    case LabDilation::Mode::kOff:
      return 1;
    case LabDilation::Mode::kFixed:
      break;
  }
  return RoundLabDilation(setting.factor);
}

uint64_t DilateLabLimit(uint64_t limit, double f) {
  if (limit == 0) return 0;
  const long long v = std::llround(static_cast<double>(limit) / f);
  return v < 1 ? 1 : static_cast<uint64_t>(v);
}

LabLimits DilateLabLimits(const LabLimits& real, double f) {
  return {DilateLabLimit(real.hdd_iops, f), DilateLabLimit(real.hdd_bw, f),
          DilateLabLimit(real.ssd_iops, f), DilateLabLimit(real.ssd_bw, f)};
}

Status ParseLabCalibration(const std::string& payload, uint64_t* total_ns,
                           CpuLoopTimes* parts) {
  std::istringstream in(payload);
  std::string word;
  std::set<std::string> seen;
  uint64_t ns = 0;
  CpuLoopTimes t;
  while (in >> word) {
    const size_t eq = word.find('=');
    const std::string key = word.substr(0, eq);
    if (eq == std::string::npos || eq + 1 == word.size()) {
      return Status::InvalidArgument("'" + word + "' is not KEY=NUMBER");
    }
    uint64_t value = 0;
    const char* first = word.data() + eq + 1;
    const char* last = word.data() + word.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last) {
      return Status::InvalidArgument("'" + word + "': not a whole number");
    }
    if (!seen.insert(key).second) {
      return Status::InvalidArgument("'" + key + "' given twice");
    }
    if (key == "ns") {
      ns = value;
    } else if (key == "memory_ns") {
      t.memory_ns = value;
    } else if (key == "integer_ns") {
      t.integer_ns = value;
    } else if (key == "syscall_ns") {
      t.syscall_ns = value;
    } else {
      return Status::InvalidArgument("unknown key '" + key + "'");
    }
  }
  if (ns == 0) return Status::InvalidArgument("no ns=N above 0");
  *total_ns = ns;
  *parts = t;
  return Status::Ok();
}

std::vector<std::pair<std::string, std::string>> LabDilationLabels(
    const LabDilation& setting, double f, double slowdown,
    const LabLimits& effective) {
  const char* mode = setting.mode == LabDilation::Mode::kAuto   ? "auto"
                     : setting.mode == LabDilation::Mode::kFull ? "full"
                     : setting.mode == LabDilation::Mode::kOff  ? "off"
                                                                : "fixed";
  return {{"lab.dilation", FormatLabDilationFactor(f)},
          {"lab.dilation_mode", mode},
          {"lab.cpu_slowdown", FormatLabDilationFactor(slowdown)},
          {"lab.hdd_iops", std::to_string(effective.hdd_iops)},
          {"lab.hdd_bw", std::to_string(effective.hdd_bw)},
          {"lab.ssd_iops", std::to_string(effective.ssd_iops)},
          {"lab.ssd_bw", std::to_string(effective.ssd_bw)}};
}

Status LabHostAnswerLine(
    const std::vector<std::pair<std::string, std::string>>& labels,
    std::string* line) {
  std::string s = "@@HOST:labels";
  for (const auto& [key, value] : labels) {
    const std::string kv = key + "=" + value;
    if (key.empty() || kv.find_first_of(" \t\r\n") != std::string::npos) {
      return Status::InvalidArgument("label '" + kv +
                                     "' is empty or holds a blank");
    }
    s += " " + kv;
  }
  *line = s;
  return Status::Ok();
}

}  // namespace tierbench
