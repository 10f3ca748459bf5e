// aclnnMatmul (torch.matmul semantics), aclnnMm (2-D) and aclnnBatchMatMul (3-D),
// and their weight-NZ forms aclnnMatmulWeightNz (2-D) and aclnnBatchMatMulWeightNz
// (3-D). mat2 may come in FRACTAL_NZ, the format of a weight
// aclnnTransMatmulWeight has prepared; on Canopy that layout is the weight's ND
// layout, so such a mat2 is read through its view like any other (see
// trans_matmul_weight.cpp), and the WeightNz forms take an ND mat2 too (the
// descriptor the client made, which CANN's TransMatmulWeight would relabel).
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr OpTraits kMatmul{
    .header = "aclnnop/aclnn_matmul.h", .dtypes = kMatmulDtypes, .max_rank = 6, .private_formats = true};
constexpr OpTraits kMm{.header = "aclnnop/aclnn_mm.h", .dtypes = kMatmulDtypes, .private_formats = true};
constexpr OpTraits kBatchMatMul{
    .header = "aclnnop/aclnn_batch_matmul.h", .dtypes = kMatmulDtypes, .private_formats = true};

aclnnStatus CheckOperands(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                          int8_t cube_math_type) {
  CANOPY_CHECK(plan.CheckPlainFormat("self", self));
  if (mat2->format != ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(plan.CheckPlainFormat("mat2", mat2));
  CANOPY_CHECK(plan.CheckPlainFormat("out", out));
  CANOPY_CHECK(CheckMatmulOperand(plan, "self", self));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat2", mat2));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  CANOPY_CHECK(plan.CheckCastable(PromoteTypes(self->dtype, mat2->dtype), "out", out->dtype));
  return CheckCubeMathType(plan, cube_math_type);
}

aclnnStatus PlanMatmul(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                       int8_t cube_math_type) {
  CANOPY_CHECK(CheckOperands(plan, self, mat2, out, cube_math_type));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, kMatmul.max_rank));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 1, kMatmul.max_rank));
  const Shape& s = self->view_shape;
  const Shape& m = mat2->view_shape;
  const int64_t k_self = s.back();
  const int64_t k_mat2 = m.size() == 1 ? m[0] : m[m.size() - 2];
  if (k_self != k_mat2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s and mat2 %s do not agree on K (%lld vs %lld)",
                       ShapeToString(s).c_str(), ShapeToString(m).c_str(), static_cast<long long>(k_self),
                       static_cast<long long>(k_mat2));
  }
  // Batch dimensions broadcast; 1-D operands gain (and the result loses) a matrix dimension.
  const Shape self_batch(s.begin(), s.end() - std::min<size_t>(s.size(), 2));
  const Shape mat2_batch(m.begin(), m.end() - std::min<size_t>(m.size(), 2));
  Shape batch;
  CANOPY_CHECK(plan.CheckBroadcast("self batch", self_batch, "mat2 batch", mat2_batch, batch));
  Shape expected = batch;
  if (s.size() > 1) expected.push_back(s[s.size() - 2]);
  if (m.size() > 1) expected.push_back(m.back());
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  TensorRef a = plan.Input(self, "self");
  TensorRef b = plan.Input(mat2, "mat2");
  TensorRef result = plan.Output(out, "out");
  if (s.size() == 1) {
    a = Unsqueeze(a, 0);
    result = Unsqueeze(result, result.shape.size() - (m.size() > 1 ? 1 : 0));
  }
  if (m.size() == 1) {
    b = Unsqueeze(b, 1);
    result = Unsqueeze(result, result.shape.size());
  }
  return PlanProduct(plan, a, b, result, cube_math_type);
}

aclnnStatus PlanMm(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                   int8_t cube_math_type) {
  CANOPY_CHECK(CheckOperands(plan, self, mat2, out, cube_math_type));
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 2));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 2, 2));
  if (self->view_shape[1] != mat2->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s and mat2 %s cannot be multiplied",
                       ShapeToString(self->view_shape).c_str(), ShapeToString(mat2->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {self->view_shape[0], mat2->view_shape[1]}));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(mat2, "mat2");
  return PlanProduct(plan, a, b, plan.Output(out, "out"), cube_math_type);
}

