// Results are identical across runs for a fixed thread count, and with
// ACL_OPT_DETERMINISTIC set, identical across thread counts too. Each
// configuration runs the probe in a fresh process (the thread count of the
// device engine's pool is fixed at start-up).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

std::string RunProbe(int threads, int deterministic) {
  const std::string command =
      "OMP_NUM_THREADS=" + std::to_string(threads) + " " CANOPY_DETERMINISM_PROBE " " + std::to_string(deterministic);
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::array<char, 256> line;
  while (fgets(line.data(), line.size(), pipe) != nullptr) output += line.data();
  const int status = pclose(pipe);
  if (status != 0) output += "exit status " + std::to_string(status);
  return output;
}

TEST(Determinism, RepeatedRunsAgreeBitForBit) {
  const std::string first = RunProbe(2, 0);
  ASSERT_NE(first.find("matmul"), std::string::npos) << first;
  EXPECT_EQ(RunProbe(2, 0), first);
}

TEST(Determinism, DeterministicModeAgreesAcrossThreadCounts) {
  const std::string one = RunProbe(1, 1);
  ASSERT_NE(one.find("addmm"), std::string::npos) << one;
  EXPECT_EQ(RunProbe(2, 1), one);
  EXPECT_EQ(RunProbe(3, 1), one);
}

}  // namespace
