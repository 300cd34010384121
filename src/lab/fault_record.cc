#include "lab/fault_record.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <utility>

namespace tierbench {
namespace {

using nlohmann::json;

Status Missing(const std::string& layer, const std::string& key) {
  return Status::InvalidArgument("no " + layer + "." + key + " line");
}

// A check-blocks object, or InvalidArgument naming `what`.
Status ParseObject(const std::string& what, const std::string& text,
                   json* out) {
  *out = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!out->is_object()) {
    return Status::InvalidArgument(what + " is not a check-blocks object: '" +
                                   text + "'");
  }
  if (out->contains("error")) {
    return Status::InvalidArgument(
        what + ": check-blocks failed: " + out->value("error", std::string()));
  }
  return Status::Ok();
}

Status Count(const std::string& what, const json& j, const char* key,
             uint64_t* out) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) {
    return Status::InvalidArgument(what + " has no count '" + key + "'");
  }
  *out = it->get<uint64_t>();
  return Status::Ok();
}

// The writer's passes after the first: blocks tried and failed. A pass
// that could not run at all (its device gone) failed its whole region.
Status AddWriterPass(const std::string& what, const std::string& text,
                     uint64_t region_blocks, FaultLayer* out) {
  json j = json::parse(text, nullptr, false);
  if (j.is_object() && j.contains("error")) {
    out->writer_blocks += region_blocks;
    out->writer_errors += region_blocks;
    if (out->writer_first_error.empty()) {
      out->writer_first_error = j.value("error", std::string());
    }
    return Status::Ok();
  }
  Status s = ParseObject(what, text, &j);
  uint64_t blocks = 0, written = 0, errors = 0;
  if (s.ok()) s = Count(what, j, "blocks", &blocks);
  if (s.ok()) s = Count(what, j, "written", &written);
  if (s.ok()) s = Count(what, j, "write_errors", &errors);
  if (!s.ok()) return s;
  const bool synced = j.value("synced", false);
  out->writer_blocks += blocks;
  out->writer_errors += synced ? errors : blocks;
  if (out->writer_first_error.empty()) {
    out->writer_first_error = j.value("first_error", std::string());
  }
  return Status::Ok();
}

// The milliseconds of key `key` (a non-negative number) into *out.
Status Millis(const PowerCutRecord& r, const std::string& layer,
              const std::string& key, double* out) {
  const std::string* v = FindRecordLine(r, layer, key);
  if (v == nullptr) return Missing(layer, key);
  char* end = nullptr;
  *out = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end != '\0' || *out < 0) {
    return Status::InvalidArgument(layer + "." + key + " '" + *v +
                                   "' is not a number of milliseconds");
  }
  return Status::Ok();
}

}  // namespace

Status ParseFaultRead(const std::string& what, const std::string& text,
                      uint64_t blocks, FaultBlocks* out) {
  *out = FaultBlocks();
  if (text == "gone" || text == "hung") {
    out->gone = text == "gone";
    out->hung = text == "hung";
    out->lost = blocks;
    out->first_error =
        out->gone ? "the device was gone" : "the read did not return";
    return Status::Ok();
  }
  json j;
  Status s = ParseObject(what, text, &j);
  uint64_t total = 0;
  if (s.ok()) s = Count(what, j, "blocks", &total);
  if (s.ok()) s = Count(what, j, "intact", &out->intact);
  if (s.ok()) s = Count(what, j, "stale", &out->stale);
  if (s.ok()) s = Count(what, j, "lost", &out->lost);
  if (s.ok()) s = Count(what, j, "corrupt", &out->corrupt);
  if (!s.ok()) return s;
  if (total != blocks || out->total() != blocks) {
    return Status::InvalidArgument(
        what + " counts " + std::to_string(out->total()) + " of " +
        std::to_string(total) + " blocks, expected " + std::to_string(blocks));
  }
  out->first_error = j.value("first_error", std::string());
  if (out->first_error.empty()) {
    out->first_error = j.value("first_corrupt", std::string());
  }
  return Status::Ok();
}

