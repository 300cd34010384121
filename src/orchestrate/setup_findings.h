// AddSetupFindings: the validity rules of a compare's setup
// (validity/setup_rules.h), judged once after PrepareCompare validated
// everything and before the first cell: the raw baselines' disks against
// the stacks' origin and cache disks, loop devices without direct IO, the
// lab's disk images, unequal cache capacities. The findings go to
// CompareSetup::hdd_findings / ssd_findings (cells on the raw HDD / SSD),
// CompareStack::findings (every cell of that stack) and run_findings
// (every cell); CellRunner adds them to each cell's own.
//
// Reads sysfs through setup->os (the queue settings, loop/dio, a stack's
// slaves); never throws: what cannot be read is left unjudged (the cell's
// own rules still say what they can).
#ifndef TIERBENCH_ORCHESTRATE_SETUP_FINDINGS_H_
#define TIERBENCH_ORCHESTRATE_SETUP_FINDINGS_H_

#include <string>
#include <vector>

#include "record/compare_options.h"
#include "util/sysfs.h"

namespace tierbench {

struct CompareSetup;

void AddSetupFindings(const CompareOptions& options, CompareSetup* setup);

// The whole disks under block device `name`, following sys/class/block/
// <name>/slaves down to devices without slaves, each mapped to its whole
// disk (a partition's parent). `name` itself when it has no slaves.
std::vector<std::string> UnderlyingDisks(const Sysfs& os,
                                         const std::string& name);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_SETUP_FINDINGS_H_
