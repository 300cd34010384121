// `tierbench report RUN_DIR... [--out DIR] [--force]`: the HTML report, SVG
// charts and summary.md of a compare run folder, or of a lab scenario's
// (fault, fill, power cut: present/pages/scenario_report.h), or, with
// several folders, the fleet report that merges them (present/pages/
// report_writer.h and present/pages/merged_report.h do the work; this file
// only declares the options).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "present/pages/merged_report.h"
#include "present/pages/report_writer.h"
#include "present/pages/scenario_report.h"
#include "util/errors.h"

namespace tierbench {
namespace {

struct ReportArgs {
  std::vector<std::string> run_dirs;
  std::string out;
  bool force = false;
};

void Run(const ReportArgs& a, int* exit_code) {
  const bool merged = a.run_dirs.size() > 1;
  const ReportFiles files =
      merged ? WriteMergedReport(a.run_dirs, a.out, a.force)
      : IsScenarioFolder(a.run_dirs[0])
          ? WriteScenarioReport(a.run_dirs[0], a.out, a.force)
          : WriteReport(a.run_dirs[0], a.out, a.force);
  for (const std::string& note : files.notes) {
    std::cerr << "tierbench: note: " << note << "\n";
  }
  std::cout << "Report:  " << files.html << "\n"
            << "Summary: " << files.summary << "\n";
  if (merged) std::cout << "Merged:  " << files.merged_csv << "\n";
  std::cout << "Charts:  " << files.charts.size() << " SVG files in "
            << (a.out.empty() ? a.run_dirs[0] : a.out) << "/charts\n";
  *exit_code = kExitOk;
}

}  // namespace

void RegisterReportCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      CommandDescription(
          "Write report.html (self-contained: inline SVG and CSS), every "
          "chart as its own SVG and summary.md (text for a paper) from a "
          "compare run folder; with several run folders, the fleet report "
          "that sets them side by side (also merged.csv).",
          "tierbench report results/20261205T040000Z-host"));
  cmd->add_option("RUN_DIR", args->run_dirs,
                  "run folders of tierbench compare or lab "
                  "(results/<run-id>/ with runs.csv, comparison.csv and "
                  "manifest.json); several: merged, later ones against the "
                  "first")
      ->required();
  cmd->add_option("--out", args->out,
                  "folder for report.html, summary.md and charts/ (default: "
                  "RUN_DIR; required with several run folders)");
  cmd->add_flag("--force", args->force,
                "overwrite an existing report.html, summary.md (and "
                "merged.csv)");
  cmd->footer(
      "OUTPUT (in --out, default RUN_DIR)\n"
      "  report.html     one self-contained page: summary, position heat "
      "table, per\n"
      "                  workload IOPS, latency and time-to-clean charts "
      "with warnings\n"
      "  charts/*.svg    every chart as its own file\n"
      "  summary.md      conclusions text: setup, headline figures, "
      "caveats, noise\n"
      "  merged.csv      several run folders only: the runs aligned by "
      "layer, mode,\n"
      "                  workload, job and direction, with changes against "
      "the first\n"
      "\n"
      "EXIT STATUS\n"
      "  0 written; 2 bad run folder (missing file or column, unknown "
      "schema_version)\n"
      "  or several run folders without --out; 3 cannot write --out; 4 a "
      "report\n"
      "  exists already (use --force).");
  cmd->callback([args, exit_code]() { Run(*args, exit_code); });
}

}  // namespace tierbench