aclnnStatus PlanBatchMatMul(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                            int8_t cube_math_type) {
  CANOPY_CHECK(CheckOperands(plan, self, mat2, out, cube_math_type));
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 3));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 3, 3));
  const Shape& s = self->view_shape;
  const Shape& m = mat2->view_shape;
  if (s[2] != m[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s and mat2 %s do not agree on K", ShapeToString(s).c_str(),
                       ShapeToString(m).c_str());
  }
  if (s[0] != m[0] && s[0] != 1 && m[0] != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batch sizes %lld and %lld are neither equal nor 1",
                       static_cast<long long>(s[0]), static_cast<long long>(m[0]));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {std::max(s[0], m[0]), s[1], m[2]}));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(mat2, "mat2");
  return PlanProduct(plan, a, b, plan.Output(out, "out"), cube_math_type);
}

// The products of the WeightNz forms: self, mat2 of one half dtype (MatmulWeightNz
// also f32, and not FLOAT16 with BFLOAT16), k and n above 1.
aclnnStatus CheckWeightNzOperands(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                                  int8_t cube_math_type) {
  CANOPY_CHECK(CheckWeightNzFormats(plan, "mat2", mat2, {{"self", self}, {"out", out}}));
  CANOPY_CHECK(CheckMatmulOperand(plan, "self", self));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat2", mat2));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  const bool mixed_halves = (self->dtype == ACL_FLOAT16 && mat2->dtype == ACL_BF16) ||
                            (self->dtype == ACL_BF16 && mat2->dtype == ACL_FLOAT16);
  if (mixed_halves) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self (%s) and mat2 (%s) must both be FLOAT16 or both BFLOAT16",
                       DtypeName(self->dtype), DtypeName(mat2->dtype));
  }
  return CheckCubeMathType(plan, cube_math_type);
}

aclnnStatus PlanMatmulWeightNz(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                               int8_t cube_math_type) {
  CANOPY_CHECK(CheckWeightNzOperands(plan, self, mat2, out, cube_math_type));
  if (cube_math_type == 0 && self->dtype == ACL_FLOAT && out->dtype == ACL_FLOAT16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "cubeMathType 0 (KEEP_DTYPE) keeps self's FLOAT; out is FLOAT16");
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 2));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 2, 2));
  CANOPY_CHECK(CheckWeightNzExtents(plan, "mat2", mat2));
  return PlanMm(plan, self, mat2, out, cube_math_type);
}

aclnnStatus PlanBatchMatMulWeightNz(Plan& plan, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                                    int8_t cube_math_type) {
  CANOPY_CHECK(CheckWeightNzOperands(plan, self, mat2, out, cube_math_type));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMatmulHalfDtypes));
  CANOPY_CHECK(plan.CheckDtype("mat2", mat2->dtype, kMatmulHalfDtypes));
  if (out->dtype != ACL_FLOAT && out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out (%s) must be FLOAT or self's dtype (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 3));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 3, 3));
  CANOPY_CHECK(plan.CheckRank("out", out, 3, 3));
  CANOPY_CHECK(CheckWeightNzExtents(plan, "mat2", mat2));
  return PlanBatchMatMul(plan, self, mat2, out, cube_math_type);
}

}  // namespace

CANOPY_ACLNN_OP(Matmul, PlanMatmul, kMatmul, (const aclTensor*, self), (const aclTensor*, mat2), (aclTensor*, out),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(Mm, PlanMm, kMm, (const aclTensor*, self), (const aclTensor*, mat2), (aclTensor*, out),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(BatchMatMul, PlanBatchMatMul, kBatchMatMul, (const aclTensor*, self), (const aclTensor*, mat2),
                (aclTensor*, out), (int8_t, cubeMathType))
CANOPY_ACLNN_OP(MatmulWeightNz, PlanMatmulWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_matmul.h",
                          .dtypes = kMatmulDtypes,
                          .private_formats = true,
                          .example = "f16[2,32] f16[32,16] f16[2,16] 0"}),
                (const aclTensor*, self), (const aclTensor*, mat2), (aclTensor*, out), (int8_t, cubeMathType))
CANOPY_ACLNN_OP(BatchMatMulWeightNz, PlanBatchMatMulWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_batch_matmul.h",
                          .dtypes = kMatmulHalfDtypes,
                          .private_formats = true,
                          .example = "f16[2,2,32] f16[2,32,16] f16[2,2,16] 0"}),
                (const aclTensor*, self), (const aclTensor*, mat2), (aclTensor*, out), (int8_t, cubeMathType))
