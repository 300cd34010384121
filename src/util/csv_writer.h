// CsvTable: a CSV document built from ONE ordered column list, so the header
// and the rows cannot drift apart (elbencho's label/value pairs, benchmark's
// CSVReporter). The first column is always `schema_version`, as fio's terse
// output leads with its version; callers list only their own columns.
//
// Output follows RFC 4180 except for line endings ("\n", not CRLF): a field
// is quoted when it contains a comma, a double quote, CR or LF, or leading or
// trailing spaces, and embedded quotes are doubled.
//
// Used by `tierbench run --output-format csv` and by `tierbench compare` for
// runs.csv and comparison.csv. Not thread-safe.
#ifndef TIERBENCH_UTIL_CSV_WRITER_H_
#define TIERBENCH_UTIL_CSV_WRITER_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tierbench {

class CsvTable {
 public:
  // `columns`: the caller's column names in order, without schema_version.
  // `schema_version` is written as the value of the first column in every
  // row; bump it when a column changes meaning or is removed.
  explicit CsvTable(std::vector<std::string> columns, int schema_version = 1);

  // Appends a row of already formatted values, one per column, in column
  // order. Throws std::invalid_argument when the count differs from the
  // number of columns (a programming error, not a user error).
  void AddRow(std::vector<std::string> values);

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  int schema_version() const { return schema_version_; }

  // Writes the header line ("schema_version,<columns...>") and every row.
  void Write(std::ostream& out) const;
  // Writes the table to the file `path` (replacing it); throws SysError
  // naming the file and the fix when it cannot be written.
  void WriteFile(const std::string& path) const;

  // One field escaped per RFC 4180 (see above).
  static std::string Escape(std::string_view field);

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
  int schema_version_;
};

// Formats a number for a CSV cell with `decimals` digits after the point
// ("%.*f"); "" for NaN or infinity, so a missing value stays visibly empty.
std::string CsvNumber(double value, int decimals);

// Formats an integer for a CSV cell.
std::string CsvNumber(uint64_t value);

// CsvNumber(*v, decimals), or "" (an empty cell) without a value.
std::string CsvOptional(const std::optional<double>& v, int decimals);

// CsvNumber(*v), or "" for nullopt (a count that is unknown).
std::string CsvCount(const std::optional<uint64_t>& v);

// "1" / "0", or "" without a value.
std::string CsvFlag(const std::optional<bool>& v);

// A `warnings` cell: the warnings joined with ';' (read back by
// SplitWarnings, present/run_folder.h).
std::string JoinWarnings(const std::vector<std::string>& warnings);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_CSV_WRITER_H_
