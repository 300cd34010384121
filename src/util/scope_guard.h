// ScopeGuard: runs a callable when it goes out of scope, unless dismissed.
// Used for cleanup that must happen on every exit path (error, signal unwind).
#ifndef TIERBENCH_UTIL_SCOPE_GUARD_H_
#define TIERBENCH_UTIL_SCOPE_GUARD_H_

#include <functional>
#include <utility>

namespace tierbench {

class ScopeGuard {
 public:
  explicit ScopeGuard(std::function<void()> fn) : fn_(std::move(fn)) {}
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  ~ScopeGuard() {
    if (fn_) {
      try {
        fn_();
      } catch (...) {
        // Cleanup must not throw during unwinding.
      }
    }
  }
  void Dismiss() { fn_ = nullptr; }

 private:
  std::function<void()> fn_;
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_SCOPE_GUARD_H_
