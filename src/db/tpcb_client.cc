// TpcbClientWorker (see the header): the client state machines of one
// worker thread of the TPC-B driver.
#include "db/tpcb_client.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

#include "db/pg_connection.h"
#include "db/pgbench/pgbench_expr.h"
#include "db/pgbench/pgbench_random.h"
#include "util/clock.h"
#include "util/interrupt.h"
#include "util/rng.h"
#include "util/status.h"
#include "util/units.h"

namespace tierbench {

namespace {

// How long in-flight transactions may take to finish after an interrupt.
constexpr uint64_t kInterruptGraceNs = 5 * kNsPerSec;
// Longest poll: how often deadlines, stalls and interrupts are checked.
constexpr uint64_t kPollNs = 50 * 1000000ull;

std::string PrepName(size_t script, size_t cmd) {
  return "P" + std::to_string(script) + "_" + std::to_string(cmd);
}

// Prepares every SQL command of every script as P<script>_<command>; ""
// or an error line.
std::string PrepareScripts(PGconn* conn, const ScriptSet& set) {
  for (size_t s = 0; s < set.scripts.size(); ++s) {
    const auto& cmds = set.scripts[s].commands;
    for (size_t i = 0; i < cmds.size(); ++i) {
      if (cmds[i].type != ScriptCommandType::kSql) continue;
      PGresult* r = PQprepare(conn, PrepName(s, i).c_str(), cmds[i].sql.c_str(),
                              static_cast<int>(cmds[i].params.size()), nullptr);
      bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
      std::string msg = ok ? "" : OneLine(PQresultErrorMessage(r));
      PQclear(r);
      if (!ok) {
        return "cannot prepare statement. Statement: " + cmds[i].sql +
               "; Server: " + msg +
               (msg.find("does not exist") != std::string::npos
                    ? "; Fix: run with -i"
                    : "");
      }
    }
  }
  return "";
}

}  // namespace

struct TpcbClientWorker::Client {
  int id = 0;
  PGconn* conn = nullptr;
  TxRandom rng{0};
  std::vector<PgValue> vars;
  ClientState state = ClientState::kChoose;
  size_t script = 0;
  size_t cmd = 0;
  bool in_tx = false;
  bool cmd_failed = false;
  std::string cmd_error;
  uint64_t scheduled = 0;  // scheduled start of the transaction
  uint64_t begin = 0;      // actual start
  uint64_t cmd_start = 0;  // start of the current command
  uint64_t cmd_sent = 0;   // last send (stall detection)
  uint64_t wake_at = 0;    // kThrottle / kSleep
  uint64_t tx_count = 0;   // finished, failed or skipped (pgbench's cnt)
};

TpcbClientWorker::TpcbClientWorker(TpcbShared* shared, int thread_index,
                                   int first_client, int num_clients)
    : shared_(shared),
      cfg_(*shared->cfg),
      set_(*shared->scripts),
      choose_rng_(Rng::Mix64(cfg_.random_seed ^ 0x63686f6f7365ull) +
                  static_cast<uint64_t>(thread_index)),
      throttle_rng_(Rng::Mix64(cfg_.random_seed ^ 0x7468726f74ull) +
                    static_cast<uint64_t>(thread_index)) {
  if (cfg_.rate_tps > 0) {
    throttle_delay_ns_ = 1e9 * cfg_.threads / cfg_.rate_tps;
  }
  for (int i = 0; i < num_clients; ++i) {
    Client c;
    c.id = first_client + i;
    c.rng = TxRandom(cfg_.random_seed * 0x100000001b3ull +
                     static_cast<uint64_t>(c.id) + 1);
    c.vars.resize(set_.vars.size());
    c.vars[static_cast<size_t>(set_.scale_slot)] = PgValue::Int(cfg_.scale);
    c.vars[static_cast<size_t>(set_.client_id_slot)] = PgValue::Int(c.id);
    c.vars[static_cast<size_t>(set_.random_seed_slot)] =
        PgValue::Int(static_cast<int64_t>(cfg_.random_seed));
    c.vars[static_cast<size_t>(set_.default_seed_slot)] =
        PgValue::Int(static_cast<int64_t>(Rng::Mix64(cfg_.random_seed)));
    for (const auto& [slot, value] : set_.defines) {
      c.vars[static_cast<size_t>(slot)] = value;
    }
    clients_.push_back(std::move(c));
  }
  per_script_.resize(set_.scripts.size());
  for (size_t s = 0; s < set_.scripts.size(); ++s) {
    per_script_[s].commands.resize(set_.scripts[s].commands.size());
  }
}

TpcbClientWorker::~TpcbClientWorker() {
  for (auto& c : clients_) {
    if (c.conn) PQfinish(c.conn);
  }
}

void TpcbClientWorker::Run(std::barrier<std::function<void()>>* start) {
  Connect();
  start->arrive_and_wait();
  if (!shared_->connect_failed.load()) Loop();
  cpu_ = ThreadCpu::Now();  // the thread's whole life, as pgbench's
  end_ns_ = NowNs();
  std::lock_guard<std::mutex> lock(shared_->mu);
  ++shared_->finished;
  shared_->cv.notify_all();
}

void TpcbClientWorker::Connect() {
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
      if (cfg_.query_mode == QueryMode::kPrepared)
        error = PrepareScripts(c.conn, set_);
    }
    if (!error.empty()) {
      std::lock_guard<std::mutex> lock(shared_->mu);
      if (shared_->connect_error.empty()) shared_->connect_error = error;
      shared_->connect_failed.store(true);
      return;
    }
  }
}

