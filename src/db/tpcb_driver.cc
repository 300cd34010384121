#include "db/tpcb_driver.h"

#include <libpq-fe.h>
#include <poll.h>
#include <sys/resource.h>

#include <atomic>
#include <barrier>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "db/pg_connection.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/units.h"

namespace tierbench {

namespace {

// How long in-flight transactions may take to finish after an interrupt.
constexpr uint64_t kInterruptGraceNs = 5 * kNsPerSec;
// Poll timeout: how often deadlines, stalls and interrupts are checked.
constexpr int kPollMs = 50;

// Transactions finished since the last progress line (shared with the
// progress reporter, hence the mutex).
struct IntervalStats {
  std::mutex mu;
  uint64_t count = 0;
  uint64_t failed = 0;
  double sum_ms = 0;
  double sum2_ms = 0;
};

struct Client {
  int id = 0;
  PGconn* conn = nullptr;
  TxRandom rng{0};
  TxValues values;
  std::string params[kNumTxVars];  // text of values (extended, prepared)
  size_t cmd = 0;                  // index of the command in flight
  bool in_tx = false;
  bool done = false;
  bool cmd_failed = false;
  std::string cmd_error;
  uint64_t tx_start = 0;
  uint64_t cmd_sent = 0;
  uint64_t tx_count = 0;
};

// Everything that every worker shares; constant during the run except the
// atomics and what the mutexes guard.
struct Shared {
  const TpcbDriverConfig* cfg = nullptr;
  const std::vector<TxCommand>* script = nullptr;
  std::atomic<uint64_t> bench_start{0};
  std::atomic<bool> connect_failed{false};
  std::mutex mu;  // guards connect_error, finished, cv
  std::string connect_error;
  int finished = 0;
  std::condition_variable cv;
};

class Worker {
 public:
  Worker(Shared* shared, int first_client, int num_clients)
      : shared_(shared), cfg_(*shared->cfg), script_(*shared->script) {
    for (int i = 0; i < num_clients; ++i) {
      Client c;
      c.id = first_client + i;
      c.rng = TxRandom(cfg_.random_seed * 0x100000001b3ull +
                       static_cast<uint64_t>(c.id) + 1);
      clients_.push_back(std::move(c));
    }
  }
  ~Worker() {
    for (auto& c : clients_) {
      if (c.conn) PQfinish(c.conn);
    }
  }

  // Connects, waits at `start`, runs until every client is done.
  void Run(std::barrier<std::function<void()>>* start) {
    Connect();
    start->arrive_and_wait();
    if (!shared_->connect_failed.load()) Loop();
    rusage ru{};
    getrusage(RUSAGE_THREAD, &ru);
    usr_sec_ = static_cast<double>(ru.ru_utime.tv_sec) +
               static_cast<double>(ru.ru_utime.tv_usec) / 1e6;
    sys_sec_ = static_cast<double>(ru.ru_stime.tv_sec) +
               static_cast<double>(ru.ru_stime.tv_usec) / 1e6;
    ctx_ = static_cast<uint64_t>(ru.ru_nvcsw + ru.ru_nivcsw);
    end_ns_ = NowNs();
    std::lock_guard<std::mutex> lock(shared_->mu);
    ++shared_->finished;
    shared_->cv.notify_all();
  }

  IntervalStats& interval() { return interval_; }
  const DirectionStats& stats() const { return stats_; }
  uint64_t failed() const { return failed_; }
  uint64_t aborted() const { return aborted_; }
  const std::string& first_error() const { return first_error_; }
  uint64_t end_ns() const { return end_ns_; }
  double usr_sec() const { return usr_sec_; }
  double sys_sec() const { return sys_sec_; }
  uint64_t ctx() const { return ctx_; }

 private:
  void Connect() {
    for (auto& c : clients_) {
      if (shared_->connect_failed.load()) return;
      c.conn = PQconnectdb(cfg_.conninfo.c_str());
      std::string error;
      if (PQstatus(c.conn) != CONNECTION_OK) {
        error = "cannot connect to PostgreSQL. Connection: '" + cfg_.conninfo +
                "'; Server: " + OneLine(PQerrorMessage(c.conn)) +
                "; Fix: start the server, or check -h/-p/-U/dbname or "
                "--pg-dsn";
      } else {
        // Server notices ("terminating connection ...") become aborts with
        // a message; keep them off stderr.
        PQsetNoticeProcessor(
            c.conn, [](void*, const char*) {}, nullptr);
        if (cfg_.query_mode == QueryMode::kPrepared) error = Prepare(c.conn);
      }
      if (!error.empty()) {
        std::lock_guard<std::mutex> lock(shared_->mu);
        if (shared_->connect_error.empty()) shared_->connect_error = error;
        shared_->connect_failed.store(true);
        return;
      }
    }
  }

