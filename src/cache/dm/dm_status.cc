#include "cache/dm/dm_status.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "util/elide.h"

namespace tierbench {
namespace {

// A value read from the kernel can hold anything (line breaks, a binary
// blob): the message quoting it stays one short line (util/elide.h).
Status InvalidValue(const std::string& message) {
  return Status::InvalidArgument(ElideEchoedInput(message));
}

// Walks the words of one params text; every error quotes the whole text.
class Words {
 public:
  Words(std::string_view what, std::string_view text)
      : what_(what), text_(text), words_(SplitDmWords(text)) {}

  bool AtEnd() const { return pos_ >= words_.size(); }
  size_t Remaining() const { return words_.size() - pos_; }

  Status Error(std::string_view why) const {
    std::string msg(what_);
    msg += " \"";
    msg += text_;
    msg += "\": ";
    msg += why;
    return InvalidValue(msg);
  }

  Status Word(std::string_view field, std::string* out) {
    if (AtEnd()) return Error("missing " + std::string(field));
    *out = words_[pos_++];
    return Status::Ok();
  }

  Status Uint(std::string_view field, uint64_t* out) {
    std::string w;
    Status s = Word(field, &w);
    if (!s.ok()) return s;
    if (!ParseU64(w, out)) return BadValue(field, w);
    return Status::Ok();
  }

  Status Int(std::string_view field, int64_t* out) {
    std::string w;
    Status s = Word(field, &w);
    if (!s.ok()) return s;
    const char* end = w.data() + w.size();
    auto [p, ec] = std::from_chars(w.data(), end, *out);
    if (w.empty() || ec != std::errc() || p != end) return BadValue(field, w);
    return Status::Ok();
  }

  // "<used>/<total>".
  Status Fraction(std::string_view field, uint64_t* used, uint64_t* total) {
    std::string w;
    Status s = Word(field, &w);
    if (!s.ok()) return s;
    size_t slash = w.find('/');
    if (slash == std::string::npos ||
        !ParseU64(std::string_view(w).substr(0, slash), used) ||
        !ParseU64(std::string_view(w).substr(slash + 1), total)) {
      return BadValue(field, w);
    }
    return Status::Ok();
  }

  // <#count> then that many words.
  Status Group(std::string_view field, std::vector<std::string>* out) {
    uint64_t n = 0;
    Status s = Uint(std::string("#") + std::string(field), &n);
    if (!s.ok()) return s;
    if (n > Remaining()) {
      return Error(std::string(field) + " count " + std::to_string(n) +
                   " exceeds the remaining words");
    }
    out->assign(words_.begin() + pos_, words_.begin() + pos_ + n);
    pos_ += n;
    return Status::Ok();
  }

  // <#count> then count/2 key value pairs.
  Status Pairs(std::string_view field, DmKeyValues* out) {
    std::vector<std::string> words;
    Status s = Group(field, &words);
    if (!s.ok()) return s;
    if (words.size() % 2 != 0) {
      return Error(std::string(field) + " must be key value pairs (odd count " +
                   std::to_string(words.size()) + ")");
    }
    out->clear();
    for (size_t i = 0; i < words.size(); i += 2) {
      out->emplace_back(words[i], words[i + 1]);
    }
    return Status::Ok();
  }

  Status ExpectEnd() const {
    if (AtEnd()) return Status::Ok();
    return Error("unexpected trailing \"" + words_[pos_] + "\"");
  }

  static bool ParseU64(std::string_view w, uint64_t* out) {
    if (w.empty() || w[0] == '+' || w[0] == '-') return false;
    const char* end = w.data() + w.size();
    auto [p, ec] = std::from_chars(w.data(), end, *out);
    return ec == std::errc() && p == end;
  }

 private:
  Status BadValue(std::string_view field, const std::string& w) const {
    return Error("bad " + std::string(field) + " \"" + w + "\"");
  }

