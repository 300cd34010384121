// `tierbench report RUN_DIR [--out DIR] [--force]`: the HTML report, SVG
// charts and summary.md of a compare run folder (report/report_writer.h does
// the work; this file only declares the options).
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "report/report_writer.h"
#include "util/errors.h"

namespace tierbench {
namespace {

struct ReportArgs {
  std::string run_dir;
  std::string out;
  bool force = false;
};

void Run(const ReportArgs& a, int* exit_code) {
  const ReportFiles files = WriteReport(a.run_dir, a.out, a.force);
  std::cout << "Report:  " << files.html << "\n"
            << "Summary: " << files.summary << "\n"
            << "Charts:  " << files.charts.size() << " SVG files in "
            << (a.out.empty() ? a.run_dir : a.out) << "/charts\n";
  for (const std::string& note : files.notes)
    std::cout << "Note:    " << note << "\n";
  *exit_code = kExitOk;
}

}  // namespace

void RegisterReportCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write report.html (self-contained: inline SVG and CSS), every chart "
      "as its own SVG and summary.md (text for a paper) from a compare run "
      "folder.");
  cmd->add_option("RUN_DIR", args->run_dir,
                  "a run folder of tierbench compare or lab "
                  "(results/<run-id>/ with runs.csv, comparison.csv and "
                  "manifest.json)")
      ->required();
  cmd->add_option("--out", args->out,
                  "folder for report.html, summary.md and charts/ (default: "
                  "RUN_DIR)");
  cmd->add_flag("--force", args->force,
                "overwrite an existing report.html and summary.md");
  cmd->footer(
      "OUTPUT (in --out, default RUN_DIR)\n"
      "  report.html     one self-contained page: summary, position heat "
      "table, per\n"
      "                  workload IOPS, latency and time-to-clean charts "
      "with warnings\n"
      "  charts/*.svg    every chart as its own file\n"
      "  summary.md      conclusions text: setup, headline figures, "
      "caveats, noise\n"
      "\n"
      "EXIT STATUS\n"
      "  0 written; 2 bad run folder (missing file or column, unknown "
      "schema_version);\n"
      "  3 cannot write --out; 4 a report exists already (use --force).");
  cmd->callback([args, exit_code]() { Run(*args, exit_code); });
}

}  // namespace tierbench
