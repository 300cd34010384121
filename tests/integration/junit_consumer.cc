#include "junit_consumer.h"

#include <sstream>

#include "test_env.h"

namespace tierbench::testing {

bool HaveJunitparser() {
  return RunShell(
             "/usr/bin/python3 -c 'from junitparser import JUnitXml' "
             ">/dev/null") == 0;
}

JUnitParsed ReadWithJunitparser(const std::string& path) {
  JUnitParsed r;
  std::string out;
  const int rc =
      RunShell("/usr/bin/python3 " + std::string(TIERBENCH_SOURCE_DIR) +
                   "/tests/support/junit_counts.py '" + path + "'",
               &out);
  std::istringstream in(out);
  std::string key;
  while (in >> key) {
    JUnitCounts* c = key == "declared"  ? &r.declared
                     : key == "counted" ? &r.counted
                                        : nullptr;
    if (c != nullptr) {
      in >> c->tests >> c->failures >> c->errors >> c->skipped;
    } else if (key == "suites") {
      in >> r.suites;
    } else {
      break;
    }
  }
  if (rc != 0 || r.suites == 0 || r.counted.tests < 0) {
    r.error = "junitparser (exit " + std::to_string(rc) + "): " + out;
  }
  return r;
}

std::string ToString(const JUnitCounts& c) {
  return "tests " + std::to_string(c.tests) + ", failures " +
         std::to_string(c.failures) + ", errors " + std::to_string(c.errors) +
         ", skipped " + std::to_string(c.skipped);
}

}  // namespace tierbench::testing