  // Prepares every command of the script as P<i>; "" or an error line.
  std::string Prepare(PGconn* conn) {
    for (size_t i = 0; i < script_.size(); ++i) {
      std::string name = "P" + std::to_string(i);
      PGresult* r =
          PQprepare(conn, name.c_str(), script_[i].sql.c_str(),
                    static_cast<int>(script_[i].params.size()), nullptr);
      bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
      std::string msg = ok ? "" : OneLine(PQresultErrorMessage(r));
      PQclear(r);
      if (!ok) {
        return "cannot prepare statement. Statement: " + script_[i].sql +
               "; Server: " + msg +
               (msg.find("does not exist") != std::string::npos
                    ? "; Fix: run with -i"
                    : "");
      }
    }
    return "";
  }

  bool ShouldStop(const Client& c, uint64_t now) const {
    if (Interrupted()) return true;
    if (cfg_.duration_ns > 0) return now >= end_at_;
    return c.tx_count >= cfg_.transactions_per_client;
  }

  void StartTx(Client& c) {
    c.values = DrawTxValues(c.rng, cfg_.scale);
    if (cfg_.query_mode != QueryMode::kSimple) {
      for (int v = 0; v < kNumTxVars; ++v) {
        c.params[v] = std::to_string(c.values.v[v]);
      }
    }
    c.cmd = 0;
    c.in_tx = true;
    c.tx_start = NowNs();
    Send(c);
  }

  void Send(Client& c) {
    const TxCommand& cmd = script_[c.cmd];
    const char* values[kNumTxVars];
    for (size_t i = 0; i < cmd.params.size(); ++i) {
      values[i] = c.params[cmd.params[i]].c_str();
    }
    const int n = static_cast<int>(cmd.params.size());
    int sent = 0;
    switch (cfg_.query_mode) {
      case QueryMode::kSimple:
        sent = PQsendQuery(c.conn, RenderSimple(cmd, c.values).c_str());
        break;
      case QueryMode::kExtended:
        sent = PQsendQueryParams(c.conn, cmd.sql.c_str(), n, nullptr, values,
                                 nullptr, nullptr, 0);
        break;
      case QueryMode::kPrepared: {
        std::string name = "P" + std::to_string(c.cmd);
        sent = PQsendQueryPrepared(c.conn, name.c_str(), n, values, nullptr,
                                   nullptr, 0);
        break;
      }
    }
    c.cmd_sent = NowNs();
    c.cmd_failed = false;
    if (!sent) Abort(c, OneLine(PQerrorMessage(c.conn)));
  }

  // The command in flight answered completely.
  void CommandDone(Client& c) {
    if (c.cmd_failed) {
      Abort(c, c.cmd_error);
      return;
    }
    if (++c.cmd < script_.size()) {
      Send(c);
      return;
    }
    const uint64_t now = NowNs();
    const uint64_t lat = now - c.tx_start;
    c.in_tx = false;
    ++c.tx_count;
    stats_.ios++;
    stats_.lat.Add(static_cast<double>(lat));
    stats_.lat_hist.Add(lat);
    const uint64_t start = shared_->bench_start.load();
    stats_.series.Add(now > start ? now - start : 0, 0);
    {
      const double ms = static_cast<double>(lat) / 1e6;
      std::lock_guard<std::mutex> lock(interval_.mu);
      interval_.count++;
      interval_.sum_ms += ms;
      interval_.sum2_ms += ms * ms;
    }
    if (ShouldStop(c, now)) {
      c.done = true;
    } else {
      StartTx(c);
    }
  }

  void Abort(Client& c, const std::string& why) {
    if (c.done) return;
    c.done = true;
    ++aborted_;
    if (c.in_tx) {
      ++failed_;
      std::lock_guard<std::mutex> lock(interval_.mu);
      interval_.failed++;
    }
    if (first_error_.empty()) {
      first_error_ = "client " + std::to_string(c.id) + " aborted in command " +
                     std::to_string(c.cmd) + " (" +
                     script_[c.cmd].sql.substr(0, 40) + "...): " + why;
    }
    PQfinish(c.conn);
    c.conn = nullptr;
  }

