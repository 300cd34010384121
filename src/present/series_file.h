// SeriesFile: a run folder's series.csv (schema_version 1, written by
// report/runs_csv_reporter.cc; columns in results/README.md) read back
// for the per-second charts.
//
// series.csv is optional: a run made before it existed has none. Read()
// then returns nullopt and sets *note to ONE line saying the per-second
// chart needs a newer run; the same for a file of another schema_version
// (the line names it). A present file with a missing column or a broken
// row throws ConfigError (exit 2) naming the file and the fix.
//
// Of(workload) gives, per mode in file order, the points of the mode's
// first repetition (the lowest repetition with rows): each row's phase,
// t_s, read + write IOPS (empty on drain rows), hit ratio and dirty bytes;
// unknown values are empty, never 0. Immutable after Read(); const methods
// are thread-safe.
#ifndef TIERBENCH_PRESENT_SERIES_FILE_H_
#define TIERBENCH_PRESENT_SERIES_FILE_H_

#include <optional>
#include <string>
#include <vector>

#include "util/csv_reader.h"

namespace tierbench {

struct SeriesPoint {
  std::string phase;  // warm, measure, drain
  double t_s = 0;
  std::optional<double> iops;  // read_iops + write_iops
  std::optional<double> hit_ratio_pct;
  std::optional<double> dirty_bytes;
};

struct ModeSeries {
  std::string mode;
  std::string layer;
  int repetition = 0;
  std::vector<SeriesPoint> points;  // file order (warm, measure, drain)
};

class SeriesFile {
 public:
  static constexpr int kSchema = 1;

  // See the header comment. Throws ConfigError.
  static std::optional<SeriesFile> Read(const std::string& dir,
                                        std::string* note);
  // Parses the text of a series.csv (`label` names it in errors).
  static SeriesFile Parse(const std::string& text, const std::string& label);

  std::vector<ModeSeries> Of(const std::string& workload) const;

 private:
  explicit SeriesFile(CsvDocument doc) : doc_(std::move(doc)) {}
  CsvDocument doc_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_SERIES_FILE_H_
