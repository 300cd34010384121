// Measured read hits against LRU and OPT (present/hit_bound.h).
#include "present/hit_bound.h"

#include <cstdio>

#include "present/report_format.h"
#include "util/units.h"

namespace tierbench {
namespace {

// A cell's state ("cold", "warm", "warm-until-steady") matches the curve's.
bool HbStateMatches(const std::string& cell_state, bool warm) {
  if (warm) return cell_state == "warm" || cell_state == "warm-until-steady";
  return cell_state == "cold";
}

// A figure marked invalid only by the rules that say its cache was cold
// ("cold-reads", a layer's "<layer>.cold": most IO went to the origin, so
// its throughput is the origin's). Its read hits are still those of a
// cache that started empty, which is what a cold curve models.
bool HbOnlyColdInvalid(const ReportFigure& f) {
  bool any = false;
  for (const std::string& item : f.finding_rules) {
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || item.substr(colon + 1) != "invalid") {
      continue;
    }
    const std::string rule = item.substr(0, colon);
    if (rule != "cold-reads" && !(rule.size() > 5 && rule.ends_with(".cold"))) {
      return false;
    }
    any = true;
  }
  return any;
}

const char* const kHbBypassRules[] = {"bcache.cutoff", "bcache.bypass",
                                      "bcache.congestion"};

}  // namespace

std::vector<const ReadHitCurve*> HitBoundCurves(const RunFolder& run,
                                                const std::string& workload) {
  std::vector<const ReadHitCurve*> out;
  for (const ReadHitCurve& c : run.read_hit_curves()) {
    if (c.workload == workload) out.push_back(&c);
  }
  return out;
}

std::vector<HitBoundCell> HitBoundCells(const RunFolder& run,
                                        const std::string& workload) {
  std::vector<HitBoundCell> cells;
  const std::vector<const ReportFigure*> figures = run.FiguresOf(workload);
  for (const ReadHitCurve* curve : HitBoundCurves(run, workload)) {
    for (const ReadHitPoint& p : curve->points) {
      for (const std::string& mode : p.modes) {
        bool any = false, usable = true;
        HitBoundCell cell;
        for (const ReportFigure* f : figures) {
          if (f->mode != mode || f->is_raw()) continue;
          any = true;
          usable = usable &&
                   (!f->Invalid() || (!curve->warm && HbOnlyColdInvalid(*f))) &&
                   (!curve->warm || !f->Drifted()) &&
                   HbStateMatches(f->cache_state, curve->warm);
          cell.layer = f->layer;
          cell.validity_unknown =
              cell.validity_unknown || f->valid == "unknown";
          for (const char* rule : kHbBypassRules) {
            bool has = false;
            for (const std::string& item : f->finding_rules) {
              has = has || item.rfind(std::string(rule) + ":", 0) == 0;
            }
            bool listed = false;
            for (const std::string& r : cell.bypass_rules) {
              listed = listed || r == rule;
            }
            if (has && !listed) cell.bypass_rules.push_back(rule);
          }
        }
        if (!any || !usable) continue;
        cell.mode = mode;
        cell.cache_bytes = p.cache_bytes;
        cell.measured_pct = run.ReadHitPct(mode, workload);
        cell.lru_pct = p.lru_read_hit_pct;
        cell.opt_pct = p.opt_read_hit_pct;
        cell.warm = curve->warm;
        cell.block_bytes = curve->block_bytes;
        cell.rate = curve->rate;
        cells.push_back(std::move(cell));
      }
    }
  }
  return cells;
}

std::string HitBoundName(const HitBoundCell& cell) {
  if (cell.layer.empty() || cell.mode.rfind(cell.layer, 0) == 0) {
    return cell.mode;
  }
  return cell.layer + " " + cell.mode;
}

std::vector<VerdictLine> HitBoundLines(const RunFolder& run,
                                       const std::string& workload) {
  std::vector<VerdictLine> lines;
  for (const HitBoundCell& c : HitBoundCells(run, workload)) {
    std::string text = workload + ": " + HitBoundName(c) + " (" +
                       FormatBytes(c.cache_bytes) + " cache) ";
    text += c.measured_pct
                ? "reached " + FormatPct(*c.measured_pct) + " read hits"
                : "has no read-hit figure";
    text += "; LRU at this size " + FormatPct(c.lru_pct) + ", OPT " +
            FormatPct(c.opt_pct) + " (" + (c.warm ? "warm" : "cold") + ", " +
            FormatBytes(c.block_bytes) + " blocks";
    if (c.rate < 1) {
      char rate[32];
      std::snprintf(rate, sizeof rate, "%.4g", c.rate);
      text += std::string("; SHARDS-sampled at R = ") + rate;
    }
    if (c.validity_unknown) text += "; validity unknown";
    text += ").";
    if (!c.bypass_rules.empty()) {
      std::string rules;
      for (const std::string& r : c.bypass_rules) {
        rules += (rules.empty() ? "" : ", ") + r;
      }
      text += " Part of its IO bypassed the cache (" + rules +
              "): those reads were never the policy's to hit.";
    }
    lines.push_back({workload, text, {c.mode}, {}});
  }
  return lines;
}

}  // namespace tierbench
