// aclnnQuantMatmulReduceSumWeightNz: out[m, n] = sum_b (x1[b] @ x2[b])[m, n] *
// x1Scale[b, m] * x2Scale[n], the INT8 products exact in INT32 (the quantised
// product shared with QuantMatmulV4, quant_matmul.h), scaled and summed over
// the batch in f32, stored as BFLOAT16.
//
// CANN's order and codes (all 161002 after the null checks): the reserved
// yScale, x1Offset, x2Offset, yOffset and bias non-empty; transposeX1,
// transposeX2 or keepDims true, groupSize > 0; dtypes; formats (x1, the scales
// and out not FRACTAL_NZ, x2 FRACTAL_NZ); x1 and x2 3-D with one batch and one
// k, x2Scale [n], x1Scale [b, m]. CANN checks neither dims nor out's shape nor
// x2's storage shape (its example declares a 1-D storage); Canopy takes dims
// [0] only (the doc's one value), out [m, n], and no empty operand (the doc's).
// x2 is read through its view (Canopy's NZ is ND, see trans_matmul_weight.cpp),
// and an ND x2 (the descriptor Canopy's TransMatmulWeight leaves) is taken too.
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_matmul_reduce_sum.h"
#include "kernels/parallel_for.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"
#include "quant_matmul.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kRank = 3;
constexpr int64_t kRowGrain = 16;

// sum[m, n] = sum_b product[b, m, n] * token[b, m] over dense f32 buffers, b in order.
class BatchSumStep final : public Step {
 public:
  BatchSumStep(const TensorRef& product, const TensorRef& token, const TensorRef& sum)
      : product_(product), token_(token), sum_(sum) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* product = reinterpret_cast<const float*>(context.Resolve(product_.buffer));
    const auto* token = reinterpret_cast<const float*>(context.Resolve(token_.buffer));
    auto* sum = reinterpret_cast<float*>(context.Resolve(sum_.buffer));
    const int64_t batch = product_.shape[0], m = product_.shape[1], n = product_.shape[2];
    kernels::ParallelFor(m, kRowGrain, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        float* row = sum + i * n;
        for (int64_t j = 0; j < n; ++j) row[j] = 0.0f;
        for (int64_t b = 0; b < batch; ++b) {
          const float t = token[b * m + i];
          const float* in = product + (b * m + i) * n;
          for (int64_t j = 0; j < n; ++j) row[j] += in[j] * t;
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "batch sum " + ShapeToString(product_.shape) + " -> " + ShapeToString(sum_.shape);
  }

 private:
  TensorRef product_, token_, sum_;
};

aclnnStatus Invalid(Plan& plan, const char* what, const aclTensor* t, const char* expected) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", what,
                     ShapeToString(t->view_shape).c_str(), expected);
}

