// The lab's scenarios other than the compare: --power-cut (lab/
// lab_power_cut.h), --fault (lab/lab_fault.h) and --scenario fill (lab/
// lab_fill.h), from `tierbench lab`'s parsed options. Each refuses the
// compare's options and the other scenarios' (ConfigError, one line naming
// the option and the fix, before anything is built).
#ifndef TIERBENCH_CLI_LAB_SCENARIOS_H_
#define TIERBENCH_CLI_LAB_SCENARIOS_H_

#include "cli/lab_args.h"

namespace tierbench {

// Runs the scenario `a` asks for and returns true; false when it asks for
// none (the compare). Throws what the scenario throws.
bool RunLabScenario(LabArgs& a);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_LAB_SCENARIOS_H_
