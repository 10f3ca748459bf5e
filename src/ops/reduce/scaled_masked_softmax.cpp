// aclnnScaledMaskedSoftmax (Megatron's fused scaled masked softmax): y is the
// softmax along the last dim of x * scale, where the positions whose bool mask
// is true take -10000 first (CANN's kernel fills, it does not add). x and y
// are [B, N, S1, S2]; mask is [B or 1, N or 1, S1, S2]. Computed in FLOAT.
#include "aclnnop/aclnn_scaled_masked_softmax.h"
#include "ops/math/binary_pointwise.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSoftmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kRank = 4;
constexpr int64_t kMaxRowLength = 4096;  // CANN's limit on S2 outside the 950 series
constexpr double kMaskedValue = -10000.0;

aclnnStatus PlanScaledMaskedSoftmax(Plan& plan, const aclTensor* x, const aclTensor* mask, double scale,
                                    bool fixedTriuMask, const aclTensor* y) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kSoftmaxDtypes));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, {ACL_BOOL}));
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, kSoftmaxDtypes));
  if (y->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'y' has dtype %s; it must be x's (%s)", DtypeName(y->dtype),
                       DtypeName(x->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("x", x, kRank, kRank));
  CANOPY_CHECK(plan.CheckRank("mask", mask, kRank, kRank));
  CANOPY_CHECK(plan.CheckRank("y", y, kRank, kRank));
  const Shape& xs = x->view_shape;
  const Shape& ms = mask->view_shape;
  for (size_t d = 0; d < 2; ++d) {
    if (ms[d] != xs[d] && ms[d] != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'mask' %s does not broadcast to 'x' %s in dim %zu",
                         ShapeToString(ms).c_str(), ShapeToString(xs).c_str(), d);
    }
  }
  if (ms[2] != xs[2] || ms[3] != xs[3]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'mask' %s must have the last two dims of 'x' %s",
                       ShapeToString(ms).c_str(), ShapeToString(xs).c_str());
  }
  if (xs[3] <= 0 || xs[3] > kMaxRowLength) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the last dim of 'x' is %lld; it must be in (0, %lld]",
                       static_cast<long long>(xs[3]), static_cast<long long>(kMaxRowLength));
  }
  CANOPY_CHECK(plan.CheckShape("y", y, xs));
  if (fixedTriuMask) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'fixedTriuMask' must be false");
  }
  const TensorRef in = plan.Input(x, "x");
  const TensorRef keep = plan.Input(mask, "mask");
  const TensorRef dst = plan.Output(y, "y");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef scaled = plan.Temporary(ACL_FLOAT, in.shape);
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {in}, scaled, ScalarValue::Integer(1),
                   ScalarValue::Real(scale));
  AddPointwise(plan, PointwiseOp::kMaskedFill, ACL_FLOAT, ACL_FLOAT,
               {PointwiseOperand::Tensor(scaled), PointwiseOperand::Tensor(keep),
                PointwiseOperand::Scalar(ScalarValue::Real(kMaskedValue))},
               scaled);
  PlanSoftmaxInto(plan, scaled, dst, kRank - 1, false);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ScaledMaskedSoftmax, PlanScaledMaskedSoftmax,
                (OpTraits{.header = "aclnnop/aclnn_scaled_masked_softmax.h",
                          .dtypes = kSoftmaxDtypes | DtypeSet{ACL_BOOL},
                          .example = "f32[2,2,2,2] bool[2,1,2,2] 0.5 false f32[2,2,2,2]"}),
                (const aclTensor*, x), (const aclTensor*, mask), (double, scale), (bool, fixedTriuMask),
                (aclTensor*, y))
