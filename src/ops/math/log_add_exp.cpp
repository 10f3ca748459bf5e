// aclnnLogAddExp, aclnnLogAddExp2: log(e^self + e^other) and log2(2^self +
// 2^other) without overflow (torch.logaddexp, logaddexp2). There is no
// promotion: each operand must cast to out's floating dtype and is converted
// to it, and the result is computed in it (CANN's Atlas A2 path).
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8,   ACL_UINT8, ACL_INT16, ACL_UINT16,
                                   ACL_INT32, ACL_UINT32,  ACL_INT64,  ACL_UINT64, ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

template <PointwiseOp kOp>
aclnnStatus PlanLogAddExp(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("other", other->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  CANOPY_CHECK(plan.CheckCastable(other->dtype, "out", out->dtype));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "other", other->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const TensorRef a = plan.Input(self, "self");
  const TensorRef b = plan.Input(other, "other");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  // Each operand first takes out's dtype (a DOUBLE operand is narrowed before the sum).
  auto in_out_dtype = [&](const TensorRef& t) { return t.dtype == out->dtype ? t : plan.Contiguous(t, out->dtype); };
  AddPointwise(plan, kOp, out->dtype, out->dtype,
               {PointwiseOperand::Tensor(in_out_dtype(a)), PointwiseOperand::Tensor(in_out_dtype(b))}, dst);
  return ACLNN_SUCCESS;
}

constexpr const char* kExample = "f32[2,3] f32[2,3] f32[2,3]";

}  // namespace

CANOPY_ACLNN_OP(LogAddExp, PlanLogAddExp<PointwiseOp::kLogAddExp>,
                (OpTraits{.header = "aclnnop/aclnn_logaddexp.h", .dtypes = kInputDtypes, .example = kExample}),
                (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
CANOPY_ACLNN_OP(LogAddExp2, PlanLogAddExp<PointwiseOp::kLogAddExp2>,
                (OpTraits{.header = "aclnnop/aclnn_logaddexp2.h", .dtypes = kInputDtypes, .example = kExample}),
                (const aclTensor*, self), (const aclTensor*, other), (aclTensor*, out))
