// CsvTable: header from the column list, RFC 4180 escaping, row checks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "util/csv_writer.h"

namespace tierbench {
namespace {

TEST(CsvTableTest, Escape) {
  struct {
    const char* in;
    const char* want;
  } cases[] = {
      {"", ""},
      {"plain", "plain"},
      {"a,b", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""},
      {"cr\rhere", "\"cr\rhere\""},
      {" lead", "\" lead\""},
      {"trail ", "\"trail \""},
      {"in side", "in side"},
      {"\"", "\"\"\"\""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(CsvTable::Escape(c.in), c.want) << c.in;
  }
}

TEST(CsvTableTest, WritesSchemaVersionHeaderAndRows) {
  CsvTable t({"job", "iops", "error"}, 3);
  t.AddRow({"a", "1.5", ""});
  t.AddRow({"b,c", "2", "open failed: \"x\""});
  std::ostringstream out;
  t.Write(out);
  EXPECT_EQ(out.str(),
            "schema_version,job,iops,error\n"
            "3,a,1.5,\n"
            "3,\"b,c\",2,\"open failed: \"\"x\"\"\"\n");
  EXPECT_EQ(t.rows().size(), 2u);
  EXPECT_EQ(t.schema_version(), 3);
}

TEST(CsvTableTest, EmptyTableIsHeaderOnly) {
  CsvTable t({"x"});
  std::ostringstream out;
  t.Write(out);
  EXPECT_EQ(out.str(), "schema_version,x\n");
}

TEST(CsvTableTest, RejectsRowOfWrongWidth) {
  CsvTable t({"a", "b"});
  EXPECT_THROW(t.AddRow({"1"}), std::invalid_argument);
  EXPECT_THROW(t.AddRow({"1", "2", "3"}), std::invalid_argument);
  EXPECT_NO_THROW(t.AddRow({"1", "2"}));
  EXPECT_EQ(t.rows().size(), 1u);
}

TEST(CsvNumberTest, Formats) {
  struct {
    double v;
    int decimals;
    const char* want;
  } cases[] = {
      {1.23456, 3, "1.235"}, {2, 0, "2"},
      {0, 3, "0.000"},       {-4.5, 1, "-4.5"},
      {std::nan(""), 3, ""}, {std::numeric_limits<double>::infinity(), 3, ""},
  };
  for (const auto& c : cases) EXPECT_EQ(CsvNumber(c.v, c.decimals), c.want);
  EXPECT_EQ(CsvNumber(uint64_t{18446744073709551615u}), "18446744073709551615");
}

}  // namespace
}  // namespace tierbench
