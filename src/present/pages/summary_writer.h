// SummaryWriter: summary.md of a run folder. It opens with the verdict
// (present/verdict.h) when one is given; then, in the form of seed 000's
// "Conclusions - text suggested for paper", the details: a block quote with
//   1. one paragraph on the machine, kernel, devices and settings
//      (manifest.json);
//   2. per workload (and job/direction series) the raw HDD and SSD figures
//      (an invalid cell, comparison.csv valid = no, gets its figure and its
//      reasons and no ratio)
//      and, per mode, "writeback: 4,388 IOPS (3 runs, spread 4%), 28x the
//      HDD and 77% of the SSD, p99 1.2 ms; its dirty data took 51 s to
//      clean" (comparison.csv, drain_after_s of runs.csv);
//   3. the caveats the warnings, failed cells and run status imply;
//   4. the noise statement (n, iops_spread_pct, noise_vs_hdd/_ssd).
// Every figure is a value of the run folder's files, rounded for reading
// ("Nx the HDD" is 1 + iops_vs_hdd_pct / 100, "% of the SSD" is 100 +
// iops_vs_ssd_pct, latencies in ms are us / 1000). A ratio is followed by
// its 95 % confidence interval when comparison.csv has one. Where the
// difference is within noise (the interval includes 0, or without an
// interval the min-max ranges overlap: ReportFigure::within_noise_vs_hdd)
// the text says "within noise of the HDD/SSD" and gives no ratio.
// Thread-safe (no shared state).
#ifndef TIERBENCH_PRESENT_PAGES_SUMMARY_WRITER_H_
#define TIERBENCH_PRESENT_PAGES_SUMMARY_WRITER_H_

#include <string>
#include <vector>

#include "present/run_folder.h"
#include "present/verdict.h"

namespace tierbench {

// `paras` as one Markdown block quote: each line prefixed "> ", paragraphs
// separated by a ">" line (summary.md of a run and of a fleet).
std::string MarkdownQuote(const std::vector<std::string>& paras);

class SummaryWriter {
 public:
  // `verdict` may be null: the summary then builds one without series.csv
  // (intervals from repetitions only).
  explicit SummaryWriter(const RunFolder& run, const Verdict* verdict = nullptr)
      : run_(run), verdict_(verdict) {}
  std::string Markdown() const;

  std::string SetupParagraph() const;
  std::string WorkloadParagraph(const std::string& workload) const;
  std::string Caveats() const;  // "" when there is nothing to say
  std::string NoiseStatement() const;

 private:
  std::string ModeSentence(const ReportFigure& f, bool with_drain) const;
  std::string DrainClause(const std::string& mode,
                          const std::string& workload) const;
  std::string Describe(const std::string& workload,
                       const std::string& job) const;

  const RunFolder& run_;
  const Verdict* verdict_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_PAGES_SUMMARY_WRITER_H_
