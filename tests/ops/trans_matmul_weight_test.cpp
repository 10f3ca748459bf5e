// TransMatmulWeight, CalculateMatmulWeightSize(V2) and FRACTAL_NZ weights in the
// matmul ops through the public C API, as ggml's weight-NZ path uses them: a
// weight [n, k] sized by CalculateMatmulWeightSizeV2, prepared in place by
// TransMatmulWeight, then passed to Mm / BatchMatMul / Matmul as a transposed
// [k, n] view in ACL_FORMAT_FRACTAL_NZ, must give the products of the ND
// weight (checked against float64); the size functions' documented values;
// every rejection with its status code.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

aclnnStatus SizeV2(const std::vector<int64_t>& shape, aclDataType dtype, uint64_t* size) {
  aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
  const aclnnStatus status = aclnnCalculateMatmulWeightSizeV2(array, dtype, size);
  aclDestroyIntArray(array);
  return status;
}

TEST(CalculateMatmulWeightSize, DocumentedSizes) {
  uint64_t size = 0;
  ASSERT_EQ(SizeV2({510, 510}, ACL_FLOAT16, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 262144u);  // the doc's example: [512, 512]
  ASSERT_EQ(SizeV2({510, 270}, ACL_INT8, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 147456u);  // [512, 288]
  ASSERT_EQ(SizeV2({3, 17, 33}, ACL_BF16, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u * 32 * 48);  // batch dims are not padded
  ASSERT_EQ(SizeV2({2, 1, 1, 1, 16, 32}, ACL_FLOAT16, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u * 16 * 32);
  const std::vector<int64_t> shape = {510, 510};
  aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
  ASSERT_EQ(aclnnCalculateMatmulWeightSize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 262144u);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyIntArray(array);
}

TEST(CalculateMatmulWeightSize, Rejects) {
  uint64_t size = 0;
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(nullptr, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_NULLPTR);
  const std::vector<int64_t> shape = {4, 4};
  aclIntArray* array = aclCreateIntArray(shape.data(), shape.size());
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(array, ACL_FLOAT16, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyIntArray(array);
  EXPECT_EQ(SizeV2({16}, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_INVALID);                     // rank 1
  EXPECT_EQ(SizeV2({1, 1, 1, 1, 1, 16, 16}, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_INVALID);  // rank 7
  EXPECT_EQ(SizeV2({0, 16}, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_INVALID);                  // empty
  EXPECT_EQ(SizeV2({16, -1}, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_INVALID);                 // negative
}

// CANN's code checks no dataType: FLOAT16 and BFLOAT16 pad the columns to 16,
// every other value (INT8, the INT32 of GroupedMatmulFinalizeRouting's doc
// examples, even a value no dtype has) to 32.
TEST(CalculateMatmulWeightSize, AnyDataTypeAsCannSizesIt) {
  uint64_t size = 0;
  ASSERT_EQ(SizeV2({1, 2048, 896}, ACL_INT32, &size), ACLNN_SUCCESS);  // GroupedMatmulFinalizeRouting's example
  EXPECT_EQ(size, 2048u * 896);
  ASSERT_EQ(SizeV2({40, 70}, ACL_INT32, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 48u * 96);
  ASSERT_EQ(SizeV2({17, 16}, ACL_FLOAT, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 32u * 32);
  ASSERT_EQ(SizeV2({16, 16}, static_cast<aclDataType>(1234), &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 16u * 32);
  ASSERT_EQ(SizeV2({16, 16}, ACL_BF16, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 16u * 16);
}

OpRun RunTrans(aclTensor* weight) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnTransMatmulWeightGetWorkspaceSize(weight, ws, ex); },
      aclnnTransMatmulWeight);
}

TEST(TransMatmulWeight, Rejects) {
  const auto run = [](aclDataType dtype, const Shape& shape, aclFormat format = ACL_FORMAT_ND) {
    return RunOp(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnTransMatmulWeightGetWorkspaceSize(args.NewTensor(dtype, shape, View::kContiguous, format), ws,
                                                        ex);
        },
        aclnnTransMatmulWeight);
  };
  EXPECT_TRUE(run(ACL_FLOAT16, {4, 8}).ok());
  EXPECT_TRUE(run(ACL_BF16, {2, 4, 8}).ok());
  EXPECT_TRUE(run(ACL_INT8, {1, 1, 1, 1, 4, 8}).ok());
  EXPECT_EQ(run(ACL_FLOAT, {4, 8}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(run(ACL_INT32, {4, 8}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(run(ACL_FLOAT16, {8}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(run(ACL_FLOAT16, {1, 1, 1, 1, 1, 4, 8}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(run(ACL_FLOAT16, {0, 8}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(run(ACL_FLOAT16, {4, 8}, ACL_FORMAT_FRACTAL_NZ).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(run(ACL_FLOAT16, {4, 8}, ACL_FORMAT_NCHW).phase1, ACLNN_ERR_PARAM_INVALID);
  const OpRun null_weight = RunTrans(nullptr);
  EXPECT_EQ(null_weight.phase1, ACLNN_ERR_PARAM_NULLPTR);
}

enum class Product { kMm, kBatchMatMul, kMatmul };

// ggml_cann_mat_mul_fp with GGML_CANN_WEIGHT_NZ: the weight [n, k] (ggml's ne0 = k)
// in a buffer of max(bytes, CalculateMatmulWeightSizeV2) elements, prepared by
// TransMatmulWeight on its [n, k] ND view, then multiplied as the transposed
// [k, n] view in FRACTAL_NZ (cubeMathType 2 for Mm / BatchMatMul, 1 for Matmul).
void GgmlWeightNz(aclDataType dtype, Product product, int64_t m, int64_t k, int64_t n) {
  Rng rng = Rng::ForCurrentTest();
  uint64_t padded = 0;
  ASSERT_EQ(SizeV2({n, k}, dtype, &padded), ACLNN_SUCCESS);
  const int64_t storage = std::max<int64_t>(n * k, static_cast<int64_t>(padded));
  DeviceTensor weight(dtype, Layout{{storage}, {1}, 0, {storage}});
  const Values stored = weight.FillRandom(rng, Range{-1, 1, 0.01});  // the first n * k are the [n, k] weight
  const int64_t ndDims[2] = {n, k}, ndStrides[2] = {k, 1};
  aclTensor* nd = aclCreateTensor(ndDims, 2, dtype, ndStrides, 0, ACL_FORMAT_ND, &storage, 1, weight.data());
  const OpRun trans = RunTrans(nd);
  aclDestroyTensor(nd);
  ASSERT_TRUE(trans.ok()) << Describe(trans);

  const bool batched = product != Product::kMm;
  const Shape xShape = batched ? Shape{1, m, k} : Shape{m, k}, yShape = batched ? Shape{1, m, n} : Shape{m, n};
  DeviceTensor x(dtype, xShape), ynz(dtype, yShape), ynd(dtype, yShape);
  const Values xv = x.FillRandom(rng, Range{-1, 1, 0.01});
  const std::vector<int64_t> wDims = batched ? std::vector<int64_t>{1, k, n} : std::vector<int64_t>{k, n};
  const std::vector<int64_t> wStrides = batched ? std::vector<int64_t>{n * k, 1, k} : std::vector<int64_t>{1, k};
  for (const aclFormat format : {ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_ND}) {
    DeviceTensor& y = format == ACL_FORMAT_ND ? ynd : ynz;
    y.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          aclTensor* w = aclCreateTensor(wDims.data(), wDims.size(), dtype, wStrides.data(), 0, format, &storage, 1,
                                         weight.data());
          aclnnStatus status = ACLNN_ERR_INNER;
          switch (product) {
            case Product::kMm:
              status = aclnnMmGetWorkspaceSize(args.Tensor(x), w, args.Tensor(y), 2, ws, ex);
              break;
            case Product::kBatchMatMul:
              status = aclnnBatchMatMulGetWorkspaceSize(args.Tensor(x), w, args.Tensor(y), 2, ws, ex);
              break;
            case Product::kMatmul:
              status = aclnnMatmulGetWorkspaceSize(args.Tensor(x), w, args.Tensor(y), 1, ws, ex);
              break;
          }
          aclDestroyTensor(w);
          return status;
        },
        product == Product::kMm            ? aclnnMm
        : product == Product::kBatchMatMul ? aclnnBatchMatMul
                                           : aclnnMatmul);
    ASSERT_TRUE(run.ok()) << Describe(run);
  }
  EXPECT_EQ(ynz.DownloadBytes(), ynd.DownloadBytes()) << "FRACTAL_NZ and ND weights give different products";
  Expected want;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      double sum = 0, magnitude = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        const double term = xv[r * k + kk].real() * stored[c * k + kk].real();
        sum += term;
        magnitude += std::abs(term);
      }
      want.values.push_back(sum);
      want.tolerance.push_back(2 * UnitRoundoff(dtype) * std::abs(sum) +
                               static_cast<double>(k + 4) * UnitRoundoff(ACL_FLOAT16) * magnitude);
    }
  }
  ExpectNear(ynz.ReadView(), want, "FRACTAL_NZ product");
}

TEST(WeightNz, GgmlMmF16Decode) { GgmlWeightNz(ACL_FLOAT16, Product::kMm, 1, 70, 50); }
TEST(WeightNz, GgmlMmF16Prefill) { GgmlWeightNz(ACL_FLOAT16, Product::kMm, 33, 64, 40); }
TEST(WeightNz, GgmlBatchMatMulF16) { GgmlWeightNz(ACL_FLOAT16, Product::kBatchMatMul, 5, 48, 30); }
TEST(WeightNz, GgmlMatmulF16) { GgmlWeightNz(ACL_FLOAT16, Product::kMatmul, 7, 40, 24); }
TEST(WeightNz, MmBf16) { GgmlWeightNz(ACL_BF16, Product::kMm, 4, 40, 24); }

}  // namespace
}  // namespace canopy_test
