#include "cache/bcache/bcache_layer.h"

#include <chrono>
#include <thread>

#include "cache/bcache/bcache_diagnosis.h"
#include "cache/bcache/bcache_values.h"
#include "cache/mode_spec.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {

constexpr double kDrainPollSeconds = 1.0;

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The device's drain progress as the layer's.
BcacheDevice::DrainProgressFn Relay(const CacheLayer::ProgressFn& progress) {
  return [progress](const DrainProgress& p) {
    if (!progress) return;
    LayerDrainProgress lp;
    lp.elapsed_s = p.elapsed_s;
    lp.dirty_bytes = static_cast<int64_t>(p.dirty_bytes);
    lp.state = p.state;
    progress(lp);
  };
}

}  // namespace

void CacheLayer::Sleep(double seconds) const {
  if (seconds <= 0) return;
  if (sleep_) {
    sleep_(seconds);
    return;
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

nlohmann::json StackInfo::ToJson() const {
  return {{"layer", layer},
          {"device", device},
          {"name", name},
          {"origin", origin},
          {"caches", caches},
          {"metadata", metadata},
          {"members", members},
          {"cache_bytes", cache_bytes < 0 ? nlohmann::json(nullptr)
                                          : nlohmann::json(cache_bytes)},
          {"cache_block_bytes", cache_block_bytes < 0
                                    ? nlohmann::json(nullptr)
                                    : nlohmann::json(cache_block_bytes)}};
}

nlohmann::json LayerReadback::ToJson() const {
  nlohmann::json s = nlohmann::json::object();
  for (const auto& [k, v] : settings) s[k] = v;
  return {{"cache_mode", cache_mode}, {"settings", s}};
}

BcacheLayer::BcacheLayer(Sysfs sysfs, std::string device)
    : device_(std::move(device)), dev_(std::move(sysfs), BaseName(device_)) {}

bool BcacheLayer::Detect(const Sysfs& sysfs, const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos &&
         sysfs.Exists("sys/block/" + name + "/bcache");
}

void BcacheLayer::set_sleep(SleepFn sleep) {
  dev_.set_sleep_for_testing(sleep);
  sleep_ = std::move(sleep);
}

StackInfo BcacheLayer::Describe() const {
  const BcacheTopology topo = dev_.Topology();
  StackInfo info;
  info.layer = layer_;
  info.device = device_;
  info.name = topo.bcache_name;
  info.origin = topo.backing_name;
  info.caches = topo.cache_names;
  info.members = {topo.bcache_name, topo.backing_name};
  for (const std::string& c : topo.cache_names) info.members.push_back(c);
  const CacheSetInfo cset = dev_.ReadCacheSetInfo();
  info.cache_block_bytes = cset.block_size_bytes;
  // Capacity: buckets x bucket size of every cache device of the set.
  if (cset.bucket_size_bytes > 0) {
    int64_t total = 0;
    for (const std::string& c : topo.cache_names) {
      std::string text;
      int64_t n = -1;
      if (dev_.sysfs()
              .Read("sys/class/block/" + c + "/bcache/nbuckets", &text)
              .ok() &&
          ParseInteger(text, &n).ok() && n > 0) {
        total += n * cset.bucket_size_bytes;
      }
    }
    if (total > 0) info.cache_bytes = total;
  }
  return info;
}

nlohmann::json BcacheLayer::DescribeJson() const {
  nlohmann::json j = dev_.Describe();
  j["layer"] = layer_;
  try {
    j["stack"] = Describe().ToJson();
  } catch (const std::exception&) {
    j["stack"] = nullptr;
  }
  return j;
}

std::string BcacheLayer::CheckUsable(const std::vector<const ModeSpec*>& modes,
                                     bool cold_or_warm) const {
  if (dev_.State() != BcacheState::kNoCache) return "";
  std::string needing;
  for (const ModeSpec* m : modes) {
    if (m->cache_mode != "none" || !m->cache_set_knobs.empty() ||
        cold_or_warm) {
      needing += (needing.empty() ? "" : ",") + m->name;
    }
  }
  if (needing.empty()) return "";
  const Sysfs& sysfs = dev_.sysfs();
  return dev_.name() +
         " has no cache attached (state 'no cache'): every mode would "
         "measure the HDD. Key: modes: " +
         needing + "; Key: state: " + sysfs.Path(dev_.dir() + "/state") +
         "; Fix: echo <cset-uuid> > " + sysfs.Path(dev_.dir() + "/attach") +
         " (cache sets: ls " + sysfs.Path("sys/fs/bcache") + ")";
}

double BcacheLayer::CounterLagSeconds() const { return kStatsLagSeconds; }

void BcacheLayer::CaptureOriginal() { original_ = dev_.Capture(); }

nlohmann::json BcacheLayer::OriginalJson() const {
  return original_ ? original_->ToJson() : nlohmann::json(nullptr);
}

void BcacheLayer::LoadOriginal(const nlohmann::json& original) {
  original_ = KnobSnapshot::FromJson(original);
}

RestoreReport BcacheLayer::RestoreOriginal() noexcept {
  if (!original_) return {};
  return dev_.Restore(*original_);
}

LayerReadback BcacheLayer::Flatten(const KnobSnapshot& snap) {
  LayerReadback r;
  r.cache_mode = snap.cache_mode;
  r.settings = snap.knobs;
  for (const auto& [k, v] : snap.cache_set_knobs) r.settings[k] = v;
  return r;
}

LayerReadback BcacheLayer::ApplyMode(const ModeSpec& mode,
                                     std::vector<std::string>* /*notes*/) {
  dev_.SetCacheMode(mode.cache_mode);
  bool cutoff_set = false;
  for (const auto& [name, value] : mode.knobs) {
    dev_.SetKnob(name, value);
    cutoff_set = cutoff_set || name == "sequential_cutoff";
  }
  for (const auto& [name, value] : mode.cache_set_knobs) {
    dev_.SetCacheSetKnob(name, value);
  }
  if (prefilled_ && !cutoff_set && original_) {
    // The prefill set 0: back to the value the compare started with.
    auto it = original_->knobs.find("sequential_cutoff");
    if (it != original_->knobs.end()) dev_.SetKnob(it->first, it->second);
  }
  prefilled_ = false;
  return ReadBack();
}

LayerReadback BcacheLayer::ReadBack() const { return Flatten(dev_.Capture()); }

void BcacheLayer::MakeCold(double timeout_s) { dev_.MakeCold(timeout_s); }

bool BcacheLayer::BeginWarm(std::string* /*why_not*/) {
  // Reads insert in writethrough; the cutoff would bypass the sequential
  // prefill.
  dev_.SetCacheMode("writethrough");
  dev_.SetKnob("sequential_cutoff", "0");
  prefilled_ = true;
  return true;
}

bool BcacheLayer::WarmNeedsAnotherPass(const LayerDelta& /*pass*/,
                                       uint64_t /*region_bytes*/) const {
  return false;  // One read pass inserts every block.
}

Status BcacheLayer::WaitClean(double timeout_s, const ProgressFn& progress,
                              double* drain_s) {
  return dev_.WaitClean(timeout_s, kDrainPollSeconds, Relay(progress), drain_s);
}

Status BcacheLayer::Flush(double timeout_s, const ProgressFn& progress,
                          double* drain_s) {
  return dev_.Flush(timeout_s, kDrainPollSeconds, Relay(progress), drain_s);
}

int64_t BcacheLayer::DirtyBytes() const {
  return static_cast<int64_t>(dev_.DirtyBytes());
}

std::string BcacheLayer::State() const {
  return std::string(BcacheStateName(dev_.State()));
}

LayerCounters BcacheLayer::TakeCounters() const {
  const CounterSnapshot s = dev_.TakeCounters();
  LayerCounters c;
  c.taken_ns = s.taken_ns;
  c.common.read_hits = static_cast<int64_t>(s.stats.cache_hits);
  c.common.read_misses = static_cast<int64_t>(s.stats.cache_misses);
  c.common.bypassed_bytes = static_cast<int64_t>(s.stats.bypassed_bytes);
  c.dirty_bytes = static_cast<int64_t>(s.dirty_bytes);
  c.state = s.state;
  c.cache_identity = s.cache_name;
  c.stack = s.bcache;
  c.origin = s.backing;
  c.cache = s.cache;
  c.fold_mark = s.five_minute;
  c.raw = s.raw + "dirty_data=" + std::to_string(s.dirty_bytes) +
          "\nstate=" + s.state + "\n";
  c.extra["bypass_hits"] = static_cast<int64_t>(s.stats.cache_bypass_hits);
  c.extra["bypass_misses"] = static_cast<int64_t>(s.stats.cache_bypass_misses);
  c.extra["miss_collisions"] =
      static_cast<int64_t>(s.stats.cache_miss_collisions);
  c.extra["cache_available_percent"] =
      dev_.ReadCacheSetInfo().cache_available_percent;
  return c;
}

LayerSample BcacheLayer::Sample() const {
  // Two counters of stats_total and dirty_data: three small sysfs reads.
  // The kernel folds the counters only every ~13.6 s (CounterLagSeconds),
  // so per-second hit ratios come in steps.
  LayerSample s;
  s.taken_ns = NowNs();
  const std::pair<const char*, int64_t*> counters[] = {
      {"cache_hits", &s.read_hits}, {"cache_misses", &s.read_misses}};
  for (const auto& [file, dest] : counters) {
    const std::string rel = dev_.dir() + "/stats_total/" + file;
    std::string text;
    int64_t v = 0;
    if (!dev_.sysfs().Read(rel, &text).ok() || !ParseInteger(text, &v).ok() ||
        v < 0) {
      throw SysError("bad bcache counter. Path: " + dev_.sysfs().Path(rel));
    }
    *dest = v;
  }
  s.dirty_bytes = static_cast<int64_t>(dev_.DirtyBytes());
  return s;
}

std::set<std::string> BcacheLayer::GaugeKeys() const {
  return {"cache_available_percent"};
}

bool BcacheLayer::ModeCachesReads(const std::string& cache_mode) const {
  return !cache_mode.empty() && cache_mode != "none";
}

std::vector<Finding> BcacheLayer::Diagnose(const CellObservation& obs) const {
  return DiagnoseBcache(obs);
}

}  // namespace tierbench
