#include "cache/dm/dm_cache_layer.h"

#include <algorithm>
#include <cstdio>

#include "cache/dm/dm_cache_diagnosis.h"
#include "cache/mode_spec.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr char kDefaultPolicy[] = "smq";
// A warm-up pass whose reads hit the cache at least this often ends the
// warm-up.
constexpr double kWarmReadHitPct = 90.0;
// ...or a pass that promoted nothing and gained less than this.
constexpr double kWarmMinGainPct = 1.0;

std::string Secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

uint64_t NonNeg(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

}  // namespace

DmCacheLayer::DmCacheLayer(Sysfs sysfs, std::shared_ptr<DmControl> dm,
                           std::string device, std::string layer_name)
    : DmTargetLayer(std::move(layer_name), kDmCacheTargetType, std::move(sysfs),
                    std::move(dm), std::move(device)) {
  ReadTable();  // SysError when it is not a cache target.
}

DmCacheTable DmCacheLayer::ReadTable() const {
  return Parse(dev_.Target(kDmCacheTargetType), &ParseDmCacheTable,
               "cache table");
}

DmCacheStatus DmCacheLayer::ReadStatus() const {
  return Parse(dev_.StatusOf(kDmCacheTargetType), &ParseDmCacheStatus,
               "cache status");
}

StackInfo DmCacheLayer::Describe() const {
  const DmCacheTable t = ReadTable();
  const DmCacheStatus st = ReadStatus();
  StackInfo info;
  info.layer = layer_;
  info.device = dev_.device();
  info.name = dev_.kernel_name();
  info.origin = dev_.KernelNameOf(t.origin_dev);
  info.caches = {dev_.KernelNameOf(t.cache_dev)};
  info.metadata = dev_.KernelNameOf(t.metadata_dev);
  info.members = dev_.Members();
  info.cache_block_bytes = static_cast<int64_t>(t.block_sectors * 512);
  info.cache_bytes =
      static_cast<int64_t>(st.cache_total * st.cache_block_sectors * 512);
  return info;
}

std::string DmCacheLayer::CheckUsable(const std::vector<const ModeSpec*>&,
                                      bool) const {
  const DmCacheStatus st = ReadStatus();
  if (st.needs_check || st.read_only) {
    return "dm-cache " + dev_.dm_name() +
           " has read-only or needs_check metadata: it cannot switch modes. "
           "Fix: repair it with cache_check/cache_repair (thin-provisioning-"
           "tools) and recreate the device";
  }
  return "";
}

void DmCacheLayer::BeforeRestore(const DmTarget& original) {
  DmCacheTable orig;
  if (ParseDmCacheTable(original.params, &orig).ok() &&
      orig.IoMode() == "passthrough" && ReadStatus().dirty > 0) {
    DrainWithCleaner(600);
  }
}

void DmCacheLayer::ReloadTable(const DmCacheTable& table,
                               const std::string& why) {
  DmTarget t = dev_.Target(kDmCacheTargetType);
  t.params = table.FormatParams();
  dev_.Reload(t, why);
}

void DmCacheLayer::DrainWithCleaner(double timeout_s) {
  const DmCacheTable live = ReadTable();
  DmCacheTable cleaner = live;
  cleaner.policy = "cleaner";
  cleaner.policy_args.clear();
  ReloadTable(cleaner, "draining dirty blocks with the cleaner policy");
  double waited = 0;
  tierbench::Status s = WaitClean(timeout_s, {}, &waited);
  ReloadTable(live, "back from the cleaner policy");
  if (s.code() == tierbench::Status::Code::kBusy && Interrupted()) {
    throw InterruptedError("interrupted while draining " + dev_.dm_name(),
                           InterruptSignal());
  }
  if (!s.ok()) {
    throw SysError::From(
        "dm-cache " + dev_.dm_name() + " did not drain with the cleaner policy",
        s);
  }
}

int64_t DmCacheLayer::StopDirtyingAndClean(double timeout_s) {
  // In writeback, a filesystem mounted on the stack (a DB cell's) writes
  // whenever it likes (a journal commit), so a clean cache can be dirty
  // again the moment after it was read clean, and the kernel then refuses
  // passthrough's table (its blocks must all be clean in the metadata),
  // CI 2026-12-05. In writethrough nothing new gets dirty.
  DmCacheTable t = ReadTable();
  if (t.IoMode() == "writeback") {
    t.SetIoMode("writethrough");
    ReloadTable(t,
                "writethrough first: no new dirty blocks before passthrough");
  }
  const int64_t dirty = ReadStatus().dirty;
  if (dirty > 0) DrainWithCleaner(timeout_s);
  return dirty;
}

