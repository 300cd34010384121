// The value parsers of the job-file option table (see the header).
#include "workload/job_file_values.h"

#include <charconv>
#include <cstdlib>

#include "util/status.h"
#include "util/strings.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr uint64_t kMaxBlockSize = 256ULL << 20;  // per IO buffer, 256 MiB
constexpr size_t kMaxSplitEntries = 64;           // as fio's BSSPLIT_MAX

// ParseBool() for either context (TableOptionCtx or OptionCtx); the message
// is the context's Fail, so each keeps its own format.
template <typename Ctx>
bool ParseBoolWith(const Ctx& c) {
  if (!c.line.value) return true;  // bare option: set
  if (const std::optional<bool> b = FioBool(*c.line.value)) return *b;
  const std::string name(c.name);
  c.Fail("'" + Lower(TrimmedCopy(*c.line.value)) + "' is not a boolean",
         "write " + name + "=1 or " + name + "=0");
}

}  // namespace

std::optional<bool> FioBool(std::string_view text) {
  const std::string v = Lower(TrimmedCopy(text));
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  return std::nullopt;
}

bool ParseBool(const TableOptionCtx& c) { return ParseBoolWith(c); }
bool ParseBool(const OptionCtx& c) { return ParseBoolWith(c); }

uint64_t ParseUint(const TableOptionCtx& c, const std::string& text,
                   uint64_t min, uint64_t max) {
  uint64_t v = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    begin += 2;
    base = 16;
  }
  const auto [ptr, ec] = std::from_chars(begin, end, v, base);
  if (text.empty() || ec != std::errc() || ptr != end) {
    c.Fail("'" + text + "' is not a whole number",
           "use a plain number between " + std::to_string(min) + " and " +
               std::to_string(max));
  }
  if (v < min || v > max) {
    c.Fail(std::to_string(v) + " is out of range",
           "use a value between " + std::to_string(min) + " and " +
               std::to_string(max));
  }
  return v;
}

uint32_t ParseU32(const TableOptionCtx& c, uint32_t min, uint32_t max) {
  return static_cast<uint32_t>(ParseUint(c, TrimmedCopy(c.Value()), min, max));
}

uint64_t ParseBytes(const TableOptionCtx& c, const std::string& text) {
  uint64_t v = 0;
  const Status s = ParseSize(text, c.draft->spec.kb_base, &v);
  if (!s.ok()) c.Fail(s.message(), "use a size such as 4k, 1M or 2G");
  return v;
}

uint64_t ParseBlockSize(const TableOptionCtx& c, const std::string& text) {
  const uint64_t v = ParseBytes(c, text);
  if (v == 0) c.Fail("a block size must be greater than 0", "use e.g. 4k");
  if (v > kMaxBlockSize) {
    c.Fail("block size " + FormatBytes(v) + " is larger than the maximum " +
               FormatBytes(kMaxBlockSize),
           "use a block size of at most 256M");
  }
  return v;
}

SizeSpec ParseSizeOrPercent(const TableOptionCtx& c, bool allow_zero) {
  const std::string v = TrimmedCopy(c.Value());
  SizeSpec spec;
  spec.set = true;
  if (!v.empty() && v.back() == '%') {
    const std::string number =
        TrimmedCopy(std::string_view(v).substr(0, v.size() - 1));
    char* end = nullptr;
    const double p = std::strtod(number.c_str(), &end);
    const bool ok = !number.empty() && end == number.c_str() + number.size() &&
                    (allow_zero ? p >= 0 && p < 100 : p > 0 && p <= 100);
    if (!ok) {
      c.Fail("'" + v + "' is not a valid percentage",
             allow_zero ? "use a percentage from 0% to below 100%"
                        : "use a percentage above 0% up to 100%");
    }
    spec.is_percent = true;
    spec.percent = p;
    return spec;
  }
  spec.bytes = ParseBytes(c, v);
  if (!allow_zero && spec.bytes == 0)
    c.Fail("size must be greater than 0", "use e.g. size=1G or size=50%");
  return spec;
}

uint64_t ParseDurationNs(const TableOptionCtx& c, uint64_t default_unit_ns) {
  uint64_t ns = 0;
  const Status s = ParseDuration(TrimmedCopy(c.Value()), default_unit_ns, &ns);
  if (!s.ok()) c.Fail(s.message(), "use e.g. 30 (seconds), 500ms or 2m");
  return ns;
}

std::vector<std::string> PerDir(const TableOptionCtx& c) {
  std::vector<std::string> parts = SplitTrimmed(c.Value(), ',');
  if (parts.size() > 3)
    c.Fail("more than three comma-separated values", "write read[,write]");
  if (parts.size() == 1) return {parts[0], parts[0]};
  parts.resize(2);
  return parts;
}

std::vector<std::pair<uint64_t, uint32_t>> ParseSplit(const TableOptionCtx& c,
                                                      const std::string& text) {
  std::vector<std::pair<uint64_t, uint32_t>> split;
  std::vector<size_t> blank;
  uint32_t sum = 0;
  for (const std::string& entry : SplitTrimmed(text, ':')) {
    if (entry.empty()) continue;
    const size_t slash = entry.find('/');
    const uint64_t size = ParseBlockSize(
        c, TrimmedCopy(std::string_view(entry).substr(0, slash)));
    const std::string weight =
        slash == std::string::npos
            ? ""
            : TrimmedCopy(std::string_view(entry).substr(slash + 1));
    if (weight.empty()) {
      blank.push_back(split.size());
      split.emplace_back(size, 0);
      continue;
    }
    const auto w = static_cast<uint32_t>(ParseUint(c, weight, 0, 100));
    sum += w;
    split.emplace_back(size, w);
  }
  if (split.empty())
    c.Fail("no block sizes given", "write e.g. bssplit=4k/50:64k/50");
  if (split.size() > kMaxSplitEntries)
    c.Fail("more than 64 entries", "merge some sizes");
  if (sum > 100) {
    c.Fail("weights add up to " + std::to_string(sum) + "%, more than 100%",
           "make the percentages of each direction add up to exactly 100");
  }
  if (blank.empty() && sum != 100) {
    c.Fail("weights add up to " + std::to_string(sum) +
               "%, not 100% (fio refuses this too)",
           "make the percentages of each direction add up to exactly 100, or "
           "leave one blank "
           "(e.g. 64k/) to take the rest");
  }
  const uint32_t rest = 100 - sum;
  for (size_t i = 0; i < blank.size(); ++i) {
    split[blank[i]].second = rest / static_cast<uint32_t>(blank.size()) +
                             (i < rest % blank.size() ? 1 : 0);
  }
  return split;
}

uint64_t DurationNs(const TableOptionCtx& c, const std::string& text,
                    uint64_t default_unit_ns) {
  uint64_t ns = 0;
  const Status s = ParseDuration(TrimmedCopy(text), default_unit_ns, &ns);
  if (!s.ok()) c.Fail(s.message(), "use e.g. 5 (seconds), 500ms or 1-5");
  return ns;
}

}  // namespace tierbench
