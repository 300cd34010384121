#include "cache/sysfs_values.h"

#include <limits>
#include <utility>

#include "util/elide.h"

namespace tierbench {
namespace {

// A value read from the kernel can hold anything (line breaks, a binary
// blob): the message quoting it stays one short line (util/elide.h).
Status InvalidSysfsValue(const std::string& message) {
  return Status::InvalidArgument(ElideEchoedInput(message));
}

using UInt128 = unsigned __int128;

}  // namespace

Status ParseInteger(std::string_view text, int64_t* out) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  if (s.empty()) {
    return InvalidSysfsValue("bad integer '" + std::string(text) + "'");
  }
  UInt128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') {
      return InvalidSysfsValue("bad integer '" + std::string(text) + "'");
    }
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > UInt128{std::numeric_limits<int64_t>::max()}) {
      return InvalidSysfsValue("integer out of range '" + std::string(text) +
                               "'");
    }
  }
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return Status::Ok();
}

Status ParseBracketChoice(std::string_view text, std::string* selected,
                          std::vector<std::string>* options) {
  std::vector<std::string> words;
  std::string chosen;
  int bracketed = 0;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' &&
           text[end] != '\n') {
      ++end;
    }
    std::string_view word = text.substr(i, end - i);
    i = end;
    if (word.front() == '[' || word.back() == ']') {
      if (word.size() < 3 || word.front() != '[' || word.back() != ']') {
        return InvalidSysfsValue("bad choice list '" + std::string(text) + "'");
      }
      word = word.substr(1, word.size() - 2);
      ++bracketed;
      chosen = std::string(word);
    }
    if (word.find_first_of("[]") != std::string_view::npos) {
      return InvalidSysfsValue("bad choice list '" + std::string(text) + "'");
    }
    words.emplace_back(word);
  }
  if (bracketed != 1) {
    return InvalidSysfsValue("choice list '" + std::string(text) +
                             "' must have exactly one [selected] word");
  }
  *selected = chosen;
  if (options != nullptr) *options = std::move(words);
  return Status::Ok();
}

}  // namespace tierbench
