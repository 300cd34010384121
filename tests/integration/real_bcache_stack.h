// RealBcacheStack: a throwaway bcache stack on the REAL kernel for the guest
// tests (tests/integration/cache_real_bcache_test.cc, cache_soak_test.cc): a
// backing and a cache loop device over sparse images in /tmp, formatted with
// make-bcache (bucket 64k) and registered, cache first. The destructor stops
// the bcache device and its cache set and waits (up to 5 s) until the kernel
// released them, before the loop devices go.
//
// Errors: Build() returns "" or one line naming what failed (loop device,
// make-bcache, no /sys/block/bcacheN); nothing throws. Not thread-safe.
#ifndef TIERBENCH_TESTS_INTEGRATION_REAL_BCACHE_STACK_H_
#define TIERBENCH_TESTS_INTEGRATION_REAL_BCACHE_STACK_H_

#include <cstdint>
#include <string>

#include "test_env.h"

namespace tierbench::testing {

class RealBcacheStack {
 public:
  RealBcacheStack(uint64_t backing_bytes = 256ull << 20,
                  uint64_t cache_bytes = 128ull << 20);
  ~RealBcacheStack();
  RealBcacheStack(const RealBcacheStack&) = delete;
  RealBcacheStack& operator=(const RealBcacheStack&) = delete;

  // Formats and registers; returns "" or the reason it could not.
  std::string Build();

  const std::string& bcache() const { return bcache_; }  // "bcache0"
  const std::string& hdd() const { return hdd_.device(); }
  const std::string& ssd() const { return ssd_.device(); }

 private:
  LoopDevice hdd_;
  LoopDevice ssd_;
  std::string bcache_;
  std::string cset_;
};

// "loop3" for "/dev/loop3".
std::string DeviceBase(const std::string& dev);

}  // namespace tierbench::testing

#endif  // TIERBENCH_TESTS_INTEGRATION_REAL_BCACHE_STACK_H_
