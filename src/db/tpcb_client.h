// TpcbClientWorker: one worker thread of the TPC-B driver (db/tpcb_driver.h)
// with its share of the clients, each a non-blocking libpq state machine
// (PQsendQuery / PQsendQueryParams / PQsendQueryPrepared + ppoll) that runs
// the run's scripts transaction after transaction, as pgbench's threadRun.
//
// Contract: Run() connects every client of the worker (and, with
// QueryMode::kPrepared, prepares every SQL command as P<script>_<command>),
// waits at the run's start barrier, then drives its clients until each is
// done, following the measurement and stop rules of db/tpcb_driver.h (-T or
// -t, -R schedule and -L skips, the ramp, SIGINT/SIGTERM with a grace
// period, a stalled or broken connection or a failed command aborting its
// client). A client that cannot connect or prepare records the first such
// error in TpcbShared::connect_error and sets connect_failed; every worker
// then skips its loop (the driver throws DbError). At its end Run() records
// the thread's CPU time and its end time, then counts itself in
// TpcbShared::finished and notifies TpcbShared::cv. Errors after the start
// never throw: they abort the client and land in failed(), aborted() and
// first_error().
//
// Thread-safety: Run() runs on the worker's own thread. interval() is shared
// with the progress reporter under its mutex at any time; every other
// accessor may be read only after Run() returned (the thread was joined).
#ifndef TIERBENCH_DB_TPCB_CLIENT_H_
#define TIERBENCH_DB_TPCB_CLIENT_H_

#include <atomic>
#include <barrier>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "db/pgbench/pgbench_builtin.h"
#include "db/pgbench/pgbench_script.h"
#include "db/tpcb_driver.h"
#include "stats/thread_cpu.h"
#include "workload/job_result.h"

namespace tierbench {

// Transactions finished since the last progress line (shared with the
// progress reporter, hence the mutex).
struct TpcbIntervalStats {
  std::mutex mu;
  uint64_t count = 0;
  uint64_t failed = 0;
  uint64_t skipped = 0;
  double sum_ms = 0;
  double sum2_ms = 0;
  double lag_sum_ms = 0;
};

// Everything that every worker of one run shares; constant during the run
// except the atomics and what the mutex guards.
struct TpcbShared {
  const TpcbDriverConfig* cfg = nullptr;
  const ScriptSet* scripts = nullptr;
  std::atomic<uint64_t> bench_start{0};  // set when the start barrier opens
  std::atomic<bool> connect_failed{false};
  std::mutex mu;  // guards connect_error, finished, cv
  std::string connect_error;
  int finished = 0;  // workers whose Run() has ended
  std::condition_variable cv;
};

class TpcbClientWorker {
 public:
  // The worker `thread_index` of the run, with the clients numbered
  // first_client .. first_client + num_clients - 1 (their random streams
  // and variables seeded as pgbench seeds them). `shared` (with its cfg and
  // scripts) must outlive the worker. Connects nothing yet.
  TpcbClientWorker(TpcbShared* shared, int thread_index, int first_client,
                   int num_clients);
  // Closes the connections still open.
  ~TpcbClientWorker();
  TpcbClientWorker(const TpcbClientWorker&) = delete;
  TpcbClientWorker& operator=(const TpcbClientWorker&) = delete;

  // Connects, waits at `start`, runs until every client is done.
  void Run(std::barrier<std::function<void()>>* start);

  TpcbIntervalStats& interval() { return interval_; }
  const DirectionStats& stats() const { return stats_; }
  const std::vector<ScriptRunStats>& per_script() const { return per_script_; }
  const RunningStat& lag() const { return lag_; }
  uint64_t failed() const { return failed_; }
  uint64_t skipped() const { return skipped_; }
  uint64_t late() const { return late_; }
  uint64_t aborted() const { return aborted_; }
  const std::string& first_error() const { return first_error_; }
  uint64_t end_ns() const { return end_ns_; }
  const ThreadCpu& cpu() const { return cpu_; }

 private:
  enum class ClientState {
    kChoose,    // pick the next script (and its scheduled start)
    kThrottle,  // wait for the scheduled start (-R)
    kCommand,   // run the current command
    kWait,      // an SQL command is in flight
    kSleep,     // \sleep until wake_at
    kDone,
  };
  // One client: its connection, variables and place in its script
  // (defined in tpcb_client.cc).
  struct Client;

  void Connect();
  bool ShouldStop(const Client& c, uint64_t now) const;
  // pgbench's chooseScript: a weighted draw from the thread's stream.
  size_t ChooseScript();
  void StartTx(Client& c, uint64_t now);
  // A skipped slot; the progress count is published once per loop pass
  // (a saturated -R -L run skips millions).
  void Skip(Client& c);
  void PublishSkipped();
  // Moves `c` on until it has to wait (socket, schedule, sleep) or is done.
  void Advance(Client& c, uint64_t now);
  // Starts the current command; false when the client must now wait (SQL
  // in flight, transaction ended, aborted).
  bool RunCommand(Client& c, uint64_t now);
  void EndCommand(Client& c, uint64_t now);
  // Ends the current command and continues at command `next`.
  void JumpCommand(Client& c, uint64_t now, size_t next);
  // The truth of an \if / \elif condition as pgbench's valueTruth (NULL is
  // false, numbers are true when non-zero); false when the client aborted.
  bool Condition(Client& c, const ScriptCommand& cmd, bool* truth);
  void Send(Client& c, const ScriptCommand& cmd);
  void EndTx(Client& c, uint64_t now);
  void Abort(Client& c, const std::string& why);
  // The command in flight answered completely.
  void CommandDone(Client& c);
  // Reads what arrived for `c` and advances it.
  void HandleInput(Client& c);
  void Loop();

  TpcbShared* shared_;
  const TpcbDriverConfig& cfg_;
  const ScriptSet& set_;
  std::vector<Client> clients_;
  TxRandom choose_rng_;
  TxRandom throttle_rng_;
  double throttle_delay_ns_ = 0;  // mean delay between this thread's starts
  uint64_t throttle_trigger_ = 0;
  uint64_t end_at_ = 0;
  uint64_t measure_from_ = 0;  // bench start + ramp
  DirectionStats stats_;
  std::vector<ScriptRunStats> per_script_;
  RunningStat lag_;
  TpcbIntervalStats interval_;
  uint64_t failed_ = 0;
  uint64_t skipped_ = 0;
  uint64_t skipped_published_ = 0;
  uint64_t late_ = 0;
  uint64_t aborted_ = 0;
  std::string first_error_;
  uint64_t end_ns_ = 0;
  ThreadCpu cpu_;  // CPU time and faults of the worker thread
};

}  // namespace tierbench

#endif  // TIERBENCH_DB_TPCB_CLIENT_H_
