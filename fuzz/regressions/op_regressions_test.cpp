// Op bugs found by fuzz_op_phase1 and meta-API bugs found by fuzz_meta_api,
// one test each, named after the known-bug number of docs/reliability.md.
// Each test states the behaviour the fix must give; until then it fails or,
// under AddressSanitizer/UndefinedBehaviorSanitizer, aborts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_zero.h"
#include "c_enum_calls.h"
#include "regression_environment.h"

namespace canopy::fuzz_regressions {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// A tensor over its own device buffer of `bytes` (at least one element's worth).
struct DeviceTensor {
  void* data = nullptr;
  aclTensor* tensor = nullptr;

  DeviceTensor(std::vector<int64_t> shape, aclDataType dtype, std::vector<int64_t> strides = {}, int64_t offset = 0,
               size_t bytes = 4096) {
    EXPECT_EQ(aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(data, bytes, 0, bytes), ACL_SUCCESS);
    const std::vector<int64_t> storage = {static_cast<int64_t>(bytes)};
    tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.empty() ? nullptr : strides.data(), offset,
                             ACL_FORMAT_ND, storage.data(), storage.size(), data);
    EXPECT_NE(tensor, nullptr);
  }
  ~DeviceTensor() {
    aclDestroyTensor(tensor);
    aclrtFree(data);
  }
  template <typename T>
  void Write(const std::vector<T>& values) {
    ASSERT_EQ(aclrtMemcpy(data, values.size() * sizeof(T), values.data(), values.size() * sizeof(T),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  template <typename T>
  std::vector<T> Read(size_t count) {
    std::vector<T> values(count);
    EXPECT_EQ(aclrtMemcpy(values.data(), count * sizeof(T), data, count * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return values;
  }
};

// Phase 2 on the default stream with a fresh workspace, then synchronise.
aclError RunPhase2(aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream), aclOpExecutor* executor,
                   uint64_t workspace_size) {
  void* workspace = nullptr;
  if (workspace_size > 0) {
    EXPECT_EQ(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  EXPECT_EQ(phase2(workspace, workspace_size, executor, nullptr), ACLNN_SUCCESS);
  const aclError status = aclrtSynchronizeStream(nullptr);
  if (workspace != nullptr) aclrtFree(workspace);
  return status;
}

// ---- fuzz_meta_api ---------------------------------------------------------------

// K1: with stride == NULL, aclCreateTensor derives contiguous strides by
// multiplying extents in int64 with no overflow check (meta_api.cpp
// ContiguousStrides): undefined behaviour. A shape whose element count does not
// fit in int64 must be refused.
TEST(FuzzRegressionK1, CreateTensorRefusesAShapeWhoseStridesOverflow) {
  ExpectNoCrash([] {
    const int64_t dims[] = {kInt64Max, kInt64Max, 2};
    aclTensor* tensor = aclCreateTensor(dims, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
    EXPECT_EQ(tensor, nullptr);
    aclDestroyTensor(tensor);
    (void)aclGetRecentErrMsg();
  });
}

// K2: the array and list constructors refuse (NULL, n > 0) without saying why.
TEST(FuzzRegressionK2, ArrayConstructorsExplainARefusal) {
  ExpectNoCrash([] {
    (void)aclGetRecentErrMsg();
    EXPECT_EQ(aclCreateIntArray(nullptr, 3), nullptr);
    EXPECT_STRNE(aclGetRecentErrMsg(), "") << "aclCreateIntArray";
    EXPECT_EQ(aclCreateFloatArray(nullptr, 3), nullptr);
    EXPECT_STRNE(aclGetRecentErrMsg(), "") << "aclCreateFloatArray";
    EXPECT_EQ(aclCreateBoolArray(nullptr, 3), nullptr);
    EXPECT_STRNE(aclGetRecentErrMsg(), "") << "aclCreateBoolArray";
    EXPECT_EQ(aclCreateTensorList(nullptr, 3), nullptr);
    EXPECT_STRNE(aclGetRecentErrMsg(), "") << "aclCreateTensorList";
    EXPECT_EQ(aclCreateScalarList(nullptr, 3), nullptr);
    EXPECT_STRNE(aclGetRecentErrMsg(), "") << "aclCreateScalarList";
  });
}

// K7: a C client may pass any int as aclDataType / aclFormat; reading a value
// outside the C++ enum's range as the enum is undefined behaviour (UBSan: "load
// of value 1000, which is not a valid value for type 'aclDataType'"). Such a
// value must be refused like any unknown dtype, without ever being loaded.
TEST(FuzzRegressionK7, OutOfRangeEnumValuesAreRefused) {
  ExpectNoCrash([] {
    int32_t value = 1;
    for (int bad : {1000, 64, -65}) {
      EXPECT_EQ(canopy_regression_create_scalar(&value, bad), nullptr) << bad;
      EXPECT_STRNE(aclGetRecentErrMsg(), "") << bad;
      const int64_t dims[] = {2};
      EXPECT_EQ(canopy_regression_create_tensor(dims, 1, bad, ACL_FORMAT_ND), nullptr) << bad;
      EXPECT_STRNE(aclGetRecentErrMsg(), "") << bad;
      EXPECT_EQ(canopy_regression_create_tensor(dims, 1, ACL_FLOAT, bad), nullptr) << bad;
      EXPECT_STRNE(aclGetRecentErrMsg(), "") << bad;
      EXPECT_EQ(canopy_regression_data_type_size(bad), 0u) << bad;

      DeviceTensor self({2}, ACL_FLOAT), out({2}, ACL_FLOAT);
      uint64_t workspace = 0;
      aclOpExecutor* executor = nullptr;
      EXPECT_EQ(canopy_regression_cast_workspace(self.tensor, bad, out.tensor, &workspace, &executor),
                ACLNN_ERR_PARAM_INVALID)
          << bad;
      EXPECT_NE(std::string(aclGetRecentErrMsg()).find("'dtype'"), std::string::npos) << bad;
    }
  });
}

// ---- fuzz_op_phase1 ----------------------------------------------------------------

// K3: integer Add/Sub/Mul compute in int64 with plain signed arithmetic
// (kernels/elementwise.cpp Compute): overflow is undefined behaviour. PyTorch
// semantics (and CANN's) wrap around.
TEST(FuzzRegressionK3, Int64AddAndMulWrapAround) {
  ExpectNoCrash([] {
    DeviceTensor self({2}, ACL_INT64), other({2}, ACL_INT64), out({2}, ACL_INT64);
    self.Write<int64_t>({kInt64Max, int64_t{1} << 62});
    other.Write<int64_t>({1, 4});
    int64_t one = 1;
    aclScalar* alpha = aclCreateScalar(&one, ACL_INT64);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(self.tensor, other.tensor, alpha, out.tensor, &workspace_size, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnAdd, executor, workspace_size), ACL_SUCCESS);
    EXPECT_EQ(out.Read<int64_t>(2)[0], kInt64Min);
    ASSERT_EQ(aclnnMulGetWorkspaceSize(self.tensor, other.tensor, out.tensor, &workspace_size, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnMul, executor, workspace_size), ACL_SUCCESS);
    EXPECT_EQ(out.Read<int64_t>(2)[1], 0);  // 2^62 * 4 wraps to 0
    aclDestroyScalar(alpha);
  });
}

// K4: phase 1 takes any stride and multiplies it by the extent when it merges
// dimensions (kernels::Coalesce): signed overflow. A view whose extent in
// elements does not fit in int64 must be refused with 161002.
TEST(FuzzRegressionK4, PhaseOneRefusesAViewWhoseStridesOverflow) {
  ExpectNoCrash([] {
    const int64_t dims[] = {4, 3};
    const int64_t strides[] = {28, kInt64Max};
    const int64_t storage[] = {4096};
    int word = 0;
    aclTensor* self = aclCreateTensor(dims, 2, ACL_UINT8, strides, 0, ACL_FORMAT_ND, storage, 1, &word);
    ASSERT_NE(self, nullptr);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnInplaceZeroGetWorkspaceSize(self, &workspace_size, &executor);
    EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID);
    if (status == ACLNN_SUCCESS) {
      aclSetAclOpExecutorRepeatable(executor);
      aclDestroyAclOpExecutor(executor);
    }
    aclDestroyTensor(self);
  });
}

// K5: phase 1 turns the element offset (and the view's last element) into bytes
// (Plan::RefOf, Plan::RecordAccess) without an overflow check.
TEST(FuzzRegressionK5, PhaseOneRefusesAnOffsetWhoseByteOffsetOverflows) {
  ExpectNoCrash([] {
    const int64_t storage[] = {4096};
    int word = 0;
    aclTensor* self = aclCreateTensor(nullptr, 0, ACL_FLOAT16, nullptr, kInt64Max, ACL_FORMAT_ND, storage, 1, &word);
    ASSERT_NE(self, nullptr);
    uint16_t half_one = 0x3c00;
    aclScalar* value = aclCreateScalar(&half_one, ACL_FLOAT16);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnInplaceFillScalarGetWorkspaceSize(self, value, &workspace_size, &executor);
    EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID);
    if (status == ACLNN_SUCCESS) {
      aclSetAclOpExecutorRepeatable(executor);
      aclDestroyAclOpExecutor(executor);
    }
    aclDestroyScalar(value);
    aclDestroyTensor(self);
  });
}

// K6: phase 1 multiplies the extents (TensorRef::NumElements, aclTensor::NumElements)
// without an overflow check; 16 x (2^63 - 1) elements (broadcast, stride 0) is accepted.
TEST(FuzzRegressionK6, PhaseOneRefusesAShapeWhoseElementCountOverflows) {
  ExpectNoCrash([] {
    const int64_t dims[] = {16, kInt64Max};
    const int64_t strides[] = {0, 0};
    const int64_t storage[] = {4096};
    int word = 0;
    aclTensor* self = aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, storage, 1, &word);
    ASSERT_NE(self, nullptr);
    uint16_t half_one = 0x3c00;
    aclScalar* other = aclCreateScalar(&half_one, ACL_FLOAT16);
    aclScalar* alpha = aclCreateScalar(&half_one, ACL_FLOAT16);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnInplaceAddsGetWorkspaceSize(self, other, alpha, &workspace_size, &executor);
    EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID);
    if (status == ACLNN_SUCCESS) {
      aclSetAclOpExecutorRepeatable(executor);
      aclDestroyAclOpExecutor(executor);
    }
    aclDestroyScalar(other);
    aclDestroyScalar(alpha);
    aclDestroyTensor(self);
  });
}

// K8: aclnnInplaceZero checks no rank; the elementwise descriptor holds 16
// dimensions, so rank 17 writes past it on the stack (Plan::Elementwise).
TEST(FuzzRegressionK8, InplaceZeroRefusesRankAboveEight) {
  ExpectNoCrash([] {
    const std::vector<int64_t> dims(17, 1);
    DeviceTensor self(dims, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnInplaceZeroGetWorkspaceSize(self.tensor, &workspace_size, &executor);
    EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID);
    if (status == ACLNN_SUCCESS) {
      aclSetAclOpExecutorRepeatable(executor);
      aclDestroyAclOpExecutor(executor);
    }
  });
}

// K9: DivMod checks "rounding mode with a complex operand" before the null
// checks, so a null out gives 161002 where CANN's order (nulls first) gives 161001.
TEST(FuzzRegressionK9, DivModsReportsANullOutputFirst) {
  ExpectNoCrash([] {
    DeviceTensor self({2}, ACL_FLOAT);
    float complex_value[2] = {1.0f, 2.0f};
    aclScalar* other = aclCreateScalar(complex_value, ACL_COMPLEX64);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnDivModsGetWorkspaceSize(self.tensor, other, /*mode=*/1, nullptr, &workspace_size, &executor),
              ACLNN_ERR_PARAM_NULLPTR);
    (void)aclGetRecentErrMsg();
    aclDestroyScalar(other);
  });
}

// K10: the matmul family hands oneDNN the strides of extent-1 dimensions as
// given (0 here, and 1 for out's leading dimensions); oneDNN accepts them when
// phase 1 builds the primitive, then fails at run time ("could not execute a
// primitive", 561000 at the synchronisation). Accepted views must run.
TEST(FuzzRegressionK10, MatmulRunsWhatPhaseOneAccepted) {
  ExpectNoCrash([] {
    DeviceTensor self({1, 1, 2}, ACL_FLOAT16, {0, 0, 1});
    DeviceTensor mat2({2, 64}, ACL_FLOAT);
    DeviceTensor out({1, 1, 64}, ACL_FLOAT, {1, 1, 1});
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMatmulGetWorkspaceSize(self.tensor, mat2.tensor, out.tensor, 0, &workspace_size, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(RunPhase2(aclnnMatmul, executor, workspace_size), ACL_SUCCESS) << aclGetRecentErrMsg();
  });
}

// K10 again: a negative stride on an extent-1 dimension of Addmm's selfRef.
TEST(FuzzRegressionK10, InplaceAddmmRunsWhatPhaseOneAccepted) {
  ExpectNoCrash([] {
    DeviceTensor self({1, 2}, ACL_FLOAT, {-2, 1}, /*offset=*/8);
    DeviceTensor mat1({1, 5}, ACL_FLOAT);
    DeviceTensor mat2({5, 2}, ACL_FLOAT);
    float one = 1.0f;
    aclScalar* beta = aclCreateScalar(&one, ACL_FLOAT);
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnInplaceAddmmGetWorkspaceSize(self.tensor, mat1.tensor, mat2.tensor, beta, alpha, 0, &workspace_size,
                                                &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(RunPhase2(aclnnInplaceAddmm, executor, workspace_size), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclDestroyScalar(beta);
    aclDestroyScalar(alpha);
  });
}

// K11: Mm hands oneDNN any extent; with M = 2^40 oneDNN's primitive creation in
// phase 1 dies of SIGFPE (an integer division in its blocking heuristics). Phase
// 1 must refuse shapes the kernel cannot take (161002), not crash.
TEST(FuzzRegressionK11, MmWithAHugeExtentIsRefusedNotACrash) {
  ExpectNoCrash([] {
    const int64_t huge = int64_t{1} << 40;
    const int64_t self_dims[] = {huge, 64}, self_strides[] = {64, 1};
    const int64_t mat2_dims[] = {64, 5}, mat2_strides[] = {5, 1};
    const int64_t out_dims[] = {huge, 5}, out_strides[] = {5, 1};
    const int64_t storage[] = {4096};
    int word = 0;
    aclTensor* self = aclCreateTensor(self_dims, 2, ACL_FLOAT16, self_strides, 0, ACL_FORMAT_ND, storage, 1, &word);
    aclTensor* mat2 = aclCreateTensor(mat2_dims, 2, ACL_FLOAT16, mat2_strides, 0, ACL_FORMAT_ND, storage, 1, &word);
    aclTensor* out = aclCreateTensor(out_dims, 2, ACL_FLOAT, out_strides, 0, ACL_FORMAT_ND, storage, 1, &word);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnMmGetWorkspaceSize(self, mat2, out, /*cubeMathType=*/4, &workspace_size, &executor);
    EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID);
    if (status == ACLNN_SUCCESS) {
      aclSetAclOpExecutorRepeatable(executor);
      aclDestroyAclOpExecutor(executor);
    }
    aclDestroyTensor(self);
    aclDestroyTensor(mat2);
    aclDestroyTensor(out);
  });
}

// K16: the check that every tensor view is addressable (Plan::CheckViewRepresentable,
// added by 6116891 and run by RunPhase1 before the op's recipe) comes before the
// op's null checks: a NULL value next to a selfRef with a negative stride gives
// 161002, where CANN reports the NULL first (161001).
TEST(FuzzRegressionK16, NullArgumentsAreReportedBeforeViewChecks) {
  ExpectNoCrash([] {
    DeviceTensor self({16, 16}, ACL_BF16, {-16, 1}, /*offset=*/240);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(self.tensor, nullptr, &workspace_size, &executor),
              ACLNN_ERR_PARAM_NULLPTR);
    (void)aclGetRecentErrMsg();
  });
}

// K18: the view check of 6116891 skips the offset of an empty view, and phase 1
// still turns that offset into a byte offset (Plan::RefOf: offset * 16 for
// COMPLEX128) with signed overflow. Found as aclnnDivs on [0,12,64] with offset
// 3797859073999025332; an empty view must be a no-op or a refusal, never UB.
TEST(FuzzRegressionK18, EmptyViewWithAHugeOffsetIsNotUndefined) {
  ExpectNoCrash([] {
    const int64_t dims[] = {0, 12, 64};
    const int64_t strides[] = {768, 64, 1};
    const int64_t storage[] = {4096};
    int word = 0;
    aclTensor* self = aclCreateTensor(dims, 3, ACL_COMPLEX128, strides, int64_t{3797859073999025332}, ACL_FORMAT_ND,
                                      storage, 1, &word);
    ASSERT_NE(self, nullptr);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnInplaceZeroGetWorkspaceSize(self, &workspace_size, &executor);
    EXPECT_TRUE(status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_INVALID) << status;
    if (status == ACLNN_SUCCESS) {
      aclSetAclOpExecutorRepeatable(executor);
      aclDestroyAclOpExecutor(executor);
    }
    (void)aclGetRecentErrMsg();
    aclDestroyTensor(self);
  });
}

// K19: what 6116891 left of K10: an output that overlaps itself (a 0 stride on an
// extent above 1) still reached oneDNN, which failed at run time ("could not execute
// a primitive", 561000 at the synchronisation). The product is now computed densely
// and stored through the view.
TEST(FuzzRegressionK19, MatmulIntoAnOverlappingOutputRuns) {
  ExpectNoCrash([] {
    for (int8_t cube_math_type : {0, 1, 2}) {
      DeviceTensor self({1, 1, 2, 3}, ACL_FLOAT, {0, 0, 0, 0});
      DeviceTensor mat2({1, 3, 1}, ACL_FLOAT, {0, 0, 0});
      DeviceTensor out({1, 1, 2, 1}, ACL_FLOAT, {0, 0, 0, 0});
      self.Write<float>({1.5f});
      mat2.Write<float>({-2.0f});
      uint64_t workspace_size = 0;
      aclOpExecutor* executor = nullptr;
      ASSERT_EQ(
          aclnnMatmulGetWorkspaceSize(self.tensor, mat2.tensor, out.tensor, cube_math_type, &workspace_size, &executor),
          ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      ASSERT_EQ(RunPhase2(aclnnMatmul, executor, workspace_size), ACL_SUCCESS) << aclGetRecentErrMsg();
      // Every element of the product is 3 × 1.5 × −2; all of them share out's one address.
      EXPECT_FLOAT_EQ(out.Read<float>(1)[0], -9.0f) << int(cube_math_type);
    }
  });
}

// K20: the overlap guard measured an empty output's byte span from its strides
// (ops/framework/overlap.cpp SpanOf): (extent - 1) * stride * element size
// overflowed for a stride phase 1 rightly ignores, since an empty view touches
// nothing. An empty view spans no bytes.
TEST(FuzzRegressionK20, EmptyOutputWithAHugeStrideRuns) {
  ExpectNoCrash([] {
    DeviceTensor self({3, 0, 5}, ACL_FLOAT), other({3, 0, 5}, ACL_FLOAT);
    DeviceTensor out({3, 0, 5}, ACL_FLOAT, {int64_t{1513210983744296257}, 6, 1});
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(self.tensor, other.tensor, alpha, out.tensor, &workspace_size, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(RunPhase2(aclnnAdd, executor, workspace_size), ACL_SUCCESS);
    aclDestroyScalar(alpha);
  });
}

}  // namespace
}  // namespace canopy::fuzz_regressions
