#include "db/process_cpu.h"

#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "util/strings.h"

namespace tierbench {
namespace {

template <typename T>
bool ParseWholeNumber(std::string_view text, T* out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

// The blank-separated words of `text`.
std::vector<std::string_view> BlankSeparated(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t') ++j;
    if (j > i) words.push_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

bool IsPid(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

Status ReadStat(const Sysfs& os, const std::string& pid, ProcStat* out) {
  std::string text;
  const std::string rel = "proc/" + pid + "/stat";
  Status s = os.Read(rel, &text);
  if (!s.ok()) return s;
  s = ParseProcStat(text, out);
  if (!s.ok()) {
    return Status::InvalidArgument(os.Path(rel) + ": " + s.message());
  }
  return Status::Ok();
}

}  // namespace

Status ParseProcStat(std::string_view text, ProcStat* out) {
  text = Trim(text);
  const size_t open = text.find('(');
  const size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos ||
      close < open) {
    return Status::InvalidArgument(
        "not a /proc/<pid>/stat line: no \"(comm)\"");
  }
  ProcStat st;
  if (!ParseWholeNumber(Trim(text.substr(0, open)), &st.pid)) {
    return Status::InvalidArgument("/proc/<pid>/stat: bad pid (field 1)");
  }
  st.comm = std::string(text.substr(open + 1, close - open - 1));
  // words[k] is field k + 3 (state is field 3).
  const std::vector<std::string_view> words =
      BlankSeparated(text.substr(close + 1));
  if (words.size() < 15) {
    return Status::InvalidArgument(
        "/proc/<pid>/stat: " + std::to_string(words.size() + 2) +
        " fields, need at least 17");
  }
  if (words[0].size() != 1) {
    return Status::InvalidArgument("/proc/<pid>/stat: bad state (field 3)");
  }
  st.state = words[0][0];
  struct Field {
    int number;
    uint64_t* value;
  } fields[] = {
      {14, &st.utime}, {15, &st.stime}, {16, &st.cutime}, {17, &st.cstime}};
  if (!ParseWholeNumber(words[1], &st.ppid)) {
    return Status::InvalidArgument("/proc/<pid>/stat: bad ppid (field 4)");
  }
  for (const Field& f : fields) {
    if (!ParseWholeNumber(words[f.number - 3], f.value)) {
      return Status::InvalidArgument("/proc/<pid>/stat: bad CPU time (field " +
                                     std::to_string(f.number) + ")");
    }
  }
  *out = std::move(st);
  return Status::Ok();
}

Status ParseMemTotal(std::string_view meminfo, int64_t* bytes) {
  size_t start = 0;
  while (start < meminfo.size()) {
    size_t end = meminfo.find('\n', start);
    if (end == std::string_view::npos) end = meminfo.size();
    std::string_view line = meminfo.substr(start, end - start);
    start = end + 1;
    constexpr std::string_view kKey = "MemTotal:";
    if (line.substr(0, kKey.size()) != kKey) continue;
    const std::vector<std::string_view> words =
        BlankSeparated(Trim(line.substr(kKey.size())));
    int64_t kib = 0;
    if (words.size() != 2 || words[1] != "kB" ||
        !ParseWholeNumber(words[0], &kib) || kib <= 0 ||
        kib > INT64_MAX / 1024) {
      return Status::InvalidArgument(
          "meminfo: MemTotal is not \"<number> kB\": " + std::string(line));
    }
    *bytes = kib * 1024;
    return Status::Ok();
  }
  return Status::InvalidArgument("meminfo: no MemTotal line");
}

int64_t ReadMemTotalBytes(const Sysfs& os) {
  std::string text;
  int64_t bytes = -1;
  if (!os.Read("proc/meminfo", &text).ok()) return -1;
  if (!ParseMemTotal(text, &bytes).ok()) return -1;
  return bytes;
}

Status ReadProcessFamilyCpuTicks(const Sysfs& os, pid_t pid, uint64_t* ticks) {
  const std::string self = std::to_string(pid);
  for (int attempt = 0; attempt < 5; ++attempt) {
    ProcStat before;
    Status s = ReadStat(os, self, &before);
    if (!s.ok()) return s;
    std::vector<std::string> entries;
    s = os.List("proc", &entries);
    if (!s.ok()) return s;
    uint64_t children = 0;
    for (const std::string& e : entries) {
      if (e == self || !IsPid(e)) continue;
      ProcStat child;
      // A process that ended since the listing has no stat any more.
      if (!ReadStat(os, e, &child).ok() || child.ppid != pid) continue;
      children += child.utime + child.stime + child.cutime + child.cstime;
    }
    ProcStat after;
    s = ReadStat(os, self, &after);
    if (!s.ok()) return s;
    if (after.cutime + after.cstime == before.cutime + before.cstime) {
      *ticks =
          after.utime + after.stime + after.cutime + after.cstime + children;
      return Status::Ok();
    }
  }
  return Status::Busy(os.Path("proc/" + self + "/stat") +
                      ": children kept ending while they were listed");
}

int64_t ClockTicksPerSecond() {
  const long hz = sysconf(_SC_CLK_TCK);
  return hz > 0 ? hz : 100;
}

}  // namespace tierbench
