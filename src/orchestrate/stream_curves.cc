// The read hit curves of a compare's known streams
// (orchestrate/stream_curves.h).
#include "orchestrate/stream_curves.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "util/log.h"
#include "util/units.h"
#include "workload/job_stream.h"

namespace tierbench {

namespace {

// A replay job whose cells replay its trace whole and as recorded; the
// clause why not otherwise.
std::string ReplayUnknownWhy(const PreparedJobs::Job& job) {
  if (job.spec.numjobs != 1 || job.spec.loops != 1) {
    return "it replays its trace more than once (numjobs=, loops=)";
  }
  // Offsets folded, scaled or aligned per target: the stream the device
  // sees is not the trace's.
  if (job.spec.replay_wrap || job.spec.replay_scale > 1 ||
      job.spec.replay_align > 1) {
    return "its offsets are folded, scaled or aligned onto the target";
  }
  // A runtime shorter than twice the trace's span (at its time scale) may
  // cut the replay: the curve of the whole trace would not bound the
  // prefix the cell replayed.
  if (job.spec.runtime_ns > 0) {
    if (job.spec.replay_no_stall) {
      return "its runtime= may cut a replay whose pace is the device's";
    }
    uint64_t last_us = 0;
    for (const IoLogEntry& e : job.replay->entries) {
      last_us = std::max(last_us, e.time_us);
    }
    const double span_ns = static_cast<double>(last_us) * 1000.0 * 100.0 /
                           std::max<uint32_t>(1, job.spec.replay_time_scale);
    if (static_cast<double>(job.spec.runtime_ns) < 2.0 * span_ns) {
      return "its runtime= is shorter than twice the trace's span";
    }
  }
  return "";
}

// The fio workload's one job, or null (several jobs; DB workloads and a
// capture's replay before its capture have none).
const PreparedJobs::Job* OnlyJob(const PreparedWorkload& w) {
  if (w.is_db || !w.prepared || w.prepared->jobs().size() != 1) {
    return nullptr;
  }
  return &w.prepared->jobs().front();
}

}  // namespace

std::string StreamUnknownWhy(const PreparedWorkload& w) {
  const PreparedJobs::Job* job = OnlyJob(w);
  if (!job) return "it has several jobs";
  if (job->replay) return ReplayUnknownWhy(*job);
  if (!job->spec.size.set || job->spec.size.is_percent ||
      job->spec.offset.is_percent) {
    return "its region depends on each target's size";
  }
  return JobStreamUnknownWhy(job->spec);
}

std::shared_ptr<const IoLog> KnownStream(const PreparedWorkload& w,
                                         std::string* why_not) {
  std::string why = StreamUnknownWhy(w);
  std::shared_ptr<const IoLog> log;
  if (why.empty()) {
    const PreparedJobs::Job& job = *OnlyJob(w);
    if (job.replay) {
      log = job.replay;
    } else {
      // Compare made the region absolute (prepare_compare.h): the same
      // stream on every target.
      const uint64_t end = job.spec.offset.Resolve(0) + job.spec.size.bytes;
      log = JobStream(job.spec, end,
                      "job " + job.spec.name + "'s generated stream", &why);
    }
  }
  if (why_not) *why_not = why;
  return log;
}

std::vector<ReadHitCurve> StreamCurvesOf(const CompareSetup& setup, size_t wi,
                                         const PreparedWorkload& w) {
  std::vector<ReadHitCurve> curves;
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
  if (sizes.empty() || w.is_db || !w.prepared) return curves;
  std::string why_not;
  const std::shared_ptr<const IoLog> log = KnownStream(w, &why_not);
  if (!log) {
    LogNotice("workload " + w.name +
              ": no LRU and OPT read hit curves (mrc.csv): its block stream "
              "is not known before the run: " +
              why_not);
    return curves;
  }
  for (const auto& [block, at] : sizes) {
    std::vector<uint64_t> bytes;
    for (const auto& [b, mode] : at) bytes.push_back(b);
    LogNotice("workload " + w.name + ": computing the LRU and OPT read hit " +
              "curves of " + log->path + " (cold, " + FormatBytes(block) +
              " blocks)");
    ReadHitCurve curve =
        ComputeReadHitCurve(*log, block, /*warm=*/false, bytes);
    if (curve.read_accesses == 0) break;  // no reads at any block size
    curve.workload = w.name;
    for (ReadHitPoint& p : curve.points) {
      for (const auto& [b, mode] : at) {
        if (b == p.cache_bytes) p.modes.push_back(mode);
      }
    }
    curves.push_back(std::move(curve));
  }
  return curves;
}

std::vector<ReadHitCurve> StreamCurves(const CompareOptions& o,
                                       const CompareSetup& setup) {
  std::vector<ReadHitCurve> curves;
  // Only cold cells start from a known state: an empty cache. A warm cell's
  // prefill reads the region, and warm-until-steady's chunks replay the
  // trace's first --warm-chunk seconds, neither the whole trace, so no
  // curve models what the cell's cache held (as-is: unknown).
  if (o.cache_state != CacheState::kCold) {
    for (const PreparedWorkload& w : setup.workloads) {
      if (StreamUnknownWhy(w).empty()) {
        LogNotice("workload " + w.name +
                  ": no LRU and OPT read hit curves (mrc.csv): they need "
                  "--cache-state cold, whose cells replay the trace from an "
                  "empty cache");
      }
    }
    return curves;
  }
  for (size_t wi = 0; wi < setup.workloads.size(); ++wi) {
    for (ReadHitCurve& c : StreamCurvesOf(setup, wi, setup.workloads[wi])) {
      curves.push_back(std::move(c));
    }
  }
  return curves;
}

}  // namespace tierbench
