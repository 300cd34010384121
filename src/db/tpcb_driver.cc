// RunTpcb: splits the clients over the worker threads (db/tpcb_client.h),
// starts them together, reports progress from the calling thread and merges
// their results.
#include "db/tpcb_driver.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "db/tpcb_client.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/io_dir.h"
#include "util/units.h"

namespace tierbench {

namespace {

// Prints pgbench-style progress lines until every worker has finished.
void ReportProgress(TpcbShared& shared,
                    std::vector<std::unique_ptr<TpcbClientWorker>>& ws) {
  const TpcbDriverConfig& cfg = *shared.cfg;
  const uint64_t step = static_cast<uint64_t>(cfg.progress_sec) * kNsPerSec;
  const uint64_t bench_start = shared.bench_start.load();
  // The measured window starts after the ramp: progress lines and
  // on_second count from there (pgbench has no ramp: 0).
  const uint64_t start = bench_start + (cfg.duration_ns > 0 ? cfg.ramp_ns : 0);
  uint64_t next = start + step;
  uint64_t next_second = start + kNsPerSec;
  const bool printing = step != 0 && cfg.progress_out != nullptr;
  bool window_started = !cfg.on_measure_start;
  // Never sleeps past the window's start while it is still to be announced.
  auto until = [&](uint64_t due) {
    return window_started ? due : std::min(due, start);
  };
  std::unique_lock<std::mutex> lock(shared.mu);
  while (shared.finished < static_cast<int>(ws.size())) {
    const uint64_t now = NowNs();
    if (!window_started && now >= start) {
      lock.unlock();  // the callback never waits for the clients
      cfg.on_measure_start();
      lock.lock();
      window_started = true;
      continue;
    }
    if (cfg.on_second && now >= next_second) {
      lock.unlock();  // the callback never waits for the clients
      cfg.on_second(start);
      lock.lock();
      next_second += kNsPerSec;
      continue;
    }
    if (!printing) {
      if (cfg.on_second || !window_started) {
        const uint64_t due = until(cfg.on_second ? next_second : start);
        shared.cv.wait_for(lock, std::chrono::nanoseconds(due - now));
      } else {
        shared.cv.wait(lock);
      }
      continue;
    }
    if (now < next) {
      const uint64_t due =
          until(cfg.on_second ? std::min(next, next_second) : next);
      shared.cv.wait_for(lock, std::chrono::nanoseconds(due - now));
      continue;
    }
    uint64_t count = 0, failed = 0, skipped = 0;
    double sum = 0, sum2 = 0, lag = 0;
    for (auto& w : ws) {
      TpcbIntervalStats& in = w->interval();
      std::lock_guard<std::mutex> g(in.mu);
      count += in.count;
      failed += in.failed;
      skipped += in.skipped;
      sum += in.sum_ms;
      sum2 += in.sum2_ms;
      lag += in.lag_sum_ms;
      in.count = in.failed = in.skipped = 0;
      in.sum_ms = in.sum2_ms = in.lag_sum_ms = 0;
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
                             mean, std::sqrt(var), failed,
                             cfg.rate_tps > 0
                                 ? (count ? lag / static_cast<double>(count)
                                          : 0.0)
                                 : -1.0,
                             cfg.rate_tps > 0 && cfg.latency_limit_ns > 0
                                 ? static_cast<int64_t>(skipped)
                                 : -1)
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

TpcbRunResult RunTpcb(const TpcbDriverConfig& cfg) {
  if (cfg.clients < 1 || cfg.threads < 1 || cfg.threads > cfg.clients) {
    throw ConfigError(
        "invalid clients/threads. Clients: " + std::to_string(cfg.clients) +
        "; Threads: " + std::to_string(cfg.threads) +
        "; Fix: -c >= 1 and 1 <= -j <= -c");
  }
  if (cfg.rate_tps < 0 || !std::isfinite(cfg.rate_tps)) {
    throw ConfigError("invalid rate limit. Fix: -R/--rate > 0 (tps)");
  }
  std::shared_ptr<const ScriptSet> scripts = cfg.scripts;
  if (!scripts) {
    auto builtin = std::make_shared<ScriptSet>();
    builtin->AddBuiltin(cfg.builtin, 1);
    builtin->Finish();
    scripts = builtin;
  }
  TpcbShared shared;
  shared.cfg = &cfg;
  shared.scripts = scripts.get();

  // Clients spread evenly: the first (clients % threads) threads get one more.
  std::vector<std::unique_ptr<TpcbClientWorker>> workers;
  int next_client = 0;
  for (int t = 0; t < cfg.threads; ++t) {
    int n = cfg.clients / cfg.threads + (t < cfg.clients % cfg.threads ? 1 : 0);
    workers.push_back(
        std::make_unique<TpcbClientWorker>(&shared, t, next_client, n));
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
      scripts->AnyWrites() ? IoDir::kWrite : IoDir::kRead)];
  out.scripts = scripts;
  out.per_script.resize(scripts->scripts.size());
  uint64_t end = bench_start;
  for (auto& w : workers) {
    d.Merge(w->stats());
    for (size_t s = 0; s < out.per_script.size(); ++s) {
      out.per_script[s].Merge(w->per_script()[s]);
    }
    out.lag.Merge(w->lag());
    out.skipped += w->skipped();
    out.late += w->late();
    out.failed += w->failed();
    out.aborted_clients += w->aborted();
    if (out.first_error.empty()) out.first_error = w->first_error();
    end = std::max(end, w->end_ns());
    job.AddCpu(w->cpu());
  }
  d.errors = out.failed;
  out.transactions = d.ios;
  const uint64_t measured_from =
      bench_start + (cfg.duration_ns > 0 ? cfg.ramp_ns : 0);
  out.bench_ns = end > measured_from ? end - measured_from : 0;
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
