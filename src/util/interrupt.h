// Process-wide interruption (SIGINT/SIGTERM) handling.
//
// InstallInterruptHandlers() makes the first SIGINT or SIGTERM set a flag that
// long-running loops poll with Interrupted(); they stop at the next safe point
// and unwind, so cleanup (restoring bcache modes, stopping servers, releasing
// loop devices) runs through destructors and RestoreActions. A second signal
// aborts at once: one line on stderr, then _exit(128 + signo), with no cleanup;
// what a compare changed stays recorded in its restore state file
// (orchestrate/restore_state.h), so the next compare refuses to start and
// `tierbench restore` puts the layers back.
//
// Thread-safety: all functions may be called from any thread.
#ifndef TIERBENCH_UTIL_INTERRUPT_H_
#define TIERBENCH_UTIL_INTERRUPT_H_

#include <cstdint>
#include <string>

namespace tierbench {

void InstallInterruptHandlers();

// True once SIGINT or SIGTERM was received.
bool Interrupted();

// Sleeps until `deadline_ns` (CLOCK_MONOTONIC, util/clock.h NowNs) or until
// Interrupted(), whichever comes first; it looks at the flag at least every
// 50 ms. Returns at once when the deadline has passed.
void SleepUntilOrInterrupted(uint64_t deadline_ns);

// The signal number received first (0 when none).
int InterruptSignal();

// Throws InterruptedError (util/errors.h) when SIGINT/SIGTERM arrived:
// "interrupted by SIGINT <where>. Key: finished cells are in runs.csv",
// exit code 128 + the signal. Returns when none did.
void ThrowIfInterrupted(const std::string& where);

// For tests: clears the flag.
void ResetInterruptForTest();

// Simulates delivery of `signo` (for tests and for internal aborts).
void RaiseInterruptForTest(int signo);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_INTERRUPT_H_
