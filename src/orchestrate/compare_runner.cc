#include "orchestrate/compare_runner.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "orchestrate/capture_replay.h"
#include "orchestrate/cell_runner.h"
#include "orchestrate/precondition.h"
#include "orchestrate/prepare_compare.h"
#include "orchestrate/restore_state.h"
#include "orchestrate/run_plan.h"
#include "orchestrate/verify_runner.h"
#include "record/ssd_wear.h"
#include "util/clock.h"
#include "util/cpu_latency.h"
#include "util/errors.h"
#include "util/log.h"

namespace tierbench {

CompareRunner::CompareRunner(CompareOptions options)
    : CompareRunner(options, RealHost(options.sysfs_root)) {}

CompareRunner::CompareRunner(CompareOptions options, Host host,
                             CompareHooks hooks)
    : options_(std::move(options)),
      host_(std::move(host)),
      hooks_(std::move(hooks)) {}

void CompareRunner::VerifyStacks(
    const CompareSetup& setup,
    const std::vector<std::unique_ptr<Reporter>>& reporters,
    std::vector<VerifyOutcome>* outcomes) const {
  VerifyRunOptions vo;
  vo.bytes = options_.verify_bytes;
  vo.drain_timeout_s = options_.drain_timeout_s;
  vo.nonce = hooks_.verify_nonce ? *hooks_.verify_nonce : RandomVerifyNonce();
  vo.now_ns = host_.now_ns;
  vo.on_start = [&reporters](const VerifyStart& s) {
    for (const auto& r : reporters) r->OnVerifyStart(s);
  };
  vo.on_step = [&reporters](const VerifyStep& s) {
    for (const auto& r : reporters) r->OnVerifyStep(s);
  };
  for (const CompareStack& st : setup.stacks) {
    if (hooks_.after_verify_step) {
      vo.after_step = [this, &st](const std::string& step) {
        hooks_.after_verify_step(st.device, step);
      };
    }
    outcomes->push_back(VerifyRunner(vo).Run(*st.layer, st.device));
    const VerifyOutcome& o = outcomes->back();
    if (o.errors > 0) {
      const VerifyStep& bad = o.steps.back();
      throw RunError(
          "--verify: " + std::to_string(bad.errors) + " of " +
          std::to_string(o.blocks) + " blocks differ on " + st.device + " (" +
          o.layer + ") after step " + bad.step + " (mode " + bad.mode +
          "); first: " + bad.mismatches.front() +
          ". Fix: the cache layer lost or mixed up data; do not trust "
          "this stack");
    }
  }
}

CompareSummary CompareRunner::Run(
    std::vector<std::unique_ptr<Reporter>> reporters) {
  // --quiet holds for this run only: a caller that runs more (a test
  // process) gets its notices back.
  struct QuietScope {
    bool before;
    ~QuietScope() { SetQuiet(before); }
  } quiet_scope{IsQuiet()};
  SetQuiet(options_.quiet);
  const Sysfs& sysfs = host_.sysfs;
  const CompareSetup setup = PrepareCompare(options_, host_);
  // Held from here (every input validated) to the end of the run; the
  // manifest reads the limit back.
  std::optional<CpuLatencyHold> cpu_latency;
  HoldCpuLatency(sysfs, options_.cpu_latency_us, "until the compare ends",
                 &cpu_latency);
  std::vector<bool> db_workloads;
  for (const PreparedWorkload& w : setup.workloads) {
    db_workloads.push_back(w.is_db);
  }
  // The target of each mode: the raw HDD (-2), the raw SSD (-1) or its
  // stack's index; a DB workload's cells of one target run together.
  std::vector<int> mode_group;
  for (const ModeSpec& m : setup.modes) {
    const CompareStack* st = m.is_raw() ? nullptr : setup.StackFor(m);
    mode_group.push_back(
        m.is_raw() ? (m.target == RawTarget::kHdd ? -2 : -1)
                   : (st != nullptr ? static_cast<int>(st - setup.stacks.data())
                                    : -3));
  }
  std::vector<Cell> plan =
      BuildRunPlan(setup.modes.size(), setup.workloads.size(), options_.repeat,
                   setup.runs, db_workloads, mode_group);
  // --capture-replay: each capture before the cells that replay it.
  if (options_.capture_replay) MoveCapturesFirst(setup, &plan);

  CompareSummary summary;
  summary.run_dir = setup.run_dir;
  summary.planned_cells = plan.size();
  // Every result file and console line comes from the reporters; they
  // create the run folder.
  const CompareStart start{options_, setup, sysfs, plan.size()};
  for (const auto& r : reporters) r->OnCompareStart(start);

  // Capture every stack's mode and settings ONCE, before anything changes.
  size_t captured = 0;
  bool state_written = false;
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
  std::vector<VerifyOutcome> verified;
  std::optional<PreconditionOutcome> preconditioned;
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
                         restore_outcome,
                         verified,
                         WorkloadFindings(summary.comparison),
                         preconditioned};
    for (const auto& r : reporters) r->OnCompareEnd(end);
    for (const auto& r : reporters) r->Finalize();
  };

  CellRunner runner(options_, setup, host_, hooks_);
  try {
    if (options_.precondition_passes > 0) {
      const bool quiet = options_.quiet;
      preconditioned = Precondition(
          options_.ssd, setup.region_bytes, options_.precondition_passes,
          host_.sysfs, hooks_.run_workload,
          [this, quiet](int pass, double mib_s) {
            if (quiet) return;
            char line[160];
            std::snprintf(
                line, sizeof line,
                "precondition %s: pass %d of %d written at %.1f MiB/s",
                options_.ssd.c_str(), pass, options_.precondition_passes,
                mib_s);
            LogNotice(line);
          });
    }
    if (options_.verify_bytes > 0) VerifyStacks(setup, reporters, &verified);
    for (size_t i = 0; i < plan.size(); ++i) {
      const CellRecord rec = runner.Run(plan[i]);
      for (const auto& r : reporters) r->OnCell(rec);
      const std::vector<ReadHitCurve> curves = runner.TakeNewCurves();
      if (!curves.empty()) {
        for (const auto& r : reporters) r->OnReadHitCurves(curves);
      }
      ++summary.finished_cells;
      if (!rec.error.empty()) ++summary.failed_cells;
      for (MeasuredRow& m : MeasuredRowsOf(rec, TbwBytes(options_.ssd_tbw_tb)))
        measured.push_back(std::move(m));
      if (hooks_.after_cell) hooks_.after_cell(i);
    }
  } catch (const std::exception& e) {
    runner.CloseDb();  // unmounted before the stacks are restored
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
  runner.CloseDb();
  restore();
  finish(summary.failed_cells == 0 ? "complete" : "complete with failed cells",
         true);
  return summary;
}

}  // namespace tierbench
