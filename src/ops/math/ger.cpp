// aclnnGer: the outer product out[i, j] = self[i] * vec2[j], in the dtype
// self and vec2 promote to.
#include "aclnnop/aclnn_ger.h"
#include "kernels/elementwise.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The Atlas A2 column of the doc (it has no BFLOAT16 there).
constexpr DtypeSet kGerDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8,      ACL_INT16,     ACL_INT32,
                                 ACL_INT64, ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanGer(Plan& plan, const aclTensor* self, const aclTensor* vec2, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGerDtypes));
  CANOPY_CHECK(plan.CheckDtype("vec2", vec2->dtype, kGerDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kGerDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "vec2", vec2->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 1));
  CANOPY_CHECK(plan.CheckRank("vec2", vec2, 1, 1));
  CANOPY_CHECK(plan.CheckRank("out", out, 2, 2));
  CANOPY_CHECK(plan.CheckShape("out", out, {self->view_shape[0], vec2->view_shape[0]}));
  const TensorRef column = Unsqueeze(plan.Input(self, "self"), 1);  // [n, 1]
  const TensorRef row = Unsqueeze(plan.Input(vec2, "vec2"), 0);     // [1, m]
  const TensorRef result = plan.Output(out, "out");
  if (result.NumElements() == 0) return ACLNN_SUCCESS;
  // The product is rounded to the promoted dtype, then converted to out's.
  const bool staged = result.dtype != promoted;
  const TensorRef product = staged ? plan.Temporary(promoted, result.shape) : result;
  plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(promoted), {column, row}, product,
                   ScalarValue::Integer(1));
  if (staged) plan.Copy(product, result);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Ger, PlanGer,
                (OpTraits{.header = "aclnnop/aclnn_ger.h", .dtypes = kGerDtypes, .example = "f32[2] f32[3] f32[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, vec2), (aclTensor*, out))