bool TpcbClientWorker::ShouldStop(const Client& c, uint64_t now) const {
  if (Interrupted()) return true;
  if (cfg_.duration_ns > 0) return now >= end_at_;
  return c.tx_count >= cfg_.transactions_per_client;
}

size_t TpcbClientWorker::ChooseScript() {
  if (set_.scripts.size() == 1) return 0;
  int64_t w = choose_rng_.Uniform(0, set_.total_weight - 1);
  size_t i = 0;
  do {
    w -= set_.scripts[i++].weight;
  } while (w >= 0);
  return i - 1;
}

void TpcbClientWorker::StartTx(Client& c, uint64_t now) {
  c.begin = now;
  c.cmd = 0;
  c.in_tx = true;
  c.state = ClientState::kCommand;
}

void TpcbClientWorker::Skip(Client& c) {
  ++skipped_;
  ++per_script_[c.script].skipped;
  ++c.tx_count;
}

void TpcbClientWorker::PublishSkipped() {
  if (skipped_ == skipped_published_) return;
  std::lock_guard<std::mutex> lock(interval_.mu);
  interval_.skipped += skipped_ - skipped_published_;
  skipped_published_ = skipped_;
}

void TpcbClientWorker::Advance(Client& c, uint64_t now) {
  for (;;) {
    switch (c.state) {
      case ClientState::kChoose:
        if (ShouldStop(c, now)) {
          c.state = ClientState::kDone;
          return;
        }
        c.script = ChooseScript();
        if (throttle_delay_ns_ <= 0) {
          c.scheduled = now;
          StartTx(c, now);
          break;
        }
        throttle_trigger_ += static_cast<uint64_t>(
            PoissonDelay(throttle_rng_, throttle_delay_ns_));
        c.scheduled = throttle_trigger_;
        if (cfg_.latency_limit_ns > 0 &&
            c.scheduled + cfg_.latency_limit_ns < now) {
          Skip(c);  // too late to meet the limit even if instant
          break;    // kChoose again (stops on -T/-t)
        }
        if (end_at_ > 0 && c.scheduled > end_at_) {
          c.state = ClientState::kDone;
          return;
        }
        c.state = ClientState::kThrottle;
        c.wake_at = c.scheduled;
        break;
      case ClientState::kThrottle:
        // Not in a transaction yet: an interrupt ends the wait at once.
        if (Interrupted() || (end_at_ > 0 && now >= end_at_)) {
          c.state = ClientState::kDone;
          return;
        }
        if (now < c.wake_at) return;
        StartTx(c, now);
        break;
      case ClientState::kSleep:
        if (now < c.wake_at) return;
        EndCommand(c, now);
        break;
      case ClientState::kCommand:
        if (!RunCommand(c, now)) return;
        now = NowNs();
        break;
      case ClientState::kWait:
      case ClientState::kDone:
        return;
    }
  }
}

