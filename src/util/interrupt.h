// Process-wide interruption (SIGINT/SIGTERM) handling.
//
// InstallInterruptHandlers() makes the first SIGINT or SIGTERM set a flag that
// long-running loops poll with Interrupted(); they stop at the next safe point
// and unwind, so cleanup (restoring bcache modes, stopping servers, releasing
// loop devices) runs through destructors and RestoreActions. A second signal
// runs the registered emergency restore actions at once (best effort, from the
// handler: they must be async-signal-safe, e.g. write(2) of a prepared string
// to a prepared fd) and then _exit(128 + signo).
//
// Thread-safety: all functions may be called from any thread.
#ifndef TIERBENCH_UTIL_INTERRUPT_H_
#define TIERBENCH_UTIL_INTERRUPT_H_

namespace tierbench {

void InstallInterruptHandlers();

// True once SIGINT or SIGTERM was received.
bool Interrupted();

// The signal number received first (0 when none).
int InterruptSignal();

// For tests: clears the flag.
void ResetInterruptForTest();

// Simulates delivery of `signo` (for tests and for internal aborts).
void RaiseInterruptForTest(int signo);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_INTERRUPT_H_
