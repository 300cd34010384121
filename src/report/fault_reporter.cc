#include "report/fault_reporter.h"

#include <cstdio>
#include <utility>

#include "present/pages/scenario_report.h"
#include "report/column_table.h"
#include "util/csv_writer.h"

namespace tierbench {
namespace {

std::string FaultMs(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f", ms);
  return buf;
}

std::string WriterCount(const FaultLayer& l, uint64_t n) {
  return l.writer_hung && l.writer_blocks == 0 ? std::string() : CsvNumber(n);
}

// The four counts of `read`, one column each, named <prefix>_<count>.
void AddFaultBlockColumns(const std::string& prefix,
                          FaultBlocks FaultLayer::*member,
                          std::vector<CsvColumn<FaultLayer>>* out) {
  out->push_back({prefix + "_intact", [member](const FaultLayer& l) {
                    return CsvNumber((l.*member).intact);
                  }});
  out->push_back({prefix + "_stale", [member](const FaultLayer& l) {
                    return CsvNumber((l.*member).stale);
                  }});
  out->push_back({prefix + "_lost", [member](const FaultLayer& l) {
                    return CsvNumber((l.*member).lost);
                  }});
  out->push_back({prefix + "_corrupt", [member](const FaultLayer& l) {
                    return CsvNumber((l.*member).corrupt);
                  }});
}

// THE column list of fault.csv (after schema_version).
const ColumnTable<FaultLayer>& FaultTable() {
  static const ColumnTable<FaultLayer> table([] {
    using L = FaultLayer;
    std::vector<CsvColumn<L>> c = {
        {"layer", [](const L& l) { return l.layer; }},
        {"fault", [](const L& l) { return l.fault; }},
        {"device", [](const L& l) { return l.device; }},
        {"blocks", [](const L& l) { return CsvNumber(l.blocks); }},
        {"block_bytes", [](const L& l) { return CsvNumber(l.block_bytes); }},
        {"dirty_bytes_at_fault",
         [](const L& l) { return CsvNumber(l.dirty_bytes_at_fault); }},
        {"dirty_at_fault", [](const L& l) { return l.dirty_at_fault; }},
        // Unknown (empty) when the writer hung before it finished a pass
        // after the fault.
        {"writer_blocks",
         [](const L& l) { return WriterCount(l, l.writer_blocks); }},
        {"writer_errors",
         [](const L& l) { return WriterCount(l, l.writer_errors); }},
        {"writer_first_error", [](const L& l) { return l.writer_first_error; }},
        {"writer_hung",
         [](const L& l) { return std::string(l.writer_hung ? "1" : "0"); }},
        {"state_after", [](const L& l) { return l.state_after; }},
        {"device_after",
         [](const L& l) {
           return std::string(l.stack.gone   ? "gone"
                              : l.stack.hung ? "hung"
                                             : "present");
         }},
    };
    AddFaultBlockColumns("stack", &L::stack, &c);
    c.push_back({"silent_corruption",
                 [](const L& l) { return CsvNumber(l.stack.silent()); }});
    c.push_back({"recovery", [](const L& l) { return l.recovery; }});
    c.push_back({"recovery_ms",
                 [](const L& l) { return CsvNumber(l.recovery_ms, 0); }});
    c.push_back(
        {"recovered_state", [](const L& l) { return l.recovered_state; }});
    AddFaultBlockColumns("recovered", &L::recovered, &c);
    c.push_back({"usable_again_ms", [](const L& l) {
                   return l.usable_again_ms ? CsvNumber(*l.usable_again_ms, 0)
                                            : std::string();
                 }});
    AddFaultBlockColumns("origin", &L::origin, &c);
    c.push_back({"kernel_log", [](const L& l) { return l.kernel_log; }});
    c.push_back({"result", [](const L& l) { return FaultVerdict(l); }});
    return c;
  }());
  return table;
}

std::string FaultCounts(const FaultBlocks& b) {
  if (b.gone) return "the device was gone";
  if (b.hung) return "the read hung";
  return std::to_string(b.intact) + " intact, " + std::to_string(b.stale) +
         " stale, " + std::to_string(b.lost) + " read errors, " +
         std::to_string(b.corrupt) + " corrupt";
}

}  // namespace

std::string FaultVerdict(const FaultLayer& l) {
  if (l.stack.silent() > 0) return "silent";
  if (l.dirty_bytes_at_fault == 0) return "unproven";
  if (l.stack.lost > 0) return "errors";
  return "intact";
}

std::vector<std::string> FaultCsvColumns() { return FaultTable().names(); }

std::string FaultConsoleLines(const FaultLayer& l) {
  std::string s = "fault: " + l.fault + " on " + l.layer + " (" + l.device +
                  "), " + (l.dirty_at_fault.empty() ? "0" : l.dirty_at_fault) +
                  " dirty: " + FaultVerdict(l) + "\n";
  if (l.writer_hung && l.writer_blocks == 0) {
    s += "  the writer: hung before it finished a pass after the fault\n";
  } else {
    s += "  the writer: " + std::to_string(l.writer_errors) + " of " +
         std::to_string(l.writer_blocks) + " writes failed" +
         (l.writer_first_error.empty()
              ? ""
              : " (first: " + l.writer_first_error + ")") +
         (l.writer_hung ? "; it hung" : "") + "\n";
  }
  s += "  through the stack (" + l.state_after + "): " + FaultCounts(l.stack) +
       " of " + std::to_string(l.blocks) + "\n";
  s += "  after " + l.recovery + " (" + FaultMs(l.recovery_ms) + " ms; " +
       l.recovered_state + "): " + FaultCounts(l.recovered) +
       (l.recovered.silent() > 0 ? " (served without an error)" : "") + "\n";
  s += "  the bare origin: " + FaultCounts(l.origin) + "\n";
  return s;
}

FaultReporter::FaultReporter(std::string run_dir, std::ostream& console)
    : run_dir_(std::move(run_dir)), console_(console) {}

void FaultReporter::OnFault(const FaultRun& run) {
  CsvTable csv(FaultCsvColumns(), kFaultCsvSchemaVersion);
  for (const FaultLayer& l : run.layers) csv.AddRow(FaultTable().Values(l));
  csv.WriteFile(run_dir_ + "/fault.csv");
  // report.html and summary.md, the verdict first (present/pages/
  // scenario_report.h).
  WriteScenarioReport(run_dir_, "", /*force=*/true);
  for (const FaultLayer& l : run.layers) console_ << FaultConsoleLines(l);
  console_.flush();
}

}  // namespace tierbench
