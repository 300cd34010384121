#include "util/csv_writer.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "util/errors.h"

namespace tierbench {

CsvTable::CsvTable(std::vector<std::string> columns, int schema_version)
    : columns_(std::move(columns)), schema_version_(schema_version) {}

void CsvTable::AddRow(std::vector<std::string> values) {
  if (values.size() != columns_.size()) {
    throw std::invalid_argument("CSV row does not match its header. Values: " +
                                std::to_string(values.size()) + "; Columns: " +
                                std::to_string(columns_.size()));
  }
  rows_.push_back(std::move(values));
}

std::string CsvTable::Escape(std::string_view field) {
  const bool needs_quotes =
      field.find_first_of(",\"\r\n") != std::string_view::npos ||
      (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!needs_quotes) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void CsvTable::Write(std::ostream& out) const {
  out << "schema_version";
  for (const std::string& c : columns_) out << ',' << Escape(c);
  out << '\n';
  for (const auto& row : rows_) {
    out << schema_version_;
    for (const std::string& v : row) out << ',' << Escape(v);
    out << '\n';
  }
}

std::string CsvNumber(double value, int decimals) {
  if (!std::isfinite(value)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string CsvNumber(uint64_t value) { return std::to_string(value); }

std::string CsvOptional(const std::optional<double>& v, int decimals) {
  return v ? CsvNumber(*v, decimals) : std::string();
}

std::string CsvCount(const std::optional<uint64_t>& v) {
  return v ? CsvNumber(*v) : std::string();
}

std::string CsvFlag(const std::optional<bool>& v) {
  return v ? (*v ? "1" : "0") : "";
}

std::string JoinWarnings(const std::vector<std::string>& warnings) {
  std::string out;
  for (const std::string& w : warnings) out += (out.empty() ? "" : ";") + w;
  return out;
}

void CsvTable::WriteFile(const std::string& path) const {
  std::ofstream file(path);
  Write(file);
  file.flush();
  if (!file) {
    throw SysError("Cannot write " + path.substr(path.rfind('/') + 1) +
                   ". Path: " + path +
                   "; Fix: check that the results directory is writable");
  }
}

}  // namespace tierbench
