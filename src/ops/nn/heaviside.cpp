// aclnnHeaviside (torch.heaviside): values where input is 0 (either sign), 1
// above, 0 below and for NaN. input and values broadcast; input, values and out
// share one dtype (CANN's kernel pairs them column by column). CANN compares
// only out's element count with the broadcast shape's; Canopy asks for the
// shape itself, which every call that computes right on the device passes.
#include "aclnnop/aclnn_heaviside.h"

#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHeavisideDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanHeaviside(Plan& plan, const aclTensor* input, const aclTensor* values, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kHeavisideDtypes));
  CANOPY_CHECK(plan.CheckDtype("values", values->dtype, kHeavisideDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kHeavisideDtypes));
  if (values->dtype != input->dtype || out->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input (%s), values (%s) and out (%s) must share one dtype",
                       DtypeName(input->dtype), DtypeName(values->dtype), DtypeName(out->dtype));
  }
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("input", input->view_shape, "values", values->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef x = plan.Input(input, "input");
  const TensorRef v = plan.Input(values, "values");
  AddPointwise(plan, PointwiseOp::kHeaviside, input->dtype, input->dtype,
               {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(v)}, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Heaviside, PlanHeaviside,
                (OpTraits{.header = "aclnnop/aclnn_heaviside.h",
                          .dtypes = kHeavisideDtypes,
                          .example = "f32[2,3] f32[3] f32[2,3]"}),
                (const aclTensor*, input), (const aclTensor*, values), (aclTensor*, out))
