#include "cache/bcache/bcache_knobs.h"

#include "cache/bcache/bcache_values.h"

namespace tierbench {

const std::vector<KnobInfo>& AllKnobs() {
  using enum KnobScope;
  using enum KnobKind;
  // Defaults quoted from drivers/md/bcache/{super.c,writeback.c}.
  static const std::vector<KnobInfo> kKnobs = {
      {"sequential_cutoff", "sequential_cutoff", kBacking, kSize, false,
       "bypass the cache for streams at least this long (default 4M; 0 = "
       "never)"},
      {"readahead", "readahead", kBacking, kSize, true,
       "round cache-miss reads up to this size (default 0; gone in 6.1)"},
      {"readahead_cache_policy", "readahead_cache_policy", kBacking, kChoice,
       true, "all | meta-only: whether readahead bios may be cached"},
      {"sequential_merge", "sequential_merge", kBacking, kBool, true,
       "merge sequential streams when detecting them (some kernels)"},
      {"writeback_percent", "writeback_percent", kBacking, kInteger, false,
       "target dirty share of the cache for background writeback (default "
       "10, max cutoff_writeback)"},
      {"writeback_delay", "writeback_delay", kBacking, kInteger, false,
       "seconds before writeback starts after the first dirty write (30)"},
      {"writeback_running", "writeback_running", kBacking, kBool, false,
       "0 stops background writeback entirely (benchmarking only)"},
      {"writeback_metadata", "writeback_metadata", kBacking, kBool, false,
       "cache metadata writes in writeback mode (default 1)"},
      {"writeback_rate_update_seconds", "writeback_rate_update_seconds",
       kBacking, kInteger, true, "writeback rate controller period (5)"},
      {"writeback_rate_minimum", "writeback_rate_minimum", kBacking, kInteger,
       true, "minimum writeback rate in sectors/s (8)"},
      {"writeback_rate_p_term_inverse", "writeback_rate_p_term_inverse",
       kBacking, kInteger, true, "controller proportional term inverse (40)"},
      {"writeback_rate_i_term_inverse", "writeback_rate_i_term_inverse",
       kBacking, kInteger, true, "controller integral term inverse (10000)"},
      {"congested_read_threshold_us", "congested_read_threshold_us", kCacheSet,
       kInteger, false,
       "bypass reads when cache latency exceeds this (2000; 0 = off)"},
      {"congested_write_threshold_us", "congested_write_threshold_us",
       kCacheSet, kInteger, false,
       "bypass writes when cache latency exceeds this (20000; 0 = off)"},
      {"journal_delay_ms", "journal_delay_ms", kCacheSet, kInteger, true,
       "journal write delay (100)"},
      {"idle_max_writeback_rate", "internal/idle_max_writeback_rate", kCacheSet,
       kBool, true, "write back at full rate when idle (1)"},
      {"gc_after_writeback", "internal/gc_after_writeback", kCacheSet, kBool,
       true, "run GC after writeback finishes (0)"},
      {"copy_gc_enabled", "internal/copy_gc_enabled", kCacheSet, kBool, true,
       "moving garbage collection (1)"},
  };
  return kKnobs;
}

const KnobInfo* FindKnob(KnobScope scope, std::string_view name) {
  for (const KnobInfo& knob : AllKnobs()) {
    if (knob.scope == scope && knob.name == name) return &knob;
  }
  return nullptr;
}

std::string KnobNames(KnobScope scope) {
  std::string out;
  for (const KnobInfo& knob : AllKnobs()) {
    if (knob.scope != scope) continue;
    if (!out.empty()) out += ", ";
    out += knob.name;
  }
  return out;
}

Status KnobValueToWrite(const KnobInfo& knob, std::string_view value,
                        std::string* out) {
  auto bad = [&](std::string_view expected) {
    return Status::InvalidArgument(
        "bad value '" + std::string(value) + "' for bcache knob " +
        std::string(knob.name) + ": expected " + std::string(expected));
  };
  switch (knob.kind) {
    case KnobKind::kSize: {
      uint64_t bytes = 0;
      if (!ParseHumanSize(value, &bytes).ok()) {
        return bad("a size like 0, 4096, 512k, 4M (powers of 1024)");
      }
      *out = std::to_string(bytes);
      return Status::Ok();
    }
    case KnobKind::kInteger: {
      int64_t v = 0;
      if (!ParseInteger(value, &v).ok() || v < 0) {
        return bad("a non-negative integer");
      }
      *out = std::to_string(v);
      return Status::Ok();
    }
    case KnobKind::kBool:
      if (value == "0" || value == "false") {
        *out = "0";
      } else if (value == "1" || value == "true") {
        *out = "1";
      } else {
        return bad("0, 1, true or false");
      }
      return Status::Ok();
    case KnobKind::kChoice: {
      std::string word(value);
      if (value.find('[') != std::string_view::npos &&
          !ParseBracketChoice(value, &word).ok()) {
        return bad("one word");
      }
      if (word.empty()) return bad("one word");
      for (char c : word) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                        c == '-' || c == '_';
        if (!ok) return bad("one word of [a-z0-9_-]");
      }
      *out = word;
      return Status::Ok();
    }
  }
  return bad("a value");
}

Status NormalizeKnobReadback(const KnobInfo& knob, std::string_view raw,
                             std::string* out) {
  Status s;
  switch (knob.kind) {
    case KnobKind::kChoice:
      return ParseBracketChoice(raw, out);
    case KnobKind::kSize: {
      uint64_t bytes = 0;
      s = ParseHumanSize(raw, &bytes);
      break;
    }
    case KnobKind::kInteger:
    case KnobKind::kBool: {
      int64_t v = 0;
      s = ParseInteger(raw, &v);
      break;
    }
  }
  if (!s.ok()) return s;
  *out = std::string(raw);
  return Status::Ok();
}

bool KnobReadbackMatches(const KnobInfo& knob, std::string_view written,
                         std::string_view readback) {
  switch (knob.kind) {
    case KnobKind::kSize: {
      int64_t bytes = 0;
      return ParseInteger(written, &bytes).ok() && bytes >= 0 &&
             HumanSizeMatches(static_cast<uint64_t>(bytes), readback);
    }
    case KnobKind::kInteger:
    case KnobKind::kBool: {
      int64_t a = 0;
      int64_t b = 0;
      return ParseInteger(written, &a).ok() &&
             ParseInteger(readback, &b).ok() && a == b;
    }
    case KnobKind::kChoice: {
      std::string selected;
      return ParseBracketChoice(readback, &selected).ok() &&
             selected == written;
    }
  }
  return false;
}

}  // namespace tierbench
