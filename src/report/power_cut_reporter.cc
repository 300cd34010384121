#include "report/power_cut_reporter.h"

#include <cstdio>
#include <utility>

#include "present/pages/scenario_report.h"
#include "report/column_table.h"
#include "util/csv_writer.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// THE column list of power-cut.csv (after schema_version).
const ColumnTable<PowerCutLayer>& Table() {
  static const ColumnTable<PowerCutLayer> table({
      {"layer", [](const PowerCutLayer& l) { return l.layer; }},
      {"device", [](const PowerCutLayer& l) { return l.device; }},
      {"blocks_written",
       [](const PowerCutLayer& l) { return CsvNumber(l.blocks_written); }},
      {"block_bytes",
       [](const PowerCutLayer& l) { return CsvNumber(l.block_bytes); }},
      {"dirty_bytes_at_cut",
       [](const PowerCutLayer& l) { return CsvNumber(l.dirty_bytes_at_cut); }},
      {"dirty_at_cut", [](const PowerCutLayer& l) { return l.dirty_at_cut; }},
      {"blocks_origin_lacked",
       [](const PowerCutLayer& l) {
         return CsvNumber(l.blocks_origin_lacked);
       }},
      {"recovery_ms",
       [](const PowerCutLayer& l) { return CsvNumber(l.recovery_ms, 0); }},
      {"blocks_checked",
       [](const PowerCutLayer& l) { return CsvNumber(l.blocks_checked); }},
      {"mismatches",
       [](const PowerCutLayer& l) { return CsvNumber(l.mismatches); }},
      {"result", [](const PowerCutLayer& l) { return PowerCutVerdict(l); }},
  });
  return table;
}

const ColumnTable<LogReplayMark>& ReplayTable() {
  static const ColumnTable<LogReplayMark> table({
      {"layer", [](const LogReplayMark& m) { return m.layer; }},
      {"mark", [](const LogReplayMark& m) { return m.mark; }},
      {"entries_replayed",
       [](const LogReplayMark& m) { return CsvNumber(m.entries_replayed); }},
      {"state_after_replay",
       [](const LogReplayMark& m) { return m.state_after_replay; }},
      {"blocks_expected",
       [](const LogReplayMark& m) { return CsvNumber(m.blocks_expected); }},
      {"blocks_checked",
       [](const LogReplayMark& m) { return CsvNumber(m.blocks_checked); }},
      {"mismatches",
       [](const LogReplayMark& m) { return CsvNumber(m.mismatches); }},
      {"next_round_blocks",
       [](const LogReplayMark& m) { return CsvNumber(m.next_round_blocks); }},
      {"next_round_lacked",
       [](const LogReplayMark& m) { return CsvNumber(m.next_round_lacked); }},
      {"result", [](const LogReplayMark& m) { return LogReplayVerdict(m); }},
  });
  return table;
}

}  // namespace

std::string LogReplayVerdict(const LogReplayMark& m) {
  if (!m.error.empty() || m.mismatches > 0 || m.blocks_expected == 0 ||
      m.blocks_checked < m.blocks_expected) {
    return "lost";
  }
  if (m.next_round_lacked < m.next_round_blocks) return "unproven";
  return "intact";
}

std::vector<std::string> LogReplayCsvColumns() { return ReplayTable().names(); }

std::string LogReplayConsoleLine(const LogReplayMark& m) {
  std::string line = "log replay: " + m.layer + " at mark " + m.mark + ": " +
                     std::to_string(m.entries_replayed) + " log entries" +
                     (m.state_after_replay.empty()
                          ? ""
                          : " (after replay: " + m.state_after_replay + ")") +
                     "; " + std::to_string(m.blocks_checked) + " of " +
                     std::to_string(m.blocks_expected) + " blocks checked, " +
                     std::to_string(m.mismatches) + " mismatches";
  if (m.next_round_blocks > 0) {
    line += "; the next round's " + std::to_string(m.next_round_lacked) +
            " of " + std::to_string(m.next_round_blocks) + " blocks missing";
  }
  line += ": " + LogReplayVerdict(m);
  if (!m.error.empty()) line += "; failed: " + m.error;
  return line;
}

std::string PowerCutVerdict(const PowerCutLayer& l) {
  if (!l.write_error.empty() || !l.verify_error.empty() || l.mismatches > 0 ||
      l.blocks_written == 0 || l.blocks_checked < l.blocks_written) {
    return "lost";
  }
  if (l.dirty_bytes_at_cut == 0 || l.blocks_origin_lacked == 0) {
    return "unproven";
  }
  return "intact";
}

std::vector<std::string> PowerCutCsvColumns() {
  std::vector<std::string> names = Table().names();
  names.push_back("cut_after_s");
  return names;
}

std::string PowerCutConsoleLine(const PowerCutLayer& l) {
  char ms[32];
  std::snprintf(ms, sizeof(ms), "%.0f", l.recovery_ms);
  std::string line =
      "power cut: " + l.layer + " (" + l.device +
      "): " + (l.dirty_at_cut.empty() ? "0" : l.dirty_at_cut) +
      " dirty at the cut, " + std::to_string(l.blocks_origin_lacked) + " of " +
      std::to_string(l.blocks_written) +
      " blocks only in the cache; recovered in " + ms + " ms; " +
      std::to_string(l.blocks_checked) + " blocks checked, " +
      std::to_string(l.mismatches) + " mismatches: " + PowerCutVerdict(l);
  if (!l.write_error.empty()) line += "; write failed: " + l.write_error;
  if (!l.verify_error.empty()) line += "; verify failed: " + l.verify_error;
  return line;
}

PowerCutReporter::PowerCutReporter(std::string run_dir, std::ostream& console)
    : run_dir_(std::move(run_dir)), console_(console) {}

void PowerCutReporter::OnPowerCut(const PowerCutRun& run) {
  CsvTable csv(PowerCutCsvColumns(), kPowerCutCsvSchemaVersion);
  for (const PowerCutLayer& l : run.layers) {
    std::vector<std::string> values = Table().Values(l);
    values.push_back(CsvNumber(run.cut_after_s, 1));
    csv.AddRow(std::move(values));
  }
  csv.WriteFile(run_dir_ + "/power-cut.csv");
  if (!run.log_replay.empty()) {
    CsvTable replay(LogReplayCsvColumns(), kLogReplayCsvSchemaVersion);
    for (const LogReplayMark& m : run.log_replay) {
      replay.AddRow(ReplayTable().Values(m));
    }
    replay.WriteFile(run_dir_ + "/log-replay.csv");
  }
  WriteScenarioReport(run_dir_, "", /*force=*/true);  // report.html
  for (const PowerCutLayer& l : run.layers) {
    console_ << PowerCutConsoleLine(l) << "\n";
  }
  for (const LogReplayMark& m : run.log_replay) {
    console_ << LogReplayConsoleLine(m) << "\n";
  }
  console_.flush();
}

}  // namespace tierbench