bool TpcbClientWorker::RunCommand(Client& c, uint64_t now) {
  const auto& cmds = set_.scripts[c.script].commands;
  if (c.cmd >= cmds.size()) {
    EndTx(c, now);
    return false;  // let the loop serve the other clients first
  }
  const ScriptCommand& cmd = cmds[c.cmd];
  c.cmd_start = now;
  switch (cmd.type) {
    case ScriptCommandType::kSql:
      Send(c, cmd);
      return false;
    case ScriptCommandType::kSet: {
      PgValue v;
      Status st = EvaluateExpression(*cmd.expr, c.vars, c.rng, &v);
      if (!st.ok()) {
        Abort(c, "evaluation of meta-command failed: " + st.message());
        return false;
      }
      c.vars[static_cast<size_t>(cmd.set_slot)] = v;
      EndCommand(c, NowNs());
      return true;
    }
    case ScriptCommandType::kSleep: {
      int64_t n = cmd.sleep_value;
      if (cmd.sleep_slot >= 0) {
        const PgValue& v = c.vars[static_cast<size_t>(cmd.sleep_slot)];
        if (v.type != PgValue::kInt && v.type != PgValue::kDouble) {
          Abort(c, "invalid sleep time \"" + ValueText(v) + "\"");
          return false;
        }
        n = v.type == PgValue::kInt ? v.i : static_cast<int64_t>(v.d);
      }
      c.wake_at = now + static_cast<uint64_t>(std::max<int64_t>(n, 0) *
                                              cmd.sleep_unit_us * 1000);
      c.state = ClientState::kSleep;
      return true;
    }
    case ScriptCommandType::kIf: {
      // Evaluate \if, then each \elif in turn until one is true; run the
      // branch found (after \else or \endif when none is).
      bool truth = false;
      if (!Condition(c, cmd, &truth)) return false;
      size_t target = c.cmd + 1;
      for (size_t j = static_cast<size_t>(cmd.next_branch); !truth;) {
        const ScriptCommand& b = cmds[j];
        if (b.type != ScriptCommandType::kElif) {
          target = j + 1;
          break;
        }
        if (!Condition(c, b, &truth)) return false;
        target = j + 1;
        j = static_cast<size_t>(b.next_branch);
      }
      JumpCommand(c, NowNs(), target);
      return true;
    }
    case ScriptCommandType::kElif:
    case ScriptCommandType::kElse:
      // Reached at the end of the branch that ran: skip to \endif.
      JumpCommand(c, NowNs(), static_cast<size_t>(cmd.endif) + 1);
      return true;
    case ScriptCommandType::kEndif:
      EndCommand(c, NowNs());
      return true;
  }
  return false;
}

void TpcbClientWorker::EndCommand(Client& c, uint64_t now) {
  JumpCommand(c, now, c.cmd + 1);
}

void TpcbClientWorker::JumpCommand(Client& c, uint64_t now, size_t next) {
  auto& cs = per_script_[c.script].commands[c.cmd];
  cs.sum_ns += static_cast<double>(now - c.cmd_start);
  cs.count++;
  c.cmd = next;
  c.state = ClientState::kCommand;
}

bool TpcbClientWorker::Condition(Client& c, const ScriptCommand& cmd,
                                 bool* truth) {
  PgValue v;
  Status st = EvaluateExpression(*cmd.expr, c.vars, c.rng, &v);
  if (!st.ok()) {
    Abort(c, "evaluation of meta-command failed: " + st.message());
    return false;
  }
  switch (v.type) {
    case PgValue::kBool:
      *truth = v.b;
      return true;
    case PgValue::kInt:
      *truth = v.i != 0;
      return true;
    case PgValue::kDouble:
      *truth = v.d != 0.0;
      return true;
    case PgValue::kNull:
      *truth = false;
      return true;
    default:
      Abort(c, "evaluation of meta-command failed: not a condition");
      return false;
  }
}

