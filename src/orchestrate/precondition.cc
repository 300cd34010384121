#include "orchestrate/precondition.h"

#include <string>

#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {

std::string PreconditionJobText(const std::string& device,
                                uint64_t range_bytes) {
  return "[precondition]\nfilename=" + device +
         "\nrw=write\nbs=128k\niodepth=32\nioengine=libaio\ndirect=1\n"
         "size=" +
         std::to_string(range_bytes) + "\n";
}

PreconditionOutcome Precondition(
    const std::string& device, uint64_t range_bytes, int passes,
    const Sysfs& sysfs, const RunWorkloadFn& run,
    const std::function<void(int pass, double mib_s)>& on_pass) {
  if (passes < 1 || passes > kMaxPreconditionPasses || range_bytes == 0) {
    throw ConfigError("--precondition: " + std::to_string(passes) +
                      " passes over " + std::to_string(range_bytes) +
                      " bytes. Fix: 1 to " +
                      std::to_string(kMaxPreconditionPasses) +
                      " passes over a region above 0");
  }
  const Workload w = ParseJobText(PreconditionJobText(device, range_bytes),
                                  "--precondition", JobOverrides{});
  RunOptions ro;
  ro.sysfs = sysfs;
  ro.destructive = true;
  ro.progress_label = "precondition " + device;
  PreconditionOutcome out;
  out.device = device;
  out.range_bytes = range_bytes;
  const uint64_t start = NowNs();
  for (int pass = 1; pass <= passes; ++pass) {
    ThrowIfInterrupted("while preconditioning " + device);
    const RunResult r = run ? run(w, ro) : RunWorkload(w, ro);
    if (r.jobs.empty()) {
      throw RunError("--precondition: the write pass on " + device +
                     " returned no job");
    }
    const JobResult& j = r.jobs.front();
    if (!j.error.empty()) {
      throw RunError("--precondition: the write pass " + std::to_string(pass) +
                     " on " + device + " failed: " + j.error);
    }
    const uint64_t written = j.dir[static_cast<int>(IoDir::kWrite)].bytes;
    if (written < range_bytes) {
      throw RunError("--precondition: pass " + std::to_string(pass) + " on " +
                     device + " wrote " + std::to_string(written) + " of " +
                     std::to_string(range_bytes) + " bytes");
    }
    out.bytes += written;
    out.passes = static_cast<uint32_t>(pass);
    const double mib_s = j.BytesPerSec(IoDir::kWrite) / (1024.0 * 1024.0);
    out.pass_mib_s.push_back(mib_s);
    if (on_pass) on_pass(pass, mib_s);
  }
  out.seconds = static_cast<double>(NowNs() - start) / 1e9;
  return out;
}

}  // namespace tierbench
