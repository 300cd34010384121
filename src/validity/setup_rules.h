// The validity rules of a compare's setup: what holds for every cell of a
// stack, of a raw baseline or of the whole run, judged once before the
// first cell. Rule ids:
//   baseline-write-cache (invalid, on the stack's cells) the raw HDD's disk
//                  and the stack's origin disk (or the raw SSD's and the
//                  cache's) differ in their volatile write cache ("write
//                  back" against "write through"): flushes cost one side
//                  nothing and the other a media write, so ratios between
//                  them are not the cache's doing;
//   baseline-queue (caution, on the stack's cells) they differ in IO
//                  scheduler, writeback throttling (wbt_lat_usec) or
//                  read-ahead: part of a difference may be the queue's;
//   loop-buffered  (invalid) a loop device under the cell does not use
//                  direct IO (loop/dio 0): its IO lands in the host's page
//                  cache, so the cell measured RAM (fix: losetup
//                  --direct-io=on);
//   lab-page-cache (caution, every cell) the lab's emulated disk image was
//                  opened with the host's page cache (cache=writeback,
//                  because its directory refused O_DIRECT): the throttle
//                  still sets the disk's speed, but flushes and reads can be
//                  served by the host's RAM;
//   capacity       (caution, every cache cell) the stacks' caches differ in
//                  size by more than the tolerance: cross-layer comparisons
//                  are not at equal capacity.
// Disks are compared as their queues (cache/queue_settings.h): a raw
// baseline and a member on the same disk share one queue and never differ.
// Thread-safety: pure functions.
#ifndef TIERBENCH_VALIDITY_SETUP_RULES_H_
#define TIERBENCH_VALIDITY_SETUP_RULES_H_

#include <map>
#include <string>
#include <vector>

#include "cache/queue_settings.h"
#include "util/finding.h"

namespace tierbench {

// `raw` is the raw baseline's queue ("raw HDD"), `member` the stack
// member's on the same side ("origin of /dev/bcache0").
std::vector<Finding> BaselineFindings(const QueueSettings& raw,
                                      const std::string& raw_role,
                                      const QueueSettings& member,
                                      const std::string& member_role);

// `dio` is the content of sys/block/<device>/loop/dio ("0" or "1").
std::vector<Finding> LoopFindings(const std::string& device,
                                  const std::string& dio);

// The compare's labels (compare --label; the lab sets lab.hdd_cache and
// lab.ssd_cache to "none" or "writeback").
std::vector<Finding> LabFindings(
    const std::map<std::string, std::string>& labels);

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_SETUP_RULES_H_
