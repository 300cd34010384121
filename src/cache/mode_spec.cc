#include "cache/mode_spec.h"

namespace tierbench {

std::string_view ModeSpec::target_name() const {
  return target == RawTarget::kSsd ? "ssd" : "hdd";
}

nlohmann::json ModeSpec::ToJson() const {
  nlohmann::json j = {{"schema_version", kModeSchemaVersion},
                      {"name", name},
                      {"description", description},
                      {"layer", layer_name()}};
  if (is_raw()) {
    j["target"] = target_name();
    return j;
  }
  j["cache_mode"] = cache_mode;
  nlohmann::json knobs_json = nlohmann::json::object();
  for (const auto& [k, v] : knobs) knobs_json[k] = v;
  j["knobs"] = knobs_json;
  if (!cache_set_knobs.empty()) {
    nlohmann::json cset_json = nlohmann::json::object();
    for (const auto& [k, v] : cache_set_knobs) cset_json[k] = v;
    j["cache_set_knobs"] = cset_json;
  }
  return j;
}

}  // namespace tierbench
