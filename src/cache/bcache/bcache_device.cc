#include "cache/bcache/bcache_device.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "cache/block_stat.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/strings.h"

namespace tierbench {
namespace {

constexpr char kFixRegister[] =
    "Fix: register the stack (echo /dev/HDD > /sys/fs/bcache/register) or "
    "run inside `tierbench lab`";

// Last path component of `rel` ("a/b/c" -> "c").
std::string BaseName(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  return slash == std::string::npos ? rel : rel.substr(slash + 1);
}

// The device owning a ".../block/<dev>/bcache" directory: "<dev>".
std::string OwnerOfBcacheDir(const std::string& canonical) {
  const size_t slash = canonical.rfind('/');
  return slash == std::string::npos ? std::string()
                                    : BaseName(canonical.substr(0, slash));
}

double SecondsSince(uint64_t start_ns) {
  return static_cast<double>(NowNs() - start_ns) / 1e9;
}

// "1.5" style number for messages.
std::string Secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", s);
  return buf;
}

}  // namespace

nlohmann::json BcacheTopology::ToJson() const {
  return {{"bcache", bcache_name},
          {"backing", backing_name},
          {"backing_uuid", backing_uuid},
          {"cset_uuid", cset_uuid},
          {"cache_devices", cache_names}};
}

nlohmann::json CacheSetInfo::ToJson() const {
  nlohmann::json j = {
      {"uuid", uuid},
      {"block_size_bytes", block_size_bytes},
      {"bucket_size_bytes", bucket_size_bytes},
      {"cache_available_percent", cache_available_percent},
      {"congested_read_threshold_us", congested_read_threshold_us},
      {"congested_write_threshold_us", congested_write_threshold_us},
      {"cutoff_writeback", cutoff_writeback},
      {"cutoff_writeback_sync", cutoff_writeback_sync}};
  if (has_priority_stats) {
    j["priority_stats"] = {{"unused_pct", priority_stats.unused_pct},
                           {"clean_pct", priority_stats.clean_pct},
                           {"dirty_pct", priority_stats.dirty_pct},
                           {"metadata_pct", priority_stats.metadata_pct}};
  }
  return j;
}

nlohmann::json KnobSnapshot::ToJson() const {
  return {{"cache_mode", cache_mode},
          {"cset_uuid", cset_uuid},
          {"knobs", knobs},
          {"cache_set_knobs", cache_set_knobs}};
}

KnobSnapshot KnobSnapshot::FromJson(const nlohmann::json& j) {
  KnobSnapshot s;
  try {
    s.cache_mode = j.at("cache_mode").get<std::string>();
    s.cset_uuid = j.at("cset_uuid").get<std::string>();
    s.knobs = j.at("knobs").get<std::map<std::string, std::string>>();
    s.cache_set_knobs =
        j.at("cache_set_knobs").get<std::map<std::string, std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(std::string("not a bcache original (cache_mode, "
                                  "cset_uuid, knobs, cache_set_knobs): ") +
                      e.what());
  }
  return s;
}

std::vector<std::string> BcacheDevice::List(const Sysfs& sysfs) {
  std::vector<std::string> names;
  std::vector<std::string> out;
  if (!sysfs.List("sys/block", &names).ok()) return out;
  for (const std::string& name : names) {
    if (name.starts_with("bcache") &&
        sysfs.Exists("sys/block/" + name + "/bcache")) {
      out.push_back(name);
    }
  }
  return out;
}

bool BcacheDevice::ModulePresent(const Sysfs& sysfs) {
  return sysfs.Exists("sys/fs/bcache");
}

BcacheDevice::BcacheDevice(Sysfs sysfs, std::string_view device)
    : sysfs_(std::move(sysfs)), sleep_([](double s) {
        std::this_thread::sleep_for(std::chrono::duration<double>(s));
      }) {
  if (device.starts_with("/dev/")) device.remove_prefix(5);
  name_ = std::string(device);
  dir_ = "sys/block/" + name_ + "/bcache";
  if (!ModulePresent(sysfs_)) {
    throw SysError(
        "no bcache in this kernel. Path: " + sysfs_.Path("sys/fs/bcache") +
        " is missing; Fix: use `tierbench lab` or `modprobe "
        "bcache`");
  }
  if (name_.empty() || name_.find('/') != std::string::npos ||
      !sysfs_.Exists(dir_)) {
    throw SysError("not a registered bcache device. Device: /dev/" + name_ +
                   "; Path: " + sysfs_.Path(dir_) + " is missing. " +
                   kFixRegister);
  }
}

