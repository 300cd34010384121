// ColumnTable<Row>: a CSV schema as ONE ordered list of {name, value}
// entries (elbencho's label/value pairs, report/result_columns.cc), from
// which both the header and every row are produced, so that a header can
// never drift from its values. `Row` is whatever a value function reads
// (a comparison row, one job direction of a cell, ...).
// Thread-safe once built (immutable; value functions must be pure).
#ifndef TIERBENCH_REPORT_COLUMN_TABLE_H_
#define TIERBENCH_REPORT_COLUMN_TABLE_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tierbench {

// The `name` of each entry of `entries`, in order.
template <typename Entry>
std::vector<std::string> NamesOf(const std::vector<Entry>& entries) {
  std::vector<std::string> names;
  names.reserve(entries.size());
  for (const Entry& e : entries) names.push_back(e.name);
  return names;
}

template <typename Row>
struct CsvColumn {
  std::string name;                              // CSV header
  std::function<std::string(const Row&)> value;  // formatted cell
};

template <typename Row>
class ColumnTable {
 public:
  explicit ColumnTable(std::vector<CsvColumn<Row>> columns)
      : columns_(std::move(columns)), names_(NamesOf(columns_)) {}

  // The header names, in order.
  const std::vector<std::string>& names() const { return names_; }
  // The cells of `row`, one per column, in order.
  std::vector<std::string> Values(const Row& row) const {
    std::vector<std::string> values;
    values.reserve(columns_.size());
    for (const CsvColumn<Row>& c : columns_) values.push_back(c.value(row));
    return values;
  }

 private:
  std::vector<CsvColumn<Row>> columns_;
  std::vector<std::string> names_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_COLUMN_TABLE_H_
