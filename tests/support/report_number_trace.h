// Traces the numbers of a text (summary.md) back to a run folder: every
// number must be a value of runs.csv, comparison.csv or manifest.json after
// rounding, directly or through the unit changes and ratios summary.md
// applies (us -> ms -> s, ns -> s, change % -> "Nx", change % -> "% of"),
// or a digit string inside their text cells (names like randread-4k).
// Header-only test helper.
#ifndef TIERBENCH_TESTS_SUPPORT_REPORT_NUMBER_TRACE_H_
#define TIERBENCH_TESTS_SUPPORT_REPORT_NUMBER_TRACE_H_

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "present/run_folder.h"

namespace tierbench {

struct Number {
  std::string text;  // without thousands separators
  int decimals = 0;
};

// Numbers in `text`; with `figures_only`, digits glued to a letter or '_'
// before them (p99, bcache0, clat_p99_9_us) are names, not figures, and so
// is the confidence level of "95% CI" / "95% confidence" (the method's
// constant, stats/confidence.h, not a measured figure).
inline std::vector<Number> NumbersIn(const std::string& text,
                                     bool figures_only) {
  static const std::regex kNumber(R"((\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?)");
  std::vector<Number> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kNumber);
       it != std::sregex_iterator(); ++it) {
    const size_t pos = static_cast<size_t>(it->position());
    if (figures_only && pos > 0) {
      const char before = text[pos - 1];
      if (std::isalpha(static_cast<unsigned char>(before)) || before == '_')
        continue;
    }
    if (figures_only) {
      const std::string after = text.substr(pos + it->str().size(),
                                            std::string("% confidence").size());
      if (it->str() == "95" &&
          (after.rfind("% CI", 0) == 0 || after == "% confidence"))
        continue;
    }
    Number n;
    for (char c : it->str()) {
      if (c != ',') n.text += c;
    }
    n.decimals = (*it)[2].matched ? static_cast<int>((*it)[2].length()) - 1 : 0;
    out.push_back(n);
  }
  return out;
}

inline std::string Rounded(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
  return buf;
}

// Every value of the run folder: numeric cells and manifest numbers (with
// the unit changes and ratios summary.md applies), and every digit string
// inside text cells and manifest strings (names such as randread-4k).
class Sources {
 public:
  explicit Sources(const RunFolder& run) {
    for (const CsvDocument* doc : {&run.runs(), &run.comparison()}) {
      for (const auto& row : doc->rows()) {
        for (const std::string& cell : row) AddText(cell);
      }
    }
    AddJson(run.manifest());
  }

  // Adds the cells of another file (merged.csv of a fleet report).
  void Add(const CsvDocument& doc) {
    for (const auto& row : doc.rows()) {
      for (const std::string& cell : row) AddText(cell);
    }
  }

  bool Has(const Number& n) const {
    if (literal_.count(n.text)) return true;
    for (double v : values_) {
      for (double t : {v, v / 1e3, v / 1e6, v / 1e9, 1 + v / 100, 100 + v}) {
        if (Rounded(t, n.decimals) == n.text) return true;
      }
    }
    return false;
  }

 private:
  void AddText(const std::string& cell) {
    char* end = nullptr;
    const double v = std::strtod(cell.c_str(), &end);
    if (!cell.empty() && *end == '\0') values_.push_back(v);
    for (const Number& n : NumbersIn(cell, false)) literal_.insert(n.text);
  }
  void AddJson(const nlohmann::json& j) {
    if (j.is_object() || j.is_array()) {
      for (const auto& item : j) AddJson(item);
    } else if (j.is_number()) {
      values_.push_back(j.get<double>());
    } else if (j.is_string()) {
      AddText(j.get<std::string>());
    }
  }

  std::vector<double> values_;
  std::set<std::string> literal_;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_REPORT_NUMBER_TRACE_H_
