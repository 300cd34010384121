#include "db/pgbench_report.h"

#include <cstdio>
#include <string>

namespace tierbench {

namespace {

std::string Format(const char* fmt, double a, double b = 0) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), fmt, a, b);
  return buf;
}

double Pct(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole)
               : 0.0;
}

}  // namespace

std::string FormatProgressLine(double elapsed_sec, double tps, double lat_ms,
                               double stddev_ms, uint64_t failed, double lag_ms,
                               int64_t skipped) {
  char buf[200];
  int n = std::snprintf(buf, sizeof(buf),
                        "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, "
                        "%llu failed",
                        elapsed_sec, tps, lat_ms, stddev_ms,
                        static_cast<unsigned long long>(failed));
  if (lag_ms >= 0) {
    n += std::snprintf(buf + n, sizeof(buf) - static_cast<size_t>(n),
                       ", lag %.3f ms", lag_ms);
    if (skipped >= 0) {
      std::snprintf(buf + n, sizeof(buf) - static_cast<size_t>(n),
                    ", %lld skipped", static_cast<long long>(skipped));
    }
  }
  return buf;
}

void ScriptRunStats::Merge(const ScriptRunStats& o) {
  transactions += o.transactions;
  skipped += o.skipped;
  failed += o.failed;
  lat.Merge(o.lat);
  if (commands.size() < o.commands.size()) commands.resize(o.commands.size());
  for (size_t i = 0; i < o.commands.size(); ++i) {
    commands[i].sum_ns += o.commands[i].sum_ns;
    commands[i].count += o.commands[i].count;
    commands[i].failures += o.commands[i].failures;
  }
}

void WritePgbenchSummary(const TpcbDriverConfig& cfg, const TpcbRunResult& r,
                         std::ostream& out) {
  const bool writes =
      r.scripts ? r.scripts->AnyWrites() : BuiltinWrites(cfg.builtin);
  const DirectionStats& d =
      r.job.dir[static_cast<int>(writes ? IoDir::kWrite : IoDir::kRead)];
  const size_t nscripts = r.scripts ? r.scripts->scripts.size() : 0;
  if (nscripts == 1) {
    out << "transaction type: " << r.scripts->scripts[0].desc << '\n';
  } else if (nscripts > 1) {
    out << "transaction type: multiple scripts\n";
  } else {
    out << "transaction type: <builtin: " << BuiltinDescription(cfg.builtin)
        << ">\n";
  }
  out << "scaling factor: " << cfg.scale << '\n';
  out << "query mode: " << QueryModeName(cfg.query_mode) << '\n';
  out << "number of clients: " << cfg.clients << '\n';
  out << "number of threads: " << cfg.threads << '\n';
  out << "maximum number of tries: 1\n";
  if (cfg.duration_ns > 0) {
    out << "duration: " << cfg.duration_ns / 1000000000ull << " s\n";
    out << "number of transactions actually processed: " << r.transactions
        << '\n';
  } else {
    const uint64_t planned =
        cfg.transactions_per_client * static_cast<uint64_t>(cfg.clients);
    out << "number of transactions per client: " << cfg.transactions_per_client
        << '\n';
    out << "number of transactions actually processed: " << r.transactions
        << '/' << planned << '\n';
  }
  const uint64_t all = r.transactions + r.failed + r.skipped;
  out << "number of failed transactions: " << r.failed
      << Format(" (%.3f%%)", Pct(r.failed, all)) << '\n';
  if (cfg.rate_tps > 0 && cfg.latency_limit_ns > 0) {
    out << "number of transactions skipped: " << r.skipped
        << Format(" (%.3f%%)", Pct(r.skipped, all)) << '\n';
  }
  if (cfg.latency_limit_ns > 0) {
    out << Format("number of transactions above the %.1f ms latency limit: ",
                  static_cast<double>(cfg.latency_limit_ns) / 1e6)
        << r.late << '/' << r.transactions
        << Format(" (%.3f%%)", Pct(r.late, r.transactions)) << '\n';
  }
  out << Format("latency average = %.3f ms", d.lat.mean() / 1e6) << '\n';
  out << Format("latency stddev = %.3f ms", d.lat.stddev() / 1e6) << '\n';
  if (cfg.rate_tps > 0) {
    out << Format("rate limit schedule lag: avg %.3f (max %.3f) ms",
                  r.lag.mean() / 1e6, r.lag.max() / 1e6)
        << '\n';
  }
  out << Format("initial connection time = %.3f ms",
                static_cast<double>(r.connect_ns) / 1e6)
      << '\n';
  out << Format("tps = %f (without initial connection time)", r.Tps()) << '\n';
  out << Format("latency percentiles: p50 = %.3f ms, p90 = %.3f ms",
                static_cast<double>(d.lat_hist.Percentile(50)) / 1e6,
                static_cast<double>(d.lat_hist.Percentile(90)) / 1e6)
      << Format(", p99 = %.3f ms, p99.9 = %.3f ms",
                static_cast<double>(d.lat_hist.Percentile(99)) / 1e6,
                static_cast<double>(d.lat_hist.Percentile(99.9)) / 1e6)
      << Format(", max = %.3f ms", static_cast<double>(d.lat_hist.max()) / 1e6)
      << '\n';
  const bool per_script = nscripts > 1;
  if (!per_script && !cfg.report_per_command) return;
  const double bench_sec = static_cast<double>(r.bench_ns) / 1e9;
  for (size_t i = 0; i < nscripts && i < r.per_script.size(); ++i) {
    const PgScript& script = r.scripts->scripts[i];
    const ScriptRunStats& st = r.per_script[i];
    if (per_script) {
      const uint64_t script_all = st.transactions + st.failed + st.skipped;
      out << "SQL script " << i + 1 << ": " << script.desc << '\n';
      out << " - weight: " << script.weight
          << Format(" (targets %.1f%% of total)",
                    Pct(static_cast<uint64_t>(script.weight),
                        static_cast<uint64_t>(r.scripts->total_weight)))
          << '\n';
      out << " - " << st.transactions
          << Format(" transactions (%.1f%% of total, tps = %f)",
                    Pct(st.transactions, r.transactions),
                    bench_sec > 0
                        ? static_cast<double>(st.transactions) / bench_sec
                        : 0.0)
          << '\n';
      out << " - number of failed transactions: " << st.failed
          << Format(" (%.3f%%)", Pct(st.failed, script_all)) << '\n';
      if (cfg.rate_tps > 0 && cfg.latency_limit_ns > 0) {
        out << " - number of transactions skipped: " << st.skipped
            << Format(" (%.3f%%)", Pct(st.skipped, script_all)) << '\n';
      }
      out << Format(" - latency average = %.3f ms", st.lat.mean() / 1e6)
          << '\n';
      out << Format(" - latency stddev = %.3f ms", st.lat.stddev() / 1e6)
          << '\n';
    }
    if (cfg.report_per_command) {
      out << (per_script ? " - " : "")
          << "statement latencies in milliseconds and failures:\n";
      for (size_t k = 0; k < script.commands.size(); ++k) {
        const auto& cs = st.commands[k];
        out << StatementLine(
                   cs.count ? cs.sum_ns / 1e6 / static_cast<double>(cs.count)
                            : 0.0,
                   cs.failures, script.commands[k].first_line)
            << '\n';
      }
    }
  }
}

std::string StatementLine(double avg_ms, uint64_t failures,
                          const std::string& text) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "   %11.3f  %10llu  ", avg_ms,
                static_cast<unsigned long long>(failures));
  return buf + text;
}

}  // namespace tierbench
