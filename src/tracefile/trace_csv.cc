// The CSV block trace formats (tracefile/trace_reader.h). Layouts, as their
// publishers document them:
//  - MSR Cambridge (SNIA IOTTA repository, README of the MSR Cambridge
//    block I/O traces, Narayanan et al., FAST'08):
//    "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
//    Timestamp and ResponseTime in Windows filetime (100 ns ticks since
//    1601), Type "Read" or "Write", Offset and Size in bytes.
//  - Tencent CBS (SNIA IOTTA, README of the Tencent block traces):
//    "Timestamp,Offset,Size,IOType,VolumeID", Timestamp in Unix seconds,
//    Offset and Size in 512-byte sectors, IOType 0 = read, 1 = write.
//  - Alibaba block traces (alibaba/block-traces README; libCacheSim's
//    traceConv parse_alibaba reads "ns, op, lba, sz, ts"):
//    "device_id,opcode,offset,length,timestamp", opcode R or W, offset and
//    length in bytes, timestamp in microseconds.
#include <algorithm>
#include <cctype>
#include <string>

#include "tracefile/trace_parse.h"
#include "util/errors.h"
#include "util/strings.h"

namespace tierbench {
namespace {

constexpr std::string_view kMsrHeader =
    "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";
constexpr std::string_view kCbsHeader = "Timestamp,Offset,Size,IOType,VolumeID";
constexpr std::string_view kAlibabaHeader =
    "device_id,opcode,offset,length,timestamp";

bool CsvEqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// One CSV format: its layout and how a row becomes a record.
struct CsvLayout {
  TraceFormat format;
  std::string_view header;
  size_t columns;
};

class CsvRow {
 public:
  CsvRow(const std::string& path, uint32_t line, const CsvLayout& layout,
         std::vector<std::string_view> fields)
      : path_(path), line_(line), layout_(layout), fields_(std::move(fields)) {}

  std::string_view Field(size_t i) const { return fields_[i]; }
  std::string Column(size_t i) const {
    std::vector<std::string_view> names = TraceFields(layout_.header, ',');
    return std::string(names[i]);
  }
  uint64_t Number(size_t i, const char* unit) const {
    uint64_t v = 0;
    if (!TraceParseU64(fields_[i], &v)) {
      Fail(Column(i) + " '" + std::string(fields_[i]) +
               "' is not a whole number",
           std::string("write ") + Column(i) + " as a decimal number of " +
               unit);
    }
    return v;
  }
  uint64_t Scaled(size_t i, const char* unit, uint64_t factor) const {
    uint64_t v = 0;
    if (!TraceMulU64(Number(i, unit), factor, &v)) {
      Fail(Column(i) + " " + std::string(fields_[i]) + " " + unit +
               " does not fit in 64 bits",
           "check the column order: " + std::string(layout_.header));
    }
    return v;
  }
  [[noreturn]] void Fail(const std::string& what,
                         const std::string& fix) const {
    TraceParseFail(path_, line_, what, fix);
  }
  uint32_t line() const { return line_; }

