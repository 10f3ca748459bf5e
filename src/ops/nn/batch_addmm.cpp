// aclnnAddbmm / aclnnInplaceAddbmm: out [M, N] = beta * self + alpha * sum_i batch1[i] @ batch2[i];
// aclnnBaddbmm / aclnnInplaceBaddbmm: out [B, M, N] = beta * self + alpha * (batch1 @ batch2).
// The batch sum of Addbmm is one product over K' = B * K: [M, B*K] @ [B*K, N].
#include <algorithm>
#include <optional>

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kBatchRank = 3;

// Checks shared by both ops (CANN's order): dtypes and cubeMathType, batch1 and
// batch2 of rank 3 agreeing on K with batches equal or 1, one format for both.
aclnnStatus CheckBatchOperands(Plan& plan, const char* self_name, const aclTensor* self, const aclTensor* batch1,
                               const aclTensor* batch2, const aclScalar* beta, const aclScalar* alpha,
                               const char* out_name, const aclTensor* out, int8_t cube_math_type) {
  CANOPY_CHECK(CheckMatmulOperand(plan, "batch1", batch1));
  CANOPY_CHECK(CheckMatmulOperand(plan, "batch2", batch2));
  CANOPY_CHECK(CheckMatmulOperand(plan, self_name, self));
  CANOPY_CHECK(CheckMatmulOperand(plan, out_name, out));
  CANOPY_CHECK(CheckMatmulScales(plan, beta, alpha));
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  CANOPY_CHECK(plan.CheckRank("batch1", batch1, kBatchRank, kBatchRank));
  CANOPY_CHECK(plan.CheckRank("batch2", batch2, kBatchRank, kBatchRank));
  const Shape& b1 = batch1->view_shape;
  const Shape& b2 = batch2->view_shape;
  if (b1[2] != b2[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batch1 %s and batch2 %s do not agree on K", ShapeToString(b1).c_str(),
                       ShapeToString(b2).c_str());
  }
  if (b1[0] != b2[0] && b1[0] != 1 && b2[0] != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "batch sizes of batch1 (%lld) and batch2 (%lld) are neither equal nor 1",
                       static_cast<long long>(b1[0]), static_cast<long long>(b2[0]));
  }
  if (batch1->format != batch2->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batch1 (format %d) and batch2 (format %d) must have one format",
                       static_cast<int>(batch1->format), static_cast<int>(batch2->format));
  }
  return plan.CheckCastable(PromoteTypes(batch1->dtype, batch2->dtype), out_name, out->dtype);
}

// CANN requires self and the product to be both empty or both not.
aclnnStatus CheckEmptiness(Plan& plan, const char* self_name, const aclTensor* self, bool product_empty) {
  if ((self->NumElements() == 0) == product_empty) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s %s and batch1 @ batch2 must be both empty or both not", self_name,
                     ShapeToString(self->view_shape).c_str());
}

// `t` as one matrix of `shape`: a view where its strides allow, else a dense copy.
TensorRef AsMatrix(Plan& plan, const TensorRef& t, const Shape& shape) {
  if (std::optional<TensorRef> view = Reshape(t, shape)) return *view;
  const std::optional<TensorRef> dense = Reshape(plan.Contiguous(t, t.dtype), shape);
  return *dense;  // a contiguous tensor reshapes to any shape of its size
}

aclnnStatus PlanAddbmm(Plan& plan, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                       const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type,
                       bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(CheckBatchOperands(plan, self_name, self, batch1, batch2, beta, alpha, out_name, out, cube_math_type));
  if (self->dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self (%s) and out (%s) must have one dtype", DtypeName(self->dtype),
                       DtypeName(out->dtype));
  }
  const Shape& b1 = batch1->view_shape;
  const Shape& b2 = batch2->view_shape;
  CANOPY_CHECK(CheckEmptiness(plan, self_name, self, b1[1] == 0 || b2[2] == 0));
  CANOPY_CHECK(plan.CheckRank(self_name, self, 0, 2));
  const Shape shape = {b1[1], b2[2]};
  CANOPY_CHECK(CheckBiasAndOut(plan, self_name, self, shape, out_name, out));

  const TensorRef bias = plan.Input(self, self_name);
  const TensorRef a = plan.Input(batch1, "batch1");
  const TensorRef b = plan.Input(batch2, "batch2");
  const TensorRef result = plan.Output(out, out_name);
  const TensorRef broadcast_bias = BroadcastTo(bias, shape);
  const ProductTerms terms{MatmulScaleOf(alpha), MatmulScaleOf(beta), &broadcast_bias};
  if (result.NumElements() == 0) return ACLNN_SUCCESS;
  const int64_t batch = std::max(b1[0], b2[0]);
  const int64_t k = b1[2];
  const int64_t summed_k = batch * k;
  // [B, M, K] -> [M, B, K] -> [M, B*K]; [B, K, N] -> [B*K, N].
  const TensorRef a_rows = Permute(BroadcastTo(a, {batch, b1[1], k}), {1, 0, 2});
  const TensorRef lhs = AsMatrix(plan, a_rows, {b1[1], summed_k});
  const TensorRef rhs = AsMatrix(plan, BroadcastTo(b, {batch, k, b2[2]}), {summed_k, b2[2]});
  return PlanProduct(plan, lhs, rhs, result, cube_math_type, terms);
}

