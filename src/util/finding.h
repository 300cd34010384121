// Finding: one thing a rule concluded about a measured cell, with how much
// it matters for the cell's figure. Every diagnosis rule of tierbench (the
// measurement's, the cache layers', the host's, the database's and the
// run's) returns Findings; the cell's validity is derived from them and
// from nothing else (validity/README in results/README.md "Validity").
//
// Severities, from weakest to strongest:
//   note     explains a figure; the figure stands (e.g. dm-cache splits
//            large IO at its block size);
//   caution  the figure is what the layer did, but a reader needs the
//            reason to read it right (e.g. bcache sent sequential IO past
//            the cache): shown with the figure, the figure is ranked;
//   unknown  a rule could not get its evidence (a counter missing, a file
//            unreadable): the cell's validity is "unknown", never "yes";
//   invalid  the evidence says the cell did not measure the question asked
//            of it (e.g. a cold cache measured the origin, the CPUs were
//            the bottleneck): the figure is kept in the CSVs and never
//            ranked or quoted as a ratio.
//
// Value types and pure functions; thread-safe.
#ifndef TIERBENCH_UTIL_FINDING_H_
#define TIERBENCH_UTIL_FINDING_H_

#include <string>
#include <vector>

namespace tierbench {

enum class Severity { kNote, kCaution, kUnknown, kInvalid };

// "note", "caution", "unknown", "invalid".
const char* SeverityName(Severity s);
// The inverse of SeverityName; false for any other text.
bool ParseSeverity(const std::string& name, Severity* out);

struct Finding {
  std::string rule;  // stable id, e.g. "cold-reads", "bcache.cutoff"
  Severity severity = Severity::kCaution;
  std::string text;  // one line, without ';' (the warning as printed)

  bool operator==(const Finding&) const = default;
};

// The cell's verdict: invalid when any finding is invalid, else unknown
// when any is unknown, else valid.
enum class Validity { kValid, kUnknown, kInvalid };

Validity ValidityOf(const std::vector<Finding>& findings);

// The `valid` column's values: "yes", "unknown", "no".
const char* ValidityName(Validity v);

// The reasons behind ValidityOf(findings), "rule: text" joined with "; ":
// the invalid findings when there are any, else the unknown ones; "" for a
// valid cell.
std::string ValidityReasons(const std::vector<Finding>& findings);

// The texts of `findings` in order (the `warnings` column's items).
std::vector<std::string> FindingTexts(const std::vector<Finding>& findings);

// Appends the findings of `more` to *out, skipping any already there (same
// rule and text).
void AddFindings(const std::vector<Finding>& more, std::vector<Finding>* out);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_FINDING_H_
