#include "record/ssd_wear.h"

#include "record/cell_record.h"

namespace tierbench {

SsdWear ComputeSsdWear(const WearInputs& in, std::optional<double> tbw_bytes) {
  SsdWear w;
  const double ssd_write = static_cast<double>(in.ssd_write_bytes);
  const uint64_t app = in.app_read_bytes + in.app_write_bytes;
  if (in.app_write_bytes > 0) {
    w.ssd_write_per_app_write =
        ssd_write / static_cast<double>(in.app_write_bytes);
  }
  if (app > 0) w.ssd_write_per_app_byte = ssd_write / static_cast<double>(app);
  w.hdd_bytes_saved =
      static_cast<int64_t>(app) -
      static_cast<int64_t>(in.hdd_read_bytes + in.hdd_write_bytes);
  if (tbw_bytes && *tbw_bytes > 0 && in.ssd_write_bytes > 0 &&
      in.io_seconds > 0) {
    const double per_second = ssd_write / in.io_seconds;
    w.ssd_life_days = *tbw_bytes / per_second / 86400.0;
  }
  return w;
}

std::optional<double> TbwBytes(std::optional<double> tbw_tb) {
  if (!tbw_tb) return std::nullopt;
  return *tbw_tb * kBytesPerTerabyte;
}

std::optional<WearInputs> CellWearInputs(const CellRecord& rec) {
  if (rec.mode == nullptr || rec.mode->is_raw() || !rec.has_counters ||
      !rec.error.empty() || rec.delta.counters_reset) {
    return std::nullopt;
  }
  const LayerDelta& d = rec.delta;
  WearInputs in;
  in.app_read_bytes = d.stack.read_bytes();
  in.app_write_bytes = d.stack.write_bytes();
  in.hdd_read_bytes = d.origin.read_bytes();
  in.hdd_write_bytes = d.origin.write_bytes();
  in.ssd_write_bytes = d.cache.write_bytes();
  in.io_seconds =
      d.seconds - (rec.counters_after_s > 0 ? rec.counters_after_s : 0.0);
  return in;
}

SsdWear CellSsdWear(const CellRecord& rec, std::optional<double> tbw_bytes) {
  const std::optional<WearInputs> in = CellWearInputs(rec);
  return in ? ComputeSsdWear(*in, tbw_bytes) : SsdWear{};
}

}  // namespace tierbench