  // Reads what arrived for `c` and advances it.
  void HandleInput(Client& c) {
    if (!PQconsumeInput(c.conn)) {
      Abort(c, OneLine(PQerrorMessage(c.conn)));
      return;
    }
    while (!c.done && !PQisBusy(c.conn)) {
      PGresult* r = PQgetResult(c.conn);
      if (r == nullptr) {
        CommandDone(c);
        return;  // a new command (if any) is in flight
      }
      ExecStatusType st = PQresultStatus(r);
      if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && !c.cmd_failed) {
        c.cmd_failed = true;
        c.cmd_error = OneLine(PQresultErrorMessage(r));
      }
      PQclear(r);
      if (PQstatus(c.conn) == CONNECTION_BAD) {
        Abort(c, c.cmd_error.empty() ? "connection to the server was lost"
                                     : c.cmd_error);
        return;
      }
    }
  }

  void Loop() {
    const uint64_t start = shared_->bench_start.load();
    end_at_ = cfg_.duration_ns > 0 ? start + cfg_.duration_ns : 0;
    for (auto& c : clients_) {
      if (cfg_.duration_ns == 0 && cfg_.transactions_per_client == 0) {
        c.done = true;
      } else {
        StartTx(c);
      }
    }
    std::vector<pollfd> fds;
    std::vector<Client*> owners;
    uint64_t interrupt_seen = 0;
    for (;;) {
      fds.clear();
      owners.clear();
      for (auto& c : clients_) {
        if (c.done) continue;
        fds.push_back({PQsocket(c.conn), POLLIN, 0});
        owners.push_back(&c);
      }
      if (fds.empty()) break;
      int n = poll(fds.data(), fds.size(), kPollMs);
      if (n < 0 && errno != EINTR) {
        for (Client* c : owners) Abort(*c, "poll failed");
        break;
      }
      for (size_t i = 0; n > 0 && i < fds.size(); ++i) {
        if (fds[i].revents != 0) HandleInput(*owners[i]);
      }
      const uint64_t now = NowNs();
      if (Interrupted() && interrupt_seen == 0) interrupt_seen = now;
      for (Client* c : owners) {
        if (c->done) continue;
        if (now - c->cmd_sent > cfg_.stall_timeout_ns) {
          Abort(*c, "no answer from the server for " +
                        FormatDuration(cfg_.stall_timeout_ns) +
                        " (server stopped or hung?)");
        } else if (interrupt_seen && now - interrupt_seen > kInterruptGraceNs) {
          Abort(*c, "interrupted");
        }
      }
    }
  }

  Shared* shared_;
  const TpcbDriverConfig& cfg_;
  const std::vector<TxCommand>& script_;
  std::vector<Client> clients_;
  uint64_t end_at_ = 0;
  DirectionStats stats_;
  IntervalStats interval_;
  uint64_t failed_ = 0;
  uint64_t aborted_ = 0;
  std::string first_error_;
  uint64_t end_ns_ = 0;
  double usr_sec_ = 0;
  double sys_sec_ = 0;
  uint64_t ctx_ = 0;
};

// Prints pgbench-style progress lines until every worker has finished.
void ReportProgress(Shared& shared, std::vector<std::unique_ptr<Worker>>& ws) {
  const TpcbDriverConfig& cfg = *shared.cfg;
  const uint64_t step = static_cast<uint64_t>(cfg.progress_sec) * kNsPerSec;
  const uint64_t start = shared.bench_start.load();
  uint64_t next = start + step;
  std::unique_lock<std::mutex> lock(shared.mu);
  while (shared.finished < static_cast<int>(ws.size())) {
    if (step == 0 || cfg.progress_out == nullptr) {
      shared.cv.wait(lock);
      continue;
    }
    const uint64_t now = NowNs();
    if (now < next) {
      shared.cv.wait_for(lock, std::chrono::nanoseconds(next - now));
      continue;
    }
    uint64_t count = 0, failed = 0;
    double sum = 0, sum2 = 0;
    for (auto& w : ws) {
      IntervalStats& in = w->interval();
      std::lock_guard<std::mutex> g(in.mu);
      count += in.count;
      failed += in.failed;
      sum += in.sum_ms;
      sum2 += in.sum2_ms;
      in.count = in.failed = 0;
      in.sum_ms = in.sum2_ms = 0;
    }
    const double elapsed = static_cast<double>(next - start) / 1e9;
    const double mean = count ? sum / static_cast<double>(count) : 0;
    const double var =
        count ? std::max(0.0, sum2 / static_cast<double>(count) - mean * mean)
              : 0;
    *cfg.progress_out << FormatProgressLine(
                             elapsed,
                             static_cast<double>(count) /
                                 static_cast<double>(cfg.progress_sec),
                             mean, std::sqrt(var), failed)
                      << '\n'
                      << std::flush;
    next += step;
  }
}

}  // namespace

