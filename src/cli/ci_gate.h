// The CI gate's pieces that `tierbench check` and `tierbench compare
// --expect` share: parsing --expect options before anything runs, judging
// them on a run folder with one line each, and the --junit file.
#ifndef TIERBENCH_CLI_CI_GATE_H_
#define TIERBENCH_CLI_CI_GATE_H_

#include <ostream>
#include <string>
#include <vector>

#include "present/expectation.h"
#include "present/junit_xml.h"
#include "present/run_folder.h"

namespace tierbench {

// Every --expect text parsed; ConfigError naming the first bad one.
std::vector<Expectation> ParseExpectOptions(
    const std::vector<std::string>& texts);

// Judges each expectation on `run`, prints "  expect passed|FAILED: TEXT:
// why" per expectation to `out`, appends one JUnit case each (classname
// "expect") to `junit`; returns how many failed.
int JudgeExpectations(const std::vector<Expectation>& expectations,
                      const RunFolder& run, std::ostream& out,
                      std::vector<JUnitCase>* junit);

// Writes JUnitXml(suite, cases) to `path`; SysError naming it when it
// cannot.
void WriteJUnitFile(const std::string& path, const std::string& suite,
                    const std::vector<JUnitCase>& cases);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_CI_GATE_H_
