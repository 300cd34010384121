// RunWithSyscallDenied: runs `body` in a forked child in which one system
// call fails with `err` (a seccomp filter, SECCOMP_RET_ERRNO), as a
// container's seccomp profile refuses io_uring_setup. The filter is
// inherited across execve, so `body` may exec a binary. Returns the child's
// exit status (0-255), or -1 when the filter could not be installed (the
// child exits 125 then) or the child died by a signal.
//
// Header-only; for tests (unit and integration). Not thread-safe: call it
// from the test's main thread (fork of a multi-threaded test binary keeps
// only the calling thread).
#ifndef TIERBENCH_TESTS_SUPPORT_SECCOMP_DENY_H_
#define TIERBENCH_TESTS_SUPPORT_SECCOMP_DENY_H_

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

namespace tierbench::testing {

inline constexpr int kSeccompSetupFailed = 125;

inline int RunWithSyscallDenied(long nr, int err,
                                const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<__u32>(nr), 0, 1),
        BPF_STMT(BPF_RET | BPF_K,
                 SECCOMP_RET_ERRNO | (static_cast<__u32>(err) & 0xffff)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog prog{
        static_cast<unsigned short>(sizeof(filter) / sizeof(filter[0])),
        filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
      _exit(kSeccompSetupFailed);
    }
    _exit(body());
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  const int code = WEXITSTATUS(status);
  return code == kSeccompSetupFailed ? -1 : code;
}

}  // namespace tierbench::testing

#endif  // TIERBENCH_TESTS_SUPPORT_SECCOMP_DENY_H_
