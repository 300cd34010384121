#include "cache/bcache/bcache_values.h"

#include <cstdio>
#include <limits>
#include <map>

#include "util/elide.h"
#include "util/strings.h"

namespace tierbench {
namespace {

// A value read from the kernel can hold anything (line breaks, a binary
// blob): the message quoting it stays one short line (util/elide.h).
Status InvalidValue(const std::string& message) {
  return Status::InvalidArgument(ElideEchoedInput(message));
}

using u128 = unsigned __int128;

// "<digits>[.<digits>][unit]" split into its parts. value = mantissa / scale
// * unit, where mantissa holds all digits without the dot.
struct HumanParts {
  bool negative = false;
  u128 mantissa = 0;
  u128 scale = 1;  // 10^(digits after the dot)
  u128 unit = 1;
  bool has_unit = false;
};

Status BadSize(std::string_view text, std::string_view why) {
  return InvalidValue("bad bcache size '" + std::string(text) +
                      "': " + std::string(why));
}

Status SplitHuman(std::string_view text, bool allow_negative, HumanParts* out) {
  HumanParts parts;
  std::string_view s = text;
  if (!s.empty() && s.front() == '-') {
    if (!allow_negative) return BadSize(text, "negative");
    parts.negative = true;
    s.remove_prefix(1);
  }
  if (s.empty()) return BadSize(text, "empty");
  static constexpr std::string_view kUnits = "kmgtpezy";
  const char last = s.back();
  const size_t unit_pos = kUnits.find(static_cast<char>(last | 0x20));
  if (last >= 'A' && unit_pos != std::string_view::npos) {
    parts.has_unit = true;
    for (size_t i = 0; i <= unit_pos; ++i) parts.unit *= 1024;
    s.remove_suffix(1);
  }
  bool seen_dot = false;
  size_t int_digits = 0;
  size_t frac_digits = 0;
  for (char c : s) {
    if (c == '.') {
      if (seen_dot) return BadSize(text, "two dots");
      seen_dot = true;
      continue;
    }
    if (c < '0' || c > '9') return BadSize(text, "unexpected character");
    parts.mantissa = parts.mantissa * 10 + static_cast<unsigned>(c - '0');
    if (parts.mantissa > (u128{1} << 100)) return BadSize(text, "too large");
    if (seen_dot) {
      ++frac_digits;
      parts.scale *= 10;
    } else {
      ++int_digits;
    }
  }
  if (int_digits == 0) return BadSize(text, "no digits before the point");
  if (seen_dot && frac_digits == 0) return BadSize(text, "no digit after '.'");
  if (seen_dot && !parts.has_unit) {
    return BadSize(text, "a fraction needs a unit (k, M, G...)");
  }
  *out = parts;
  return Status::Ok();
}

// Smallest whole byte count that shows as `parts`. bch_hprint truncates to
// whole units one step below the printed unit (sub = unit / 1024) and prints
// floor(K * 10 / 1024) tenths of K such sub-units, so the smallest K is
// ceil(mantissa * 1024 / scale). Without a unit the value is exact.
Status PartsToBytes(std::string_view text, const HumanParts& parts,
                    uint64_t* out) {
  u128 bytes = parts.mantissa;
  if (parts.has_unit) {
    const u128 sub = parts.unit / 1024;
    bytes = (parts.mantissa * 1024 + parts.scale - 1) / parts.scale * sub;
  }
  if (bytes > std::numeric_limits<int64_t>::max()) {
    return BadSize(text, "too large");
  }
  *out = static_cast<uint64_t>(bytes);
  return Status::Ok();
}

// Splits "key:<blanks>value" lines into a map; lines without ':' are skipped.
std::map<std::string, std::string, std::less<>> KeyValueLines(
    std::string_view text) {
  std::map<std::string, std::string, std::less<>> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text =
        nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    out[std::string(Trim(line.substr(0, colon)))] =
        std::string(Trim(line.substr(colon + 1)));
  }
  return out;
}

Status ParsePercent(std::string_view text, int* out) {
  if (text.empty() || text.back() != '%') {
    return InvalidValue("bad percentage '" + std::string(text) + "'");
  }
  int64_t v = 0;
  Status s = ParseInteger(text.substr(0, text.size() - 1), &v);
  if (!s.ok() || v < 0 || v > 100) {
    return InvalidValue("bad percentage '" + std::string(text) + "'");
  }
  *out = static_cast<int>(v);
  return Status::Ok();
}

}  // namespace

bool IsCacheMode(std::string_view text) {
  for (std::string_view mode : kCacheModes) {
    if (mode == text) return true;
  }
  return false;
}

Status ParseHumanSize(std::string_view text, uint64_t* bytes) {
  HumanParts parts;
  Status s = SplitHuman(text, /*allow_negative=*/false, &parts);
  if (!s.ok()) return s;
  return PartsToBytes(text, parts, bytes);
}