Status FaultLayerFromGuest(const std::string& layer,
                           const PowerCutRecord& record, FaultLayer* out) {
  *out = FaultLayer();
  out->layer = layer;
  out->block_bytes = kFaultBlockBytes;
  for (auto [key, field] :
       {std::pair<const char*, std::string*>{"device", &out->device},
        {"fault", &out->fault},
        {"state_after", &out->state_after},
        {"recovery", &out->recovery},
        {"recovered_state", &out->recovered_state}}) {
    const std::string* v = FindRecordLine(record, layer, key);
    if (v == nullptr) return Missing(layer, key);
    *field = *v;
  }
  if (const std::string* k = FindRecordLine(record, layer, "kernel")) {
    out->kernel_log = *k;
  }
  // Generations 1 (on the origin) and 2 (through the stack): the whole
  // region acknowledged, or the setup failed and no count would mean what
  // its column says.
  uint64_t blocks = 0;
  Status s;
  for (const char* key : {"write1", "write2"}) {
    const std::string what = layer + "." + key;
    const std::string* w = FindRecordLine(record, layer, key);
    if (w == nullptr) return Missing(layer, key);
    json j;
    s = ParseObject(what, *w, &j);
    uint64_t n = 0, acknowledged = 0;
    if (s.ok()) s = Count(what, j, "blocks", &n);
    if (s.ok()) s = Count(what, j, "acknowledged", &acknowledged);
    if (!s.ok()) return s;
    if (n == 0 || acknowledged != n || (blocks != 0 && n != blocks)) {
      return Status::InvalidArgument(
          what + " acknowledged " + std::to_string(acknowledged) + " of " +
          std::to_string(n) + " blocks before the fault");
    }
    blocks = n;
  }
  out->blocks = blocks;
  s = PowerCutDirtyAtCut(layer, record, &out->dirty_bytes_at_fault,
                         &out->dirty_at_fault);
  if (!s.ok()) return s;
  // The writer: the passes that ended before the switch began ran on a
  // healthy stack; the one in flight and the later ones count.
  const std::string* before = FindRecordLine(record, layer, "io_passes_before");
  if (before == nullptr) return Missing(layer, "io_passes_before");
  char* end = nullptr;
  const long first = std::strtol(before->c_str(), &end, 10) + 1;
  if (end == before->c_str() || *end != '\0' || first < 2) {
    return Status::InvalidArgument(layer + ".io_passes_before '" + *before +
                                   "': the writer did not finish a pass "
                                   "before the fault");
  }
  for (long k = first;; ++k) {
    const std::string key = "io_pass" + std::to_string(k);
    const std::string* pass = FindRecordLine(record, layer, key);
    if (pass == nullptr) break;
    s = AddWriterPass(layer + "." + key, *pass, blocks, out);
    if (!s.ok()) return s;
  }
  const std::string* writer = FindRecordLine(record, layer, "writer");
  if (writer == nullptr) return Missing(layer, "writer");
  out->writer_hung = *writer == "hung";
  if (out->writer_blocks == 0 && !out->writer_hung) {
    return Status::InvalidArgument(layer +
                                   " has no writer pass after the fault");
  }
  for (auto [key, field] :
       {std::pair<const char*, FaultBlocks*>{"stack_read", &out->stack},
        {"recovered_read", &out->recovered},
        {"origin_read", &out->origin}}) {
    const std::string* v = FindRecordLine(record, layer, key);
    if (v == nullptr) return Missing(layer, key);
    s = ParseFaultRead(layer + "." + key, *v, blocks, field);
    if (!s.ok()) return s;
  }
  double usable_ms = 0;
  s = Millis(record, layer, "recovery_ms", &out->recovery_ms);
  if (s.ok()) s = Millis(record, layer, "usable_after_ms", &usable_ms);
  if (!s.ok()) return s;
  if (!out->recovered.gone && out->recovered.lost == 0) {
    out->usable_again_ms = usable_ms;
  }
  return Status::Ok();
}

}  // namespace tierbench
