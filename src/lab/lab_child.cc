#include "lab/lab_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tierbench {

LabChild::~LabChild() {
  if (pid_ > 0 && !reaped_) {
    KillGroup();
    Wait();
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (in_fd_ >= 0) close(in_fd_);
}

Status LabChild::Start(const std::vector<std::string>& argv,
                       const std::string& cwd, bool stdin_pipe) {
  if (argv.empty()) return Status::InvalidArgument("empty command");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Status::FromErrno("pipe", errno);
  // An exec failure is reported through a second close-on-exec pipe: it
  // reads empty when exec succeeded, an errno otherwise.
  int status_fds[2];
  if (pipe2(status_fds, O_CLOEXEC) != 0) {
    close(fds[0]);
    close(fds[1]);
    return Status::FromErrno("pipe", errno);
  }
  int in_fds[2] = {-1, -1};
  if (stdin_pipe && pipe2(in_fds, O_CLOEXEC) != 0) {
    int err = errno;
    for (int fd : {fds[0], fds[1], status_fds[0], status_fds[1]}) close(fd);
    return Status::FromErrno("pipe", err);
  }
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    int err = errno;
    for (int fd :
         {fds[0], fds[1], status_fds[0], status_fds[1], in_fds[0], in_fds[1]}) {
      if (fd >= 0) close(fd);
    }
    return Status::FromErrno("fork", err);
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    // The child dies with tierbench, even when tierbench is killed outright.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int in_fd = in_fds[0] >= 0 ? in_fds[0] : open("/dev/null", O_RDONLY);
    if (in_fd >= 0) dup2(in_fd, STDIN_FILENO);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
      int err = errno;
      (void)!write(status_fds[1], &err, sizeof(err));
      _exit(127);
    }
    execvp(args[0], args.data());
    int err = errno;
    (void)!write(status_fds[1], &err, sizeof(err));
    _exit(127);
  }
  // Parent. Set the group here too, so KillGroup works even if the child
  // has not run yet.
  setpgid(pid, pid);
  close(fds[1]);
  close(status_fds[1]);
  if (in_fds[0] >= 0) close(in_fds[0]);
  in_fd_ = in_fds[1];
  int child_errno = 0;
  ssize_t n;
  do {
    n = read(status_fds[0], &child_errno, sizeof(child_errno));
  } while (n < 0 && errno == EINTR);
  close(status_fds[0]);
  pid_ = pid;
  out_fd_ = fds[0];
  if (n == static_cast<ssize_t>(sizeof(child_errno))) {
    Wait();
    return Status::FromErrno("start " + argv[0], child_errno);
  }
  return Status::Ok();
}

LabChild::Read LabChild::ReadLine(int timeout_ms, std::string* line) {
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos || (eof_ && !buffer_.empty())) {
      size_t len = nl == std::string::npos ? buffer_.size() : nl;
      *line = buffer_.substr(0, len);
      buffer_.erase(0, nl == std::string::npos ? len : len + 1);
      while (!line->empty() && line->back() == '\r') line->pop_back();
      return Read::kLine;
    }
    if (eof_ || out_fd_ < 0) return Read::kEof;
    pollfd pfd{out_fd_, POLLIN, 0};
    int rc = poll(&pfd, 1, timeout_ms);
    if (rc < 0 && errno == EINTR) return Read::kTimeout;
    if (rc == 0) return Read::kTimeout;
    char chunk[4096];
    ssize_t n = read(out_fd_, chunk, sizeof(chunk));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return Read::kTimeout;
    if (n <= 0) {
      eof_ = true;
      continue;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

Status LabChild::WriteInput(const std::string& text) {
  if (in_fd_ < 0) return Status::InvalidArgument("the child has no stdin pipe");
  // A child that exited makes write() fail with EPIPE and raise SIGPIPE,
  // whose default action would end tierbench: block it on this thread,
  // and take a SIGPIPE this write raised off the pending set.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  Status s = Status::Ok();
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(in_fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s = Status::FromErrno("write to the stdin of the child", errno);
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (!s.ok()) {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return s;
}

void LabChild::KillGroup() {
  if (pid_ > 0 && !reaped_) kill(-pid_, SIGKILL);
}

int LabChild::Wait() {
  if (pid_ <= 0) return -1;
  if (reaped_) return exit_code_;
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, 0);
  } while (r < 0 && errno == EINTR);
  reaped_ = true;
  if (r < 0) {
    exit_code_ = -1;
  } else if (WIFEXITED(status)) {
    exit_code_ = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    exit_code_ = 128 + WTERMSIG(status);
  }
  // Helpers the child left behind in its group go too.
  kill(-pid_, SIGKILL);
  return exit_code_;
}

Status RunLabTool(const std::vector<std::string>& argv, int* exit_code,
                  std::string* output) {
  LabChild child;
  Status s = child.Start(argv);
  if (!s.ok()) return s;
  std::string line;
  for (;;) {
    LabChild::Read r = child.ReadLine(1000, &line);
    if (r == LabChild::Read::kEof) break;
    if (r == LabChild::Read::kLine && output != nullptr) {
      output->append(line).push_back('\n');
    }
  }
  *exit_code = child.Wait();
  return Status::Ok();
}

}  // namespace tierbench
