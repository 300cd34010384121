// StreamCurves: the LRU and OPT read hit curves (trace/read_hit_curve.h)
// of every workload of a compare whose block stream is known, for
// CompareSetup::read_hit_curves (mrc.csv, `tierbench report`).
//
// A workload's stream is known when it is a fio workload of one job whose
// cells all issue the same stream from its options:
//  - a trace replay (read_iolog=) once, whole and as recorded: numjobs=1,
//    loops=1, no replay_wrap/replay_scale/replay_align, and no runtime
//    shorter than twice the trace's span at its replay_time_scale;
//  - or a generated stream whose length its options fix
//    (workload/job_stream.h: size-bound, no runtime=, repeatable draws),
//    on the absolute region compare gives every target.
// Its curves are
// computed for the cache modes that run it (--workload-modes) and whose
// stack reports its cache size, one curve per distinct cache block size
// among their stacks (StackInfo::cache_block_bytes; 4 KiB, the trace's
// block, when a stack reports none), each at the grid and at every such
// stack's cache_bytes, the points at a stack's size naming its modes. A
// fio workload with such modes whose stream is not known gets a notice
// saying why.
// Only --cache-state cold gives curves (one pass from an empty cache, what
// a cold cell replays); the other states give none, with a notice: warm's
// prefill reads the region and warm-until-steady's chunks replay the
// trace's first seconds, neither the whole trace, and as-is is unknown.
//
// Errors: ConfigError from trace/block_stream.h. Pure over the setup;
// logs a notice per curve it computes.
#ifndef TIERBENCH_ORCHESTRATE_STREAM_CURVES_H_
#define TIERBENCH_ORCHESTRATE_STREAM_CURVES_H_

#include <memory>
#include <string>
#include <vector>

#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "trace/read_hit_curve.h"

namespace tierbench {

// Why `w`'s stream is not known (a clause: "it is time_based: ..."); ""
// when it is. Cheap: computes no stream.
std::string StreamUnknownWhy(const PreparedWorkload& w);

// The stream `w`'s cells issue when it is known (see above): the trace it
// replays, or its job's generated stream (computed here); else null, with
// `*why_not` (when given) saying why.
std::shared_ptr<const IoLog> KnownStream(const PreparedWorkload& w,
                                         std::string* why_not = nullptr);

// The cold curves of workload `w`, at index `wi` of the setup's workloads
// (setup.runs' column: the modes that run it); empty when its stream is
// not known. --capture-replay computes a replay's after its capture.
std::vector<ReadHitCurve> StreamCurvesOf(const CompareSetup& setup, size_t wi,
                                         const PreparedWorkload& w);

std::vector<ReadHitCurve> StreamCurves(const CompareOptions& o,
                                       const CompareSetup& setup);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_STREAM_CURVES_H_
