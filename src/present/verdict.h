// Verdict: the first thing a reader of a compare gets (summary.md,
// report.html and the end of compare on the console): per workload, in
// plain sentences as a paper's conclusions put them (seed 000's model),
//   - the cache modes ranked by their median throughput (IOPS, or tps),
//     the best and every mode within noise of it named together, the rest
//     with the 95 % interval of their difference to the best;
//   - each ranked mode's place between the raw HDD and the raw SSD ("9.8x
//     the HDD, 41 % of the SSD"), or "like the HDD" where the interval
//     against the HDD includes no change (with its figure and "the rate
//     swung too widely" when that figure is over 1.5x off the HDD's); a figure
//     the CPU set (a cpu-bound caution) is called a floor
//     ("at least 3.1x the HDD");
//   - the modes below the best that are all within noise of each other
//     said so in one sentence (seed 001: writethrough, writearound and
//     none alike);
//   - the state the figures were measured in (steady state, warm, cold);
//   - the invalid cells, named with their reason and not ranked; a
//     workload that cannot tell caches apart (validity/run_rules.h) ranks
//     nothing and says why;
//   - for a workload that replays a trace at its recorded times (open
//     loop), whose IOPS follow the trace, its valid modes by median latency
//     per direction (present/replay_verdict.h), after its throughput line;
//   - after the throughput lines, per workload, what each valid cache mode
//     cost the SSD (present/wear_verdict.h: SSD bytes written per byte the
//     application moved), only with valid cells;
//   - per cache cell of a workload whose stream is known (mrc.csv), its
//     measured read hit ratio beside LRU's and OPT's at its cache size
//     (present/hit_bound.h), one line each after the workload's;
//   - the valid modes whose rate drifted within the run (a drift caution)
//     named "not steady" with the first and last third's rates per second,
//     not ranked (the mean of a transient, whose per-second spread is the
//     drift, not noise); no ratio against a baseline that drifted.
// Rules every sentence keeps (tested): no ratio, position or difference of
// a cell whose comparison.csv `valid` is "no" or that drifted; no
// difference that the interval does not support ("within noise" instead);
// no ratio against a baseline that is itself invalid. Cells of unknown
// validity are ranked and marked.
//
// Throughput of a workload with several series (jobs or directions) is
// their sum per mode. Intervals: with >= 3 repetitions on both sides,
// Welch's t on the log values of the repetitions (stats/confidence.h);
// with fewer, the same over batch means of the first repetition's
// per-second IOPS (series.csv, kBatches batches of the measured window),
// which covers the variation within a run, not between runs (a line says
// so). Without either, no difference is claimed.
//
// A run folder of comparison.csv schema 4 or older (never judged) gets one
// line saying it cannot be given a verdict. Pure over its inputs;
// thread-safe.
#ifndef TIERBENCH_PRESENT_VERDICT_H_
#define TIERBENCH_PRESENT_VERDICT_H_

#include <optional>
#include <string>
#include <vector>

#include "present/run_folder.h"
#include "present/series_file.h"

namespace tierbench {

inline constexpr int kVerdictBatches = 5;

struct VerdictLine {
  std::string workload;  // "" for lines about the whole run
  std::string text;      // plain text, one paragraph
  // The modes whose figures (ratios, positions, differences) the line
  // states; an invalid cell's mode is never here, only in `not_ranked`.
  std::vector<std::string> quoted_modes;
  std::vector<std::string> not_ranked;  // invalid modes, named with reason
};

struct Verdict {
  std::vector<VerdictLine> lines;
};

// `series` may be null (no series.csv: intervals need repetitions).
Verdict BuildVerdict(const RunFolder& run, const SeriesFile* series);

// The short reason of an invalid_reasons cell ("rule: text; ..."): the first
// rule's ShortReason (validity/rule_table.h), else its text. With the
// cell's cache_state: cold-reads on a cell warmed until steady is "cache
// still filling", not a cold cache.
std::string VerdictReason(const std::string& invalid_reasons);
std::string VerdictReason(const std::string& invalid_reasons,
                          const std::string& cache_state);

// "## Verdict" and one bullet per line, the workload's name in bold.
std::string VerdictMarkdown(const Verdict& v);
// "Verdict:" and one indented paragraph per line (the console).
std::string VerdictText(const Verdict& v);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_VERDICT_H_
