// `tierbench check RUN --baseline BASE [--max-regression PCT] [--junit
// FILE]`: the CI gate (present/regression_check.h decides; this file
// prints, writes the JUnit file and sets the exit status).
#include <iostream>
#include <memory>
#include <string>

#include "cli/ci_gate.h"
#include "cli/commands.h"
#include "cli/help_format.h"
#include "present/junit_xml.h"
#include "present/merged_runs.h"
#include "present/regression_check.h"
#include "present/run_folder.h"
#include "util/errors.h"

namespace tierbench {
namespace {

struct CheckArgs {
  std::string run;
  std::string baseline;
  double max_regression_pct = 5;
  std::vector<std::string> expect;
  std::string junit;
};

JUnitCase ToJUnit(const CheckCase& c) {
  using S = CheckCase::Status;
  JUnitCase j;
  j.classname = c.workload;
  j.name = c.layer + "/" + c.mode + (c.series.empty() ? "" : " " + c.series);
  j.message = std::string(CheckStatusName(c.status)) + ": " + c.why;
  j.result = c.status == S::kRegressed || c.status == S::kMissing
                 ? JUnitCase::Result::kFailed
             : c.status == S::kPassed ? JUnitCase::Result::kPassed
                                      : JUnitCase::Result::kSkipped;
  return j;
}

// The baseline part: prints every case; returns whether it failed. Throws
// ConfigError (after printing) when no cell could be judged.
bool CheckBaseline(const CheckArgs& a, const RunFolder& run,
                   std::vector<JUnitCase>* junit) {
  using S = CheckCase::Status;
  const RunFolder baseline = RunFolder::Read(a.baseline);
  const CheckResult r =
      CheckAgainstBaseline(baseline, run, a.max_regression_pct);
  std::cout << "check: " << a.run << " against the baseline " << a.baseline
            << " (a regression: slower by more than " << a.max_regression_pct
            << "% with the 95% interval below 0)\n";
  for (S s : {S::kRegressed, S::kMissing, S::kPassed, S::kNotJudged, S::kNew}) {
    for (const CheckCase& c : r.cases) {
      if (c.status != s) continue;
      std::cout << "  " << CheckStatusName(s) << ": " << c.Name() << ": "
                << c.why << "\n";
    }
  }
  std::cout << "check: " << r.Count(S::kRegressed) << " regressed, "
            << r.Count(S::kMissing) << " missing, " << r.Count(S::kPassed)
            << " passed, " << r.Count(S::kNotJudged) << " not judged, "
            << r.Count(S::kNew) << " new\n";
  for (const CheckCase& c : r.cases) junit->push_back(ToJUnit(c));
  if (!r.Passed() && r.Count(S::kRegressed) == 0 && r.Count(S::kMissing) == 0) {
    if (!a.junit.empty()) {
      // The CI's test view must not look green either.
      junit->push_back({"check", "cells judged", JUnitCase::Result::kFailed,
                        "no cell has 3 valid repetitions in both runs"});
      WriteJUnitFile(a.junit, "tierbench check " + RunName(a.run), *junit);
    }
    throw ConfigError(
        "check judged no cell: none has " +
        std::to_string(kMinRepetitionsForInterval) +
        " valid repetitions in both runs. Fix: run both compares with "
        "--repeat " +
        std::to_string(kMinRepetitionsForInterval) + " or more");
  }
  return !r.Passed();
}

void Run(const CheckArgs& a, int* exit_code) {
  if (a.baseline.empty() && a.expect.empty()) {
    throw ConfigError(
        "check needs something to check. Fix: --baseline RUN_DIR (a "
        "regression gate) and/or --expect EXPR (a relation within the run)");
  }
  // Everything is read and parsed before anything is written.
  const std::vector<Expectation> expectations = ParseExpectOptions(a.expect);
  const RunFolder run = RunFolder::Read(a.run);
  std::vector<JUnitCase> junit;
  bool failed = false;
  if (!a.baseline.empty()) failed = CheckBaseline(a, run, &junit);
  if (!expectations.empty()) {
    std::cout << "check: " << expectations.size() << " expectations on "
              << a.run << "\n";
    failed =
        JudgeExpectations(expectations, run, std::cout, &junit) > 0 || failed;
  }
  if (!a.junit.empty()) {
    WriteJUnitFile(
        a.junit,
        "tierbench check " + RunName(a.run) +
            (a.baseline.empty() ? "" : " against " + RunName(a.baseline)),
        junit);
  }
  *exit_code = failed ? kExitRunFailed : kExitOk;
}

}  // namespace

void RegisterCheckCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      CommandDescription(
          "Compare a run folder with a baseline run folder cell by cell and "
          "fail (exit 1) on a significant regression: a CI gate",
          "tierbench check results/today --baseline results/last-week "
          "--max-regression 10 --junit check.xml"));
  cmd->add_option("RUN", args->run, "the run folder to judge")->required();
  cmd->add_option("--baseline", args->baseline,
                  "the run folder it is judged against (e.g. last week's)");
  cmd->add_option("--max-regression", args->max_regression_pct,
                  "percent a cell may lose before a significant drop fails "
                  "the check")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option(
      "--expect", args->expect,
      "a relation the run must hold (repeatable), e.g. "
      "'writeback/randwrite-4k iops >= 5 * hdd' (man tierbench-check: the "
      "grammar)");
  cmd->add_option("--junit", args->junit,
                  "also write the cases as JUnit XML to FILE (one test case "
                  "per cell: failed, passed or skipped)");
  cmd->footer(
      "EXAMPLE\n"
      "  tierbench compare ... --repeat 3 --run-id today\n"
      "  tierbench check results/today --baseline results/last-week "
      "--max-regression 10 --junit check.xml\n"
      "  tierbench check results/today --expect 'writeback/randwrite-4k iops "
      ">= 5 * hdd'\n"
      "\n"
      "A cell regressed when both runs have >= 3 repetitions of it, the 95% "
      "interval\n"
      "of its change (Welch's t on log IOPS or tps) lies below 0 and the "
      "change is\n"
      "beyond --max-regression. A cell of the baseline that the run lacks "
      "fails too.\n"
      "Cells with fewer repetitions or marked invalid are listed, not "
      "judged.\n"
      "\n"
      "EXIT STATUS\n"
      "  0 no regression and every expectation held; 1 a cell regressed or "
      "went\n"
      "  missing, or an expectation failed; 2 a bad run folder or "
      "expression, or no\n"
      "  cell could be judged; 3 cannot write --junit.");
  cmd->callback([args, exit_code]() { Run(*args, exit_code); });
}

}  // namespace tierbench
