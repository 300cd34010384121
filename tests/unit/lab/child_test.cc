// Unit tests of LabChild (lab/lab_child.h) with /bin/sh children.
#include "lab/lab_child.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <string>
#include <vector>

namespace tierbench {
namespace {

std::vector<std::string> ReadAll(LabChild* child) {
  std::vector<std::string> lines;
  std::string line;
  for (;;) {
    LabChild::Read r = child->ReadLine(5000, &line);
    if (r == LabChild::Read::kEof) break;
    if (r == LabChild::Read::kLine) lines.push_back(line);
  }
  return lines;
}

TEST(LabChild, ReadsStdoutAndStderrLinesAndTheExitCode) {
  LabChild child;
  ASSERT_TRUE(
      child
          .Start({"sh", "-c",
                  "echo one; echo two >&2; printf 'cr\\r\\nlast'; exit 7"})
          .ok());
  std::vector<std::string> lines = ReadAll(&child);
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "cr", "last"}));
  EXPECT_EQ(child.Wait(), 7);
}

TEST(LabChild, MissingProgramIsNotFound) {
  LabChild child;
  Status s = child.Start({"/nonexistent/tierbench-lab-tool"});
  EXPECT_EQ(s.code(), Status::Code::kNotFound) << s.ToString();
  EXPECT_NE(s.message().find("/nonexistent/tierbench-lab-tool"),
            std::string::npos);
}

TEST(LabChild, KillGroupEndsTheChildAndWhatItStarted) {
  LabChild child;
  // The shell starts a grandchild in the same group and waits for it.
  ASSERT_TRUE(child.Start({"sh", "-c", "sleep 60 & echo started; wait"}).ok());
  std::string line;
  ASSERT_EQ(child.ReadLine(5000, &line), LabChild::Read::kLine);
  EXPECT_EQ(line, "started");
  child.KillGroup();
  EXPECT_EQ(child.Wait(), 128 + SIGKILL);
  // The grandchild held the pipe open; EOF means it is gone as well.
  EXPECT_EQ(child.ReadLine(5000, &line), LabChild::Read::kEof);
}

TEST(LabChild, ReadLineTimesOutWhileTheChildIsQuiet) {
  LabChild child;
  ASSERT_TRUE(child.Start({"sh", "-c", "sleep 2; echo late"}).ok());
  std::string line;
  EXPECT_EQ(child.ReadLine(50, &line), LabChild::Read::kTimeout);
  child.KillGroup();
  child.Wait();
}

TEST(LabChild, StdinPipeFeedsTheChild) {
  LabChild child;
  ASSERT_TRUE(
      child.Start({"sh", "-c", "echo ready; read -r l; echo got:$l"}, "", true)
          .ok());
  std::string line;
  ASSERT_EQ(child.ReadLine(5000, &line), LabChild::Read::kLine);
  EXPECT_EQ(line, "ready");
  ASSERT_TRUE(child.WriteInput("@@HOST:labels a=1\n").ok());
  ASSERT_EQ(child.ReadLine(5000, &line), LabChild::Read::kLine);
  EXPECT_EQ(line, "got:@@HOST:labels a=1");
  EXPECT_EQ(child.Wait(), 0);
}

TEST(LabChild, WritingToAGoneChildIsAnErrorNotSigpipe) {
  LabChild child;
  ASSERT_TRUE(child.Start({"sh", "-c", "exit 0"}, "", true).ok());
  EXPECT_EQ(child.Wait(), 0);
  // The read end is closed: EPIPE, and tierbench lives on.
  Status s = child.WriteInput("late\n");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Broken pipe"), std::string::npos) << s.message();
  LabChild no_pipe;
  ASSERT_TRUE(no_pipe.Start({"sh", "-c", "exit 0"}).ok());
  EXPECT_EQ(no_pipe.WriteInput("x\n").code(), Status::Code::kInvalidArgument);
  no_pipe.Wait();
}

TEST(RunLabTool, CapturesOutputAndExitCode) {
  int rc = -1;
  std::string out;
  ASSERT_TRUE(
      RunLabTool({"sh", "-c", "echo a; echo b; exit 3"}, &rc, &out).ok());
  EXPECT_EQ(rc, 3);
  EXPECT_EQ(out, "a\nb\n");
}

}  // namespace
}  // namespace tierbench
