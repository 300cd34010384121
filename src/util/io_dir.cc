#include "util/io_dir.h"

namespace tierbench {

const char* RwPatternName(RwPattern p) {
  switch (p) {
    case RwPattern::kRead:
      return "read";
    case RwPattern::kWrite:
      return "write";
    case RwPattern::kRandRead:
      return "randread";
    case RwPattern::kRandWrite:
      return "randwrite";
    case RwPattern::kReadWrite:
      return "rw";
    case RwPattern::kRandReadWrite:
      return "randrw";
  }
  return "?";
}

}  // namespace tierbench