void DmCacheLayer::SwitchTo(
    const std::string& mode, const std::string& policy,
    const std::vector<std::pair<std::string, std::string>>& policy_args,
    std::vector<std::string>* notes) {
  DmCacheTable t = ReadTable();
  if (mode == "passthrough" && t.IoMode() != "passthrough") {
    const uint64_t start = NowNs();
    const int64_t dirty = StopDirtyingAndClean(600);
    if (dirty > 0 && notes != nullptr) {
      notes->push_back(
          "passthrough needs a clean cache (the kernel refuses it while "
          "blocks are dirty): " +
          std::to_string(dirty) +
          " dirty blocks were written back with the cleaner policy first "
          "(" +
          Secs(static_cast<double>(NowNs() - start) / 1e9) + " s)");
    }
    t = ReadTable();
  }
  t.SetIoMode(mode);
  t.policy = policy;
  t.policy_args = policy_args;
  ReloadTable(t, "switching to " + mode + " with policy " + policy);
}

LayerReadback DmCacheLayer::ApplyMode(const ModeSpec& mode,
                                      std::vector<std::string>* notes) {
  std::string policy = kDefaultPolicy;
  std::vector<std::pair<std::string, std::string>> args;
  for (const auto& [name, value] : mode.knobs) {
    if (name == "policy") {
      policy = value;
    } else {
      args.emplace_back(name, value);
    }
  }
  SwitchTo(mode.cache_mode, policy, args, notes);
  const LayerReadback rb = ReadBack();
  if (rb.cache_mode != mode.cache_mode) {
    throw SysError("dm-cache " + dev_.dm_name() + " reads back mode '" +
                   rb.cache_mode + "' after switching to '" + mode.cache_mode +
                   "'. Table: " + dev_.TableText());
  }
  auto check = [&](const std::string& key, const std::string& want) {
    auto it = rb.settings.find(key);
    if (it == rb.settings.end() || it->second != want) {
      throw SysError("dm-cache " + dev_.dm_name() + " reads back " + key +
                     " = '" +
                     (it == rb.settings.end() ? "(missing)" : it->second) +
                     "', not '" + want + "'. Table: " + dev_.TableText());
    }
  };
  check("policy", policy);
  for (const auto& [k, v] : args) check(k, v);
  return rb;
}

LayerReadback DmCacheLayer::ReadBack() const {
  const DmCacheTable t = ReadTable();
  const DmCacheStatus st = ReadStatus();
  LayerReadback rb;
  rb.cache_mode = t.IoMode();
  rb.settings["policy"] = t.policy;
  rb.settings["block_size"] = std::to_string(t.block_sectors * 512);
  for (const auto& [k, v] : t.policy_args) rb.settings[k] = v;
  // Core arguments as the kernel applied them (migration_threshold).
  for (const auto& [k, v] : st.core_args) rb.settings[k] = v;
  std::string features;
  for (const std::string& f : t.features) {
    features += (features.empty() ? "" : ",") + f;
  }
  rb.settings["features"] = features;
  return rb;
}

void DmCacheLayer::MakeCold(double timeout_s) {
  // Writethrough first, then dirty blocks go back to the origin through the
  // cleaner policy at once (StopDirtyingAndClean): the invalidation below
  // drops smq's state anyway, and waiting for smq's own cleaning stalled
  // the lab for 8 minutes after a database load under writeback (kernel
  // 6.1, CI 2026-12-05).
  StopDirtyingAndClean(timeout_s);
  DmCacheTable t = ReadTable();
  if (t.IoMode() != "passthrough") {
    t.SetIoMode("passthrough");
    ReloadTable(t, "passthrough to invalidate the cache (cold cache)");
  }
  const DmCacheStatus st = ReadStatus();
  if (st.cache_used > 0) {
    dev_.Message("invalidate_cblocks 0-" + std::to_string(st.cache_total));
  }
  const DmCacheStatus after = ReadStatus();
  if (after.cache_used > 0) {
    throw SysError("dm-cache " + dev_.dm_name() + " still holds " +
                   std::to_string(after.cache_used) +
                   " cache blocks after invalidate_cblocks: the cache is not "
                   "cold. Status: " +
                   dev_.StatusOf(kDmCacheTargetType).params);
  }
}

bool DmCacheLayer::BeginWarm(std::string* /*why_not*/) {
  last_warm_hit_pct_ = -1;
  // Reads promote in writethrough (passthrough would bypass the policy).
  DmCacheTable t = ReadTable();
  if (t.IoMode() == "passthrough") {
    t.SetIoMode("writethrough");
    ReloadTable(t, "writethrough for the warm-up reads");
  }
  return true;
}

