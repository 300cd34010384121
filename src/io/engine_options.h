// Engine options: what an IO engine is told beyond (fd, depth) before
// Init(), filled from the job's engine options (workload/job_file_engine.h)
// and its files and buffers (workload/job_thread.cc).
//
// IoUringOptions are fio's io_uring engine options (engines/io_uring.c,
// HOWTO.rst "I/O engine specific parameters"), with fio's semantics:
//   fixedbufs           register the IO buffers (IORING_REGISTER_BUFFERS) and
//                       use READ_FIXED/WRITE_FIXED;
//   registerfiles       register the job's files (IORING_REGISTER_FILES) and
//                       address them by index (IOSQE_FIXED_FILE);
//   sqthread_poll       a kernel thread polls the submission queue
//                       (IORING_SETUP_SQPOLL); implies registerfiles;
//   sqthread_poll_cpu   the CPU of that thread (IORING_SETUP_SQ_AFF); only
//                       with sqthread_poll, ignored otherwise (as fio);
//   hipri               polled completions (IORING_SETUP_IOPOLL): needs
//                       direct=1 on a device with poll queues;
//   nonvectored         -1 (default): READ/WRITE when the kernel has them
//                       (probed), else READV/WRITEV; 0: READV/WRITEV;
//                       1: READ/WRITE.
// Engines other than io_uring ignore them (the job-file parser refuses them
// with other engines, as they would do nothing).
#ifndef TIERBENCH_IO_ENGINE_OPTIONS_H_
#define TIERBENCH_IO_ENGINE_OPTIONS_H_

#include <sys/uio.h>

#include <cstdint>
#include <vector>

namespace tierbench {

struct IoUringOptions {
  bool fixedbufs = false;
  bool registerfiles = false;
  bool sqthread_poll = false;
  int sqthread_poll_cpu = -1;  // -1: not set (no CPU affinity)
  bool hipri = false;
  int nonvectored = -1;  // -1 probe, 0 vectored, 1 non-vectored

  bool operator==(const IoUringOptions&) const = default;
};

// Everything an engine may need to know before Init() (IoEngine::Configure).
struct EngineSetup {
  IoUringOptions uring;
  // Every file the job does IO on, in the job's order (registerfiles). May
  // be empty: then the fd given to Init() is the only file.
  std::vector<int> fds;
  // The buffer of each request index, [0, depth) (fixedbufs). May be empty
  // for engines that do not register buffers.
  std::vector<iovec> buffers;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_ENGINE_OPTIONS_H_
