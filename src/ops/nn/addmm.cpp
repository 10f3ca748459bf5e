// aclnnAddmm, aclnnInplaceAddmm and aclnnAddmmWeightNz: out = beta * self + alpha * (mat1 @ mat2).
// AddmmWeightNz's mat2 is a weight TransMatmulWeight prepared, which on Canopy
// keeps its ND layout: it is read through its view, FRACTAL_NZ or ND.
#include "aclnnop/aclnn_addmm.h"

#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr OpTraits kAddmm{.header = "aclnnop/aclnn_addmm.h", .dtypes = kMatmulDtypes};
// The product's operands and their checks are done; what remains is common.
aclnnStatus PlanAddmmTerms(Plan& plan, const aclTensor* self, const char* self_name, const aclTensor* mat1,
                           const aclTensor* mat2, const aclScalar* beta, const aclScalar* alpha, const aclTensor* out,
                           const char* out_name, int8_t cube_math_type) {
  CANOPY_CHECK(plan.CheckRank("mat1", mat1, 2, 2));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 2, 2));
  CANOPY_CHECK(plan.CheckRank(self_name, self, 1, 2));
  const Shape& m1 = mat1->view_shape;
  const Shape& m2 = mat2->view_shape;
  if (m1[1] != m2[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "mat1 %s and mat2 %s cannot be multiplied", ShapeToString(m1).c_str(),
                       ShapeToString(m2).c_str());
  }
  const Shape shape = {m1[0], m2[1]};
  CANOPY_CHECK(CheckBiasAndOut(plan, self_name, self, shape, out_name, out));
  CANOPY_CHECK(plan.CheckCastable(PromoteTypes(mat1->dtype, mat2->dtype), "out", out->dtype));

  const TensorRef bias = plan.Input(self, self_name);
  const TensorRef a = plan.Input(mat1, "mat1");
  const TensorRef b = plan.Input(mat2, "mat2");
  const TensorRef result = plan.Output(out, out_name);
  const TensorRef broadcast_bias = BroadcastTo(bias, shape);
  ProductTerms terms{MatmulScaleOf(alpha), MatmulScaleOf(beta), &broadcast_bias};
  return PlanProduct(plan, a, b, result, cube_math_type, terms);
}

aclnnStatus PlanAddmm(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                      const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type,
                      bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(CheckMatmulOperand(plan, self_name, self));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat1", mat1));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat2", mat2));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  CANOPY_CHECK(CheckMatmulScales(plan, beta, alpha));
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  return PlanAddmmTerms(plan, self, self_name, mat1, mat2, beta, alpha, out, in_place ? "selfRef" : "out",
                        cube_math_type);
}

aclnnStatus AddmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                        const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type) {
  return PlanAddmm(plan, self, mat1, mat2, beta, alpha, out, cube_math_type, false);
}

aclnnStatus InplaceAddmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                               const aclScalar* beta, const aclScalar* alpha, int8_t cube_math_type) {
  return PlanAddmm(plan, self, mat1, mat2, beta, alpha, self, cube_math_type, true);
}

aclnnStatus AddmmWeightNzRecipe(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                                const aclScalar* beta, const aclScalar* alpha, const aclTensor* out,
                                int8_t cube_math_type) {
  CANOPY_CHECK(CheckWeightNzFormats(plan, "mat2", mat2, {{"self", self}, {"mat1", mat1}, {"out", out}}));
  CANOPY_CHECK(CheckMatmulOperand(plan, "self", self));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat1", mat1));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat2", mat2));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  CANOPY_CHECK(plan.CheckDtype("mat1", mat1->dtype, kMatmulHalfDtypes));
  CANOPY_CHECK(plan.CheckDtype("mat2", mat2->dtype, kMatmulHalfDtypes));
  if (mat1->dtype != mat2->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "mat1 (%s) and mat2 (%s) must have one dtype", DtypeName(mat1->dtype),
                       DtypeName(mat2->dtype));
  }
  CANOPY_CHECK(CheckMatmulScales(plan, beta, alpha));
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  CANOPY_CHECK(plan.CheckRank("mat2", mat2, 2, 2));
  CANOPY_CHECK(CheckWeightNzExtents(plan, "mat2", mat2));
  return PlanAddmmTerms(plan, self, "self", mat1, mat2, beta, alpha, out, "out", cube_math_type);
}

}  // namespace

CANOPY_ACLNN_OP(Addmm, AddmmRecipe, kAddmm, (const aclTensor*, self), (const aclTensor*, mat1),
                (const aclTensor*, mat2), (const aclScalar*, beta), (const aclScalar*, alpha), (aclTensor*, out),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(InplaceAddmm, InplaceAddmmRecipe, InPlace(kAddmm), (const aclTensor*, selfRef),
                (const aclTensor*, mat1), (const aclTensor*, mat2), (const aclScalar*, beta), (const aclScalar*, alpha),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(AddmmWeightNz, AddmmWeightNzRecipe,
                (OpTraits{.header = "aclnnop/aclnn_addmm.h",
                          .dtypes = kMatmulDtypes,
                          .private_formats = true,
                          .example = "f32[2,3] f16[2,4] f16[4,3] f32:1 f32:1 f32[2,3] 0"}),
                (const aclTensor*, self), (const aclTensor*, mat1), (const aclTensor*, mat2), (const aclScalar*, beta),
                (const aclScalar*, alpha), (aclTensor*, out), (int8_t, cubeMathType))
