// Results are identical across runs for a fixed thread count, and with
// ACL_OPT_DETERMINISTIC set, identical across thread counts too. Each
// configuration runs the probe in a fresh process (the thread count of the
// device engine's pool is fixed at start-up).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

// `max_isa`: CANOPY_MAX_ISA for the probe ("": the CPU's best).
std::string RunProbe(int threads, int deterministic, const std::string& max_isa = "") {
  const std::string command = "CANOPY_MAX_ISA=" + max_isa + " OMP_NUM_THREADS=" + std::to_string(threads) +
                              " " CANOPY_DETERMINISM_PROBE " " + std::to_string(deterministic);
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

// Each instruction set too: oneDNN's AVX2 gemm splits K over the threads it has
// (results differ between 1, 2 and 3 threads without the mode), while its
// AVX-512 kernels happen not to.
TEST(Determinism, DeterministicModeAgreesAcrossThreadCounts) {
  for (const std::string isa : {"", "avx2", "portable"}) {
    SCOPED_TRACE("CANOPY_MAX_ISA=" + isa);
    const std::string one = RunProbe(1, 1, isa);
    ASSERT_NE(one.find("addmm"), std::string::npos) << one;
    EXPECT_EQ(RunProbe(2, 1, isa), one);
    EXPECT_EQ(RunProbe(3, 1, isa), one);
  }
}

}  // namespace
