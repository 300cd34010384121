// Table-driven tests of fio-compatible size and duration parsing.
#include "util/units.h"

#include <gtest/gtest.h>

namespace tierbench {
namespace {

TEST(ParseSizeTest, AcceptsFioUnits) {
  struct {
    const char* text;
    uint64_t want;
  } cases[] = {
      {"0", 0},          {"512", 512},          {"4k", 4096},
      {"4K", 4096},      {"4kb", 4096},         {"4KB", 4096},
      {"16k", 16384},    {"1m", 1 << 20},       {"1M", 1 << 20},
      {"2G", 2ull << 30}, {"1t", 1ull << 40},   {"8G", 8ull << 30},
      {"4KiB", 4000},    {"1MiB", 1000000},     {"1.5k", 1536},
      {" 64k ", 65536},  {"4096b", 4096},       {"4096B", 4096},
  };
  for (const auto& c : cases) {
    uint64_t got = 7;
    Status s = ParseSize(c.text, &got);
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.ToString();
    EXPECT_EQ(got, c.want) << c.text;
  }
}

TEST(ParseSizeTest, RejectsGarbage) {
  const char* cases[] = {"", "k", "4x", "-4k", "4kk", "1.2.3k", "0.3b", "99999999999999999999999t"};
  for (const char* c : cases) {
    uint64_t got = 0;
    Status s = ParseSize(c, &got);
    EXPECT_FALSE(s.ok()) << "'" << c << "' parsed as " << got;
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << c;
  }
}

TEST(ParseDurationTest, UnitsAndDefaults) {
  struct {
    const char* text;
    uint64_t default_unit;
    uint64_t want;
  } cases[] = {
      {"30", kNsPerSec, 30 * kNsPerSec},  {"30s", kNsPerUs, 30 * kNsPerSec},
      {"500ms", kNsPerSec, 500 * kNsPerMs}, {"2m", kNsPerSec, 120 * kNsPerSec},
      {"10", kNsPerUs, 10 * kNsPerUs},    {"10us", kNsPerSec, 10 * kNsPerUs},
      {"1h", kNsPerSec, 3600 * kNsPerSec}, {"0.5", kNsPerSec, kNsPerSec / 2},
  };
  for (const auto& c : cases) {
    uint64_t got = 0;
    Status s = ParseDuration(c.text, c.default_unit, &got);
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.ToString();
    EXPECT_EQ(got, c.want) << c.text;
  }
  uint64_t got;
  EXPECT_FALSE(ParseDuration("5 fortnights", kNsPerSec, &got).ok());
  EXPECT_FALSE(ParseDuration("", kNsPerSec, &got).ok());
}

TEST(FormatTest, BytesAndDurations) {
  EXPECT_EQ(FormatBytes(512), "512B");
  EXPECT_EQ(FormatBytes(4096), "4KiB");
  EXPECT_EQ(FormatBytes(1536), "1.50KiB");
  EXPECT_EQ(FormatBytes(134ull << 30), "134GiB");
  EXPECT_EQ(FormatDuration(812), "812ns");
  EXPECT_EQ(FormatDuration(4560000), "4.56ms");
}

TEST(StatusTest, FromErrnoMapsCodes) {
  EXPECT_EQ(Status::FromErrno("open x", ENOENT).code(), Status::Code::kNotFound);
  EXPECT_EQ(Status::FromErrno("open x", EACCES).code(), Status::Code::kPermissionDenied);
  EXPECT_EQ(Status::FromErrno("open x", EBUSY).code(), Status::Code::kBusy);
  EXPECT_EQ(Status::FromErrno("open x", EIO).message(), "open x: Input/output error");
}

}  // namespace
}  // namespace tierbench
