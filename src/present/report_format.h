// Number and list formatting shared by the report's charts, HTML, verdict
// and summary.md, so a figure reads the same everywhere. Every function rounds
// half away from zero with printf and groups thousands with ",". Thread-safe.
#ifndef TIERBENCH_PRESENT_REPORT_FORMAT_H_
#define TIERBENCH_PRESENT_REPORT_FORMAT_H_

#include <string>
#include <vector>

namespace tierbench {

// `v` with `decimals` digits after the point and "," between thousands.
std::string GroupedNumber(double v, int decimals);
// IOPS or tps: no decimals from 100 up, one from 10, two below.
std::string FormatRate(double v);
// A latency given in us as "870 us", "9.4 ms" or "1.25 s" (us below 1000).
std::string FormatLatencyUs(double us);
// Seconds: no decimals from 10 s, one below ("51 s", "2.5 s").
std::string FormatSeconds(double s);
// A percentage: no decimals from 1, one below ("4%", "0.4%").
std::string FormatPct(double pct);
// A ratio given as a change in percent: 1 + pct / 100 as "28x" or "1.4x".
std::string FormatTimes(double change_pct);
// Items as a sentence lists them: "a", "a and b", "a, b and c".
std::string JoinList(const std::vector<std::string>& items);
// An id for HTML and file names: [a-z0-9-] only ("randread-zipf@25%" ->
// "randread-zipf-25").
std::string Slug(const std::string& text);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_REPORT_FORMAT_H_