  std::string_view what_;
  std::string_view text_;
  std::vector<std::string> words_;
  size_t pos_ = 0;
};

std::string ModeOf(const std::vector<std::string>& features) {
  for (const std::string& f : features) {
    if (IsDmCacheIoMode(f)) return f;
  }
  return std::string(kDmCacheWriteback);
}

// At most one io mode among `features`.
Status CheckOneMode(const Words& w, const std::vector<std::string>& features) {
  if (std::count_if(features.begin(), features.end(),
                    [](const auto& f) { return IsDmCacheIoMode(f); }) > 1) {
    return w.Error("more than one io mode feature");
  }
  return Status::Ok();
}

void AppendGroup(std::string* out, const std::vector<std::string>& words) {
  *out += ' ';
  *out += std::to_string(words.size());
  for (const std::string& w : words) {
    *out += ' ';
    *out += w;
  }
}

void AppendPairs(std::string* out, const DmKeyValues& pairs) {
  *out += ' ';
  *out += std::to_string(pairs.size() * 2);
  for (const auto& [k, v] : pairs) {
    *out += ' ';
    *out += k;
    *out += ' ';
    *out += v;
  }
}

// Writecache optional args: keyword and whether it takes a value.
struct WcKey {
  std::string_view name;
  bool has_value;
};
constexpr std::array<WcKey, 12> kWcKeys = {{
    {"start_sector", true},
    {"high_watermark", true},
    {"low_watermark", true},
    {"writeback_jobs", true},
    {"autocommit_blocks", true},
    {"autocommit_time", true},
    {"max_age", true},
    {"cleaner", false},
    {"fua", false},
    {"nofua", false},
    {"metadata_only", false},
    {"pause_writeback", true},
}};

const WcKey* FindWcKey(std::string_view name) {
  for (const WcKey& k : kWcKeys) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> SplitDmWords(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  auto blank = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  };
  while (i < text.size()) {
    while (i < text.size() && blank(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && !blank(text[i])) ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

bool IsDmCacheIoMode(std::string_view word) {
  return word == kDmCacheWriteback || word == kDmCacheWritethrough ||
         word == kDmCachePassthrough;
}

// ---- dm-cache table ----

std::string DmCacheTable::IoMode() const { return ModeOf(features); }

void DmCacheTable::SetIoMode(std::string_view mode) {
  for (std::string& f : features) {
    if (IsDmCacheIoMode(f)) {
      f = std::string(mode);
      return;
    }
  }
  features.emplace_back(mode);
}

std::string DmCacheTable::FormatParams() const {
  std::string out = metadata_dev + ' ' + cache_dev + ' ' + origin_dev + ' ' +
                    std::to_string(block_sectors);
  AppendGroup(&out, features);
  out += ' ';
  out += policy;
  AppendPairs(&out, policy_args);
  return out;
}

Status ParseDmCacheTable(std::string_view params, DmCacheTable* out) {
  Words w("dm-cache table", params);
  DmCacheTable t;
  Status s = w.Word("metadata dev", &t.metadata_dev);
  if (s.ok()) s = w.Word("cache dev", &t.cache_dev);
  if (s.ok()) s = w.Word("origin dev", &t.origin_dev);
  if (s.ok()) s = w.Uint("block size", &t.block_sectors);
  if (s.ok()) s = w.Group("feature args", &t.features);
  if (!s.ok()) return s;
  for (const std::string& f : t.features) {
    if (!IsDmCacheIoMode(f) && f != "metadata2" && f != "no_discard_passdown") {
      return w.Error("unrecognised cache feature \"" + f + "\"");
    }
  }
  s = CheckOneMode(w, t.features);
  if (s.ok()) s = w.Word("policy", &t.policy);
  if (s.ok()) s = w.Pairs("policy args", &t.policy_args);
  if (s.ok()) s = w.ExpectEnd();
  if (!s.ok()) return s;
  *out = std::move(t);
  return Status::Ok();
}

// ---- dm-cache status ----

std::string DmCacheStatus::IoMode() const { return ModeOf(features); }

std::string DmCacheStatus::FormatParams() const {
  std::string out =
      std::to_string(metadata_block_sectors) + ' ' +
      std::to_string(metadata_used) + '/' + std::to_string(metadata_total) +
      ' ' + std::to_string(cache_block_sectors) + ' ' +
      std::to_string(cache_used) + '/' + std::to_string(cache_total);
  for (uint64_t v : {read_hits, read_misses, write_hits, write_misses,
                     demotions, promotions, dirty}) {
    out += ' ';
    out += std::to_string(v);
  }
  AppendGroup(&out, features);
  AppendPairs(&out, core_args);
  out += ' ';
  out += policy;
  AppendPairs(&out, policy_args);
  out += read_only ? " ro" : " rw";
  out += needs_check ? " needs_check" : " -";
  return out;
}

Status ParseDmCacheStatus(std::string_view params, DmCacheStatus* out) {
  std::vector<std::string> words = SplitDmWords(params);
  if (words.size() == 1 && (words[0] == "Fail" || words[0] == "Error")) {
    return Status::IoError("dm-cache status \"" + words[0] +
                           "\": the cache target has failed (metadata or "
                           "device error; see the kernel log)");
  }
  Words w("dm-cache status", params);
  DmCacheStatus st;
  Status s = w.Uint("metadata block size", &st.metadata_block_sectors);
  if (s.ok()) {
    s = w.Fraction("metadata used/total", &st.metadata_used,
                   &st.metadata_total);
  }
  if (s.ok()) s = w.Uint("cache block size", &st.cache_block_sectors);
  if (s.ok())
    s = w.Fraction("cache used/total", &st.cache_used, &st.cache_total);
  if (s.ok()) s = w.Uint("read hits", &st.read_hits);
  if (s.ok()) s = w.Uint("read misses", &st.read_misses);
  if (s.ok()) s = w.Uint("write hits", &st.write_hits);
  if (s.ok()) s = w.Uint("write misses", &st.write_misses);
  if (s.ok()) s = w.Uint("demotions", &st.demotions);
  if (s.ok()) s = w.Uint("promotions", &st.promotions);
  if (s.ok()) s = w.Uint("dirty", &st.dirty);
  if (s.ok()) s = w.Group("features", &st.features);
  if (s.ok()) s = CheckOneMode(w, st.features);
  if (s.ok()) s = w.Pairs("core args", &st.core_args);
  if (s.ok()) s = w.Word("policy", &st.policy);
  if (s.ok()) s = w.Pairs("policy args", &st.policy_args);
  std::string mode, check;
  if (s.ok()) s = w.Word("metadata mode", &mode);
  if (s.ok()) s = w.Word("needs_check", &check);
  if (s.ok()) s = w.ExpectEnd();
  if (!s.ok()) return s;
  if (mode != "rw" && mode != "ro") {
    return w.Error("metadata mode \"" + mode + "\" is neither rw nor ro");
  }
  if (check != "-" && check != "needs_check") {
    return w.Error("\"" + check + "\" is neither needs_check nor -");
  }
  st.read_only = mode == "ro";
  st.needs_check = check == "needs_check";
  *out = std::move(st);
  return Status::Ok();
}

// ---- dm-writecache table ----

bool DmWritecacheTable::GetArg(std::string_view key, std::string* value) const {
  for (const auto& [k, v] : args) {
    if (k == key) {
      if (value != nullptr) *value = v;
      return true;
    }
  }
  return false;
}

Status DmWritecacheTable::SetArg(std::string_view key, std::string_view value) {
  const WcKey* k = FindWcKey(key);
  if (k == nullptr) {
    return InvalidValue("dm-writecache: unknown optional arg \"" +
                        std::string(key) + "\"");
  }
  uint64_t n = 0;
  if (k->has_value && !Words::ParseU64(value, &n)) {
    return InvalidValue("dm-writecache: " + std::string(key) +
                        " needs a number, got \"" + std::string(value) + "\"");
  }
  if (!k->has_value && !value.empty()) {
    return InvalidValue("dm-writecache: " + std::string(key) +
                        " is a flag and takes no value");
  }
  if (key == "fua") RemoveArg("nofua");
  if (key == "nofua") RemoveArg("fua");
  for (auto& [ak, av] : args) {
    if (ak == key) {
      av = std::string(value);
      return Status::Ok();
    }
  }
  args.emplace_back(std::string(key), std::string(value));
  return Status::Ok();
}

bool DmWritecacheTable::RemoveArg(std::string_view key) {
  auto it = std::find_if(args.begin(), args.end(),
                         [&](const auto& kv) { return kv.first == key; });
  if (it == args.end()) return false;
  args.erase(it);
  return true;
}

std::string DmWritecacheTable::FormatParams() const {
  size_t count = 0;
  for (const auto& kv : args) count += kv.second.empty() ? 1 : 2;
  std::string out = std::string(1, mode) + ' ' + origin_dev + ' ' + cache_dev +
                    ' ' + std::to_string(block_size) + ' ' +
                    std::to_string(count);
  for (const auto& [k, v] : args) {
    out += ' ';
    out += k;
    if (!v.empty()) {
      out += ' ';
      out += v;
    }
  }
  return out;
}

Status ParseDmWritecacheTable(std::string_view params, DmWritecacheTable* out) {
  Words w("dm-writecache table", params);
  DmWritecacheTable t;
  std::string mode;
  Status s = w.Word("mode", &mode);
  if (!s.ok()) return s;
  if (mode != "s" && mode != "p") {
    return w.Error("mode \"" + mode + "\" is neither s nor p");
  }
  t.mode = mode[0];
  s = w.Word("origin dev", &t.origin_dev);
  if (s.ok()) s = w.Word("cache dev", &t.cache_dev);
  if (s.ok()) s = w.Uint("block size", &t.block_size);
  std::vector<std::string> opt;
  if (s.ok()) s = w.Group("optional args", &opt);
  if (s.ok()) s = w.ExpectEnd();
  if (!s.ok()) return s;
  for (size_t i = 0; i < opt.size(); ++i) {
    const WcKey* k = FindWcKey(opt[i]);
    if (k == nullptr) return w.Error("unknown optional arg \"" + opt[i] + "\"");
    std::string value;
    if (k->has_value) {
      if (i + 1 >= opt.size()) return w.Error(opt[i] + " needs a value");
      value = opt[++i];
    }
    if (t.GetArg(k->name)) {
      return w.Error("optional arg \"" + std::string(k->name) +
                     "\" given twice");
    }
    // The kernel lets the last of fua/nofua win; a table naming both is
    // refused here (SetArg would silently drop one).
    if ((k->name == "fua" && t.GetArg("nofua")) ||
        (k->name == "nofua" && t.GetArg("fua"))) {
      return w.Error("both fua and nofua");
    }
    s = t.SetArg(k->name, value);
    if (!s.ok()) return w.Error(s.message());
  }
  *out = std::move(t);
  return Status::Ok();
}

// ---- dm-writecache status ----

std::string DmWritecacheStatus::FormatParams() const {
  std::string out = std::to_string(error) + ' ' + std::to_string(total_blocks) +
                    ' ' + std::to_string(free_blocks) + ' ' +
                    std::to_string(under_writeback);
  if (has_counters) {
    for (uint64_t v : {reads, read_hits, writes, write_hits_uncommitted,
                       write_hits_committed, writes_around, writes_to_cache,
                       writes_blocked_on_freelist, flushes, discards}) {
      out += ' ';
      out += std::to_string(v);
    }
  }
  return out;
}

Status ParseDmWritecacheStatus(std::string_view params,
                               DmWritecacheStatus* out) {
  Words w("dm-writecache status", params);
  if (w.Remaining() != 4 && w.Remaining() != 14) {
    return w.Error("expected 4 or 14 numbers, got " +
                   std::to_string(w.Remaining()));
  }
  DmWritecacheStatus st;
  st.has_counters = w.Remaining() == 14;
  Status s = w.Int("error", &st.error);
  if (s.ok()) s = w.Uint("total blocks", &st.total_blocks);
  if (s.ok()) s = w.Uint("free blocks", &st.free_blocks);
  if (s.ok()) s = w.Uint("blocks under writeback", &st.under_writeback);
  if (s.ok() && st.has_counters) {
    const std::pair<const char*, uint64_t*> fields[] = {
        {"reads", &st.reads},
        {"read hits", &st.read_hits},
        {"writes", &st.writes},
        {"write hits uncommitted", &st.write_hits_uncommitted},
        {"write hits committed", &st.write_hits_committed},
        {"writes around", &st.writes_around},
        {"writes to cache", &st.writes_to_cache},
        {"writes blocked on freelist", &st.writes_blocked_on_freelist},
        {"flushes", &st.flushes},
        {"discards", &st.discards},
    };
    for (const auto& [name, field] : fields) {
      s = w.Uint(name, field);
      if (!s.ok()) break;
    }
  }
  if (!s.ok()) return s;
  if (st.free_blocks > st.total_blocks) {
    return w.Error("free blocks exceed total blocks");
  }
  *out = st;
  return Status::Ok();
}

}  // namespace tierbench
