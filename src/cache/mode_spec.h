// ModeSpec: one mode of a compare, as its mode file (modes/*.json) says it:
// a cache configuration of a layer (its cache_mode and knobs), or a raw
// baseline (the HDD or the SSD alone). The layers read it in ApplyMode and
// CheckUsable; the file format, its parser and its validation against the
// layers' kinds are cache/registry/mode_file.h.
// Thread-safety: a plain value; its methods are const and pure.
#ifndef TIERBENCH_CACHE_MODE_SPEC_H_
#define TIERBENCH_CACHE_MODE_SPEC_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tierbench {

inline constexpr int kModeSchemaVersion = 1;

inline constexpr char kRawLayerName[] = "raw";

enum class RawTarget { kHdd, kSsd };

struct ModeSpec {
  std::string path;  // The file it came from ("" when parsed from text).
  std::string name;
  std::string description;
  std::string layer;  // "raw" or a cache layer's name
  // Cache layers:
  std::string cache_mode;
  // (knob name, value text), sorted by name.
  std::vector<std::pair<std::string, std::string>> knobs;
  std::vector<std::pair<std::string, std::string>> cache_set_knobs;  // bcache
  // layer == "raw":
  RawTarget target = RawTarget::kHdd;

  bool is_raw() const { return layer == kRawLayerName; }
  const std::string& layer_name() const { return layer; }
  // "hdd" | "ssd".
  std::string_view target_name() const;
  // The mode as a JSON object in the mode file format (for the manifest).
  nlohmann::json ToJson() const;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_MODE_SPEC_H_