std::string BcacheDevice::ReadOrThrow(std::string_view rel) const {
  std::string text;
  Status s = sysfs_.Read(rel, &text);
  if (!s.ok()) {
    throw SysError::From("cannot read bcache sysfs file. Device: /dev/" +
                             name_ + "; Path: " + sysfs_.Path(rel),
                         s);
  }
  return text;
}

std::string BcacheDevice::CacheSetDir() const {
  std::string canonical;
  if (!sysfs_.Exists(dir_ + "/cache")) return "";
  if (!sysfs_.Resolve(dir_ + "/cache", &canonical).ok()) return "";
  return "sys/fs/bcache/" + BaseName(canonical);
}

BcacheTopology BcacheDevice::Topology() const {
  BcacheTopology t;
  t.bcache_name = name_;
  std::string text;
  if (sysfs_.Read(dir_ + "/backing_dev_name", &text).ok() && !text.empty()) {
    t.backing_name = text;
  } else {
    std::string canonical;
    Status s = sysfs_.Resolve(dir_, &canonical);
    if (!s.ok()) {
      throw SysError::From("cannot find the backing device of /dev/" + name_ +
                               ". Path: " + sysfs_.Path(dir_),
                           s);
    }
    t.backing_name = OwnerOfBcacheDir(canonical);
  }
  if (sysfs_.Read(dir_ + "/backing_dev_uuid", &text).ok()) {
    t.backing_uuid = text;
  }
  const std::string cset_dir = CacheSetDir();
  if (cset_dir.empty()) return t;
  t.cset_uuid = BaseName(cset_dir);
  std::vector<std::string> entries;
  if (!sysfs_.List(cset_dir, &entries).ok()) return t;
  for (const std::string& entry : entries) {
    if (!entry.starts_with("cache") || entry.size() == 5 ||
        !std::all_of(entry.begin() + 5, entry.end(),
                     [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    std::string canonical;
    if (sysfs_.Resolve(cset_dir + "/" + entry, &canonical).ok()) {
      t.cache_names.push_back(OwnerOfBcacheDir(canonical));
    }
  }
  return t;
}

BcacheState BcacheDevice::State() const {
  const std::string rel = dir_ + "/state";
  BcacheState state;
  Status s = ParseBcacheState(ReadOrThrow(rel), &state);
  if (!s.ok())
    throw SysError::From("bad bcache state. Path: " + sysfs_.Path(rel), s);
  return state;
}

std::string BcacheDevice::CacheMode() const {
  const std::string rel = dir_ + "/cache_mode";
  std::string mode;
  Status s = ParseBracketChoice(ReadOrThrow(rel), &mode);
  if (!s.ok()) {
    throw SysError::From("bad bcache cache_mode. Path: " + sysfs_.Path(rel), s);
  }
  return mode;
}

uint64_t BcacheDevice::DirtyBytes() const {
  const std::string rel = dir_ + "/dirty_data";
  uint64_t bytes = 0;
  Status s = ParseHumanSize(ReadOrThrow(rel), &bytes);
  if (!s.ok()) {
    throw SysError::From("bad bcache dirty_data. Path: " + sysfs_.Path(rel), s);
  }
  return bytes;
}

Status BcacheDevice::ReadWritebackDebug(WritebackRateDebug* out) const {
  std::string text;
  Status s = sysfs_.Read(dir_ + "/writeback_rate_debug", &text);
  if (!s.ok()) return s;
  return ParseWritebackRateDebug(text, out);
}

CacheSetInfo BcacheDevice::ReadCacheSetInfo() const {
  CacheSetInfo info;
  const std::string cset = CacheSetDir();
  if (cset.empty()) return info;
  info.uuid = BaseName(cset);
  std::string text;
  auto read_size = [&](const char* file, int64_t* out) {
    uint64_t v = 0;
    if (sysfs_.Read(cset + "/" + file, &text).ok() &&
        ParseHumanSize(text, &v).ok()) {
      *out = static_cast<int64_t>(v);
    }
  };
  auto read_int = [&](const char* file, int64_t* out) {
    if (sysfs_.Read(cset + "/" + file, &text).ok()) {
      ParseInteger(text, out).ok();  // Leaves -1 on failure.
    }
  };
  read_size("block_size", &info.block_size_bytes);
  read_size("bucket_size", &info.bucket_size_bytes);
  read_int("cache_available_percent", &info.cache_available_percent);
  read_int("congested_read_threshold_us", &info.congested_read_threshold_us);
  read_int("congested_write_threshold_us", &info.congested_write_threshold_us);
  read_int("internal/cutoff_writeback", &info.cutoff_writeback);
  read_int("internal/cutoff_writeback_sync", &info.cutoff_writeback_sync);
  if (sysfs_.Read(cset + "/cache0/priority_stats", &text).ok() &&
      ParsePriorityStats(text, &info.priority_stats).ok()) {
    info.has_priority_stats = true;
  }
  return info;
}

nlohmann::json BcacheDevice::Describe() const {
  nlohmann::json j = {{"device", dev_path()}};
  auto guarded = [&](const char* key, auto fn) {
    try {
      j[key] = fn();
    } catch (const std::exception&) {
      j[key] = nullptr;
    }
  };
  guarded("topology", [&] { return Topology().ToJson(); });
  guarded("state", [&] { return std::string(BcacheStateName(State())); });
  guarded("cache_mode", [&] { return CacheMode(); });
  guarded("dirty_data_bytes", [&] { return DirtyBytes(); });
  guarded("knobs", [&] { return Capture().ToJson(); });
  guarded("cache_set", [&] { return ReadCacheSetInfo().ToJson(); });
  return j;
}

std::string BcacheDevice::SetCacheMode(std::string_view mode) {
  if (!IsCacheMode(mode)) {
    throw ConfigError("unknown bcache cache mode '" + std::string(mode) +
                      "'. Fix: use writethrough, writeback, writearound or "
                      "none");
  }
  const std::string rel = dir_ + "/cache_mode";
  Status s = sysfs_.Write(rel, mode);
  if (!s.ok()) {
    throw SysError::From("cannot set the bcache cache mode. Device: /dev/" +
                             name_ + "; Mode: " + std::string(mode) +
                             "; Path: " + sysfs_.Path(rel),
                         s);
  }
  const std::string raw = ReadOrThrow(rel);
  std::string selected;
  if (!ParseBracketChoice(raw, &selected).ok() || selected != mode) {
    throw SysError("bcache cache mode read-back differs. Device: /dev/" +
                   name_ + "; Wanted: " + std::string(mode) + "; Read back: '" +
                   raw + "'; Path: " + sysfs_.Path(rel) +
                   ". Fix: check dmesg for bcache errors");
  }
  return selected;
}

std::string BcacheDevice::SetKnob(std::string_view name,
                                  std::string_view value) {
  return SetKnobIn(KnobScope::kBacking, name, value);
}

std::string BcacheDevice::SetCacheSetKnob(std::string_view name,
                                          std::string_view value) {
  return SetKnobIn(KnobScope::kCacheSet, name, value);
}

std::string BcacheDevice::SetKnobIn(KnobScope scope, std::string_view name,
                                    std::string_view value) {
  const bool backing = scope == KnobScope::kBacking;
  const KnobInfo* knob = FindKnob(scope, name);
  if (knob == nullptr) {
    throw ConfigError("unknown bcache " +
                      std::string(backing ? "backing-device" : "cache-set") +
                      " knob '" + std::string(name) + "'. Fix: use one of " +
                      KnobNames(scope));
  }
  std::string to_write;
  Status s = KnobValueToWrite(*knob, value, &to_write);
  if (!s.ok()) throw ConfigError(s.message() + ". Fix: correct the value");
  const std::string dir = backing ? dir_ : CacheSetDir();
  if (dir.empty()) {
    throw SysError("cannot set cache-set knob " + std::string(name) +
                   ": no cache set attached. Device: /dev/" + name_ +
                   "; Fix: attach a cache (echo <cset-uuid> > " +
                   sysfs_.Path(dir_ + "/attach") + ")");
  }
  const std::string rel = dir + "/" + std::string(knob->rel_path);
  if (!sysfs_.Exists(rel)) {
    throw SysError("bcache knob not supported by this kernel. Knob: " +
                   std::string(name) + "; Path: " + sysfs_.Path(rel) +
                   " is missing; Fix: remove it from the mode file");
  }
  s = sysfs_.Write(rel, to_write);
  if (!s.ok()) {
    throw SysError::From("cannot set bcache knob. Knob: " + std::string(name) +
                             "; Value: " + to_write +
                             "; Path: " + sysfs_.Path(rel),
                         s);
  }
  const std::string raw = ReadOrThrow(rel);
  std::string normalized;
  if (!KnobReadbackMatches(*knob, to_write, raw) ||
      !NormalizeKnobReadback(*knob, raw, &normalized).ok()) {
    throw SysError("bcache knob read-back differs. Knob: " + std::string(name) +
                   "; Wrote: " + to_write + "; Read back: '" + raw +
                   "'; Path: " + sysfs_.Path(rel) +
                   ". Fix: the kernel clamped or ignored the value; use one "
                   "it accepts");
  }
  return normalized;
}

KnobSnapshot BcacheDevice::Capture() const {
  KnobSnapshot snap;
  snap.cache_mode = CacheMode();
  const std::string cset = CacheSetDir();
  if (!cset.empty()) snap.cset_uuid = BaseName(cset);
  for (const KnobInfo& knob : AllKnobs()) {
    const bool backing = knob.scope == KnobScope::kBacking;
    if (!backing && cset.empty()) continue;
    const std::string rel =
        (backing ? dir_ : cset) + "/" + std::string(knob.rel_path);
    if (!sysfs_.Exists(rel)) {
      if (knob.optional) continue;
      throw SysError("bcache knob missing. Knob: " + std::string(knob.name) +
                     "; Path: " + sysfs_.Path(rel) + ". " + kFixRegister);
    }
    std::string value;
    Status s = NormalizeKnobReadback(knob, ReadOrThrow(rel), &value);
    if (!s.ok()) {
      throw SysError::From("bad bcache knob value. Path: " + sysfs_.Path(rel),
                           s);
    }
    (backing ? snap.knobs : snap.cache_set_knobs)[std::string(knob.name)] =
        value;
  }
  return snap;
}

RestoreReport BcacheDevice::Restore(const KnobSnapshot& snapshot) noexcept {
  RestoreReport report;
  auto attempt = [&](const std::string& what, auto fn) {
    try {
      fn();
    } catch (const std::exception& e) {
      report.failures.push_back(what + ": " + e.what());
    } catch (...) {
      report.failures.push_back(what + ": unknown error");
    }
  };
  if (!snapshot.cset_uuid.empty()) {
    attempt("re-attach cache set " + snapshot.cset_uuid, [&] {
      AttachImpl(snapshot.cset_uuid, kRestoreAttachTimeoutS, false);
    });
  }
  if (!snapshot.cache_mode.empty()) {
    attempt("cache_mode", [&] { SetCacheMode(snapshot.cache_mode); });
  }
  // Pairs, not structured bindings: clang before 16 cannot capture those.
  for (const auto& knob : snapshot.knobs) {
    attempt(knob.first, [&] { SetKnob(knob.first, knob.second); });
  }
  if (!snapshot.cache_set_knobs.empty() && CacheSetDir().empty()) {
    report.failures.push_back(
        "cache-set knobs not restored: no cache set attached to /dev/" + name_);
    return report;
  }
  for (const auto& knob : snapshot.cache_set_knobs) {
    attempt(knob.first, [&] { SetCacheSetKnob(knob.first, knob.second); });
  }
  return report;
}

Status BcacheDevice::WaitClean(double timeout_s, double poll_s,
                               const DrainProgressFn& progress,
                               double* drain_s) const {
  const uint64_t start = NowNs();
  for (;;) {
    DrainProgress p;
    std::string text;
    Status s = sysfs_.Read(dir_ + "/state", &text);
    if (!s.ok()) return s;
    p.state = text;
    s = sysfs_.Read(dir_ + "/dirty_data", &text);
    if (!s.ok()) return s;
    s = ParseHumanSize(text, &p.dirty_bytes);
    if (!s.ok()) return s;
    p.has_debug = ReadWritebackDebug(&p.debug).ok();
    p.elapsed_s = SecondsSince(start);
    if (progress) progress(p);
    // Drained when no dirty data is left. The state may still say "dirty":
    // the kernel marks the superblock clean only when the writeback thread
    // next finds the index empty, after writeback_delay (30 s) or later
    // (a lab drain waited 60 s on "dirty" with 0 bytes dirty and the server
    // stopped); the data is on the backing device already.
    if (p.dirty_bytes == 0) {
      if (drain_s != nullptr) *drain_s = p.elapsed_s;
      return Status::Ok();
    }
    if (Interrupted()) {
      return Status::Busy("interrupted while waiting for /dev/" + name_ +
                          " to drain");
    }
    if (p.elapsed_s >= timeout_s) {
      if (drain_s != nullptr) *drain_s = p.elapsed_s;
      return Status::TimedOut(
          "/dev/" + name_ + " did not drain within " + Secs(timeout_s) +
          " s. Dirty: " + FormatHumanSize(static_cast<int64_t>(p.dirty_bytes)) +
          "; State: " + p.state +
          "; Path: " + sysfs_.Path(dir_ + "/dirty_data"));
    }
    sleep_(std::min(poll_s, timeout_s - p.elapsed_s));
  }
}

template <typename Pred>
void BcacheDevice::WaitFor(Pred done, double timeout_s, const std::string& what,
                           bool interruptible) {
  const uint64_t start = NowNs();
  for (;;) {
    if (done()) return;
    if (interruptible && Interrupted()) {
      throw InterruptedError("interrupted while waiting: " + what,
                             InterruptSignal());
    }
    const double elapsed = SecondsSince(start);
    if (elapsed >= timeout_s) {
      throw SysError("timed out after " + Secs(timeout_s) + " s: " + what +
                     ". Device: /dev/" + name_ +
                     "; State: " + std::string(BcacheStateName(State())) +
                     "; Fix: stop other IO on the device or raise the timeout");
    }
    sleep_(std::min(0.1, timeout_s - elapsed));
  }
}

bool BcacheDevice::Detached() const {
  return State() == BcacheState::kNoCache && CacheSetDir().empty();
}

void BcacheDevice::Detach(double timeout_s) {
  if (Detached()) return;
  const std::string rel = dir_ + "/detach";
  Status s = sysfs_.Write(rel, "1");
  if (!s.ok()) {
    throw SysError::From("cannot detach the cache. Device: /dev/" + name_ +
                             "; Path: " + sysfs_.Path(rel),
                         s);
  }
  // The kernel shows "no cache" (superblock state) before its detach
  // worker has finished and removed the `cache` link; an attach in between
  // is refused or lost ("already attached"), so wait for both.
  WaitFor([&] { return Detached(); }, timeout_s,
          "detach (state \"no cache\" and no cache link)");
}

void BcacheDevice::Attach(const std::string& cset_uuid, double timeout_s) {
  AttachImpl(cset_uuid, timeout_s, true);
}

void BcacheDevice::AttachImpl(const std::string& cset_uuid, double timeout_s,
                              bool interruptible) {
  if (Topology().cset_uuid == cset_uuid && State() != BcacheState::kNoCache) {
    return;
  }
  // A detach still finishing would make the kernel refuse the attach.
  WaitFor([&] { return Detached(); }, timeout_s,
          "the previous detach to finish before attaching", interruptible);
  const std::string rel = dir_ + "/attach";
  Status s = sysfs_.Write(rel, cset_uuid);
  if (!s.ok()) {
    throw SysError::From("cannot attach the cache set. Device: /dev/" + name_ +
                             "; Cset: " + cset_uuid +
                             "; Path: " + sysfs_.Path(rel) +
                             "; Fix: check the cache set is registered (ls " +
                             sysfs_.Path("sys/fs/bcache") +
                             ") and its block size suits the backing device",
                         s);
  }
  WaitFor(
      [&] {
        return State() != BcacheState::kNoCache && !CacheSetDir().empty();
      },
      timeout_s, "attach to cache set " + cset_uuid, interruptible);
}

Status BcacheDevice::Flush(double timeout_s, double poll_s,
                           const DrainProgressFn& progress, double* drain_s) {
  static constexpr std::string_view kForced[][2] = {
      {"writeback_percent", "0"},
      {"writeback_delay", "0"},
      {"writeback_running", "1"},
  };
  std::vector<std::pair<std::string, std::string>> before;
  try {
    if (DirtyBytes() == 0) {
      return WaitClean(timeout_s, poll_s, progress, drain_s);
    }
    const KnobSnapshot now = Capture();
    for (const auto& [name, value] : kForced) {
      auto it = now.knobs.find(std::string(name));
      if (it == now.knobs.end()) {
        return Status::IoError("cannot flush /dev/" + name_ + ": " +
                               std::string(name) + " is unreadable");
      }
      before.emplace_back(it->first, it->second);
    }
    for (const auto& [name, value] : kForced) SetKnob(name, value);
  } catch (const std::exception& e) {
    // What cannot be put back is reported by the error below; the
    // compare's restore retries.
    PutBackKnobs(before);
    return Status::IoError(std::string("cannot flush /dev/") + name_ + ": " +
                           e.what());
  }
  Status waited = WaitClean(timeout_s, poll_s, progress, drain_s);
  const std::string failed = PutBackKnobs(before);
  if (!failed.empty()) {
    return Status::IoError("/dev/" + name_ +
                           ": the writeback knobs set for the flush could "
                           "not be put back: " +
                           failed);
  }
  return waited;
}

std::string BcacheDevice::PutBackKnobs(
    const std::vector<std::pair<std::string, std::string>>& knobs) {
  std::string failed;
  for (const auto& [name, value] : knobs) {
    try {
      SetKnob(name, value);
    } catch (const std::exception& e) {
      failed += (failed.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  return failed;
}

void BcacheDevice::MakeCold(double timeout_s) {
  const std::string uuid = Topology().cset_uuid;
  if (uuid.empty()) {
    throw SysError(
        "cannot make the cache cold: no cache set attached. "
        "Device: /dev/" +
        name_ +
        "; Fix: attach a cache (echo "
        "<cset-uuid> > " +
        sysfs_.Path(dir_ + "/attach") + ")");
  }
  Detach(timeout_s);
  Attach(uuid, timeout_s);
}

void BcacheDevice::ClearStats() {
  const std::string rel = dir_ + "/clear_stats";
  Status s = sysfs_.Write(rel, "1");
  if (!s.ok()) {
    throw SysError::From("cannot clear bcache stats. Path: " + sysfs_.Path(rel),
                         s);
  }
}

CounterSnapshot BcacheDevice::TakeCounters() const {
  CounterSnapshot snap;
  snap.taken_ns = NowNs();
  const std::string stats = dir_ + "/stats_total/";
  const std::pair<const char*, uint64_t*> counters[] = {
      {"cache_hits", &snap.stats.cache_hits},
      {"cache_misses", &snap.stats.cache_misses},
      {"cache_bypass_hits", &snap.stats.cache_bypass_hits},
      {"cache_bypass_misses", &snap.stats.cache_bypass_misses},
      {"cache_miss_collisions", &snap.stats.cache_miss_collisions},
      {"cache_readaheads", &snap.stats.cache_readaheads},
  };
  for (const auto& [file, dest] : counters) {
    const std::string rel = stats + file;
    // cache_readaheads is gone from newer kernels (6.1 has none): count 0.
    if (dest == &snap.stats.cache_readaheads && !sysfs_.Exists(rel)) continue;
    int64_t v = 0;
    const std::string text = ReadOrThrow(rel);
    Status s = ParseInteger(text, &v);
    if (!s.ok() || v < 0) {
      throw SysError("bad bcache counter. Path: " + sysfs_.Path(rel));
    }
    *dest = static_cast<uint64_t>(v);
    snap.raw += std::string(file) + "=" + std::string(Trim(text)) + "\n";
  }
  const std::string bypassed = stats + "bypassed";
  const std::string bypassed_text = ReadOrThrow(bypassed);
  if (!ParseHumanSize(bypassed_text, &snap.stats.bypassed_bytes).ok()) {
    throw SysError("bad bcache counter. Path: " + sysfs_.Path(bypassed));
  }
  snap.raw += "bypassed=" + std::string(Trim(bypassed_text)) + "\n";
  const std::string five = dir_ + "/stats_five_minute/";
  if (sysfs_.Exists(dir_ + "/stats_five_minute")) {
    for (const char* file : {"cache_hits", "cache_misses", "cache_bypass_hits",
                             "cache_bypass_misses", "bypassed"}) {
      if (!snap.five_minute.empty()) snap.five_minute += ' ';
      snap.five_minute += Trim(ReadOrThrow(five + file));
    }
  }
  snap.dirty_bytes = DirtyBytes();
  snap.state = std::string(BcacheStateName(State()));
  const BcacheTopology topo = Topology();
  snap.bcache_name = name_;
  snap.backing_name = topo.backing_name;
  if (!topo.cache_names.empty()) snap.cache_name = topo.cache_names.front();
  auto read_stat = [&](const std::string& dev, BlockStat* out) {
    Status s = ReadBlockStat(sysfs_, dev, out);
    if (!s.ok()) {
      throw SysError::From("cannot read block stats of " + dev, s);
    }
  };
  read_stat(snap.bcache_name, &snap.bcache);
  read_stat(snap.backing_name, &snap.backing);
  if (!snap.cache_name.empty()) read_stat(snap.cache_name, &snap.cache);
  return snap;
}

}  // namespace tierbench
