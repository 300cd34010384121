#include "orchestrate/compare_runner.h"

#include <unistd.h>

#include <filesystem>
#include <memory>

#include "orchestrate/cell_runner.h"
#include "orchestrate/compare_setup.h"
#include "orchestrate/restore_state.h"
#include "orchestrate/run_plan.h"
#include "report/reporter.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/log.h"

namespace tierbench {

CompareRunner::CompareRunner(CompareOptions options, CompareHooks hooks)
    : options_(std::move(options)), hooks_(std::move(hooks)) {}

CompareSummary CompareRunner::Run(std::ostream& out) {
  SetQuiet(options_.quiet);
  const Sysfs sysfs = hooks_.sysfs ? *hooks_.sysfs : Sysfs(options_.sysfs_root);
  const LayerEnv env{sysfs, hooks_.dm, hooks_.lvm};
  const CompareSetup setup = PrepareCompare(options_, env);
  const std::vector<Cell> plan =
      BuildRunPlan(setup.modes.size(), setup.workloads.size(), options_.repeat);

  CompareSummary summary;
  summary.run_dir = setup.run_dir;
  summary.planned_cells = plan.size();
  // Every result file and console line comes from the reporters; they
  // create the run folder.
  const std::vector<std::unique_ptr<Reporter>> reporters =
      MakeCompareReporters(out);
  const CompareStart start{options_, setup, sysfs, plan.size()};
  for (const auto& r : reporters) r->OnCompareStart(start);

  // Capture every stack's mode and settings ONCE, before anything changes.
  size_t captured = 0;
  bool state_written = false;
  for (const CompareStack& st : setup.stacks) {
    if (hooks_.sleep) st.layer->set_sleep(hooks_.sleep);
  }
  RestoreOutcome restore_outcome;
  auto restore = [&]() {
    if (summary.restore_attempted || captured == 0) return;
    summary.restore_attempted = true;
    std::vector<std::string> failures;
    for (size_t i = 0; i < captured; ++i) {
      const CompareStack& st = setup.stacks[i];
      const RestoreReport report = st.layer->RestoreOriginal();
      for (const std::string& f : report.failures) {
        failures.push_back(st.device + ": " + f);
        LogWarning("could not restore " + st.device + " (" + st.layer->layer() +
                   "): " + f);
      }
    }
    summary.restore_ok = failures.empty();
    if (summary.restore_ok && state_written) {
      std::error_code ec;
      std::filesystem::remove(StateFilePath(sysfs), ec);
    } else if (state_written) {
      LogWarning("the restore state stays in " + StateFilePath(sysfs) +
                 ": fix the cause, then run tierbench restore");
    }
    restore_outcome = {true, summary.restore_ok, std::move(failures)};
  };
  try {
    std::vector<OriginalSettings> originals;
    for (const CompareStack& st : setup.stacks) {
      st.layer->CaptureOriginal();
      ++captured;
      originals.push_back({st.device, st.layer->OriginalJson()});
    }
    if (captured > 0) {
      for (const auto& r : reporters) r->OnOriginalSettings(originals);
      // Before the first change: what `tierbench restore` needs if this
      // process dies without restoring.
      RestoreState state;
      state.pid = static_cast<long>(::getpid());
      state.run_dir = setup.run_dir;
      state.started = UtcNow();
      for (const CompareStack& st : setup.stacks) {
        state.stacks.push_back(
            {st.device, st.layer->layer(), st.layer->OriginalJson()});
      }
      WriteStateFile(
          (std::filesystem::path(setup.run_dir) / "restore-state.json")
              .string(),
          state);
      WriteStateFile(StateFilePath(sysfs), state);
      state_written = true;
    }
  } catch (const std::exception&) {
    restore();
    throw;
  }

  std::vector<MeasuredRow> measured;
  // Tells the reporters what the finished cells gave; used on every exit
  // path.
  auto finish = [&](const std::string& status, bool all_cells_ran) {
    summary.comparison = Compare(measured);
    const CompareEnd end{status,
                         all_cells_ran,
                         summary.planned_cells,
                         summary.finished_cells,
                         summary.failed_cells,
                         summary.comparison,
                         restore_outcome};
    for (const auto& r : reporters) r->OnCompareEnd(end);
    for (const auto& r : reporters) r->Finalize();
  };

  CellRunner runner(options_, setup, hooks_, sysfs);
  try {
    for (size_t i = 0; i < plan.size(); ++i) {
      const CellRecord rec = runner.Run(plan[i]);
      for (const auto& r : reporters) r->OnCell(rec);
      ++summary.finished_cells;
      if (!rec.error.empty()) ++summary.failed_cells;
      for (MeasuredRow& m : MeasuredRowsOf(rec))
        measured.push_back(std::move(m));
      if (hooks_.after_cell) hooks_.after_cell(i);
    }
  } catch (const std::exception& e) {
    restore();
    try {
      finish(dynamic_cast<const InterruptedError*>(&e) != nullptr
                 ? "interrupted"
                 : std::string("failed: ") + e.what(),
             false);
      LogNotice("partial results (" + std::to_string(summary.finished_cells) +
                " of " + std::to_string(plan.size()) + " cells) in " +
                setup.run_dir);
    } catch (const std::exception& inner) {
      LogWarning(std::string("could not write the results: ") + inner.what());
    }
    throw;
  }
  restore();
  finish(summary.failed_cells == 0 ? "complete" : "complete with failed cells",
         true);
  return summary;
}

}  // namespace tierbench
