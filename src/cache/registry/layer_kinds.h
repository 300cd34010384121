// The table of every cache layer tierbench knows (its LayerKind,
// cache/layer_kind.h), each made by its layer's folder (bcache/bcache_kind.h,
// dm/dm_kinds.h). This and layer_registry.h are the one place in src/cache
// that lists every layer; everything above src/cache uses these tables.
// Names, modes and knob checks only, no device access, so mode-file
// validation (and its fuzz target) links without the layers.
// Thread-safety: the table is immutable.
#ifndef TIERBENCH_CACHE_REGISTRY_LAYER_KINDS_H_
#define TIERBENCH_CACHE_REGISTRY_LAYER_KINDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "cache/layer_kind.h"

namespace tierbench {

// Every layer, in a stable order (bcache first).
const std::vector<LayerKind>& AllLayerKinds();
// The layer named `name` ("bcache"); null when there is none.
const LayerKind* FindLayerKind(std::string_view name);
// "bcache, dm-cache, ..." for messages.
std::string LayerKindNames();

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_REGISTRY_LAYER_KINDS_H_
