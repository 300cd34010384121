// Helpers of the SVG structure tests on top of XmlCheck (xml_check.h):
// ParsedSvg() parses a chart and fails the calling test when it is not
// well-formed XML; HasText() finds text in the elements of a class.
// Header-only test helper.
#ifndef TIERBENCH_TESTS_SUPPORT_SVG_CHECK_H_
#define TIERBENCH_TESTS_SUPPORT_SVG_CHECK_H_

#include <gtest/gtest.h>

#include <string>

#include "support/xml_check.h"

namespace tierbench {

// `svg` parsed; a parse error fails the test (with the document's start).
inline XmlCheck ParsedSvg(const std::string& svg) {
  XmlCheck x;
  const std::string err = x.Parse(svg);
  EXPECT_EQ(err, "") << svg.substr(0, 400);
  return x;
}

// Whether the direct text of an element of class `cls` contains `needle`.
inline bool HasText(const XmlCheck& x, const std::string& cls,
                    const std::string& needle) {
  for (const XmlCheck::Element* e : x.WithClass(cls)) {
    if (e->text.find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_SVG_CHECK_H_
