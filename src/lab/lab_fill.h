// LabFill: `tierbench lab --scenario fill` - the writeback cliff. How long
// does a writeback cache take 4k random writes at a steady rate before its
// dirty data hits the layer's limit, how far do the IOPS and the latency
// fall there, and how long until it has room again?
//
// Run() boots one guest (scripts/lab/init with lab.conf SCENARIO=fill,
// which runs scripts/lab/fill from the input tar with in/fill.fio, the job
// of lab/fill_record.h's FillJobText). Per layer the guest builds the stack
// in writeback with the layer's own limits, samples its dirty data every
// 0.5 s while the job writes through it and `drain_s` seconds after, and
// keeps the job's per-second write IOPS and p99 (its JSON report). The
// rows and the cliff (lab/fill_record.h) go to the reporters (report/
// fill_reporter.h: fill.csv, fill-series.csv, charts/fill.svg, a console
// line per layer).
//
// Undilated, like the power cut and the fault: the SSD side is paced by the
// job's rate (`rate_iops`), the HDD by the lab's --hdd-iops. Each layer's
// cache must hold at least kFillMinCacheBytes; by default the lab's SSD is
// sized for exactly that (LabSsdBytesForCache).
//
// Errors: ConfigError (a cache under 64 MiB, a bad layer, the run directory
// exists), SysError (QEMU or the guest failed, or left results that do not
// parse; the messages name the console log). InterruptedError on SIGINT.
// Thread-safety: one LabFill per thread.
#ifndef TIERBENCH_LAB_LAB_FILL_H_
#define TIERBENCH_LAB_LAB_FILL_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lab/lab_runner.h"
#include "report/fill_reporter.h"
#include "util/status.h"

namespace tierbench {

inline constexpr uint64_t kFillMinCacheBytes = 64ull << 20;

struct FillOptions {
  uint64_t runtime_s = 15;  // the job's
  uint64_t rate_iops = 2000;
  uint64_t drain_s = 20;  // watched after the job
};

// The layers --scenario fill runs by default: bcache, dm-cache,
// dm-writecache.
std::vector<std::string> FillLayers();

// The cache each layer gets from an SSD of `ssd_bytes` (lab/lab_layers.h);
// InvalidArgument when that is under kFillMinCacheBytes (naming both and
// the --ssd-size that gives 64 MiB), when a layer has no fill scenario,
// when `fill`'s rate reaches the lowest limit (bcache's 70 %) in under 4 s
// (the level the cliff is judged against is the median of seconds 1-3),
// or when its runtime ends less than 4 s after the whole cache is written
// at that rate (the fall must last 3 s to count).
Status CheckFill(uint64_t ssd_bytes, const std::vector<std::string>& layers,
                 const FillOptions& fill, uint64_t* cache_bytes);

class LabFill {
 public:
  LabFill(LabOptions options, FillOptions fill, std::ostream& console);
  FillRun Run();

 private:
  LabOptions options_;
  FillOptions fill_;
  std::ostream& console_;
};

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_FILL_H_
