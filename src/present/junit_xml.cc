#include "present/junit_xml.h"

#include "util/xml_escape.h"

namespace tierbench {

std::string JUnitXml(const std::string& suite,
                     const std::vector<JUnitCase>& cases) {
  int failures = 0, skipped = 0;
  for (const JUnitCase& c : cases) {
    failures += c.result == JUnitCase::Result::kFailed ? 1 : 0;
    skipped += c.result == JUnitCase::Result::kSkipped ? 1 : 0;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites>\n";
  x += "  <testsuite name=\"" + XmlEscape(suite) + "\" tests=\"" +
       std::to_string(cases.size()) + "\" failures=\"" +
       std::to_string(failures) + "\" errors=\"0\" skipped=\"" +
       std::to_string(skipped) + "\">\n";
  for (const JUnitCase& c : cases) {
    x += "    <testcase classname=\"" + XmlEscape(c.classname) + "\" name=\"" +
         XmlEscape(c.name) + "\"";
    switch (c.result) {
      case JUnitCase::Result::kPassed:
        x += ">\n      <system-out>" + XmlEscape(c.message) +
             "</system-out>\n    </testcase>\n";
        break;
      case JUnitCase::Result::kFailed:
        x += ">\n      <failure message=\"" + XmlEscape(c.message) + "\">" +
             XmlEscape(c.message) + "</failure>\n    </testcase>\n";
        break;
      case JUnitCase::Result::kSkipped:
        x += ">\n      <skipped message=\"" + XmlEscape(c.message) +
             "\"/>\n    </testcase>\n";
        break;
    }
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

}  // namespace tierbench
