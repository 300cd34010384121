// The read hit curves of a compare's known streams
// (orchestrate/stream_curves.h).
#include "orchestrate/stream_curves.h"

#include <map>
#include <string>
#include <utility>

#include "util/log.h"
#include "util/units.h"

namespace tierbench {

std::shared_ptr<const IoLog> KnownStream(const PreparedWorkload& w) {
  if (w.is_db || !w.prepared || w.prepared->jobs().size() != 1) return nullptr;
  const PreparedJobs::Job& job = w.prepared->jobs().front();
  if (!job.replay || job.spec.numjobs != 1 || job.spec.loops != 1) {
    return nullptr;
  }
  return job.replay;
}

std::vector<ReadHitCurve> StreamCurves(const CompareOptions& o,
                                       const CompareSetup& setup) {
  std::vector<ReadHitCurve> curves;
  if (o.cache_state == CacheState::kAsIs) return curves;
  const bool warm = o.cache_state != CacheState::kCold;
  for (size_t wi = 0; wi < setup.workloads.size(); ++wi) {
    const PreparedWorkload& w = setup.workloads[wi];
    const std::shared_ptr<const IoLog> log = KnownStream(w);
    if (!log) continue;
    // block size -> the (cache_bytes, mode) of the modes that run w.
    std::map<uint32_t, std::vector<std::pair<uint64_t, std::string>>> sizes;
    for (size_t mi = 0; mi < setup.modes.size(); ++mi) {
      const ModeSpec& m = setup.modes[mi];
      if (m.is_raw() || !setup.runs.at(mi).at(wi)) continue;
      const CompareStack* stack = setup.StackFor(m);
      if (!stack || stack->info.cache_bytes <= 0) continue;
      const uint32_t block =
          stack->info.cache_block_bytes > 0
              ? static_cast<uint32_t>(stack->info.cache_block_bytes)
              : 4096;
      sizes[block].push_back(
          {static_cast<uint64_t>(stack->info.cache_bytes), m.name});
    }
    for (const auto& [block, at] : sizes) {
      std::vector<uint64_t> bytes;
      for (const auto& [b, mode] : at) bytes.push_back(b);
      LogNotice("workload " + w.name + ": computing the LRU and OPT read hit " +
                "curves of " + log->path + " (" + (warm ? "warm" : "cold") +
                ", " + FormatBytes(block) + " blocks)");
      ReadHitCurve curve = ComputeReadHitCurve(*log, block, warm, bytes);
      if (curve.read_accesses == 0) break;  // no reads at any block size
      curve.workload = w.name;
      for (ReadHitPoint& p : curve.points) {
        for (const auto& [b, mode] : at) {
          if (b == p.cache_bytes) p.modes.push_back(mode);
        }
      }
      curves.push_back(std::move(curve));
    }
  }
  return curves;
}

}  // namespace tierbench
