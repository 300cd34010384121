// MrcChart: the LRU miss-ratio curve of `tierbench trace-stats`
// (trace/trace_profile.h) as a standalone SVG (present/charts/svg_writer.h,
// data-chart "mrc"): miss ratio per block access (0..1, linear) against the
// cache size (log2 axis, byte labels), the LRU curve as a line (class
// "mrc-lru") and Belady's OPT at the requested sizes as dots (class
// "mrc-opt", their miss ratio 1 - OPT hit ratio), each with a tooltip.
// Pure; thread-safe.
#ifndef TIERBENCH_PRESENT_CHARTS_MRC_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_MRC_CHART_H_

#include <string>

#include "trace/trace_profile.h"

namespace tierbench {

std::string MrcChartSvg(const TraceProfile& profile);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_MRC_CHART_H_
