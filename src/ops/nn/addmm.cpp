// aclnnAddmm and aclnnInplaceAddmm: out = beta * self + alpha * (mat1 @ mat2).
#include "aclnnop/aclnn_addmm.h"

#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr OpTraits kAddmm{.header = "aclnnop/aclnn_addmm.h", .dtypes = kMatmulDtypes};
// The doc's list plus BF16: CANN's code does not check the scalars' dtype, and
// its arch35 example passes BF16 beta and alpha.
constexpr DtypeSet kScaleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                   ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BF16};

float ScaleOf(const aclScalar* scalar) {
  const ScalarValue value = ValueOf(*scalar);
  return static_cast<float>(value.is_integer ? static_cast<double>(value.integer) : value.real);
}

aclnnStatus PlanAddmm(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                      const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type,
                      bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(CheckMatmulOperand(plan, self_name, self));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat1", mat1));
  CANOPY_CHECK(CheckMatmulOperand(plan, "mat2", mat2));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, kScaleDtypes));
  CANOPY_CHECK(plan.CheckDtype("alpha", alpha->dtype, kScaleDtypes));
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
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
  Shape broadcast;
  CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "mat1 @ mat2", shape, broadcast));
  if (broadcast != shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s of shape %s does not broadcast to %s", self_name,
                       ShapeToString(self->view_shape).c_str(), ShapeToString(shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape(in_place ? "selfRef" : "out", out, shape));
  CANOPY_CHECK(plan.CheckCastable(PromoteTypes(mat1->dtype, mat2->dtype), "out", out->dtype));

  const TensorRef bias = plan.Input(self, self_name);
  const TensorRef a = plan.Input(mat1, "mat1");
  const TensorRef b = plan.Input(mat2, "mat2");
  const TensorRef result = plan.Output(out, in_place ? "selfRef" : "out");
  const TensorRef broadcast_bias = BroadcastTo(bias, shape);
  ProductTerms terms{ScaleOf(alpha), ScaleOf(beta), &broadcast_bias};
  return PlanProduct(plan, a, b, result, cube_math_type, terms);
}

aclnnStatus AddmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                        const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, int8_t cube_math_type) {
  return PlanAddmm(plan, self, mat1, mat2, beta, alpha, out, cube_math_type, false);
}

aclnnStatus InplaceAddmmRecipe(Plan& plan, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                               const aclScalar* beta, const aclScalar* alpha, int8_t cube_math_type) {
  return PlanAddmm(plan, self, mat1, mat2, beta, alpha, self, cube_math_type, true);
}

}  // namespace

CANOPY_ACLNN_OP(Addmm, AddmmRecipe, kAddmm, (const aclTensor*, self), (const aclTensor*, mat1),
                (const aclTensor*, mat2), (const aclScalar*, beta), (const aclScalar*, alpha), (aclTensor*, out),
                (int8_t, cubeMathType))
CANOPY_ACLNN_OP(InplaceAddmm, InplaceAddmmRecipe, InPlace(kAddmm), (const aclTensor*, selfRef),
                (const aclTensor*, mat1), (const aclTensor*, mat2), (const aclScalar*, beta), (const aclScalar*, alpha),
                (int8_t, cubeMathType))
