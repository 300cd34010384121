// Comparison math of `tierbench compare`: the measured rows of every cell
// (one per mode x workload x repetition x job x direction) are grouped per
// mode x workload x job x direction and summarised over the repetitions
// (median, spread), then set against the raw baselines of the same workload,
// job and direction:
//   change vs HDD %  = (x - hdd) / hdd * 100
//   change vs SSD %  = (x - ssd) / ssd * 100
//   position         = (x - hdd) / (ssd - hdd)   (0 = HDD, 1 = SSD)
// for the throughput (IOPS, or tps for DB workloads) and the same with the
// p99 latency (position 1 = as fast as the SSD's p99). A delta is flagged as
// noise when the [min, max] ranges over the repetitions of the two sides
// overlap (needs >= 2 repetitions on both sides; else unknown).
// With >= 3 repetitions on both sides each change also gets its 95 %
// confidence interval (Welch's t on the log values, stats/confidence.h),
// and `significant_vs_*` says whether the IOPS interval excludes 0. The
// baseline's own row gets no interval against itself.
// Validity: a row carries the distinct findings of its repetitions; it is
// invalid when any repetition was (its median includes that figure).
// WorkloadFindings adds the run-level rule (validity/run_rules.h: a
// workload whose raw SSD is not clearly faster than its raw HDD cannot tell
// caches apart) to every row of such a workload.
//
// Thread-safety: pure functions.
#ifndef TIERBENCH_RECORD_COMPARISON_H_
#define TIERBENCH_RECORD_COMPARISON_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record/comparison_row.h"
#include "stats/confidence.h"
#include "util/finding.h"

namespace tierbench {

// The part of one runs.csv row the comparison needs.
struct MeasuredRow {
  std::string mode;       // mode name ("hdd", "writeback", ...)
  std::string layer;      // "raw", "bcache", "dm-cache", ...
  std::string baseline;   // "hdd" / "ssd" for raw modes, "" for bcache modes
  std::string workload;   // workload name
  std::string job;        // job (or group) name
  std::string direction;  // "read" / "write"
  std::string unit;       // "io" or "tx"
  int repetition = 1;
  double iops = 0;  // IOPS, or tps for unit "tx"
  // IOs / (runtime + time to clean); empty when unknown (drain timed out).
  std::optional<double> iops_sustained;
  double bw_mib_s = 0;     // 0 for "tx"
  double lat_mean_us = 0;  // clat mean ("io") or transaction latency ("tx")
  double lat_p99_us = 0;   // clat p99 ("io") or transaction latency p99
  // The cell's SSD wear (record/ssd_wear.h), the same in each of its rows;
  // empty figures for raw and failed cells.
  SsdWear wear;
  std::vector<Finding> findings;  // the cell's
};

// Summarises `values` (any order).
Spread Summarize(const std::vector<double>& values);

// (x - base) / base * 100; empty when base is 0.
std::optional<double> ChangePct(double x, double base);

// (x - hdd) / (ssd - hdd); empty when ssd == hdd.
std::optional<double> Position(double x, double hdd, double ssd);

// True when the [min, max] ranges overlap; empty when either n < 2.
std::optional<bool> WithinNoise(const Spread& a, const Spread& b);

// Groups and compares; output in first-seen order of the groups. The
// run-level findings (WorkloadFindings) are already added to the rows.
std::vector<ComparisonRow> Compare(const std::vector<MeasuredRow>& rows);

// The run-level findings per workload, from the raw baselines of `rows`
// (validity/run_rules.h); workloads without any are absent.
std::map<std::string, std::vector<Finding>> WorkloadFindings(
    const std::vector<ComparisonRow>& rows);

struct CellRecord;  // record/cell_record.h

// The comparison inputs of a finished cell (empty for a failed one): one
// per job without error and reported direction. `ssd_tbw_bytes`: the
// SSD's rating for the wear's life projection (empty: none).
std::vector<MeasuredRow> MeasuredRowsOf(
    const CellRecord& rec, std::optional<double> ssd_tbw_bytes = {});

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_COMPARISON_H_
