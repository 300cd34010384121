#include "record/cell.h"

namespace tierbench {

const char* CacheStateName(CacheState s) {
  switch (s) {
    case CacheState::kCold:
      return "cold";
    case CacheState::kWarm:
      return "warm";
    case CacheState::kAsIs:
      return "as-is";
    case CacheState::kWarmUntilSteady:
      return "warm-until-steady";
  }
  return "?";
}

bool ParseCacheState(const std::string& text, CacheState* out) {
  for (CacheState s : {CacheState::kCold, CacheState::kWarm, CacheState::kAsIs,
                       CacheState::kWarmUntilSteady}) {
    if (text == CacheStateName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

}  // namespace tierbench
