// bcache's LayerKind (cache/layer_kind.h): its name, modes, knob
// groups and knob checks, runs.csv columns and verify order. No device
// access, so mode-file validation (and its fuzz target) links without the
// layer.
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_KIND_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_KIND_H_

#include "cache/layer_kind.h"

namespace tierbench {

LayerKind BcacheKind();

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_KIND_H_
