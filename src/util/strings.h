// Small string helpers shared by the parsers (job files, sysfs values, units,
// lab options). Pure functions; thread-safe.
#ifndef TIERBENCH_UTIL_STRINGS_H_
#define TIERBENCH_UTIL_STRINGS_H_

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace tierbench {

// `s` without leading and trailing white space (std::isspace: blanks, tabs,
// CR, LF, VT, FF). The view points into `s`.
inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

// Trim() as a string of its own.
inline std::string TrimmedCopy(std::string_view s) {
  return std::string(Trim(s));
}

// ASCII lower case of `s`.
inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// `s` cut at every `sep`, each part trimmed; "" gives one empty part, and
// so does each empty field ("a,,b" -> "a", "", "b").
inline std::vector<std::string> SplitTrimmed(std::string_view s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(sep, start);
    parts.push_back(TrimmedCopy(s.substr(start, end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_STRINGS_H_
