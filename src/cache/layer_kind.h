// LayerKind: what tierbench knows of one cache layer without opening a
// device: what mode files of the layer may say (modes, knob groups and
// their validation), the layer-only CSV columns it adds to runs.csv and the
// modes `compare --verify` visits (verify_order). Each layer's folder makes
// its own (bcache/bcache_kind.h, dm/dm_kinds.h); the table of them all is
// cache/registry/layer_kinds.h.
// An ExtraColumn's value comes from the cell's counter delta `extra[key]`,
// else from the read-back setting `key`; empty when neither exists.
// Thread-safety: plain values; check_knob is a pure function.
#ifndef TIERBENCH_CACHE_LAYER_KIND_H_
#define TIERBENCH_CACHE_LAYER_KIND_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace tierbench {

struct ExtraColumn {
  std::string column;  // runs.csv column ("bcache_bypass_hits")
  std::string key;     // LayerDelta::extra key or read-back setting name
  std::string help;    // one line for the README and --help
};

struct LayerKind {
  std::string name;                      // as in mode files: "bcache"
  std::string summary;                   // one line
  std::vector<std::string> modes;        // valid "cache_mode" values
  std::vector<std::string> knob_groups;  // JSON keys holding knobs
  // Validates one knob of `group`; InvalidArgument naming it and the fix.
  std::function<Status(std::string_view group, std::string_view name,
                       std::string_view value)>
      check_knob;
  std::vector<ExtraColumn> extra_columns;
  // compare --verify: the modes the data check visits, in order. The first
  // is the mode the check data is written in (one that leaves it dirty in
  // the cache: writeback); the data is read back after switching to each.
  std::vector<std::string> verify_order;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_LAYER_KIND_H_
