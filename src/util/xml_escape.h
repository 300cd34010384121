// XmlEscape: text made safe for an XML 1.0 element or attribute (the SVG
// charts, the JUnit file): & < > " ' become entities, and the control
// characters XML 1.0 does not allow (all below 0x20 but tab and newline)
// are dropped. Pure.
#ifndef TIERBENCH_UTIL_XML_ESCAPE_H_
#define TIERBENCH_UTIL_XML_ESCAPE_H_

#include <string>

namespace tierbench {

std::string XmlEscape(const std::string& text);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_XML_ESCAPE_H_
