// PositionTable: the modes x workloads heat table of comparison.csv's
// iops_position, "position between HDD (0) and SSD (1)", as one SVG: a row
// per non-raw mode, a column per workload (per workload and job/direction
// when a workload has several), each cell coloured from red (<= 0, like the
// HDD) through yellow to green (>= 1, like the SSD) and labelled with the
// value; an empty position (no baseline, failed cells) is a grey "n/a".
// Column labels are rotated and shortened to 28 characters, row labels to
// 28 (a "…" in the middle),
// full text in <title>. Output: one SVG document. Thread-safe.
#ifndef TIERBENCH_PRESENT_CHARTS_POSITION_TABLE_H_
#define TIERBENCH_PRESENT_CHARTS_POSITION_TABLE_H_

#include <string>
#include <vector>

#include "present/run_folder.h"

namespace tierbench {

class PositionTable {
 public:
  explicit PositionTable(const RunFolder& run);
  // False when no non-raw mode has a position (raw-only runs).
  bool HasData() const { return !rows_.empty() && !columns_.empty(); }
  size_t rows() const { return rows_.size(); }
  size_t columns() const { return columns_.size(); }
  std::string Svg() const;

 private:
  struct Column {
    std::string workload, series, label;
  };
  const RunFolder& run_;
  std::vector<std::string> rows_;
  std::vector<Column> columns_;
};

// The heat colour of `position` (clamped to [0, 1]), as "#rrggbb".
std::string PositionColor(double position);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_POSITION_TABLE_H_
