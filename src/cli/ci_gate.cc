#include "cli/ci_gate.h"

#include <fstream>

#include "util/errors.h"

namespace tierbench {

std::vector<Expectation> ParseExpectOptions(
    const std::vector<std::string>& texts) {
  std::vector<Expectation> out;
  for (const std::string& t : texts) {
    Expectation e;
    Status s = ParseExpectation(t, &e);
    if (!s.ok()) throw ConfigError(s.message());
    out.push_back(e);
  }
  return out;
}

int JudgeExpectations(const std::vector<Expectation>& expectations,
                      const RunFolder& run, std::ostream& out,
                      std::vector<JUnitCase>* junit) {
  int failed = 0;
  for (const Expectation& e : expectations) {
    const ExpectationResult r = EvaluateExpectation(e, run);
    failed += r.passed ? 0 : 1;
    out << "  expect " << (r.passed ? "passed" : "FAILED") << ": " << e.text
        << ": " << r.why << "\n";
    JUnitCase c;
    c.classname = "expect";
    c.name = e.text;
    c.result =
        r.passed ? JUnitCase::Result::kPassed : JUnitCase::Result::kFailed;
    c.message = r.why;
    junit->push_back(c);
  }
  return failed;
}

void WriteJUnitFile(const std::string& path, const std::string& suite,
                    const std::vector<JUnitCase>& cases) {
  std::ofstream out(path);
  out << JUnitXml(suite, cases);
  out.close();
  if (!out) {
    throw SysError("Cannot write the JUnit file. Path: " + path +
                   "; Fix: a writable path for --junit");
  }
}

}  // namespace tierbench