double TpcbRunResult::Tps() const {
  return bench_ns ? static_cast<double>(transactions) * 1e9 /
                        static_cast<double>(bench_ns)
                  : 0.0;
}

std::string FormatProgressLine(double elapsed_sec, double tps, double lat_ms,
                               double stddev_ms, uint64_t failed) {
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, %llu "
                "failed",
                elapsed_sec, tps, lat_ms, stddev_ms,
                static_cast<unsigned long long>(failed));
  return buf;
}

TpcbRunResult RunTpcb(const TpcbDriverConfig& cfg) {
  if (cfg.clients < 1 || cfg.threads < 1 || cfg.threads > cfg.clients) {
    throw ConfigError(
        "invalid clients/threads. Clients: " + std::to_string(cfg.clients) +
        "; Threads: " + std::to_string(cfg.threads) +
        "; Fix: -c >= 1 and 1 <= -j <= -c");
  }
  Shared shared;
  shared.cfg = &cfg;
  shared.script = &BuiltinScript(cfg.builtin);

  // Clients spread evenly: the first (clients % threads) threads get one more.
  std::vector<std::unique_ptr<Worker>> workers;
  int next_client = 0;
  for (int t = 0; t < cfg.threads; ++t) {
    int n = cfg.clients / cfg.threads + (t < cfg.clients % cfg.threads ? 1 : 0);
    workers.push_back(std::make_unique<Worker>(&shared, next_client, n));
    next_client += n;
  }
  const uint64_t connect_start = NowNs();
  std::barrier<std::function<void()>> start_line(
      cfg.threads, [&shared]() { shared.bench_start.store(NowNs()); });
  std::vector<std::thread> threads;
  for (auto& w : workers) {
    threads.emplace_back([&w, &start_line]() { w->Run(&start_line); });
  }
  // Wait for the barrier to open (bench_start set) before reporting.
  while (shared.bench_start.load() == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ReportProgress(shared, workers);
  for (auto& t : threads) t.join();
  if (shared.connect_failed.load()) throw DbError(shared.connect_error);

  TpcbRunResult out;
  const uint64_t bench_start = shared.bench_start.load();
  out.connect_ns = bench_start - connect_start;
  JobResult& job = out.job;
  job.name = cfg.name;
  job.unit = "tx";
  job.jobs = static_cast<uint32_t>(cfg.threads);
  job.spec.name = cfg.name;
  job.spec.numjobs = static_cast<uint32_t>(cfg.threads);
  job.spec.runtime_ns = cfg.duration_ns;
  job.spec.time_based = cfg.duration_ns > 0;
  DirectionStats& d = job.dir[static_cast<int>(
      BuiltinWrites(cfg.builtin) ? IoDir::kWrite : IoDir::kRead)];
  uint64_t end = bench_start;
  for (auto& w : workers) {
    d.Merge(w->stats());
    out.failed += w->failed();
    out.aborted_clients += w->aborted();
    if (out.first_error.empty()) out.first_error = w->first_error();
    end = std::max(end, w->end_ns());
    job.usr_cpu_sec += w->usr_sec();
    job.sys_cpu_sec += w->sys_sec();
    job.ctx_switches += w->ctx();
  }
  d.errors = out.failed;
  out.transactions = d.ios;
  out.bench_ns = end - bench_start;
  job.runtime_ns = out.bench_ns;
  out.interrupted = Interrupted();
  if (out.aborted_clients > 0) {
    job.error = std::to_string(out.aborted_clients) + " of " +
                std::to_string(cfg.clients) +
                " clients aborted; first: " + out.first_error;
  }
  return out;
}

}  // namespace tierbench
