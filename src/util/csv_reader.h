// CsvDocument: a CSV file read back into a header and rows, the inverse of
// util/csv_writer.h (RFC 4180 quoting, "\n" or "\r\n" line ends, the first
// line is the header). Columns are looked up by name, so a reader never
// depends on column order.
//
// Errors: Parse() throws ConfigError naming "<label>:<line>" and the fix
// when a row's field count differs from the header's or a quote is left
// open. Lookups return "" for a column the file does not have; callers
// check Require() first. Not thread-safe while parsing; const reads are.
#ifndef TIERBENCH_UTIL_CSV_READER_H_
#define TIERBENCH_UTIL_CSV_READER_H_

#include <optional>
#include <string>
#include <vector>

namespace tierbench {

class CsvDocument {
 public:
  // Parses `text`; `label` names the file in error messages.
  static CsvDocument Parse(const std::string& text, const std::string& label);

  const std::string& label() const { return label_; }
  const std::vector<std::string>& header() const { return header_; }
  size_t row_count() const { return rows_.size(); }
  bool Has(const std::string& column) const;
  // Throws ConfigError "<label>: missing column '<c>'. Fix: <fix>" for the
  // first of `columns` the header lacks.
  void Require(const std::vector<std::string>& columns,
               const std::string& fix) const;

  // The value of `column` in row `row` ("" when the column is absent).
  const std::string& Get(size_t row, const std::string& column) const;
  // The value as a number; empty when the cell is empty or not a number.
  std::optional<double> Number(size_t row, const std::string& column) const;
  // Every cell, header included (for tests that trace numbers back).
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  int Index(const std::string& column) const;

  std::string label_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_CSV_READER_H_
