#include "cache/dm_target_layer.h"

namespace tierbench {

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