Status ParseSignedHumanSize(std::string_view text, int64_t* bytes) {
  HumanParts parts;
  Status s = SplitHuman(text, /*allow_negative=*/true, &parts);
  if (!s.ok()) return s;
  uint64_t magnitude = 0;
  s = PartsToBytes(text, parts, &magnitude);
  if (!s.ok()) return s;
  *bytes = parts.negative ? -static_cast<int64_t>(magnitude)
                          : static_cast<int64_t>(magnitude);
  return Status::Ok();
}

std::string FormatHumanSize(int64_t v) {
  static constexpr char kUnits[] = "?kMGTPEZY";
  // Same arithmetic as bch_hprint: divide by 1024 at least once and while
  // more than three digits remain; one truncated decimal.
  uint64_t q = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int u = 0;
  unsigned t = 0;
  do {
    ++u;
    t = static_cast<unsigned>(q & 1023);
    q >>= 10;
  } while (q >= 1000);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%s%llu.%u%c", v < 0 ? "-" : "",
                static_cast<unsigned long long>(q), t * 10 / 1024, kUnits[u]);
  return buf;
}

bool HumanSizeMatches(uint64_t bytes, std::string_view shown) {
  HumanParts parts;
  if (!SplitHuman(shown, /*allow_negative=*/false, &parts).ok()) return false;
  if (!parts.has_unit) return u128{bytes} == parts.mantissa;
  // See PartsToBytes: K whole sub-units show as m/scale units when
  // m * 1024 <= K * scale < (m + 1) * 1024.
  const u128 k = u128{bytes} / (parts.unit / 1024);
  return k * parts.scale >= parts.mantissa * 1024 &&
         k * parts.scale < (parts.mantissa + 1) * 1024;
}

Status ParseBcacheState(std::string_view text, BcacheState* out) {
  static constexpr std::pair<std::string_view, BcacheState> kStates[] = {
      {"no cache", BcacheState::kNoCache},
      {"clean", BcacheState::kClean},
      {"dirty", BcacheState::kDirty},
      {"inconsistent", BcacheState::kInconsistent},
  };
  for (const auto& [name, state] : kStates) {
    if (text == name) {
      *out = state;
      return Status::Ok();
    }
  }
  return InvalidValue("unknown bcache state '" + std::string(text) + "'");
}

std::string_view BcacheStateName(BcacheState state) {
  switch (state) {
    case BcacheState::kNoCache:
      return "no cache";
    case BcacheState::kClean:
      return "clean";
    case BcacheState::kDirty:
      return "dirty";
    case BcacheState::kInconsistent:
      return "inconsistent";
  }
  return "?";
}

Status ParseWritebackRateDebug(std::string_view text, WritebackRateDebug* out) {
  auto lines = KeyValueLines(text);
  WritebackRateDebug d;
  struct Field {
    std::string_view key;
    std::string_view suffix;
    int64_t* dest;
    bool required;
  };
  const Field fields[] = {
      {"rate", "/sec", &d.rate_bytes_per_sec, true},
      {"dirty", "", &d.dirty_bytes, true},
      {"target", "", &d.target_bytes, true},
      {"proportional", "", &d.proportional_bytes, false},
      {"integral", "", &d.integral_bytes, false},
      {"change", "/sec", &d.change_bytes_per_sec, false},
  };
  for (const Field& f : fields) {
    auto it = lines.find(f.key);
    if (it == lines.end()) {
      if (!f.required) continue;
      return InvalidValue("writeback_rate_debug lacks '" + std::string(f.key) +
                          ":'");
    }
    std::string_view v = it->second;
    if (!f.suffix.empty() && v.ends_with(f.suffix)) {
      v.remove_suffix(f.suffix.size());
    }
    Status s = ParseSignedHumanSize(v, f.dest);
    if (!s.ok()) {
      return InvalidValue("writeback_rate_debug '" + std::string(f.key) +
                          "': " + s.message());
    }
  }
  if (auto it = lines.find("next io"); it != lines.end()) {
    std::string_view v = it->second;
    if (v.ends_with("ms")) v.remove_suffix(2);
    Status s = ParseInteger(v, &d.next_io_ms);
    if (!s.ok()) {
      return InvalidValue("writeback_rate_debug 'next io': " + s.message());
    }
  }
  *out = d;
  return Status::Ok();
}

Status ParsePriorityStats(std::string_view text, PriorityStats* out) {
  auto lines = KeyValueLines(text);
  PriorityStats p;
  const std::pair<std::string_view, int*> fields[] = {
      {"Unused", &p.unused_pct},
      {"Clean", &p.clean_pct},
      {"Dirty", &p.dirty_pct},
      {"Metadata", &p.metadata_pct},
  };
  for (const auto& [key, dest] : fields) {
    auto it = lines.find(key);
    if (it == lines.end()) {
      return InvalidValue("priority_stats lacks '" + std::string(key) + ":'");
    }
    Status s = ParsePercent(it->second, dest);
    if (!s.ok()) {
      return InvalidValue("priority_stats '" + std::string(key) +
                          "': " + s.message());
    }
  }
  *out = p;
  return Status::Ok();
}

}  // namespace tierbench
