// aclnnDot (torch.dot): the sum of self[i] * tensor[i] over two 1-D tensors of
// one length, into a rank-0 out; self, tensor and out share one dtype (no
// promotion). Products and sum in FLOAT for the 16-bit floats, in INT64 for
// integers (wrapping into out's dtype).
#include "aclnnop/aclnn_dot.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDotDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_UINT8};

aclnnStatus PlanDot(Plan& plan, const aclTensor* self, const aclTensor* tensor, const aclTensor* out) {
  for (const auto& [name, dtype] : {std::pair{"tensor", tensor->dtype}, std::pair{"out", out->dtype}}) {
    if (dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must have self's dtype %s", name,
                         DtypeName(dtype), DtypeName(self->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kDotDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 1));
  CANOPY_CHECK(plan.CheckRank("tensor", tensor, 1, 1));
  if (self->view_shape[0] != tensor->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has %lld elements and 'tensor' %lld; they must match",
                       static_cast<long long>(self->view_shape[0]), static_cast<long long>(tensor->view_shape[0]));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, Shape{}));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(tensor, "tensor");
  const TensorRef dst = plan.Output(out, "out");
  const aclDataType acc = IsFloating(self->dtype) ? ACL_FLOAT : ACL_INT64;
  const TensorRef products = plan.Temporary(acc, a.shape);
  plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(acc), {a, b}, products, ScalarValue::Integer(1));
  PlanReduceInto(plan, kernels::ReduceKind::kSum, products, {true}, false, acc, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Dot, PlanDot,
                (OpTraits{.header = "aclnnop/aclnn_dot.h", .dtypes = kDotDtypes, .example = "f32[5] f32[5] f32[]"}),
                (const aclTensor*, self), (const aclTensor*, tensor), (aclTensor*, out))
