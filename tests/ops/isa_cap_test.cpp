// CANOPY_MAX_ISA caps oneDNN's kernels as well as Canopy's own: after a matmul
// (which creates Canopy's oneDNN engine), oneDNN's effective ISA is within the
// cap. The suite runs plain and in the `avx2` variant (tests/ops/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "aclnnop/aclnn_matmul.h"
#include "oneapi/dnnl/dnnl.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

TEST(IsaCap, OneDnnStaysWithinCanopyMaxIsa) {
  OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* self = args.NewTensor(ACL_FLOAT, {128, 96});
        aclTensor* mat2 = args.NewTensor(ACL_FLOAT, {96, 64});
        aclTensor* out = args.NewTensor(ACL_FLOAT, {128, 64});
        return aclnnMatmulGetWorkspaceSize(self, mat2, out, 0, workspaceSize, executor);
      },
      aclnnMatmul);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
  const char* cap = std::getenv("CANOPY_MAX_ISA");
  if (cap != nullptr && std::strcmp(cap, "avx2") == 0) {
    // oneDNN's ISA values are feature bit sets: within AVX2 means no bit outside it.
    EXPECT_EQ(static_cast<unsigned>(isa) & ~static_cast<unsigned>(dnnl_cpu_isa_avx2), 0u) << "isa " << isa;
  } else if (cap == nullptr && std::getenv("CANOPY_CPU_FEATURES") == nullptr && __builtin_cpu_supports("avx2") &&
             __builtin_cpu_supports("fma")) {  // (clang knows no "f16c" here; every AVX2 CPU has it)
    // Uncapped on an AVX2 machine: the cap must not have been applied by mistake.
    EXPECT_EQ(static_cast<unsigned>(isa) & static_cast<unsigned>(dnnl_cpu_isa_avx2),
              static_cast<unsigned>(dnnl_cpu_isa_avx2))
        << "isa " << isa;
  }
}

}  // namespace
}  // namespace canopy_test