aclnnStatus PlanQuantMatmulReduceSumWeightNz(Plan& plan, const aclTensor* x1, const aclTensor* x2,
                                             const aclTensor* x1_scale, const aclTensor* x2_scale,
                                             const aclTensor* y_scale, const aclTensor* x1_offset,
                                             const aclTensor* x2_offset, const aclTensor* y_offset,
                                             const aclTensor* bias, bool transpose_x1, bool transpose_x2,
                                             int64_t group_size, const aclIntArray* dims, bool keep_dims,
                                             const aclTensor* out) {
  for (const auto& [name, t] :
       {std::pair{"yScale", y_scale}, std::pair{"x1Offset", x1_offset}, std::pair{"x2Offset", x2_offset},
        std::pair{"yOffset", y_offset}, std::pair{"bias", bias}}) {
    if (t != nullptr && t->NumElements() != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is reserved: it must be null or empty (shape %s)",
                         name, ShapeToString(t->view_shape).c_str());
    }
  }
  for (const auto& [name, value] : {std::pair{"transposeX1", transpose_x1}, std::pair{"transposeX2", transpose_x2},
                                    std::pair{"keepDims", keep_dims}}) {
    if (value) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' must be false", name);
  }
  if (group_size > 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupSize' is %lld; it must be 0",
                       static_cast<long long>(group_size));
  }
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("x1Scale", x1_scale->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("x2Scale", x2_scale->dtype, {ACL_BF16}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_BF16}));
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x1Scale", x1_scale}, std::pair{"x2Scale", x2_scale}, std::pair{"out", out}}) {
    CANOPY_CHECK(plan.CheckPlainFormat(name, t));
  }
  if (x2->format != ACL_FORMAT_FRACTAL_NZ && x2->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x2' has format %d; it must be FRACTAL_NZ",
                       static_cast<int>(x2->format));
  }
  CANOPY_CHECK(plan.CheckRank("x1", x1, kRank, kRank));
  CANOPY_CHECK(plan.CheckRank("x2", x2, kRank, kRank));
  const int64_t batch = x1->view_shape[0], m = x1->view_shape[1], k = x1->view_shape[2];
  const int64_t n = x2->view_shape[2];
  if (x2->view_shape[0] != batch || x2->view_shape[1] != k) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x2 %s must be [batch, k, n] with x1 %s's batch and k",
                       ShapeToString(x2->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  if (x2_scale->rank() != 1 || x2_scale->view_shape[0] != n) {
    return Invalid(plan, "x2Scale", x2_scale, ShapeToString({n}).c_str());
  }
  if (x1_scale->rank() != 2 || x1_scale->view_shape[0] != batch || x1_scale->view_shape[1] != m) {
    return Invalid(plan, "x1Scale", x1_scale, ShapeToString({batch, m}).c_str());
  }
  if (dims->values != std::vector<int64_t>{0}) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dims' is %s; it must be [0] (the batch)",
                       ShapeToString(dims->values).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {m, n}));
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}}) {
    if (t->NumElements() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' %s is empty; it must not be", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }

  QuantProduct product;
  product.x1 = plan.Input(x1, "x1");
  product.x2 = plan.Input(x2, "x2");
  const TensorRef token = plan.Input(x1_scale, "x1Scale");
  product.scale = plan.Input(x2_scale, "x2Scale");
  for (const aclTensor* reserved : {y_scale, x1_offset, x2_offset, y_offset, bias}) {
    InputOrSkip(plan, reserved, "reserved");
  }
  const TensorRef result = plan.Output(out, "out");
  product.scale_count = n;
  product.m = m;
  product.n = n;
  product.k = k;
  product.batch = {batch};
  product.out = plan.Temporary(ACL_FLOAT, {batch, m, n});
  CANOPY_CHECK(PlanQuantProduct(plan, product));
  const TensorRef token_dense = plan.Contiguous(token, ACL_FLOAT);
  const TensorRef sum = plan.Temporary(ACL_FLOAT, {m, n});
  plan.AddStep(std::make_unique<BatchSumStep>(product.out, token_dense, sum), {product.out, token_dense}, sum);
  plan.Copy(sum, result);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(QuantMatmulReduceSumWeightNz, PlanQuantMatmulReduceSumWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_reduce_sum.h",
                          .dtypes = {ACL_INT8, ACL_FLOAT, ACL_BF16},
                          .private_formats = true,
                          .example = "i8[2,4,32] i8[2,32,16] f32[2,4] bf16[16] - - - - - false false 0 ints[0] false "
                                     "bf16[4,16]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, x1Scale),
                (const aclTensor*, x2Scale), (const aclTensor*, yScale, optional),
                (const aclTensor*, x1Offset, optional), (const aclTensor*, x2Offset, optional),
                (const aclTensor*, yOffset, optional), (const aclTensor*, bias, optional), (bool, transposeX1),
                (bool, transposeX2), (int64_t, groupSize), (const aclIntArray*, dims), (bool, keepDims),
                (aclTensor*, out))
