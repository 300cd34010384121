// The DB pitfalls of PitfallTable() (validity/rule_table.h: rows 20, 21
// and X5) on what a real lab run of pgbench recorded (tests/unit/data/
// lab-kernel/pgbench-*, README.md there: five cells of
// workloads/pgbench-tpcb-in-ram.json on the lab's bcache0): the kernel's
// text (the stat lines of bcache0, dmesg's mounts and drop_caches) read by
// tierbench's own readers, the cells' runs.csv figures, and the DB cell's
// evidence (DbCellInfo) replayed through `tierbench compare`
// (tests/unit/validity/pitfalls_replay.h ReplayDbCell). Each invalid case says
// which recorded value it edits. The meta-test is in
// tests/unit/validity/pitfalls_test.cc.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "db/db_workload.h"
#include "db/pgbench_report.h"
#include "db/tpcb_driver.h"
#include "present/run_folder.h"
#include "report/result_columns.h"
#include "unit/validity/pitfalls_replay.h"
#include "util/csv_reader.h"
#include "validity/db_rules.h"

namespace tierbench {
namespace {

using pitfalls::EditRecord;
using pitfalls::EditText;
using pitfalls::Fires;
using pitfalls::LabCell;
using pitfalls::LabCsv;
using pitfalls::LabText;
using pitfalls::RecordedDbCell;
using pitfalls::RecordedDbCellOf;
using pitfalls::ReplayDbCell;
using pitfalls::ReplayHost;
using pitfalls::RepoPath;
using pitfalls::RowOf;
using pitfalls::RuleIds;
using pitfalls::TextOf;

constexpr char kPg[] = "pgbench-evidence.jsonl";
constexpr char kWorkload[] = "pgbench-tpcb-in-ram";
const char* const kModes[] = {"none", "writethrough", "writearound",
                              "writeback", "writeback-nocutoff"};

// The workload the lab ran (scale 4, 4 clients, 16MB of shared_buffers).
std::string WorkloadText() {
  std::ifstream in(RepoPath("workloads/pgbench-tpcb-in-ram.json"));
  EXPECT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

DbWorkload LabWorkload(const std::string& text) {
  return ParseDbWorkloadJson(text, "workloads/pgbench-tpcb-in-ram.json");
}

// The DB evidence of a recorded cell as CellRunner builds it
// (orchestrate/cell_runner.cc DbEvidenceOf): scale and clients of the
// workload, the DbCellInfo the cell reported, and the bytes read from the
// target over the window as HostSampler reads them from the record's stat
// lines (ReplayHost: bcache0's sectors read, end minus start).
DbEvidence RecordedDbEvidence(const DbWorkload& w, const RecordedDbCell& c,
                              const nlohmann::json& rec) {
  DbEvidence d;
  d.is_db = true;
  d.scale = w.scale;
  d.clients = w.clients;
  d.db_size_bytes = c.info.db_size_bytes;
  d.shared_buffers_bytes = c.info.shared_buffers_bytes;
  d.mem_total_bytes = c.info.mem_total_bytes;
  d.restarted_after_load = c.info.restarted_after_load ? 1 : 0;
  d.server_cpu_s = c.info.server_cpu_s;
  d.device_read_bytes = ReplayHost(rec).target_read_bytes;
  return d;
}

// The one row of a replayed compare's runs.csv: its finding_rules' rule
// ids, its validity and its warnings cell. The texts are not zipped with
// the rules (FindingsOfRow): the drift warning holds a ';' itself.
struct DbReplayedRow {
  std::set<std::string> rules;
  std::string valid;
  std::string warnings;
};

DbReplayedRow RowOfReplay(const pitfalls::ReplayedCompare& r) {
  const CsvDocument runs = CsvDocument::Parse(r.runs_csv, "replayed runs.csv");
  DbReplayedRow out;
  EXPECT_EQ(runs.row_count(), 1u);
  if (runs.row_count() != 1) return out;
  for (const std::string& item : SplitWarnings(runs.Get(0, "finding_rules"))) {
    out.rules.insert(item.substr(0, item.rfind(':')));
  }
  out.valid = runs.Get(0, "valid");
  out.warnings = runs.Get(0, "warnings");
  return out;
}

// "name X.Y s" of a DB cell's timing notice in pgbench-compare.log, in
// cell order ("restart", "load").
std::vector<double> LoggedPhaseSeconds(const std::string& phase) {
  std::istringstream in(LabText("pgbench-compare.log"));
  const std::string head = "tierbench: notice: pgbench-tpcb-in-ram: mkfs ";
  std::vector<double> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(head, 0) != 0) continue;
    const size_t at = line.find(", " + phase + " ");
    double s = -1;
    if (at == std::string::npos ||
        std::sscanf(line.c_str() + at + phase.size() + 3, "%lf s", &s) != 1) {
      ADD_FAILURE() << "no " << phase << " in: " << line;
      continue;
    }
    out.push_back(s);
  }
  return out;
}

// Pitfall 20. Prevented: every cell loads a fresh database on a fresh
// filesystem and restarts the server after the load with the page cache
// dropped. The lab's five cells: a load and a restart each
// (pgbench-compare.log), one ext4 mount of bcache0 each with exactly one
// drop_caches between its mount and unmount (pgbench-dmesg-db.txt: the
// restart's), db_restarted 1, scale 4 for 4 clients: neither rule fires,
// in the DB rules nor through `tierbench compare` on the none cell.
// Invalid: that cell with db_restarted edited to 0 (db-restart) and the
// workload file with "scale": 4 edited to 2 (db-scale: 4 clients on 2
// branches rows).
TEST(ValidityPitfallsTest, Row20PgbenchContentionAndRestart) {
  const std::string text = WorkloadText();
  const DbWorkload w = LabWorkload(text);
  EXPECT_EQ(w.scale, 4);
  EXPECT_EQ(w.clients, 4);
  const std::vector<double> loads = LoggedPhaseSeconds("load");
  const std::vector<double> restarts = LoggedPhaseSeconds("restart");
  ASSERT_EQ(loads.size(), 5u);
  ASSERT_EQ(restarts.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_GT(loads[i], 0) << "cell " << i + 1;
    EXPECT_GT(restarts[i], 0) << "cell " << i + 1;
  }
  std::istringstream dmesg(LabText("pgbench-dmesg-db.txt"));
  std::string line;
  int mounts = 0, drops_while_mounted = 0;
  bool mounted = false;
  while (std::getline(dmesg, line)) {
    if (line.find("EXT4-fs (bcache0): mounted filesystem") !=
        std::string::npos) {
      EXPECT_FALSE(mounted) << line;
      mounted = true;
      ++mounts;
      drops_while_mounted = 0;
    } else if (line.find("drop_caches: 3") != std::string::npos) {
      drops_while_mounted += mounted ? 1 : 0;
    } else if (line.find("EXT4-fs (bcache0): unmounting") !=
               std::string::npos) {
      EXPECT_TRUE(mounted) << line;
      EXPECT_EQ(drops_while_mounted, 1) << "mount " << mounts;
      mounted = false;
    }
  }
  EXPECT_EQ(mounts, 5);
  for (const char* mode : kModes) {
    SCOPED_TRACE(mode);
    const RecordedDbCell c = RecordedDbCellOf(mode);
    EXPECT_TRUE(c.info.restarted_after_load);
    const std::vector<Finding> f =
        DbFindings(RecordedDbEvidence(w, c, LabCell(kPg, mode, kWorkload)));
    EXPECT_FALSE(Fires(f, "db-restart")) << ValidityReasons(f);
    EXPECT_FALSE(Fires(f, "db-scale")) << ValidityReasons(f);
  }
  const nlohmann::json none = LabCell(kPg, "none", kWorkload);
  DbReplayedRow row = RowOfReplay(
      ReplayDbCell("none.json", text, none, RecordedDbCellOf("none")));
  EXPECT_EQ(row.rules.count("db-restart"), 0u) << row.warnings;
  EXPECT_EQ(row.rules.count("db-scale"), 0u) << row.warnings;
  // The recorded series went from 46 to 32 tps: drift, as the lab judged.
  EXPECT_EQ(row.rules.count("drift"), 1u) << row.warnings;

  RecordedDbCell stale = RecordedDbCellOf("none");
  stale.info.restarted_after_load = false;  // db_restarted 1 -> 0
  row = RowOfReplay(ReplayDbCell("none.json", text, none, stale));
  EXPECT_EQ(row.rules.count("db-restart"), 1u) << row.warnings;
  EXPECT_EQ(row.valid, "no");
  EXPECT_NE(row.warnings.find("the server was not restarted after the load"),
            std::string::npos)
      << row.warnings;

  std::string two = text;
  EditText(&two, "\"scale\": 4", "\"scale\": 2");
  row = RowOfReplay(
      ReplayDbCell("none.json", two, none, RecordedDbCellOf("none")));
  EXPECT_EQ(row.rules.count("db-scale"), 1u) << row.warnings;
  EXPECT_EQ(row.valid, "no");
  EXPECT_NE(row.warnings.find("4 clients on scale 2"), std::string::npos)
      << row.warnings;
}

// Pitfall X5. Flagged: the lab's database (pg_database_size 70540647 B,
// 67.3 MiB) over 16 MiB of shared_buffers does not fit in the buffers, but
// every cell's device read 1.05 to 2.53 MiB of it (bcache0's sectors read
// over the window): db-in-memory in all five, as recorded, db-buffers in
// none. Valid: the none cell with bcache0's end stat line edited to have
// read the whole database more (145790 -> 283566 sectors). Invalid, too:
// shared_buffers edited to 128 MiB (db-buffers, also through `tierbench
// compare`).
TEST(ValidityPitfallsTest, RowX5DatabaseInBuffersOrRam) {
  const DbWorkload w = LabWorkload(WorkloadText());
  const CsvDocument runs = LabCsv("pgbench-runs.csv");
  for (const char* mode : kModes) {
    SCOPED_TRACE(mode);
    const nlohmann::json rec = LabCell(kPg, mode, kWorkload);
    const RecordedDbCell c = RecordedDbCellOf(mode);
    EXPECT_EQ(c.info.db_size_bytes, 70540647);
    EXPECT_EQ(c.info.shared_buffers_bytes, 16 << 20);
    const DbEvidence d = RecordedDbEvidence(w, c, rec);
    const size_t row = RowOf(runs, mode, kWorkload);
    EXPECT_EQ(d.device_read_bytes,
              runs.Number(row, "target_read_bytes").value_or(-2));
    EXPECT_LT(d.device_read_bytes, 3 << 20);
    const std::vector<Finding> f = DbFindings(d);
    EXPECT_EQ(RuleIds(f), std::set<std::string>{"db-in-memory"})
        << ValidityReasons(f);
    // The lab's text for it, and its finding_rules (whatever else they
    // hold: drift, and no cpu-bound yet, which main re-judges).
    EXPECT_NE(runs.Get(row, "warnings").find(TextOf(f, "db-in-memory")),
              std::string::npos)
        << TextOf(f, "db-in-memory");
    EXPECT_NE(runs.Get(row, "finding_rules").find("db-in-memory:caution"),
              std::string::npos);
    EXPECT_EQ(runs.Get(row, "finding_rules").find("db-buffers"),
              std::string::npos);
  }
  nlohmann::json none = LabCell(kPg, "none", kWorkload);
  const RecordedDbCell c = RecordedDbCellOf("none");
  EXPECT_NE(TextOf(DbFindings(RecordedDbEvidence(w, c, none)), "db-in-memory")
                .find("the device read 2.36MiB of a 67.3MiB database"),
            std::string::npos);

  nlohmann::json read_all = none;
  EditRecord(&read_all, "stat:bcache0", 1, "     718        0   145790",
             "     718        0   283566");
  std::vector<Finding> f = DbFindings(RecordedDbEvidence(w, c, read_all));
  EXPECT_TRUE(f.empty()) << ValidityReasons(f);

  RecordedDbCell big = c;
  big.info.shared_buffers_bytes = 128 << 20;  // 16777216 -> 134217728
  f = DbFindings(RecordedDbEvidence(w, big, none));
  ASSERT_TRUE(Fires(f, "db-buffers")) << ValidityReasons(f);
  EXPECT_EQ(ValidityOf(f), Validity::kInvalid);
  EXPECT_NE(TextOf(f, "db-buffers").find("fits in shared_buffers (128MiB)"),
            std::string::npos)
      << TextOf(f, "db-buffers");
  DbReplayedRow row =
      RowOfReplay(ReplayDbCell("none.json", WorkloadText(), none, big));
  EXPECT_EQ(row.rules.count("db-buffers"), 1u) << row.warnings;
  EXPECT_EQ(row.valid, "no");
  row = RowOfReplay(ReplayDbCell("none.json", WorkloadText(), none, c));
  EXPECT_EQ(row.rules.count("db-buffers"), 0u) << row.warnings;
}

// Pitfall 21. Prevented: the driver measures every transaction into a
// histogram (pgbench derives its "latency average" from clients x
// duration / transactions). The lab's five cells: transactions (unit tx)
// with a measured mean, stddev, p50 and p99 (lat_*; slat, clat and
// sched_lat empty), min <= p50 <= p99 <= max, the p99 the compare printed
// (pgbench-compare.log) the histogram's, and pgbench-series.csv's measured
// seconds holding every transaction but those the clients still had in
// flight at the window's end (ios - clients <= sum <= ios). Invalid:
// transactions whose mean is not the derived one, as when clients spend
// time outside transactions: the none cell's 577 transactions of 4 clients
// in 15.068 s (pgbench would print 104.458 ms), each measured at that
// cell's p50 (91.750 ms; not recorded per transaction: made up from the
// recorded p50). The summary and runs.csv's columns say 91.750 ms.
TEST(ValidityPitfallsTest, Row21DerivedPgbenchLatency) {
  const CsvDocument runs = LabCsv("pgbench-runs.csv");
  const std::string log = LabText("pgbench-compare.log");
  const int clients = LabWorkload(WorkloadText()).clients;
  for (const char* mode : kModes) {
    SCOPED_TRACE(mode);
    const size_t row = RowOf(runs, mode, kWorkload);
    ASSERT_LT(row, runs.row_count());
    EXPECT_EQ(runs.Get(row, "unit"), "tx");
    for (const char* col : {"lat_mean_us", "lat_stddev_us", "lat_min_us",
                            "lat_max_us", "lat_p50_us", "lat_p99_us"}) {
      EXPECT_FALSE(runs.Get(row, col).empty()) << col;
    }
    for (const char* col :
         {"slat_mean_us", "clat_mean_us", "clat_p99_us", "sched_lat_p99_us"}) {
      EXPECT_EQ(runs.Get(row, col), "") << col;
    }
    const double p50 = runs.Number(row, "lat_p50_us").value_or(-1);
    const double p99 = runs.Number(row, "lat_p99_us").value_or(-1);
    EXPECT_LE(runs.Number(row, "lat_min_us").value_or(1e18), p50);
    EXPECT_LE(p50, p99);
    EXPECT_LE(p99, runs.Number(row, "lat_max_us").value_or(-1));
    char printed[96];
    std::snprintf(printed, sizeof printed, "write %.0f tps p99 %.0fus",
                  runs.Number(row, "iops").value_or(-1), p99);
    EXPECT_NE(log.find(printed), std::string::npos) << printed;
    const RecordedDbCell c = RecordedDbCellOf(mode);
    const DirectionStats& d = c.job.dir[static_cast<int>(IoDir::kWrite)];
    uint64_t in_seconds = 0;  // the 15 whole seconds of the window
    for (size_t s = 0; s < d.series.points().size() && s < 15; ++s) {
      in_seconds += d.series.points()[s].ios;
    }
    EXPECT_LE(in_seconds, d.ios);
    EXPECT_GE(in_seconds + static_cast<uint64_t>(clients), d.ios);
  }

  const size_t row = RowOf(runs, "none", kWorkload);
  const RecordedDbCell none = RecordedDbCellOf("none");
  const uint64_t p50_ns = static_cast<uint64_t>(
      runs.Number(row, "lat_p50_us").value_or(0) * 1000 + 0.5);
  TpcbDriverConfig cfg;
  cfg.scale = 4;
  cfg.clients = clients;
  cfg.duration_ns = 15000000000ull;
  TpcbRunResult r;
  r.job = none.job;
  r.transactions = none.job.dir[1].ios;
  r.bench_ns = none.job.runtime_ns;
  DirectionStats& d = r.job.dir[static_cast<int>(IoDir::kWrite)];
  for (uint64_t i = 0; i < r.transactions; ++i) {
    d.lat.Add(static_cast<double>(p50_ns));
    d.lat_hist.Add(p50_ns);
  }
  ASSERT_EQ(r.transactions, 577u);
  const double derived_ms = 1e3 * clients * static_cast<double>(r.bench_ns) /
                            1e9 / static_cast<double>(r.transactions);
  EXPECT_NEAR(derived_ms, 104.458, 0.001);
  std::ostringstream summary;
  WritePgbenchSummary(cfg, r, summary);
  EXPECT_NE(summary.str().find("latency average = 91.750 ms\n"),
            std::string::npos)
      << summary.str();
  EXPECT_EQ(summary.str().find("104.4"), std::string::npos) << summary.str();
  EXPECT_NE(summary.str().find("latency stddev = 0.000 ms\n"),
            std::string::npos)
      << summary.str();
  const std::vector<std::string> names = ResultColumnNames();
  const std::vector<std::string> values =
      ResultColumnValues(r.job, IoDir::kWrite);
  ASSERT_EQ(names.size(), values.size());
  std::map<std::string, std::string> cols;
  for (size_t i = 0; i < names.size(); ++i) cols[names[i]] = values[i];
  EXPECT_EQ(cols["lat_mean_us"], "91750.400");
  EXPECT_NEAR(std::stod(cols["lat_p99_us"]), 91750.4, 91750.4 * 0.008);
  EXPECT_EQ(cols["clat_mean_us"], "");
}

}  // namespace
}  // namespace tierbench
