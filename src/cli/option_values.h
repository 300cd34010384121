// Conversion of the size, duration and lab values of command-line options
// (run, compare, lab), shared so that every command accepts the same forms
// and reports a bad value the same way.
//
// Errors: ConfigError "Bad value for <option>. Value: <text>; Problem: ...;
// Fix: ..." (one line). Pure functions, thread-safe.
#ifndef TIERBENCH_CLI_OPTION_VALUES_H_
#define TIERBENCH_CLI_OPTION_VALUES_H_

#include <cstdint>
#include <map>
#include <string>

#include "lab/lab_accel.h"
#include "lab/lab_dilation.h"
#include "workload/job_spec.h"

namespace tierbench {

// "30" (seconds), "30s", "500ms", "2m" -> nanoseconds.
uint64_t DurationOption(const std::string& option, const std::string& text);

// "4g", "512m", "1073741824" -> bytes.
uint64_t SizeOption(const std::string& option, const std::string& text);

// A size as SizeOption, or a percentage in (0%, 100%] ("20%") of the
// device; the result has set = true.
SizeSpec SizeSpecOption(const std::string& option, const std::string& text);

// "KEY=VALUE" of --label into *labels. The key is 1-64 of [A-Za-z0-9._-],
// the value 0-200 printable characters; a key given twice is refused.
void LabelOption(const std::string& text,
                 std::map<std::string, std::string>* labels);

// lab --dilation: "auto", "full", "off" or a factor in [1, 1000]
// (lab/lab_dilation.h).
LabDilation LabDilationOption(const std::string& text);

// lab --accel auto|kvm|tcg; `kvm_flag` (--kvm) means kvm and is refused
// together with --accel tcg.
LabAccel LabAccelOption(const std::string& text, bool kvm_flag);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_OPTION_VALUES_H_
