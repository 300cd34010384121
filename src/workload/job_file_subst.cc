#include "workload/job_file_subst.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace tierbench {
namespace {

std::string KeywordValue(std::string_view word) {
  if (word == "$pagesize") return std::to_string(sysconf(_SC_PAGESIZE));
  if (word == "$mb_memory") {
    const long double bytes =
        static_cast<long double>(sysconf(_SC_PHYS_PAGES)) *
        static_cast<long double>(sysconf(_SC_PAGESIZE));
    return std::to_string(static_cast<unsigned long long>(bytes / (1 << 20)));
  }
  return std::to_string(sysconf(_SC_NPROCESSORS_CONF));  // $ncpus
}

}  // namespace

ExpandedLine ExpandLine(std::string_view line) {
  ExpandedLine out;
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '$' && i + 1 < line.size() && line[i + 1] == '{') {
      const size_t close = line.find('}', i + 2);
      if (close != std::string_view::npos && close > i + 2) {
        const std::string name(line.substr(i + 2, close - i - 2));
        const char* value = std::getenv(name.c_str());
        if (value != nullptr && *value != '\0') {
          out.text += value;
        } else if (out.note.empty()) {
          out.note = "${" + name + "} is " + (value ? "empty" : "unset");
        }
        i = close + 1;
        continue;
      }
    }
    if (line[i] == '$') {
      bool replaced = false;
      for (std::string_view word : {"$pagesize", "$mb_memory", "$ncpus"}) {
        if (line.substr(i, word.size()) == word) {
          out.text += KeywordValue(word);
          i += word.size();
          replaced = true;
          break;
        }
      }
      if (replaced) continue;
    }
    out.text += line[i++];
  }
  return out;
}

}  // namespace tierbench
