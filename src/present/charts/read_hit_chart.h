// ReadHitChart: a workload's measured read hit ratios against the LRU and
// OPT read hit curves of its stream (present/hit_bound.h, mrc.csv), as a
// standalone SVG (present/charts/svg_writer.h, data-chart "read-hits"):
// read hit % per read block access (0..100, linear) against the cache size
// (log2 axis, byte labels); per curve (one per cache block size) LRU as a
// solid line (class "mrc-lru") and OPT as a dashed one (class "mrc-opt"),
// named with state and block size in the legend; each cache cell with a
// measured figure as a dot in its curve's colour at its cache_bytes (class
// "mrc-cell"), labelled
// with its name and figure (class "mrc-cell-label"), a tooltip giving LRU
// and OPT at that size. Pure; thread-safe.
#ifndef TIERBENCH_PRESENT_CHARTS_READ_HIT_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_READ_HIT_CHART_H_

#include <string>
#include <vector>

#include "present/hit_bound.h"
#include "trace/read_hit_curve.h"

namespace tierbench {

std::string ReadHitChartSvg(const std::string& workload,
                            const std::vector<const ReadHitCurve*>& curves,
                            const std::vector<HitBoundCell>& cells);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_READ_HIT_CHART_H_
