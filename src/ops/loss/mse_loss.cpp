// aclnnMseLoss (torch mse_loss): (self - target)^2, kept (reduction 0) or its
// mean (1) or sum (2) into a rank-0 out. aclnnMseLossOut: the same, but mean
// and sum reduce dim 0 of the broadcast shape only (out is that shape without
// its first dim), and an empty input writes nothing. self, target, out and
// their promotion are FLOAT, FLOAT16 or BF16.
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "loss.h"
#include "ops/reduce/reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMseDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// The dtype checks in CANN's order (the promotion first), then reduction and the broadcast shape.
aclnnStatus CheckMse(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction,
                     const aclTensor* out, aclDataType& promoted, Shape& shape) {
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "target", target->dtype, promoted));
  CANOPY_CHECK(plan.CheckDtype("the promoted dtype", promoted, kMseDtypes));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMseDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kMseDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kMseDtypes));
  CANOPY_CHECK(CheckReduction(plan, reduction));
  return plan.CheckBroadcast("self", self->view_shape, "target", target->view_shape, shape);
}

aclnnStatus PlanMseLoss(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction,
                        const aclTensor* out) {
  aclDataType promoted;
  Shape shape;
  CANOPY_CHECK(CheckMse(plan, self, target, reduction, out, promoted, shape));
  CANOPY_CHECK(CheckLossOut(plan, "out", out, shape, reduction, true));
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  PlanLoss(plan, PointwiseOp::kMseLoss, promoted, {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y)}, shape,
           reduction, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMseLossOut(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction,
                           const aclTensor* out) {
  aclDataType promoted;
  Shape shape;
  CANOPY_CHECK(CheckMse(plan, self, target, reduction, out, promoted, shape));
  const bool reduces = reduction != kReductionNone && !shape.empty();
  CANOPY_CHECK(plan.CheckShape("out", out, reduces ? Shape(shape.begin() + 1, shape.end()) : shape));
  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Input(target, "target");
  const TensorRef dst = plan.Output(out, "out");
  const std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(y)};
  if (!reduces) {
    AddPointwise(plan, PointwiseOp::kMseLoss, promoted, promoted, operands, dst);
    return ACLNN_SUCCESS;
  }
  if (x.NumElements() == 0 || y.NumElements() == 0) return ACLNN_SUCCESS;  // CANN writes nothing
  const aclDataType acc = LossAccumulatorDtype(promoted);
  const TensorRef losses = plan.Temporary(acc, shape);
  AddPointwise(plan, PointwiseOp::kMseLoss, promoted, acc, operands, losses);
  std::vector<bool> first(shape.size(), false);
  first[0] = true;
  PlanReduceInto(plan, reduction == kReductionMean ? kernels::ReduceKind::kMean : kernels::ReduceKind::kSum, losses,
                 first, false, acc, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    MseLoss, PlanMseLoss,
    (OpTraits{.header = "aclnnop/aclnn_mse_loss.h", .dtypes = kMseDtypes, .example = "f32[2,3] f32[2,3] 1 f32[]"}),
    (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (aclTensor*, out))
CANOPY_ACLNN_OP(
    MseLossOut, PlanMseLossOut,
    (OpTraits{.header = "aclnnop/aclnn_mse_loss_out.h", .dtypes = kMseDtypes, .example = "f32[2,3] f32[2,3] 1 f32[3]"}),
    (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (aclTensor*, out))