void TpcbClientWorker::Send(Client& c, const ScriptCommand& cmd) {
  for (int slot : cmd.params) {
    if (c.vars[static_cast<size_t>(slot)].type == PgValue::kNone) {
      // Set only in an \if branch that did not run.
      Abort(c, "undefined variable \"" + set_.vars.Name(slot) + "\"");
      return;
    }
  }
  std::vector<std::string> texts;
  std::vector<const char*> values;
  if (cfg_.query_mode != QueryMode::kSimple) {
    texts.reserve(cmd.params.size());
    for (int slot : cmd.params) {
      texts.push_back(ValueText(c.vars[static_cast<size_t>(slot)]));
    }
    for (const auto& t : texts) values.push_back(t.c_str());
  }
  const int n = static_cast<int>(cmd.params.size());
  int sent = 0;
  switch (cfg_.query_mode) {
    case QueryMode::kSimple:
      sent = PQsendQuery(c.conn, RenderSql(cmd, c.vars).c_str());
      break;
    case QueryMode::kExtended:
      sent = PQsendQueryParams(c.conn, cmd.sql.c_str(), n, nullptr,
                               values.data(), nullptr, nullptr, 0);
      break;
    case QueryMode::kPrepared:
      sent = PQsendQueryPrepared(c.conn, PrepName(c.script, c.cmd).c_str(), n,
                                 values.data(), nullptr, nullptr, 0);
      break;
  }
  c.cmd_sent = NowNs();
  c.cmd_failed = false;
  c.state = ClientState::kWait;
  if (!sent) Abort(c, OneLine(PQerrorMessage(c.conn)));
}

void TpcbClientWorker::EndTx(Client& c, uint64_t now) {
  const uint64_t lat = now - c.scheduled;
  c.in_tx = false;
  ++c.tx_count;
  // The ramp (TpcbDriverConfig::ramp_ns): run, not measured. The client
  // goes on to its next transaction either way (returning before this
  // left it at the script's end, ending the same transaction again and
  // again until the ramp was over: the ramp ran no transaction, and each
  // client's first measured one carried the whole ramp as latency).
  if (now < measure_from_) {
    c.state = ShouldStop(c, now) ? ClientState::kDone : ClientState::kChoose;
    return;
  }
  stats_.ios++;
  stats_.lat.Add(static_cast<double>(lat));
  stats_.lat_hist.Add(lat);
  const uint64_t start = measure_from_;
  stats_.series.Add(now > start ? now - start : 0, 0);
  ScriptRunStats& ss = per_script_[c.script];
  ss.transactions++;
  ss.lat.Add(static_cast<double>(lat));
  const bool throttled = throttle_delay_ns_ > 0;
  const double lag = static_cast<double>(c.begin - c.scheduled);
  if (throttled) lag_.Add(lag);
  if (cfg_.latency_limit_ns > 0 && lat > cfg_.latency_limit_ns) ++late_;
  {
    const double ms = static_cast<double>(lat) / 1e6;
    std::lock_guard<std::mutex> lock(interval_.mu);
    interval_.count++;
    interval_.sum_ms += ms;
    interval_.sum2_ms += ms * ms;
    interval_.lag_sum_ms += lag / 1e6;
  }
  c.state = ShouldStop(c, now) ? ClientState::kDone : ClientState::kChoose;
}

void TpcbClientWorker::Abort(Client& c, const std::string& why) {
  if (c.state == ClientState::kDone) return;
  c.state = ClientState::kDone;
  ++aborted_;
  const auto& cmds = set_.scripts[c.script].commands;
  if (c.in_tx) {
    ++failed_;
    per_script_[c.script].failed++;
    if (c.cmd < cmds.size()) per_script_[c.script].commands[c.cmd].failures++;
    std::lock_guard<std::mutex> lock(interval_.mu);
    interval_.failed++;
  }
  if (first_error_.empty()) {
    const std::string what =
        c.cmd < cmds.size() ? cmds[c.cmd].first_line.substr(0, 40) : "";
    first_error_ = "client " + std::to_string(c.id) + " aborted in command " +
                   std::to_string(c.cmd) + " (" + what + "...) of script " +
                   std::to_string(c.script) + ": " + why;
  }
  PQfinish(c.conn);
  c.conn = nullptr;
}

