#include "present/expectation.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace tierbench {
namespace {

constexpr char kShape[] =
    "expected MODE/WORKLOAD[/SERIES] iops|p99 >=|>|<=|< NUMBER or "
    "[NUMBER *] MODE, e.g. 'writeback/randwrite-4k iops >= 5 * hdd'";

bool ExpectPositive(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !(v > 0)) return false;
  *out = v;
  return true;
}

std::string ExpectNum(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

const ReportFigure* ExpectedFigure(const RunFolder& run,
                                   const std::string& mode,
                                   const std::string& workload,
                                   const std::string& series) {
  for (const ReportFigure& f : run.figures()) {
    if (f.mode == mode && f.workload == workload && f.series == series) {
      return &f;
    }
  }
  return nullptr;
}

}  // namespace

Status ParseExpectation(const std::string& text, Expectation* out) {
  Expectation e;
  e.text = text;
  std::string spaced;
  for (char c : text) {
    if (c == '*') {
      spaced += " * ";
    } else {
      spaced += c;
    }
  }
  std::istringstream in(spaced);
  std::vector<std::string> t;
  for (std::string w; in >> w;) t.push_back(w);
  auto bad = [&text](const std::string& what) {
    return Status::InvalidArgument("--expect '" + text + "': " + what + "; " +
                                   kShape);
  };
  if (t.size() != 4 && t.size() != 6) return bad("wrong number of terms");
  const size_t s1 = t[0].find('/');
  if (s1 == std::string::npos || s1 == 0 || s1 + 1 == t[0].size()) {
    return bad("the cell '" + t[0] + "' is not MODE/WORKLOAD");
  }
  e.mode = t[0].substr(0, s1);
  const std::string rest = t[0].substr(s1 + 1);
  const size_t s2 = rest.find('/');
  e.workload = rest.substr(0, s2);
  if (s2 != std::string::npos) e.series = rest.substr(s2 + 1);
  if (e.workload.empty() || (s2 != std::string::npos && e.series.empty())) {
    return bad("the cell '" + t[0] + "' is not MODE/WORKLOAD[/SERIES]");
  }
  if (t[1] != "iops" && t[1] != "p99") {
    return bad("the metric '" + t[1] + "' is not iops or p99");
  }
  e.metric = t[1];
  if (t[2] != ">=" && t[2] != ">" && t[2] != "<=" && t[2] != "<") {
    return bad("the operator '" + t[2] + "' is not >=, >, <= or <");
  }
  e.op = t[2];
  if (t.size() == 6) {
    if (t[4] != "*") return bad("'" + t[4] + "' where '*' belongs");
    if (!ExpectPositive(t[3], &e.factor)) {
      return bad("the factor '" + t[3] + "' is not a number above 0");
    }
    e.ref_mode = t[5];
  } else if (!ExpectPositive(t[3], &e.ref_value)) {
    if (t[3].find_first_of("/*") != std::string::npos ||
        (t[3][0] >= '0' && t[3][0] <= '9')) {
      return bad("the reference '" + t[3] +
                 "' is neither a number above 0 "
                 "nor a mode");
    }
    e.ref_mode = t[3];
  }
  *out = e;
  return Status::Ok();
}

ExpectationResult EvaluateExpectation(const Expectation& e,
                                      const RunFolder& run) {
  ExpectationResult r;
  r.expectation = e;
  const std::string cell =
      e.mode + " on " + e.workload + (e.series.empty() ? "" : " " + e.series);
  auto value_of = [&](const std::string& mode, double* v) -> std::string {
    const ReportFigure* f = ExpectedFigure(run, mode, e.workload, e.series);
    const std::string name =
        mode + " on " + e.workload + (e.series.empty() ? "" : " " + e.series);
    if (f == nullptr) return "the run has no cell " + name;
    if (f->Invalid()) {
      return name + " is marked invalid: " + f->invalid_reasons;
    }
    *v = e.metric == "iops" ? f->iops_median : f->p99_us;
    if (!(*v > 0)) return name + " has no " + e.metric + " figure";
    return "";
  };
  double value = 0;
  std::string missing = value_of(e.mode, &value);
  if (!missing.empty()) {
    r.why = missing;
    return r;
  }
  double bound = e.ref_value;
  std::string bound_text = ExpectNum(e.ref_value);
  if (!e.ref_mode.empty()) {
    double ref = 0;
    missing = value_of(e.ref_mode, &ref);
    if (!missing.empty()) {
      r.why = missing;
      return r;
    }
    bound = e.factor * ref;
    bound_text = (e.factor != 1 ? ExpectNum(e.factor) + " x " : "") +
                 e.ref_mode + " " + ExpectNum(ref) + " = " + ExpectNum(bound);
  }
  r.passed = e.op == ">="   ? value >= bound
             : e.op == ">"  ? value > bound
             : e.op == "<=" ? value <= bound
                            : value < bound;
  const std::string unit = e.metric == "iops" ? " IOPS" : " us (p99)";
  r.why = cell + ": " + ExpectNum(value) + unit + " " + e.op + " " +
          bound_text + (r.passed ? "" : ": not so");
  return r;
}

}  // namespace tierbench
