// What the fault guest (scripts/lab/fault) leaves behind, turned into
// FaultLayer rows (report/fault_reporter.h). Pure functions; thread-safe.
//
// The guest writes lab/fault.txt, one "<layer>.<key>=<value>" line per fact
// (lab/power_cut_record.h's format; "all.mib" gives the region size), the
// JSON values being `tierbench check-blocks` objects (workload/
// block_check.h) or {"error": "..."} when it could not run:
//   device, fault, fail_devices    the stack and what the fault switched
//                                  (cache-unplug: the disk removed, vdX)
//   unplug_ms                      cache-unplug: from the request to the
//                                  disk gone (not read into the rows)
//   write1, write2                 the generations (write objects)
//   dirty, state (bcache) | table, status (dm layers)   before the fault
//   io_pass<K>                     the writer's passes (write objects)
//   io_passes_before               how many ended before the fault began
//   writer                         "done" or "hung"
//   state_after, stack_read        after the fault ("gone": no device;
//                                  "hung": the read did not return)
//   kernel                         the kernel log's first lines, '|'-joined
//   recovery, recovery_ms, recovered_state, recovered_read, usable_after_ms
//   origin_read                    the bare origin, the stack down
#ifndef TIERBENCH_LAB_FAULT_RECORD_H_
#define TIERBENCH_LAB_FAULT_RECORD_H_

#include <cstdint>
#include <string>

#include "lab/power_cut_record.h"
#include "report/fault_reporter.h"
#include "util/status.h"

namespace tierbench {

// The checked region's block size (check-blocks --block-size 32k).
inline constexpr uint64_t kFaultBlockBytes = 32ull << 10;

// One read object into *out; "gone" ("hung") gives every one of `blocks`
// lost, and gone (hung) set. InvalidArgument naming `what` for text that is
// neither, for an
// {"error"} object and for counts that do not add up to `blocks`.
Status ParseFaultRead(const std::string& what, const std::string& text,
                      uint64_t blocks, FaultBlocks* out);

// The row of `layer` from the record. InvalidArgument naming the missing
// or malformed key (a setup that did not write generation 2 whole is one).
Status FaultLayerFromGuest(const std::string& layer,
                           const PowerCutRecord& record, FaultLayer* out);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_FAULT_RECORD_H_
