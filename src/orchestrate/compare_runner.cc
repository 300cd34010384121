#include "orchestrate/compare_runner.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "orchestrate/cell_runner.h"
#include "orchestrate/compare_setup.h"
#include "orchestrate/console_table.h"
#include "orchestrate/manifest.h"
#include "orchestrate/restore_state.h"
#include "orchestrate/results_writer.h"
#include "orchestrate/run_plan.h"
#include "report/report_writer.h"
#include "util/errors.h"
#include "util/log.h"

namespace tierbench {
namespace {

// "cell 3/12 writeback/randwrite-4k #1: randwrite write 5123 IOPS p99
// 800us (sustained 1600) time to clean 52.0s" plus the warnings, as one
// notice per cell.
std::string CellLine(size_t index, size_t total, const CellRecord& rec) {
  std::string line =
      "cell " + std::to_string(index + 1) + "/" + std::to_string(total) + " " +
      (rec.mode->is_raw() ? "" : rec.mode->layer + ":") + rec.mode->name + "/" +
      rec.workload->name + " #" + std::to_string(rec.cell.repetition) + ":";
  if (!rec.error.empty()) return line + " FAILED";
  bool first = true;
  for (const MeasuredRow& r : MeasuredRowsOf(rec)) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %s %s %.0f %s p99 %.0fus",
                  first ? "" : ";", r.job.c_str(), r.direction.c_str(), r.iops,
                  r.unit == "tx" ? "tps" : "IOPS", r.lat_p99_us);
    line += buf;
    if (r.iops_sustained && *r.iops_sustained != r.iops) {
      std::snprintf(buf, sizeof buf, " (sustained %.0f)", *r.iops_sustained);
      line += buf;
    }
    first = false;
  }
  if (rec.drain_after_s > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " time to clean %.1fs", rec.drain_after_s);
    line += buf;
  }
  return line;
}

}  // namespace

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
  ResultsWriter writer(setup.run_dir, setup.run_id);
  nlohmann::json manifest = BuildManifest(options_, setup, sysfs);
  manifest["cells"]["planned"] = plan.size();
  writer.WriteManifest(manifest);

  // Capture every stack's mode and settings ONCE, before anything changes.
  size_t captured = 0;
  bool state_written = false;
  for (const CompareStack& st : setup.stacks) {
    if (hooks_.sleep) st.layer->set_sleep(hooks_.sleep);
  }
  auto restore = [&]() {
    if (summary.restore_attempted || captured == 0) return;
    summary.restore_attempted = true;
    nlohmann::json failures = nlohmann::json::array();
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
    manifest["restore"] = {{"attempted", true},
                           {"ok", summary.restore_ok},
                           {"failures", failures}};
  };
  try {
    for (const CompareStack& st : setup.stacks) {
      st.layer->CaptureOriginal();
      ++captured;
      manifest["original_settings"][st.device] = st.layer->OriginalJson();
    }
    if (captured > 0) {
      writer.WriteManifest(manifest);
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
      WriteStateFile(writer.Path("restore-state.json"), state);
      WriteStateFile(StateFilePath(sysfs), state);
      state_written = true;
    }
  } catch (const std::exception&) {
    restore();
    throw;
  }

  std::vector<MeasuredRow> measured;
  // Writes what the finished cells gave; used on every exit path.
  auto finish = [&](const std::string& status) {
    summary.comparison = Compare(measured);
    manifest["status"] = status;
    manifest["end_time"] = UtcNow();
    manifest["cells"]["finished"] = summary.finished_cells;
    manifest["cells"]["failed"] = summary.failed_cells;
    writer.WriteComparison(summary.comparison);
    writer.WriteManifest(manifest);
  };

  CellRunner runner(options_, setup, hooks_, sysfs);
  try {
    for (size_t i = 0; i < plan.size(); ++i) {
      CellRecord rec = runner.Run(plan[i]);
      writer.AddCell(rec);
      ++summary.finished_cells;
      if (!rec.error.empty()) ++summary.failed_cells;
      for (MeasuredRow& r : MeasuredRowsOf(rec))
        measured.push_back(std::move(r));
      nlohmann::json& mode_json = manifest["modes"][plan[i].mode];
      if (!rec.mode->is_raw() && mode_json["readback"].is_null()) {
        mode_json["readback"] = rec.readback.ToJson();
        mode_json["stack"] = rec.stack.ToJson();
      }
      if (rec.workload->is_db && !rec.db_info.server_version.empty()) {
        manifest["workloads"][plan[i].workload]["server"] = {
            {"version", rec.db_info.server_version},
            {"settings", rec.db_info.server_settings},
            {"filesystem", rec.db_info.filesystem}};
      }
      LogNotice(CellLine(i, plan.size(), rec));
      for (const std::string& w : rec.warnings) {
        LogWarning(rec.mode->name + "/" + rec.workload->name + ": " + w);
      }
      if (hooks_.after_cell) hooks_.after_cell(i);
    }
  } catch (const std::exception& e) {
    restore();
    try {
      finish(dynamic_cast<const InterruptedError*>(&e) != nullptr
                 ? "interrupted"
                 : std::string("failed: ") + e.what());
      LogNotice("partial results (" + std::to_string(summary.finished_cells) +
                " of " + std::to_string(plan.size()) + " cells) in " +
                setup.run_dir);
    } catch (const std::exception& inner) {
      LogWarning(std::string("could not write the results: ") + inner.what());
    }
    throw;
  }
  restore();
  finish(summary.failed_cells == 0 ? "complete" : "complete with failed cells");

  out << "\n";
  PrintComparisonTable(summary.comparison, out);
  out << "\nResults: " << writer.Path("comparison.csv") << "\n"
      << "         " << writer.Path("runs.csv") << "\n"
      << "         " << writer.Path("manifest.json") << "\n";
  // report.html, charts/*.svg and summary.md of the finished run; a report
  // that cannot be written does not fail the measured run.
  try {
    out << "         " << WriteReport(setup.run_dir, "", true).html << "\n";
  } catch (const std::exception& e) {
    LogWarning(std::string("could not write the report: ") + e.what());
  }
  if (!summary.restore_ok) {
    out << "WARNING: the original cache modes and settings were not all "
           "restored; see manifest.json \"restore\"\n";
  }
  return summary;
}

}  // namespace tierbench
