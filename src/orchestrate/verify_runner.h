// VerifyRunner: `tierbench compare --verify[=SIZE]`, a data check of one
// cache stack across its mode switches, run before the measured cells.
//
// Steps, on the stack device from LBA 0:
//   1. empty the cache (CacheLayer::MakeCold), switch to the first mode of
//      the layer's LayerKind::verify_order (writeback);
//   2. "write": SIZE bytes of 4 KiB blocks in fio's verify=crc32c layout
//      (workload/verify_block.h), O_DIRECT, then fsync; each block's seed
//      mixes a per-run nonce with its offset, so data left by an earlier
//      run cannot pass; the layer's dirty bytes are read right after
//      (the check means something only when the cache holds dirty data);
//   3. read everything back and check it after each step: the write mode,
//      each further mode of verify_order (switched with ApplyMode, the
//      layer draining where it must), "cold" (MakeCold, then the write mode
//      again) and "warm" (a second read, now served from the cache where
//      the layer caches reads).
// A step with differing blocks ends the check (the later steps are not
// run); each difference is logged with its LBA, what was expected and what
// was found. The stack's original mode is not restored here: the check runs
// after CaptureOriginal(), and the compare's restore puts it back.
//
// Errors: SysError (IO errors, a layer that cannot switch), ConfigError
// from the layer, InterruptedError between blocks and steps. Differences
// are an outcome (VerifyOutcome::errors), not an exception.
// Not thread-safe.
#ifndef TIERBENCH_ORCHESTRATE_VERIFY_RUNNER_H_
#define TIERBENCH_ORCHESTRATE_VERIFY_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cache/cache_layer.h"
#include "record/reporter.h"

namespace tierbench {

inline constexpr uint32_t kVerifyBlockBytes = 4096;
// Differences kept per step (and logged) before only counting.
inline constexpr size_t kVerifyMismatchesKept = 8;

struct VerifyRunOptions {
  uint64_t bytes = 0;  // a positive multiple of kVerifyBlockBytes
  double drain_timeout_s = 600;
  uint64_t nonce = 0;
  // CLOCK_MONOTONIC ns; default NowNs.
  std::function<uint64_t()> now_ns;
  // Called after every step (tests change a block behind the cache here).
  std::function<void(const std::string& step)> after_step;
  std::function<void(const VerifyStart&)> on_start;
  std::function<void(const VerifyStep&)> on_step;
};

// The steps VerifyRunner takes for `verify_order` ("write", the modes,
// "cold", "warm").
std::vector<std::string> VerifySteps(const std::vector<std::string>& order);

// A random nonce (std::random_device).
uint64_t RandomVerifyNonce();

class VerifyRunner {
 public:
  explicit VerifyRunner(VerifyRunOptions options);

  // Checks the stack behind `layer` whose IO goes to `device`. The layer's
  // kind must have a verify_order (ConfigError otherwise).
  VerifyOutcome Run(CacheLayer& layer, const std::string& device);

 private:
  uint64_t Now() const;
  void Finish(VerifyStep step, uint64_t start_ns, VerifyOutcome* out);

  VerifyRunOptions options_;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_VERIFY_RUNNER_H_
