// manifest.json of a compare run (report/manifest_builder.h has its keys):
// written at the start (status "running"), again once the stacks' original
// settings are captured, and at the end (status, end time, cells, restore;
// also after an error or an interrupt). The cells' read-back knobs and DB
// servers are added as the cells finish and written at the end.
// Errors: SysError naming the file. Not thread-safe.
#ifndef TIERBENCH_REPORT_MANIFEST_REPORTER_H_
#define TIERBENCH_REPORT_MANIFEST_REPORTER_H_

#include <optional>
#include <vector>

#include "record/reporter.h"
#include "report/manifest_builder.h"
#include "util/result_dir.h"

namespace tierbench {

class ManifestReporter : public Reporter {
 public:
  void OnCompareStart(const CompareStart& start) override;
  void OnOriginalSettings(const std::vector<OriginalSettings>& stacks) override;
  void OnCell(const CellRecord& rec) override;
  void OnCompareEnd(const CompareEnd& end) override;

 private:
  void Write() const;

  std::optional<ResultDir> dir_;
  std::optional<ManifestBuilder> manifest_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_MANIFEST_REPORTER_H_
