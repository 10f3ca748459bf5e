// aclnnAddmv: out = beta * self + alpha * (mat @ vec), self [n] (or [1], or rank 0)
// broadcast along mat's rows. Runs as the one-row product vec^T @ mat^T with the
// bias, as Mv does, so the skinny kernel streams mat once.
#include <cmath>
#include <limits>
#include <utility>

#include "aclnnop/aclnn_addmv.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's list for every tensor and both scalars.
constexpr DtypeSet kAddmvDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16,
                                   ACL_INT16, ACL_INT8,  ACL_UINT8, ACL_DOUBLE,  ACL_BOOL};

bool IsOne(float value) { return std::abs(value - 1.0f) <= std::numeric_limits<float>::epsilon(); }

aclnnStatus PlanAddmv(Plan& plan, const aclTensor* self, const aclTensor* mat, const aclTensor* vec,
                      const aclScalar* alpha, const aclScalar* beta, const aclTensor* out, int8_t cube_math_type) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAddmvDtypes));
  CANOPY_CHECK(plan.CheckDtype("mat", mat->dtype, kAddmvDtypes));
  CANOPY_CHECK(plan.CheckDtype("vec", vec->dtype, kAddmvDtypes));
  CANOPY_CHECK(plan.CheckDtype("alpha", alpha->dtype, kAddmvDtypes));
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, kAddmvDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAddmvDtypes));
  // The dtype of each term, as CANN promotes them; a coefficient of 1 is not applied.
  aclDataType product = ACL_DT_UNDEFINED;
  CANOPY_CHECK(plan.CheckPromotable("mat", mat->dtype, "vec", vec->dtype, product));
  const float alpha_value = MatmulScaleOf(alpha);
  const float beta_value = MatmulScaleOf(beta);
  aclDataType scaled_product = product;
  if (!IsOne(alpha_value))
    CANOPY_CHECK(plan.CheckPromotable("alpha", alpha->dtype, "mat @ vec", product, scaled_product));
  aclDataType scaled_self = self->dtype;
  if (!IsOne(beta_value)) CANOPY_CHECK(plan.CheckPromotable("beta", beta->dtype, "self", self->dtype, scaled_self));
  aclDataType result = ACL_DT_UNDEFINED;
  CANOPY_CHECK(plan.CheckPromotable("beta * self", scaled_self, "alpha * (mat @ vec)", scaled_product, result));
  CANOPY_CHECK(plan.CheckCastable(result, "out", out->dtype));

  CANOPY_CHECK(plan.CheckRank("self", self, 0, 1));
  CANOPY_CHECK(plan.CheckRank("mat", mat, 2, 2));
  CANOPY_CHECK(plan.CheckRank("vec", vec, 1, 1));
  CANOPY_CHECK(plan.CheckRank("out", out, 1, 1));
  const Shape& m = mat->view_shape;
  const int64_t rows = m[0];
  const bool self_fits =
      self->view_shape.empty() || self->view_shape[0] == rows || (self->view_shape[0] == 1 && alpha_value != 0.0f);
  if (m[1] != vec->view_shape[0] || out->view_shape[0] != rows || !self_fits) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "shapes do not fit: self %s, mat %s, vec %s, out %s",
                       ShapeToString(self->view_shape).c_str(), ShapeToString(m).c_str(),
                       ShapeToString(vec->view_shape).c_str(), ShapeToString(out->view_shape).c_str());
  }
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  // Integer, DOUBLE and BOOL operands run on CANN as a multiply and a row sum;
  // Canopy's product takes the matmul dtypes only.
  for (const auto& [name, tensor] :
       {std::pair{"self", self}, std::pair{"mat", mat}, std::pair{"vec", vec}, std::pair{"out", out}}) {
    if (!kMatmulDtypes.Contains(tensor->dtype)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s is %s; Canopy's Addmv takes FLOAT, FLOAT16 and BFLOAT16 only",
                         name, DtypeName(tensor->dtype));
    }
  }

  const TensorRef bias = plan.Input(self, "self");
  const TensorRef matrix = plan.Input(mat, "mat");
  const TensorRef vector = plan.Input(vec, "vec");
  const TensorRef dst = plan.Output(out, "out");
  if (bias.NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing for an empty self
  const TensorRef row_bias = Unsqueeze(BroadcastTo(bias, {rows}), 0);
  return PlanProduct(plan, Unsqueeze(vector, 0), Transpose(matrix, 0, 1), Unsqueeze(dst, 0), cube_math_type,
                     ProductTerms{alpha_value, beta_value, &row_bias});
}

}  // namespace

CANOPY_ACLNN_OP(Addmv, PlanAddmv,
                (OpTraits{.header = "aclnnop/aclnn_addmv.h",
                          .dtypes = kMatmulDtypes,
                          .example = "f32[2] f32[2,3] f32[3] f32:1 f32:1 f32[2] 0"}),
                (const aclTensor*, self), (const aclTensor*, mat), (const aclTensor*, vec), (const aclScalar*, alpha),
                (const aclScalar*, beta), (aclTensor*, out), (int8_t, cubeMathType))
