// The layer kinds of layer_registry.h (AllLayerKinds, FindLayerKind,
// LayerKindNames), each layer's kind from its folder (bcache/bcache_kind.h,
// dm/dm_kinds.h): names, modes and knob checks only, no device access, so
// mode-file validation (and its fuzz target) links without the layers.
#include "cache/bcache/bcache_kind.h"
#include "cache/dm/dm_kinds.h"
#include "cache/layer_registry.h"

namespace tierbench {

const std::vector<LayerKind>& AllLayerKinds() {
  static const std::vector<LayerKind> kinds = {
      BcacheKind(), DmCacheKind(), DmWritecacheKind(), LvmcacheKind()};
  return kinds;
}

const LayerKind* FindLayerKind(std::string_view name) {
  for (const LayerKind& k : AllLayerKinds()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string LayerKindNames() {
  std::string out;
  for (const LayerKind& k : AllLayerKinds()) {
    out += (out.empty() ? "" : ", ") + k.name;
  }
  return out;
}

}  // namespace tierbench
