#include "lab_test_util.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tierbench::labtest {
namespace {

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Splits CSV text into records of fields (quotes may hold commas, quotes
// doubled, newlines).
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
    } else if (c == '\n') {
      row.push_back(field);
      field.clear();
      rows.push_back(row);
      row.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::string TierbenchBinary() {
  const char* env = getenv("TIERBENCH_BIN");
  return env && *env ? env : TIERBENCH_BINARY;
}

std::string LabUnavailableReason() {
  const char* skip = getenv("TIERBENCH_SKIP_LAB");
  if (skip && *skip) return "TIERBENCH_SKIP_LAB is set (scripts/test --quick)";
  if (system("command -v qemu-system-x86_64 >/dev/null 2>&1") != 0) {
    return "qemu-system-x86_64 not found; run ./scripts/install-deps";
  }
  return "";
}

bool KernelPackageUnavailable(const std::string& output) {
  return output.find("apt-get download") != std::string::npos ||
         output.find("cannot resolve the kernel package") != std::string::npos;
}

int RunLab(const std::vector<std::string>& args, std::string* output) {
  std::string cmd = ShellQuote(TierbenchBinary()) + " lab";
  bool timeout = false;
  for (const std::string& a : args) {
    cmd += " " + ShellQuote(a);
    timeout = timeout || a.rfind("--timeout", 0) == 0;
  }
  // A guest that hangs fails its test within kLabTestTimeoutS, not the
  // lab's own 1,800 s.
  if (!timeout) cmd += " --timeout=" + std::to_string(kLabTestTimeoutS);
  cmd += " 2>&1";
  output->clear();
  // What the run cost: its wall time, and the CPU time of tierbench and
  // QEMU (waited-for children accumulate into RUSAGE_CHILDREN), so the
  // suite's time can be put where the CPU went (build/lab-logs).
  rusage before{}, after{};
  getrusage(RUSAGE_CHILDREN, &before);
  const auto start = std::chrono::steady_clock::now();
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) output->append(buf, n);
  int status = pclose(p);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  getrusage(RUSAGE_CHILDREN, &after);
  const auto secs = [](const timeval& a, const timeval& b) {
    return static_cast<double>(b.tv_sec - a.tv_sec) +
           static_cast<double>(b.tv_usec - a.tv_usec) / 1e6;
  };
  char cost[160];
  snprintf(cost, sizeof(cost),
           "lab run: %.0f s wall, %.0f s CPU (user %.0f s, system %.0f s)\n",
           wall_s,
           secs(before.ru_utime, after.ru_utime) +
               secs(before.ru_stime, after.ru_stime),
           secs(before.ru_utime, after.ru_utime),
           secs(before.ru_stime, after.ru_stime));
  // A copy for whoever wants a passing run's output too (scripts/test:
  // build/lab-logs, where the guest's step times show where the time went).
  const char* logs = getenv("TIERBENCH_LAB_LOGS");
  const ::testing::TestInfo* test =
      ::testing::UnitTest::GetInstance()->current_test_info();
  if (logs != nullptr && *logs != '\0' && test != nullptr) {
    std::error_code ec;
    std::filesystem::create_directories(logs, ec);
    std::ofstream log(std::string(logs) + "/" + test->test_suite_name() + "." +
                          test->name() + ".log",
                      std::ios::app);
    log << "$ " << cmd << "\n" << *output << cost;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::vector<CsvRow> ReadCsv(const std::string& path) {
  std::vector<std::vector<std::string>> rows = ParseCsv(ReadText(path));
  std::vector<CsvRow> out;
  if (rows.empty()) return out;
  const std::vector<std::string>& header = rows[0];
  for (size_t r = 1; r < rows.size(); ++r) {
    CsvRow row;
    for (size_t c = 0; c < header.size() && c < rows[r].size(); ++c) {
      row[header[c]] = rows[r][c];
    }
    out.push_back(row);
  }
  return out;
}

double Num(const CsvRow& row, const std::string& col) {
  // Which row, for the message: the columns that name one.
  std::string which;
  for (const char* key : {"mode", "workload", "direction", "layer", "mark"}) {
    const std::string value = Get(row, key);
    if (!value.empty()) {
      which += (which.empty() ? " (" : ", ") + std::string(key) + " " + value;
    }
  }
  if (!which.empty()) which += ")";
  const auto it = row.find(col);
  if (it == row.end() || it->second.empty()) {
    ADD_FAILURE() << "CSV row" << which << " has no value for column '" << col
                  << "'" << (it == row.end() ? " (no such column)" : "");
    return std::nan("");
  }
  const char* text = it->second.c_str();
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') {
    ADD_FAILURE() << "CSV row" << which << " holds '" << it->second
                  << "' in column '" << col << "', not a number";
    return std::nan("");
  }
  return value;
}

bool Has(const CsvRow& row, const std::string& col) {
  const auto it = row.find(col);
  return it != row.end() && !it->second.empty();
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ScratchDir::ScratchDir() {
  std::string tmpl = std::filesystem::temp_directory_path().string() +
                     "/tierbench-labtest.XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) != nullptr) path_ = buf.data();
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

}  // namespace tierbench::labtest

namespace tierbench::labtest {

void ExpectCaptureReplayPassed(const std::string& guest_tests) {
  const size_t run = guest_tests.find("[ RUN      ] CaptureReplayTest.");
  ASSERT_NE(run, std::string::npos) << "the capture test did not run\n"
                                    << guest_tests;
  const size_t ok = guest_tests.find("[       OK ] CaptureReplayTest.", run);
  const size_t end = guest_tests.find("\n[ ", run + 1);
  const std::string its_output =
      guest_tests.substr(run, (ok == std::string::npos ? end : ok) - run);
  EXPECT_NE(ok, std::string::npos) << its_output;
  EXPECT_EQ(its_output.find("SKIPPED"), std::string::npos) << its_output;
  std::istringstream lines(its_output);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(": device counted ") != std::string::npos) {
      std::cout << "guest " << line << std::endl;
    }
  }
}

void ExpectVerified(const std::string& run_dir,
                    const std::vector<std::string>& layers) {
  const std::string text = ReadText(run_dir + "/manifest.json");
  const nlohmann::json m = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(m.is_discarded()) << run_dir << "/manifest.json: " << text;
  EXPECT_EQ(m["options"]["verify_bytes"], 4 << 20);
  ASSERT_TRUE(m["verify"].is_object()) << m["verify"].dump();
  const nlohmann::json& stacks = m["verify"]["stacks"];
  ASSERT_EQ(stacks.size(), layers.size()) << stacks.dump(1);
  for (size_t i = 0; i < layers.size(); ++i) {
    const nlohmann::json& v = stacks[i];
    EXPECT_EQ(v["layer"], layers[i]);
    EXPECT_EQ(v["verified"], true) << v.dump(1);
    EXPECT_EQ(v["errors"], 0) << v.dump(1);
    EXPECT_EQ(v["blocks"], 1024);
    EXPECT_GT(v["dirty_bytes_after_write"].get<int64_t>(), 0)
        << "no dirty data after the writes: the check proved little. "
        << v.dump(1);
    std::cout << "verify: " << layers[i] << " dirty after the writes "
              << v["dirty_bytes_after_write"] << " B, " << v["seconds"]
              << " s for " << v["steps"].size() << " steps" << std::endl;
    ::testing::Test::RecordProperty("verify_" + layers[i],
                                    v["seconds"].dump() + " s, dirty " +
                                        v["dirty_bytes_after_write"].dump());
  }
}

std::map<std::string, std::string> ManifestLabels(const std::string& run_dir) {
  std::map<std::string, std::string> labels;
  const nlohmann::json m = nlohmann::json::parse(
      ReadText(run_dir + "/manifest.json"), nullptr, false);
  if (m.is_discarded() || !m.is_object() || !m.contains("labels") ||
      !m["labels"].is_object()) {
    return labels;
  }
  for (const auto& [key, value] : m["labels"].items()) {
    if (value.is_string()) labels[key] = value.get<std::string>();
  }
  return labels;
}

void ExpectDilatedLimits(const std::string& run_dir, uint64_t hdd_iops,
                         uint64_t hdd_bw, uint64_t ssd_iops, uint64_t ssd_bw,
                         double* dilation) {
  *dilation = 0;
  const std::map<std::string, std::string> labels = ManifestLabels(run_dir);
  auto label = [&labels](const std::string& key) {
    auto it = labels.find(key);
    return it == labels.end() ? std::string() : it->second;
  };
  const std::string f_text = label("lab.dilation");
  ASSERT_FALSE(f_text.empty())
      << "no lab.dilation label in " << run_dir << "/manifest.json";
  char* end = nullptr;
  const double f = std::strtod(f_text.c_str(), &end);
  ASSERT_TRUE(end != f_text.c_str() && *end == '\0')
      << "lab.dilation is not a number: '" << f_text << "'";
  EXPECT_GE(f, 1.0);
  EXPECT_LE(f, 1000.0);
  const std::pair<const char*, uint64_t> limits[] = {{"lab.hdd_iops", hdd_iops},
                                                     {"lab.hdd_bw", hdd_bw},
                                                     {"lab.ssd_iops", ssd_iops},
                                                     {"lab.ssd_bw", ssd_bw}};
  for (const auto& [key, real] : limits) {
    const std::string got = label(key);
    ASSERT_FALSE(got.empty()) << "no " << key << " label";
    const long long dilated = std::llround(static_cast<double>(real) / f);
    const uint64_t want =
        real == 0 ? 0 : static_cast<uint64_t>(dilated < 1 ? 1 : dilated);
    EXPECT_EQ(got, std::to_string(want))
        << key << ": real " << real << " / dilation " << f_text;
  }
  *dilation = f;
}

void ExpectBootedAgainAfterTheHang(const std::string& output,
                                   const std::string& lab_dir) {
  EXPECT_NE(output.find("booting again on the same disks: the guest's kernel "
                        "hung while it built its stacks (a read of the "
                        "suspended dm device tb-hang (test aid) did not "
                        "return within 5 s); the hung boot's kernel log goes "
                        "to lab/hang/dmesg.txt"),
            std::string::npos)
      << output;
  const std::string dmesg = ReadText(lab_dir + "hang/dmesg.txt");
  EXPECT_NE(dmesg.find("Show Blocked State"), std::string::npos) << dmesg;
  EXPECT_NE(dmesg.find("task:dd"), std::string::npos) << dmesg;
  EXPECT_NE(ReadText(lab_dir + "hang/failure.txt").find("the kernel hung"),
            std::string::npos);
  const std::string console = ReadText(lab_dir + "console.log");
  EXPECT_NE(console.find("@@LAB:hang "), std::string::npos);
  EXPECT_NE(console.find("the boot after the test aid's hang"),
            std::string::npos);
}

}  // namespace tierbench::labtest
