// aclnnNormalTensorTensor, aclnnNormalTensorFloat, aclnnNormalFloatTensor,
// aclnnNormalFloatFloat: out = mean + std * z with z standard normal
// (torch.normal's out forms); mean and std tensors broadcast to out, a float
// mean or std is a constant. CANN's host code runs these on Atlas A2 through
// the StatelessRandomNormalV2 AI CPU kernel, a Mul and an Add (its documents
// mark them Ascend 950 only). z is drawn per out element from the counter-based
// stream every random op uses (kernels/random.h, key seed, counter {element,
// offset}) and the arithmetic runs in the dtype CANN's A2 path reaches:
// TensorTensor mean and std promoted, TensorFloat out's and mean's promotion,
// FloatTensor and FloatFloat FLOAT (DOUBLE with a DOUBLE std or out), then
// cast to out. std is not checked for sign, as CANN does not.
#include "aclnnop/aclnn_normal_out.h"
#include "ops/math/binary_pointwise.h"
#include "random_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNormalOutDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE};

// out = mean + std * z in `compute`, z drawn into a temporary of out's shape.
aclnnStatus AddNormal(Plan& plan, aclDataType compute, const PointwiseOperand& mean, const PointwiseOperand& std,
                      const TensorRef& out, int64_t seed, int64_t offset) {
  if (out.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef z = plan.Temporary(compute, out.shape);
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kNormal;
  desc.a = 0;
  desc.b = 1;
  desc.seed = HostSeed(seed, offset);
  AddRandomFill(plan, desc, z, {});
  AddPointwise(plan, PointwiseOp::kAddcmul, compute, compute,
               {mean, std, PointwiseOperand::Tensor(z), PointwiseOperand::Scalar(ScalarValue::Integer(1))}, out);
  return ACLNN_SUCCESS;
}

PointwiseOperand Constant(float value) { return PointwiseOperand::Scalar(ScalarValue::Real(value)); }

aclnnStatus PlanTensorTensor(Plan& plan, const aclTensor* mean, const aclTensor* std, int64_t seed, int64_t offset,
                             const aclTensor* out) {
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("mean", mean->view_shape, "std", std->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  CANOPY_CHECK(plan.CheckDtype("mean", mean->dtype, kNormalOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("std", std->dtype, kNormalOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNormalOutDtypes));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("mean", mean->dtype, "std", std->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  const TensorRef m = plan.Input(mean, "mean");
  const TensorRef s = plan.Input(std, "std");
  return AddNormal(plan, promoted, PointwiseOperand::Tensor(m), PointwiseOperand::Tensor(s), plan.Output(out, "out"),
                   seed, offset);
}

aclnnStatus PlanTensorFloat(Plan& plan, const aclTensor* mean, float std, int64_t seed, int64_t offset,
                            const aclTensor* out) {
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("mean", mean->view_shape, "out", out->view_shape, shape));
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  CANOPY_CHECK(plan.CheckDtype("mean", mean->dtype, kNormalOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNormalOutDtypes));
  const TensorRef m = plan.Input(mean, "mean");
  return AddNormal(plan, PromoteTypes(out->dtype, mean->dtype), PointwiseOperand::Tensor(m), Constant(std),
                   plan.Output(out, "out"), seed, offset);
}

aclnnStatus PlanFloatTensor(Plan& plan, float mean, const aclTensor* std, int64_t seed, int64_t offset,
                            const aclTensor* out) {
  if (std->NumElements() == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'std' must not be empty");
  // An empty out with a one-element std is accepted whatever their shapes (CANN's check).
  if (out->NumElements() != 0 || std->NumElements() != 1) CANOPY_CHECK(plan.CheckShape("out", out, std->view_shape));
  CANOPY_CHECK(plan.CheckDtype("std", std->dtype, kNormalOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNormalOutDtypes));
  const TensorRef s = plan.Input(std, "std");
  return AddNormal(plan, PromoteTypes(std->dtype, ACL_FLOAT), Constant(mean), PointwiseOperand::Tensor(s),
                   plan.Output(out, "out"), seed, offset);
}

aclnnStatus PlanFloatFloat(Plan& plan, float mean, float std, int64_t seed, int64_t offset, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNormalOutDtypes));
  return AddNormal(plan, PromoteTypes(out->dtype, ACL_FLOAT), Constant(mean), Constant(std), plan.Output(out, "out"),
                   seed, offset);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_normal_out.h", .dtypes = kNormalOutDtypes};

}  // namespace

CANOPY_ACLNN_OP(NormalTensorTensor, PlanTensorTensor, WithExample(kTraits, "f32[2,3] f32[2,3]{0.5:2} 7 0 f32[2,3]"),
                (const aclTensor*, mean), (const aclTensor*, std), (int64_t, seed), (int64_t, offset),
                (aclTensor*, out))
CANOPY_ACLNN_OP(NormalTensorFloat, PlanTensorFloat, WithExample(kTraits, "f32[2,3] 1.5 7 0 f32[2,3]"),
                (const aclTensor*, mean), (float, std), (int64_t, seed), (int64_t, offset), (aclTensor*, out))
CANOPY_ACLNN_OP(NormalFloatTensor, PlanFloatTensor, WithExample(kTraits, "0.5 f32[2,3]{0.5:2} 7 0 f32[2,3]"),
                (float, mean), (const aclTensor*, std), (int64_t, seed), (int64_t, offset), (aclTensor*, out))
CANOPY_ACLNN_OP(NormalFloatFloat, PlanFloatFloat, WithExample(kTraits, "0.5 1.5 7 0 f32[2,3]"), (float, mean),
                (float, std), (int64_t, seed), (int64_t, offset), (aclTensor*, out))