void TpcbClientWorker::CommandDone(Client& c) {
  if (c.cmd_failed) {
    Abort(c, c.cmd_error);
    return;
  }
  const uint64_t now = NowNs();
  EndCommand(c, now);
  Advance(c, now);
}

void TpcbClientWorker::HandleInput(Client& c) {
  if (!PQconsumeInput(c.conn)) {
    Abort(c, OneLine(PQerrorMessage(c.conn)));
    return;
  }
  while (c.state == ClientState::kWait && !PQisBusy(c.conn)) {
    PGresult* r = PQgetResult(c.conn);
    if (r == nullptr) {
      CommandDone(c);
      return;  // a new command (if any) is in flight
    }
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK &&
        st != PGRES_EMPTY_QUERY && !c.cmd_failed) {
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

void TpcbClientWorker::Loop() {
  const uint64_t start = shared_->bench_start.load();
  const uint64_t ramp = cfg_.duration_ns > 0 ? cfg_.ramp_ns : 0;
  measure_from_ = start + ramp;
  end_at_ = cfg_.duration_ns > 0 ? start + ramp + cfg_.duration_ns : 0;
  throttle_trigger_ = start;
  for (auto& c : clients_) {
    if (cfg_.duration_ns == 0 && cfg_.transactions_per_client == 0) {
      c.state = ClientState::kDone;
    }
  }
  std::vector<pollfd> fds;
  std::vector<Client*> owners;
  uint64_t interrupt_seen = 0;
  for (;;) {
    uint64_t now = NowNs();
    for (auto& c : clients_) {
      if (c.state != ClientState::kWait && c.state != ClientState::kDone) {
        Advance(c, now);
      }
    }
    PublishSkipped();
    fds.clear();
    owners.clear();
    bool active = false, ready = false;
    uint64_t wake = NowNs() + kPollNs;
    for (auto& c : clients_) {
      switch (c.state) {
        case ClientState::kWait:
          fds.push_back({PQsocket(c.conn), POLLIN, 0});
          owners.push_back(&c);
          active = true;
          break;
        case ClientState::kThrottle:
        case ClientState::kSleep:
          wake = std::min(wake, c.wake_at);
          active = true;
          break;
        case ClientState::kChoose:
        case ClientState::kCommand:
          ready = active = true;
          break;
        case ClientState::kDone:
          break;
      }
    }
    if (!active) break;
    now = NowNs();
    const uint64_t wait_ns = ready || wake <= now ? 0 : wake - now;
    timespec ts{static_cast<time_t>(wait_ns / kNsPerSec),
                static_cast<long>(wait_ns % kNsPerSec)};
    int n = ppoll(fds.data(), fds.size(), &ts, nullptr);
    if (n < 0 && errno != EINTR) {
      for (auto& c : clients_) Abort(c, "poll failed");
      break;
    }
    for (size_t i = 0; n > 0 && i < fds.size(); ++i) {
      if (fds[i].revents != 0) HandleInput(*owners[i]);
    }
    now = NowNs();
    if (Interrupted() && interrupt_seen == 0) interrupt_seen = now;
    for (auto& c : clients_) {
      if (c.state == ClientState::kDone) continue;
      if (c.state == ClientState::kWait &&
          now - c.cmd_sent > cfg_.stall_timeout_ns) {
        Abort(c, "no answer from the server for " +
                     FormatDuration(cfg_.stall_timeout_ns) +
                     " (server stopped or hung?)");
      } else if (interrupt_seen && now - interrupt_seen > kInterruptGraceNs) {
        Abort(c, "interrupted");
      }
    }
  }
}

}  // namespace tierbench
