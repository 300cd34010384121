#include "util/finding.h"

#include <algorithm>

namespace tierbench {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kNote:
      return "note";
    case Severity::kCaution:
      return "caution";
    case Severity::kUnknown:
      return "unknown";
    case Severity::kInvalid:
      return "invalid";
  }
  return "?";
}

bool ParseSeverity(const std::string& name, Severity* out) {
  for (Severity s : {Severity::kNote, Severity::kCaution, Severity::kUnknown,
                     Severity::kInvalid}) {
    if (name == SeverityName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

Validity ValidityOf(const std::vector<Finding>& findings) {
  Validity v = Validity::kValid;
  for (const Finding& f : findings) {
    if (f.severity == Severity::kInvalid) return Validity::kInvalid;
    if (f.severity == Severity::kUnknown) v = Validity::kUnknown;
  }
  return v;
}

const char* ValidityName(Validity v) {
  switch (v) {
    case Validity::kValid:
      return "yes";
    case Validity::kUnknown:
      return "unknown";
    case Validity::kInvalid:
      return "no";
  }
  return "?";
}

std::string ValidityReasons(const std::vector<Finding>& findings) {
  const Validity v = ValidityOf(findings);
  if (v == Validity::kValid) return "";
  const Severity wanted =
      v == Validity::kInvalid ? Severity::kInvalid : Severity::kUnknown;
  std::string out;
  for (const Finding& f : findings) {
    if (f.severity != wanted) continue;
    if (!out.empty()) out += "; ";
    out += f.rule + ": " + f.text;
  }
  return out;
}

std::vector<std::string> FindingTexts(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  out.reserve(findings.size());
  for (const Finding& f : findings) out.push_back(f.text);
  return out;
}

void AddFindings(const std::vector<Finding>& more, std::vector<Finding>* out) {
  for (const Finding& f : more) {
    if (std::find(out->begin(), out->end(), f) == out->end()) out->push_back(f);
  }
}

}  // namespace tierbench
