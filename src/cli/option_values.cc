#include "cli/option_values.h"

#include <cctype>
#include <stdexcept>

#include "util/errors.h"
#include "util/units.h"

namespace tierbench {

namespace {

[[noreturn]] void BadValue(const std::string& option, const std::string& text,
                           const std::string& problem, const char* fix) {
  throw ConfigError("Bad value for " + option + ". Value: " + text +
                    (problem.empty() ? "" : "; Problem: " + problem) +
                    "; Fix: " + fix);
}

}  // namespace

uint64_t DurationOption(const std::string& option, const std::string& text) {
  uint64_t ns = 0;
  Status s = ParseDuration(text, kNsPerSec, &ns);
  if (!s.ok()) {
    BadValue(option, text, s.message(), "a duration like 30, 30s, 500ms, 2m");
  }
  return ns;
}

uint64_t SizeOption(const std::string& option, const std::string& text) {
  uint64_t bytes = 0;
  Status s = ParseSize(text, &bytes);
  if (!s.ok()) {
    BadValue(option, text, s.message(), "a size like 4g, 512m, 1073741824");
  }
  return bytes;
}

SizeSpec SizeSpecOption(const std::string& option, const std::string& text) {
  SizeSpec spec;
  spec.set = true;
  if (!text.empty() && text.back() == '%') {
    spec.is_percent = true;
    try {
      spec.percent = std::stod(text.substr(0, text.size() - 1));
    } catch (const std::exception&) {
      spec.percent = -1;
    }
    if (!(spec.percent > 0 && spec.percent <= 100)) {
      BadValue(option, text, "", "a percentage in (0%, 100%], e.g. 20%");
    }
    return spec;
  }
  uint64_t bytes = 0;
  Status s = ParseSize(text, &bytes);
  if (!s.ok()) {
    BadValue(option, text, s.message(),
             "a size like 4g, 512m, 1073741824 or 20%");
  }
  spec.bytes = bytes;
  return spec;
}

void LabelOption(const std::string& text,
                 std::map<std::string, std::string>* labels) {
  const size_t eq = text.find('=');
  const std::string key = eq == std::string::npos ? text : text.substr(0, eq);
  auto bad = [&](const std::string& problem) {
    return ConfigError("Bad value for --label. Value: " + text +
                       "; Problem: " + problem +
                       "; Fix: KEY=VALUE, e.g. --label ssd=Samsung-980");
  };
  if (eq == std::string::npos) throw bad("no '='");
  if (key.empty() || key.size() > 64)
    throw bad("the key must have 1-64 characters");
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' &&
        c != '-') {
      throw bad("the key may hold only letters, digits, '.', '_' and '-'");
    }
  }
  const std::string value = text.substr(eq + 1);
  if (value.size() > 200) throw bad("the value is longer than 200 characters");
  for (char c : value) {
    if (!std::isprint(static_cast<unsigned char>(c))) {
      throw bad("the value holds a control character");
    }
  }
  if (!labels->emplace(key, value).second)
    throw bad("key '" + key + "' given twice");
}

LabDilation LabDilationOption(const std::string& text) {
  LabDilation d;
  Status s = ParseLabDilation(text, &d);
  if (!s.ok()) {
    BadValue("--dilation", text, s.message(),
             "--dilation auto (measured, at most 4), full (measured), off "
             "(1) or a factor in [1, 1000], e.g. --dilation 8");
  }
  return d;
}

LabAccel LabAccelOption(const std::string& text, bool kvm_flag) {
  LabAccel a = LabAccel::kAuto;
  Status s = ParseLabAccel(text, &a);
  if (!s.ok()) {
    BadValue("--accel", text, s.message(),
             "--accel auto (KVM where a probe boots, else TCG), kvm or tcg");
  }
  if (kvm_flag && a == LabAccel::kTcg) {
    throw ConfigError("--kvm contradicts --accel tcg. Fix: drop one of them");
  }
  return kvm_flag ? LabAccel::kKvm : a;
}

}  // namespace tierbench
