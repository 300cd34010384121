// Rate limiter pacing and the progress line's formatting.
#include <gtest/gtest.h>

#include "workload/progress.h"
#include "workload/rate_limiter.h"

namespace tierbench {
namespace {

TEST(RateLimiterTest, PacesAndNeverBursts) {
  RateLimiter unlimited(0);
  EXPECT_FALSE(unlimited.limited());
  EXPECT_TRUE(unlimited.Ready(0));

  RateLimiter r(1000);  // one IO per ms
  const uint64_t t0 = 5'000'000'000ull;
  ASSERT_TRUE(r.Ready(t0));
  r.Consume(t0);
  EXPECT_FALSE(r.Ready(t0 + 999'999));
  EXPECT_TRUE(r.Ready(t0 + 1'000'000));
  // After a long stall only one period of catch-up is granted.
  const uint64_t late = t0 + 10'000'000'000ull;
  r.Consume(late);
  EXPECT_TRUE(r.Ready(late));
  r.Consume(late);
  EXPECT_FALSE(r.Ready(late));
  EXPECT_EQ(r.NextAllowedNs(), late + 1'000'000);
}

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
