#include "util/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "util/strings.h"

namespace tierbench {
namespace {

// 'text' in quotes for messages. Built by appending: GCC 12 -O3 reports a
// false -Wrestrict on "'" + std::string(...) (operator+ with a literal
// first inserts at position 0).
std::string Quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out.append(text);
  out += '\'';
  return out;
}

// Splits "12.5KiB" into number text "12.5" and unit text "KiB".
bool SplitNumber(std::string_view s, std::string_view* number,
                 std::string_view* unit) {
  size_t i = 0;
  bool digits = false;
  while (i < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) {
    if (s[i] != '.') digits = true;
    ++i;
  }
  if (!digits) return false;
  *number = s.substr(0, i);
  *unit = Trim(s.substr(i));
  return true;
}

bool ParseDecimal(std::string_view text, long double* out) {
  std::string buf(text);
  if (std::count(buf.begin(), buf.end(), '.') > 1) return false;
  char* end = nullptr;
  *out = std::strtold(buf.c_str(), &end);
  return end != nullptr && *end == '\0';
}

}  // namespace

Status ParseSize(std::string_view text, uint64_t* out) {
  return ParseSize(text, 1024, out);
}

Status ParseSize(std::string_view text, uint32_t kb_base, uint64_t* out) {
  const long double si = kb_base == 1000 ? 1000.0L : 1024.0L;
  const long double iec = kb_base == 1000 ? 1024.0L : 1000.0L;
  std::string_view s = Trim(text);
  std::string_view number, unit;
  if (!SplitNumber(s, &number, &unit)) {
    return Status::InvalidArgument(Quoted(text) +
                                   " is not a size (expected e.g. 4k, 1M, 2G)");
  }
  std::string u = Lower(unit);
  long double mult = 1;
  if (u.empty() || u == "b") {
    mult = 1;
  } else {
    static const char kPrefixes[] = "kmgtpe";
    const char* p = std::strchr(kPrefixes, u[0]);
    if (p == nullptr || u[0] == '\0') {
      return Status::InvalidArgument(Quoted(text) +
                                     " has an unknown size unit '" +
                                     std::string(unit) + "'");
    }
    int power = static_cast<int>(p - kPrefixes) + 1;
    std::string rest = u.substr(1);
    if (rest.empty() || rest == "b") {
      mult = std::pow(si, power);  // fio kb_base=1024: SI prefix = 2^10.
    } else if (rest == "i" || rest == "ib") {
      mult = std::pow(iec, power);  // fio kb_base=1024: IEC prefix = 10^3.
    } else {
      return Status::InvalidArgument(Quoted(text) +
                                     " has an unknown size unit '" +
                                     std::string(unit) + "'");
    }
  }
  long double value = 0;
  if (!ParseDecimal(number, &value)) {
    return Status::InvalidArgument(Quoted(text) + " is not a size");
  }
  long double bytes = value * mult;
  if (bytes > static_cast<long double>(std::numeric_limits<uint64_t>::max())) {
    return Status::InvalidArgument(Quoted(text) + " is too large");
  }
  if (bytes != std::floor(bytes)) {
    return Status::InvalidArgument(Quoted(text) +
                                   " is not a whole number of bytes");
  }
  *out = static_cast<uint64_t>(bytes);
  return Status::Ok();
}

Status ParseDuration(std::string_view text, uint64_t default_unit_ns,
                     uint64_t* out_ns) {
  std::string_view s = Trim(text);
  std::string_view number, unit;
  if (!SplitNumber(s, &number, &unit)) {
    return Status::InvalidArgument(
        Quoted(text) + " is not a duration (expected e.g. 30, 30s, 500ms, 2m)");
  }
  std::string u = Lower(unit);
  long double mult;
  if (u.empty()) {
    mult = static_cast<long double>(default_unit_ns);
  } else if (u == "ns" || u == "nsec") {
    mult = 1;
  } else if (u == "us" || u == "usec") {
    mult = kNsPerUs;
  } else if (u == "ms" || u == "msec") {
    mult = kNsPerMs;
  } else if (u == "s" || u == "sec") {
    mult = kNsPerSec;
  } else if (u == "m" || u == "min") {
    mult = 60.0L * kNsPerSec;
  } else if (u == "h" || u == "hour") {
    mult = 3600.0L * kNsPerSec;
  } else if (u == "d" || u == "day") {
    mult = 86400.0L * kNsPerSec;
  } else {
    return Status::InvalidArgument(
        Quoted(text) + " has an unknown time unit '" + std::string(unit) +
        "' (use us, ms, s, m, h)");
  }
  long double value = 0;
  if (!ParseDecimal(number, &value)) {
    return Status::InvalidArgument(Quoted(text) + " is not a duration");
  }
  long double ns = value * mult;
  if (ns > static_cast<long double>(std::numeric_limits<uint64_t>::max())) {
    return Status::InvalidArgument(Quoted(text) + " is too long");
  }
  *out_ns = static_cast<uint64_t>(std::llround(ns));
  return Status::Ok();
}

std::string FormatBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  long double v = static_cast<long double>(bytes);
  int u = 0;
  while (v >= 1024.0L && u < 6) {
    v /= 1024.0L;
    ++u;
  }
  char buf[64];
  if (u == 0 || v >= 100.0L || v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0Lf%s", v, kUnits[u]);
  } else if (v >= 10.0L) {
    std::snprintf(buf, sizeof buf, "%.1Lf%s", v, kUnits[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.2Lf%s", v, kUnits[u]);
  }
  return buf;
}

std::string FormatBandwidth(double bytes_per_sec) {
  if (bytes_per_sec < 0) bytes_per_sec = 0;
  return FormatBytes(static_cast<uint64_t>(std::llround(bytes_per_sec))) + "/s";
}

std::string FormatDuration(uint64_t ns) {
  char buf[64];
  if (ns < kNsPerUs) {
    std::snprintf(buf, sizeof buf, "%lluns",
                  static_cast<unsigned long long>(ns));
  } else if (ns < kNsPerMs) {
    std::snprintf(buf, sizeof buf, "%.3gus",
                  static_cast<double>(ns) / kNsPerUs);
  } else if (ns < kNsPerSec) {
    std::snprintf(buf, sizeof buf, "%.3gms",
                  static_cast<double>(ns) / kNsPerMs);
  } else {
    std::snprintf(buf, sizeof buf, "%.3gs",
                  static_cast<double>(ns) / kNsPerSec);
  }
  return buf;
}

}  // namespace tierbench
