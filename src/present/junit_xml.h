// JUnitXml: a JUnit XML report (the schema Jenkins, GitLab and GitHub
// test reporters read) of one test suite, for CI systems to show which
// cases of a `tierbench check` failed.
//
// <testsuites><testsuite name tests failures skipped><testcase classname
// name> with <failure message>TEXT</failure> or <skipped message/> per
// case, <system-out> with the case's text for passed ones. Text is escaped
// for XML (util/xml_escape.h).
// Thread-safety: pure.
#ifndef TIERBENCH_PRESENT_JUNIT_XML_H_
#define TIERBENCH_PRESENT_JUNIT_XML_H_

#include <string>
#include <vector>

namespace tierbench {

struct JUnitCase {
  enum class Result { kPassed, kFailed, kSkipped };
  std::string classname;  // e.g. the workload
  std::string name;
  Result result = Result::kPassed;
  std::string message;  // one line (the failure's or skip's reason)
};

std::string JUnitXml(const std::string& suite,
                     const std::vector<JUnitCase>& cases);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_JUNIT_XML_H_
