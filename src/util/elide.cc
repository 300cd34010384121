#include "util/elide.h"

#include <cctype>

namespace tierbench {

std::string ElideEchoedInput(const std::string& message, size_t max_token) {
  const size_t keep = max_token > 40 ? max_token - 20 : max_token / 2;
  std::string out;
  out.reserve(message.size() < 4 * max_token ? message.size() : 4 * max_token);
  size_t i = 0;
  while (i < message.size()) {
    const unsigned char c = static_cast<unsigned char>(message[i]);
    if (std::isspace(c)) {
      out += c == '\n' || c == '\r' ? ' ' : static_cast<char>(c);
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() &&
           !std::isspace(static_cast<unsigned char>(message[end])))
      ++end;
    const size_t len = end - i;
    // A path ("/dev/...", "'/srv/jobs/...") names the file: more room.
    const bool path = message[i] == '/' ||
                      (len > 1 && message[i] == '\'' && message[i + 1] == '/');
    const size_t max = path ? 4 * max_token : max_token;
    const size_t take = len > max ? (path ? max - 20 : keep) : len;
    for (size_t k = i; k < i + take; ++k) {
      const unsigned char t = static_cast<unsigned char>(message[k]);
      out += t < 0x20 || t == 0x7f ? '?' : static_cast<char>(t);
    }
    if (len > max) out += "...[" + std::to_string(len - take) + " more bytes]";
    i = end;
  }
  const size_t limit = 16 * max_token;
  if (out.size() > limit) {
    const size_t head = limit / 2;
    const size_t tail = limit / 4;
    out = out.substr(0, head) + "...[" +
          std::to_string(out.size() - head - tail) + " bytes elided]..." +
          out.substr(out.size() - tail);
  }
  return out;
}

}  // namespace tierbench