aclnnStatus PlanBaddbmm(Plan& plan, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                        const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type,
                        bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  const char* out_name = in_place ? "selfRef" : "out";
  CANOPY_CHECK(CheckBatchOperands(plan, self_name, self, batch1, batch2, beta, alpha, out_name, out, cube_math_type));
  const Shape& b1 = batch1->view_shape;
  const Shape& b2 = batch2->view_shape;
  CANOPY_CHECK(CheckEmptiness(plan, self_name, self, b1[0] == 0 || b1[1] == 0 || b2[2] == 0));
  // CANN sizes the product by batch1's batch, and rejects a result that self
  // would have to broadcast: a batch1 of batch 1 meets only a batch2 of batch 1.
  if (b1[0] == 1 && b2[0] != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "batch1 %s of batch 1 with batch2 %s: the product takes batch1's batch (CANN's shape rule)",
                       ShapeToString(b1).c_str(), ShapeToString(b2).c_str());
  }
  const Shape shape = {b1[0], b1[1], b2[2]};
  CANOPY_CHECK(CheckBiasAndOut(plan, self_name, self, shape, out_name, out));
  if (batch1->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batch1 (format %d) and %s (format %d) must have one format",
                       static_cast<int>(batch1->format), out_name, static_cast<int>(out->format));
  }

  const TensorRef bias = plan.Input(self, self_name);
  const TensorRef a = plan.Input(batch1, "batch1");
  const TensorRef b = plan.Input(batch2, "batch2");
  const TensorRef result = plan.Output(out, out_name);
  const TensorRef broadcast_bias = BroadcastTo(bias, shape);
  const ProductTerms terms{MatmulScaleOf(alpha), MatmulScaleOf(beta), &broadcast_bias};
  return PlanProduct(plan, a, b, result, cube_math_type, terms);
}

aclnnStatus AddbmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                         const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type) {
  return PlanAddbmm(plan, self, batch1, batch2, beta, alpha, out, cube_math_type, false);
}

aclnnStatus InplaceAddbmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                const aclScalar* beta, const aclScalar* alpha, int8_t cube_math_type) {
  return PlanAddbmm(plan, self, batch1, batch2, beta, alpha, self, cube_math_type, true);
}

aclnnStatus BaddbmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                          const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type) {
  return PlanBaddbmm(plan, self, batch1, batch2, beta, alpha, out, cube_math_type, false);
}

aclnnStatus InplaceBaddbmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                 const aclScalar* beta, const aclScalar* alpha, int8_t cube_math_type) {
  return PlanBaddbmm(plan, self, batch1, batch2, beta, alpha, self, cube_math_type, true);
}

constexpr OpTraits kAddbmm{.header = "aclnnop/aclnn_addbmm.h",
                           .dtypes = kMatmulDtypes,
                           .example = "f32[3,5] f32[2,3,4] f32[2,4,5] f32:1 f32:1 f32[3,5] 0"};
constexpr OpTraits kBaddbmm{.header = "aclnnop/aclnn_baddbmm.h",
                            .dtypes = kMatmulDtypes,
                            .example = "f32[2,3,5] f32[2,3,4] f32[2,4,5] f32:1 f32:1 f32[2,3,5] 0"};

}  // namespace

CANOPY_ACLNN_OP(Addbmm, AddbmmRecipe, kAddbmm, (const aclTensor*, self), (const aclTensor*, batch1),
                (const aclTensor*, batch2), (const aclScalar*, beta), (const aclScalar*, alpha), (aclTensor*, out),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(InplaceAddbmm, InplaceAddbmmRecipe, InPlace(kAddbmm, "f32[3,5] f32[2,3,4] f32[2,4,5] f32:1 f32:1 0"),
                (aclTensor*, selfRef), (const aclTensor*, batch1), (const aclTensor*, batch2), (const aclScalar*, beta),
                (const aclScalar*, alpha), (int8_t, cubeMathType))
CANOPY_ACLNN_OP(Baddbmm, BaddbmmRecipe, kBaddbmm, (const aclTensor*, self), (const aclTensor*, batch1),
                (const aclTensor*, batch2), (const aclScalar*, beta), (const aclScalar*, alpha), (aclTensor*, out),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(InplaceBaddbmm, InplaceBaddbmmRecipe,
                InPlace(kBaddbmm, "f32[2,3,5] f32[2,3,4] f32[2,4,5] f32:1 f32:1 0"), (const aclTensor*, selfRef),
                (const aclTensor*, batch1), (const aclTensor*, batch2), (const aclScalar*, beta),
                (const aclScalar*, alpha), (int8_t, cubeMathType))
