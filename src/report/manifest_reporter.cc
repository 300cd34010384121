#include "report/manifest_reporter.h"

namespace tierbench {

void ManifestReporter::OnCompareStart(const CompareStart& start) {
  dir_.emplace(start.setup.run_dir);
  manifest_.emplace(start);
  Write();
}

void ManifestReporter::OnOriginalSettings(
    const std::vector<OriginalSettings>& stacks) {
  manifest_->SetOriginalSettings(stacks);
  Write();
}

void ManifestReporter::OnCell(const CellRecord& rec) {
  manifest_->AddCell(rec);
}

void ManifestReporter::OnCompareEnd(const CompareEnd& end) {
  manifest_->SetEnd(end);
  Write();
}

void ManifestReporter::Write() const {
  dir_->Write("manifest.json", manifest_->manifest().dump(2) + "\n");
}

}  // namespace tierbench
