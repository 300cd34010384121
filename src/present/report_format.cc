#include "present/report_format.h"

#include <cmath>
#include <cstdio>

namespace tierbench {

std::string GroupedNumber(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s == "-0" || s.rfind("-0.", 0) == 0) {
    if (s.find_first_of("123456789") == std::string::npos) s.erase(0, 1);
  }
  const size_t sign = (!s.empty() && s[0] == '-') ? 1 : 0;
  size_t end = s.find('.');
  if (end == std::string::npos) end = s.size();
  for (size_t i = end; i > sign + 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

std::string FormatRate(double v) {
  const double a = std::fabs(v);
  return GroupedNumber(v, a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

std::string FormatLatencyUs(double us) {
  if (us >= 1e6) return GroupedNumber(us / 1e6, 2) + " s";
  if (us >= 1e3) return GroupedNumber(us / 1e3, us >= 1e5 ? 0 : 1) + " ms";
  return GroupedNumber(us, us >= 10 ? 0 : 1) + " us";
}

std::string FormatSeconds(double s) {
  return GroupedNumber(s, std::fabs(s) >= 10 ? 0 : 1) + " s";
}

std::string FormatPct(double pct) {
  return GroupedNumber(pct, std::fabs(pct) >= 1 ? 0 : 1) + "%";
}

std::string FormatTimes(double change_pct) {
  const double x = 1 + change_pct / 100;
  return GroupedNumber(x, std::fabs(x) >= 10 ? 0 : 1) + "x";
}

std::string Slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "x" : out;
}

std::string JoinList(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

}  // namespace tierbench
