#include "util/csv_reader.h"

#include <algorithm>
#include <cstdlib>

#include "util/errors.h"

namespace tierbench {
namespace {

// Splits `text` into records of fields; `lines` gets each record's first
// line number.
std::vector<std::vector<std::string>> Records(const std::string& text,
                                              const std::string& label,
                                              std::vector<int>* lines) {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  bool any = false;  // the current record has content
  int line = 1;
  int record_line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        record.push_back(std::move(field));
        out.push_back(std::move(record));
        lines->push_back(record_line);
      }
      field.clear();
      record.clear();
      any = false;
      ++line;
      record_line = line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) {
    throw ConfigError(label + ":" + std::to_string(record_line) +
                      ": a quoted field is not closed. Fix: the file is "
                      "truncated or edited; re-run tierbench compare");
  }
  if (any || !field.empty()) {
    record.push_back(std::move(field));
    out.push_back(std::move(record));
    lines->push_back(record_line);
  }
  return out;
}

}  // namespace

CsvDocument CsvDocument::Parse(const std::string& text,
                               const std::string& label) {
  CsvDocument doc;
  doc.label_ = label;
  std::vector<int> lines;
  std::vector<std::vector<std::string>> records = Records(text, label, &lines);
  if (records.empty()) {
    throw ConfigError(label +
                      ": empty file, no header. Fix: the run did not get "
                      "far enough; re-run tierbench compare");
  }
  doc.header_ = std::move(records.front());
  for (size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() != doc.header_.size()) {
      throw ConfigError(label + ":" + std::to_string(lines[i]) + ": " +
                        std::to_string(records[i].size()) +
                        " fields, the header has " +
                        std::to_string(doc.header_.size()) +
                        ". Fix: the file is truncated or edited; re-run "
                        "tierbench compare");
    }
    doc.rows_.push_back(std::move(records[i]));
  }
  return doc;
}

int CsvDocument::Index(const std::string& column) const {
  auto it = std::find(header_.begin(), header_.end(), column);
  return it == header_.end() ? -1 : static_cast<int>(it - header_.begin());
}

bool CsvDocument::Has(const std::string& column) const {
  return Index(column) >= 0;
}

void CsvDocument::Require(const std::vector<std::string>& columns,
                          const std::string& fix) const {
  for (const std::string& c : columns) {
    if (!Has(c)) {
      throw ConfigError(label_ + ": missing column '" + c + "'. Fix: " + fix);
    }
  }
}

const std::string& CsvDocument::Get(size_t row,
                                    const std::string& column) const {
  static const std::string kEmpty;
  const int i = Index(column);
  if (i < 0 || row >= rows_.size()) return kEmpty;
  return rows_[row][static_cast<size_t>(i)];
}

std::optional<double> CsvDocument::Number(size_t row,
                                          const std::string& column) const {
  const std::string& v = Get(row, column);
  if (v.empty()) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return d;
}

}  // namespace tierbench
