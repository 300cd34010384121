#include "cache/dm/dm_writecache_layer.h"

#include <cstdio>

#include "cache/dm/dm_writecache_diagnosis.h"
#include "cache/mode_spec.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {

std::string DmWritecacheMode(const DmWritecacheTable& table) {
  return table.GetArg("cleaner") ? "cleaner" : "writeback";
}

DmWritecacheLayer::DmWritecacheLayer(Sysfs sysfs, std::shared_ptr<DmControl> dm,
                                     std::string device)
    : DmTargetLayer(kDmWritecacheLayerName, kDmWritecacheTargetType,
                    std::move(sysfs), std::move(dm), std::move(device)) {
  ReadTable();  // SysError when it is not a writecache target.
}

DmWritecacheTable DmWritecacheLayer::ReadTable() const {
  return Parse(dev_.Target(kDmWritecacheTargetType), &ParseDmWritecacheTable,
               "writecache table");
}

DmWritecacheStatus DmWritecacheLayer::ReadStatus() const {
  return Parse(dev_.StatusOf(kDmWritecacheTargetType), &ParseDmWritecacheStatus,
               "writecache status");
}

StackInfo DmWritecacheLayer::Describe() const {
  const DmWritecacheTable t = ReadTable();
  const DmWritecacheStatus st = ReadStatus();
  StackInfo info;
  info.layer = layer_;
  info.device = dev_.device();
  info.name = dev_.kernel_name();
  info.origin = dev_.KernelNameOf(t.origin_dev);
  info.caches = {dev_.KernelNameOf(t.cache_dev)};
  info.members = dev_.Members();
  info.cache_block_bytes = static_cast<int64_t>(t.block_size);
  info.cache_bytes = static_cast<int64_t>(st.total_blocks * t.block_size);
  return info;
}

std::string DmWritecacheLayer::CheckUsable(const std::vector<const ModeSpec*>&,
                                           bool) const {
  const DmWritecacheStatus st = ReadStatus();
  if (st.error != 0) {
    return "dm-writecache " + dev_.dm_name() + " reports error " +
           std::to_string(st.error) +
           " (the kernel stops caching after an IO error). Fix: check the "
           "cache device and recreate the target";
  }
  return "";
}

LayerReadback DmWritecacheLayer::ApplyMode(const ModeSpec& mode,
                                           std::vector<std::string>*) {
  if (mode.cache_mode != "writeback") {
    throw ConfigError("dm-writecache has only the writeback mode. Key: mode " +
                      mode.name + "; Fix: \"cache_mode\": \"writeback\"");
  }
  DmWritecacheTable t = ReadTable();
  t.RemoveArg("cleaner");
  for (const std::string& k : DmWritecacheKnobs()) t.RemoveArg(k);
  for (const auto& [k, v] : mode.knobs) {
    tierbench::Status s = t.SetArg(k, v);
    if (!s.ok()) {
      throw ConfigError("dm-writecache knob " + k + " = " + v + ": " +
                        s.message() + ". Key: mode " + mode.name);
    }
  }
  DmTarget target = dev_.Target(kDmWritecacheTargetType);
  const std::string wanted = t.FormatParams();
  if (target.params != wanted) {
    target.params = wanted;
    dev_.Reload(target, "applying the knobs of mode " + mode.name);
  }
  const LayerReadback rb = ReadBack();
  if (rb.cache_mode != mode.cache_mode) {
    throw SysError("dm-writecache " + dev_.dm_name() + " reads back mode '" +
                   rb.cache_mode + "' after applying mode " + mode.name +
                   ". Table: " + dev_.TableText());
  }
  for (const auto& [k, v] : mode.knobs) {
    auto it = rb.settings.find(k);
    if (it == rb.settings.end() || it->second != v) {
      throw SysError("dm-writecache " + dev_.dm_name() + " reads back " + k +
                     " = '" +
                     (it == rb.settings.end() ? "(missing)" : it->second) +
                     "', not '" + v + "'. Table: " + dev_.TableText());
    }
  }
  return rb;
}

LayerReadback DmWritecacheLayer::ReadBack() const {
  // The live table, read from the kernel: a single writecache target (a
  // SysError otherwise) and its arguments.
  const DmWritecacheTable t = ReadTable();
  LayerReadback rb;
  rb.cache_mode = DmWritecacheMode(t);
  rb.settings["block_size"] = std::to_string(t.block_size);
  for (const auto& [k, v] : t.args) rb.settings[k] = v.empty() ? "1" : v;
  return rb;
}

void DmWritecacheLayer::MakeCold(double timeout_s) {
  double waited = 0;
  tierbench::Status s = WaitClean(timeout_s, {}, &waited);
  if (!s.ok()) {
    throw SysError::From("cannot empty dm-writecache " + dev_.dm_name(), s);
  }
}

bool DmWritecacheLayer::BeginWarm(std::string* why_not) {
  *why_not =
      "dm-writecache caches only writes (reads of blocks it did not write go "
      "to the origin): a read prefill cannot warm it";
  return false;
}