 private:
  const std::string& path_;
  uint32_t line_;
  const CsvLayout& layout_;
  std::vector<std::string_view> fields_;
};

template <typename RowFn>
ParsedTrace ParseCsvTrace(std::string_view text, const std::string& path,
                          const CsvLayout& layout, RowFn&& row_fn) {
  TraceBuilder builder(path, layout.format, /*monotonic=*/true);
  TraceLines lines(text);
  std::string_view line;
  uint32_t number = 0;
  bool first = true;
  while (lines.Next(&line, &number)) {
    line = Trim(line);
    if (line.empty()) continue;
    if (first && CsvEqualsNoCase(line, layout.header)) {
      first = false;
      continue;
    }
    first = false;
    std::vector<std::string_view> fields = TraceFields(line, ',');
    if (fields.size() != layout.columns) {
      TraceParseFail(path, number,
                     "a line of " + std::to_string(fields.size()) +
                         " columns where " +
                         std::string(TraceFormatTitle(layout.format)) +
                         " has " + std::to_string(layout.columns),
                     "each line is " + std::string(layout.header) +
                         " (or pass --format for another format)");
    }
    row_fn(CsvRow(path, number, layout, std::move(fields)), &builder);
  }
  return builder.Finish("a " + std::string(TraceFormatTitle(layout.format)) +
                        " trace has lines " + std::string(layout.header));
}

const CsvLayout kMsrLayout{TraceFormat::kMsr, kMsrHeader, 7};
const CsvLayout kCbsLayout{TraceFormat::kCbs, kCbsHeader, 5};
const CsvLayout kAlibabaLayout{TraceFormat::kAlibaba, kAlibabaHeader, 5};

bool CsvAllDigits(std::string_view s) {
  uint64_t v = 0;
  return TraceParseU64(s, &v);
}

}  // namespace

ParsedTrace ParseMsrTrace(std::string_view text, const std::string& path) {
  return ParseCsvTrace(
      text, path, kMsrLayout, [](const CsvRow& row, TraceBuilder* b) {
        const uint64_t time_ns = row.Scaled(0, "filetime ticks", 100);
        if (row.Field(1).empty()) {
          row.Fail("an empty Hostname", "name the host in column 2");
        }
        row.Number(2, "disks");
        bool is_write = false;
        if (CsvEqualsNoCase(row.Field(3), "Write")) {
          is_write = true;
        } else if (!CsvEqualsNoCase(row.Field(3), "Read")) {
          row.Fail("Type '" + std::string(row.Field(3)) +
                       "' is neither Read nor Write",
                   "write Read or Write in column 4");
        }
        const uint64_t offset = row.Number(4, "bytes");
        const uint64_t size = row.Number(5, "bytes");
        row.Number(6, "filetime ticks");
        b->Add(row.line(), time_ns, offset, size, is_write,
               std::string(row.Field(1)) + "_" + std::string(row.Field(2)));
      });
}

ParsedTrace ParseCbsTrace(std::string_view text, const std::string& path) {
  return ParseCsvTrace(
      text, path, kCbsLayout, [](const CsvRow& row, TraceBuilder* b) {
        const uint64_t time_ns = row.Scaled(0, "seconds", 1'000'000'000);
        const uint64_t offset = row.Scaled(1, "sectors", 512);
        const uint64_t size = row.Scaled(2, "sectors", 512);
        const uint64_t type = row.Number(3, "(0 read, 1 write)");
        if (type > 1) {
          row.Fail("IOType " + std::to_string(type) + " is neither 0 nor 1",
                   "write 0 for a read, 1 for a write");
        }
        if (row.Field(4).empty()) {
          row.Fail("an empty VolumeID", "name the volume in column 5");
        }
        b->Add(row.line(), time_ns, offset, size, type == 1, row.Field(4));
      });
}

ParsedTrace ParseAlibabaTrace(std::string_view text, const std::string& path) {
  return ParseCsvTrace(
      text, path, kAlibabaLayout, [](const CsvRow& row, TraceBuilder* b) {
        if (row.Field(0).empty()) {
          row.Fail("an empty device_id", "name the device in column 1");
        }
        bool is_write = false;
        if (row.Field(1) == "W" || row.Field(1) == "w") {
          is_write = true;
        } else if (row.Field(1) != "R" && row.Field(1) != "r") {
          row.Fail(
              "opcode '" + std::string(row.Field(1)) + "' is neither R nor W",
              "write R or W in column 2");
        }
        const uint64_t offset = row.Number(2, "bytes");
        const uint64_t length = row.Number(3, "bytes");
        const uint64_t time_ns = row.Scaled(4, "microseconds", 1000);
        b->Add(row.line(), time_ns, offset, length, is_write, row.Field(0));
      });
}

bool LooksLikeMsrLine(std::string_view line) {
  line = Trim(line);
  if (CsvEqualsNoCase(line, kMsrHeader)) return true;
  const std::vector<std::string_view> f = TraceFields(line, ',');
  return f.size() == 7 && CsvAllDigits(f[0]) && CsvAllDigits(f[2]) &&
         (CsvEqualsNoCase(f[3], "Read") || CsvEqualsNoCase(f[3], "Write")) &&
         CsvAllDigits(f[4]) && CsvAllDigits(f[5]);
}

bool LooksLikeCbsLine(std::string_view line) {
  line = Trim(line);
  if (CsvEqualsNoCase(line, kCbsHeader)) return true;
  const std::vector<std::string_view> f = TraceFields(line, ',');
  return f.size() == 5 && CsvAllDigits(f[0]) && CsvAllDigits(f[1]) &&
         CsvAllDigits(f[2]) && (f[3] == "0" || f[3] == "1") && !f[4].empty();
}

bool LooksLikeAlibabaLine(std::string_view line) {
  line = Trim(line);
  if (CsvEqualsNoCase(line, kAlibabaHeader)) return true;
  const std::vector<std::string_view> f = TraceFields(line, ',');
  return f.size() == 5 && !f[0].empty() &&
         (f[1] == "R" || f[1] == "W" || f[1] == "r" || f[1] == "w") &&
         CsvAllDigits(f[2]) && CsvAllDigits(f[3]) && CsvAllDigits(f[4]);
}

}  // namespace tierbench
