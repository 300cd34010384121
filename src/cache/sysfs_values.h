// Strict parsers for the two generic formats of the kernel's sysfs values,
// shared by the seam (block stats, queue settings) and the layers:
//
//   integers          "20000", "-5": no blanks (Sysfs::Read trims the
//                     trailing newline).
//   bracketed choices "writethrough [writeback] writearound none" (bcache's
//                     cache_mode), "[mq-deadline] none" (queue/scheduler):
//                     the selected word in brackets.
//
// The layer-specific formats stay with their layer (bcache/bcache_values.h,
// dm/dm_status.h). All functions are pure and thread-safe. Failures return
// InvalidArgument with a message quoting the text.
#ifndef TIERBENCH_CACHE_SYSFS_VALUES_H_
#define TIERBENCH_CACHE_SYSFS_VALUES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace tierbench {

// Parses a decimal integer (optional leading '-'); no spaces, no suffixes.
Status ParseInteger(std::string_view text, int64_t* out);

// Parses a bracketed choice list. Stores the selected word in *selected and,
// when `options` is non-null, every word in order (without brackets).
// Exactly one word must be bracketed.
Status ParseBracketChoice(std::string_view text, std::string* selected,
                          std::vector<std::string>* options = nullptr);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_SYSFS_VALUES_H_