bool DmWritecacheLayer::WarmNeedsAnotherPass(const LayerDelta&,
                                             uint64_t) const {
  return false;
}

tierbench::Status DmWritecacheLayer::WaitClean(double timeout_s,
                                               const ProgressFn& progress,
                                               double* drain_s) {
  const uint64_t start = NowNs();
  DmWritecacheStatus st;
  try {
    st = ReadStatus();
    if (st.used_blocks() > 0) {
      if (progress) {
        LayerDrainProgress p;
        p.dirty_bytes =
            static_cast<int64_t>(st.used_blocks() * ReadTable().block_size);
        p.state = "flushing";
        progress(p);
      }
      // Blocks until every block is written back and freed.
      dev_.Message("flush");
    }
  } catch (const std::exception& e) {
    return tierbench::Status::IoError(e.what());
  }
  return PollUntilClean(
      start, timeout_s,
      [this] {
        const DmWritecacheStatus now = ReadStatus();
        DrainPoll p;
        p.clean = now.used_blocks() == 0 && now.under_writeback == 0;
        p.dirty_bytes =
            static_cast<int64_t>(now.used_blocks() * ReadTable().block_size);
        p.state = p.clean ? "clean" : "flushing";
        p.left = std::to_string(now.used_blocks()) + " blocks still in use";
        return p;
      },
      progress, drain_s);
}

int64_t DmWritecacheLayer::DirtyBytes() const {
  return static_cast<int64_t>(ReadStatus().used_blocks() *
                              ReadTable().block_size);
}

std::string DmWritecacheLayer::State() const {
  const DmWritecacheStatus st = ReadStatus();
  if (st.error != 0) return "error";
  return st.used_blocks() > 0 ? "dirty" : "clean";
}

LayerSample DmWritecacheLayer::Sample() const {
  // The status line and the table (for the block size). A 4-number status
  // (kernels before 5.15) has no read hits: the counters stay -1.
  const DmWritecacheStatus st = ReadStatus();
  LayerSample s;
  s.taken_ns = NowNs();
  if (st.has_counters) {
    s.read_hits = static_cast<int64_t>(st.read_hits);
    s.read_misses = static_cast<int64_t>(st.reads - st.read_hits);
  }
  s.dirty_bytes =
      static_cast<int64_t>(st.used_blocks() * ReadTable().block_size);
  return s;
}

LayerCounters DmWritecacheLayer::TakeCounters() const {
  const DmWritecacheTable t = ReadTable();
  const DmTarget line = dev_.StatusOf(kDmWritecacheTargetType);
  const DmWritecacheStatus st =
      Parse(line, &ParseDmWritecacheStatus, "writecache status");
  LayerCounters c;
  c.raw = FormatDmTarget(line);
  c.taken_ns = NowNs();
  if (st.has_counters) {
    c.common.read_hits = static_cast<int64_t>(st.read_hits);
    c.common.read_misses = static_cast<int64_t>(st.reads - st.read_hits);
    const uint64_t write_hits =
        st.write_hits_uncommitted + st.write_hits_committed;
    c.common.write_hits = static_cast<int64_t>(write_hits);
    c.common.write_misses = static_cast<int64_t>(
        st.writes >= write_hits ? st.writes - write_hits : 0);
    c.common.bypassed_ios = static_cast<int64_t>(st.writes_around);
    c.extra["writes_to_cache"] = static_cast<int64_t>(st.writes_to_cache);
    c.extra["writes_blocked_on_freelist"] =
        static_cast<int64_t>(st.writes_blocked_on_freelist);
    c.extra["flushes"] = static_cast<int64_t>(st.flushes);
  }
  c.dirty_bytes = static_cast<int64_t>(st.used_blocks() * t.block_size);
  c.state = st.used_blocks() > 0 ? "dirty" : "clean";
  const std::string cache = dev_.KernelNameOf(t.cache_dev);
  c.cache_identity = cache;
  c.stack = dev_.Stat(dev_.kernel_name());
  c.origin = dev_.Stat(dev_.KernelNameOf(t.origin_dev));
  c.cache = dev_.Stat(cache);
  c.extra["free_blocks"] = static_cast<int64_t>(st.free_blocks);
  c.extra["total_blocks"] = static_cast<int64_t>(st.total_blocks);
  c.extra["under_writeback"] = static_cast<int64_t>(st.under_writeback);
  return c;
}

std::set<std::string> DmWritecacheLayer::GaugeKeys() const {
  return {"free_blocks", "total_blocks", "under_writeback"};
}

bool DmWritecacheLayer::ModeCachesReads(const std::string& cache_mode) const {
  (void)cache_mode;
  return false;  // it caches writes only
}

std::vector<Finding> DmWritecacheLayer::Diagnose(
    const CellObservation& obs) const {
  return DiagnoseDmWritecache(obs);
}

}  // namespace tierbench
