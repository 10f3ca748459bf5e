// aclnnMv: out = self @ vec, self [n, m], vec [m], out [n], all of one dtype.
#include "aclnnop/aclnn_mv.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanMv(Plan& plan, const aclTensor* self, const aclTensor* vec, const aclTensor* out,
                   int8_t cube_math_type) {
  CANOPY_CHECK(CheckMatmulOperand(plan, "self", self));
  CANOPY_CHECK(CheckMatmulOperand(plan, "vec", vec));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  if (vec->dtype != self->dtype || out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self (%s), vec (%s) and out (%s) must have one dtype",
                       DtypeName(self->dtype), DtypeName(vec->dtype), DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 2));
  CANOPY_CHECK(plan.CheckRank("vec", vec, 1, 1));
  if (self->view_shape[1] != vec->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s and vec %s cannot be multiplied",
                       ShapeToString(self->view_shape).c_str(), ShapeToString(vec->view_shape).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {self->view_shape[0]}));
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  const TensorRef matrix = plan.Input(self, "self");
  const TensorRef vector = plan.Input(vec, "vec");
  const TensorRef result = plan.Output(out, "out");
  // Computed as the one-row product vec^T @ self^T: the planner's skinny path
  // then streams self once, as a matrix-vector product is bound to.
  return PlanProduct(plan, Unsqueeze(vector, 0), Transpose(matrix, 0, 1), Unsqueeze(result, 0), cube_math_type);
}

}  // namespace

CANOPY_ACLNN_OP(Mv, PlanMv,
                (OpTraits{
                    .header = "aclnnop/aclnn_mv.h", .dtypes = kMatmulDtypes, .example = "f32[2,3] f32[3] f32[2] 0"}),
                (const aclTensor*, self), (const aclTensor*, vec), (aclTensor*, out), (int8_t, cubeMathType))
