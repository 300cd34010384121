#include "cache/dm/dm_target_layer.h"

#include <cstdio>
#include <sstream>

#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {

constexpr double kDrainPollSeconds = 0.5;

}  // namespace

DmTargetLayer::DmTargetLayer(std::string layer, std::string target_type,
                             Sysfs sysfs, std::shared_ptr<DmControl> dm,
                             std::string device)
    : layer_(std::move(layer)),
      target_type_(std::move(target_type)),
      dev_(std::move(sysfs), std::move(dm), std::move(device)) {}

nlohmann::json DmTargetLayer::DescribeJson() const {
  nlohmann::json j = {{"layer", layer_},
                      {"device", dev_.device()},
                      {"dm_name", dev_.dm_name()},
                      {"uuid", dev_.Uuid()}};
  auto guarded = [&](const char* key, auto fn) {
    try {
      j[key] = fn();
    } catch (const std::exception&) {
      j[key] = nullptr;
    }
  };
  guarded("table", [&] { return dev_.TableText(); });
  guarded("status", [&] { return dev_.StatusOf(target_type_).params; });
  guarded("stack", [&] { return Describe().ToJson(); });
  guarded("readback", [&] { return ReadBack().ToJson(); });
  return j;
}

void DmTargetLayer::CaptureOriginal() { original_ = dev_.Target(target_type_); }

nlohmann::json DmTargetLayer::OriginalJson() const {
  if (!original_) return nullptr;
  return {{"table", std::to_string(original_->start) + " " +
                        std::to_string(original_->length) + " " +
                        original_->type + " " + original_->params}};
}

void DmTargetLayer::ThrowParseError(const char* what, const Status& s) const {
  throw SysError::From(
      std::string("cannot parse the ") + what + " of " + dev_.dm_name(), s);
}

Status DmTargetLayer::PollUntilClean(uint64_t start_ns, double timeout_s,
                                     const std::function<DrainPoll()>& poll,
                                     const ProgressFn& progress,
                                     double* drain_s) const {
  for (;;) {
    DrainPoll p;
    try {
      p = poll();
    } catch (const std::exception& e) {
      return Status::IoError(e.what());
    }
    const double elapsed = static_cast<double>(NowNs() - start_ns) / 1e9;
    if (drain_s != nullptr) *drain_s = elapsed;
    if (progress) {
      LayerDrainProgress lp;
      lp.elapsed_s = elapsed;
      lp.dirty_bytes = p.dirty_bytes;
      lp.state = p.state;
      progress(lp);
    }
    if (p.clean) return Status::Ok();
    if (elapsed >= timeout_s) {
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.1f", elapsed);
      return Status::TimedOut(p.left + " after " + secs + " s. Device: " +
                              dev_.dm_name() + "; Fix: raise --drain-timeout");
    }
    if (Interrupted()) return Status::Busy("interrupted");
    Sleep(kDrainPollSeconds);
  }
}

void DmTargetLayer::LoadOriginal(const nlohmann::json& original) {
  // "start length type params", as OriginalJson() writes it.
  std::string table;
  if (original.is_object() && original.contains("table") &&
      original["table"].is_string()) {
    table = original["table"].get<std::string>();
  }
  DmTarget t;
  std::istringstream in(table);
  if (in >> t.start >> t.length >> t.type) {
    std::getline(in >> std::ws, t.params);
  }
  if (t.length == 0 || t.type != target_type_ || t.params.empty()) {
    throw ConfigError("not a " + target_type_ + " table of " + layer_ + ": '" +
                      table.substr(0, 80) + "'");
  }
  original_ = t;
}

RestoreReport DmTargetLayer::RestoreOriginal() noexcept {
  RestoreReport report;
  if (!original_) return report;
  try {
    const DmTarget live = dev_.Target(target_type_);
    if (live.params == original_->params && live.length == original_->length) {
      return report;
    }
    BeforeRestore(*original_);
    dev_.Reload(*original_, "restoring the original table");
    const DmTarget after = dev_.Target(target_type_);
    if (after.params != original_->params) {
      report.failures.push_back("table reads back '" + after.params +
                                "', not the original '" + original_->params +
                                "'");
    }
  } catch (const std::exception& e) {
    report.failures.push_back(e.what());
  }
  return report;
}

}  // namespace tierbench
