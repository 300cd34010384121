#include "cache/registry/layer_kinds.h"

#include "cache/bcache/bcache_kind.h"
#include "cache/dm/dm_kinds.h"

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