bool DmCacheLayer::WarmNeedsAnotherPass(const LayerDelta& pass,
                                        uint64_t /*region_bytes*/) const {
  // smq promotes gradually and only after it has seen a block hot: the
  // first pass promotes little, later ones more. Warm means the pass's own
  // reads were served by the cache.
  const double hit_pct = pass.read_hit_ratio_pct();
  const double last = last_warm_hit_pct_;
  last_warm_hit_pct_ = hit_pct;
  if (hit_pct >= kWarmReadHitPct) return false;
  // Promotion stalled: another pass would not change the cache.
  if (last >= 0 && hit_pct >= 0 && hit_pct - last < kWarmMinGainPct &&
      NonNeg(pass.common.promotions) == 0) {
    return false;
  }
  return true;
}

tierbench::Status DmCacheLayer::WaitClean(double timeout_s,
                                          const ProgressFn& progress,
                                          double* drain_s) {
  return PollUntilClean(
      NowNs(), timeout_s,
      [this] {
        const DmCacheStatus st = ReadStatus();
        DrainPoll p;
        p.clean = st.dirty == 0;
        p.dirty_bytes =
            static_cast<int64_t>(st.dirty * st.cache_block_sectors * 512);
        p.state = p.clean ? "clean" : "dirty";
        p.left = std::to_string(st.dirty) + " dirty blocks left";
        return p;
      },
      progress, drain_s);
}

int64_t DmCacheLayer::DirtyBytes() const {
  const DmCacheStatus st = ReadStatus();
  return static_cast<int64_t>(st.dirty * st.cache_block_sectors * 512);
}

std::string DmCacheLayer::State() const {
  const DmCacheStatus st = ReadStatus();
  if (st.needs_check) return "needs_check";
  if (st.read_only) return "read-only";
  return st.dirty > 0 ? "dirty" : "clean";
}

LayerCounters DmCacheLayer::TakeCounters() const {
  const DmCacheTable t = ReadTable();
  const DmTarget line = dev_.StatusOf(kDmCacheTargetType);
  const DmCacheStatus st = Parse(line, &ParseDmCacheStatus, "cache status");
  LayerCounters c;
  c.raw = FormatDmTarget(line);
  c.taken_ns = NowNs();
  c.common.read_hits = static_cast<int64_t>(st.read_hits);
  c.common.read_misses = static_cast<int64_t>(st.read_misses);
  c.common.write_hits = static_cast<int64_t>(st.write_hits);
  c.common.write_misses = static_cast<int64_t>(st.write_misses);
  c.common.promotions = static_cast<int64_t>(st.promotions);
  c.common.demotions = static_cast<int64_t>(st.demotions);
  c.dirty_bytes = static_cast<int64_t>(st.dirty * st.cache_block_sectors * 512);
  c.state = st.dirty > 0 ? "dirty" : "clean";
  const std::string cache = dev_.KernelNameOf(t.cache_dev);
  c.cache_identity = cache;
  c.stack = dev_.Stat(dev_.kernel_name());
  c.origin = dev_.Stat(dev_.KernelNameOf(t.origin_dev));
  c.cache = dev_.Stat(cache);
  c.extra["cache_used_blocks"] = static_cast<int64_t>(st.cache_used);
  c.extra["metadata_used_blocks"] = static_cast<int64_t>(st.metadata_used);
  c.extra["dirty_blocks"] = static_cast<int64_t>(st.dirty);
  return c;
}

LayerSample DmCacheLayer::Sample() const {
  // One status read: the counters and the dirty blocks are on its line.
  const DmCacheStatus st = ReadStatus();
  LayerSample s;
  s.taken_ns = NowNs();
  s.read_hits = static_cast<int64_t>(st.read_hits);
  s.read_misses = static_cast<int64_t>(st.read_misses);
  s.dirty_bytes = static_cast<int64_t>(st.dirty * st.cache_block_sectors * 512);
  return s;
}

bool DmCacheLayer::ModeCachesReads(const std::string& cache_mode) const {
  return cache_mode == "writeback" || cache_mode == "writethrough";
}

std::vector<Finding> DmCacheLayer::Diagnose(const CellObservation& obs) const {
  return DiagnoseDmCache(obs);
}

std::set<std::string> DmCacheLayer::GaugeKeys() const {
  return {"cache_used_blocks", "metadata_used_blocks", "dirty_blocks"};
}

}  // namespace tierbench
