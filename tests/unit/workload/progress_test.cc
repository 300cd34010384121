// The progress line's formatting (rate pacing:
// tests/unit/workload/rate_test.cc).
#include "workload/progress.h"

#include <gtest/gtest.h>

namespace tierbench {
namespace {

TEST(ProgressTest, FormatEta) {
  struct Case {
    uint64_t ns;
    const char* text;
  } cases[] = {{0, "00m:00s"},
               {90'000'000'000ull, "01m:30s"},
               {3'599'000'000'000ull, "59m:59s"},
               {3'723'000'000'000ull, "1h:02m:03s"}};
  for (const Case& c : cases) EXPECT_EQ(FormatEta(c.ns), c.text) << c.ns;
}

}  // namespace
}  // namespace tierbench
