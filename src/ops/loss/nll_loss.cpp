// aclnnNLLLoss, aclnnNLLLoss2d (torch nll_loss, nll_loss2d): -weight[t] *
// self[row, t] for each row's class t = target[row], 0 for rows whose target
// is ignoreIndex; kept (reduction 0: [N], or [N, H, W] for 2d), summed (2),
// or summed and divided by the summed weights (1; NaN when every row is
// ignored); totalWeightOut gets the summed weights for mean and sum. NLLLoss:
// self [N, C] with target [N], or [C] with a rank-0 target; NLLLoss2d: self
// [N, C, H, W] with target [N, H, W]. weight [C] has self's dtype (f32, f16,
// bf16); target is INT64, INT32 or UINT8, and a class outside [0, C) that is
// not ignoreIndex fails the run with a message (phase 1 cannot see values).
#include "kernels/nll_loss.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "loss.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSelfDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kTargetDtypes = {ACL_INT64, ACL_UINT8, ACL_INT32};

aclnnStatus CheckSameDtype(Plan& plan, const char* name, aclDataType dtype, aclDataType self) {
  if (dtype == self) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must have self's dtype %s", name, DtypeName(dtype),
                     DtypeName(self));
}

aclnnStatus CheckOneElement(Plan& plan, const char* name, const aclTensor* t, int64_t max_rank) {
  if (t->NumElements() == 1 && static_cast<int64_t>(t->view_shape.size()) <= max_rank) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has shape %s; it needs one element", name,
                     ShapeToString(t->view_shape).c_str());
}

// The dtype checks of NLLLoss (NLLLoss2d checks self's list first).
aclnnStatus CheckOutputDtypes(Plan& plan, const aclTensor* self, const aclTensor* out,
                              const aclTensor* totalWeightOut) {
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  return plan.CheckCastable(self->dtype, "totalWeightOut", totalWeightOut->dtype);
}

// Registers the operands in prototype order and adds the step; `rows` names
// the row dims of self (their dims in self), of target and of out (none).
void AddNllStep(Plan& plan, const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
                int64_t ignoreIndex, const aclTensor* out, const aclTensor* totalWeightOut,
                const std::vector<int64_t>& self_row_dims, int64_t class_dim, const char* op) {
  const TensorRef x = plan.Input(self, "self");
  const TensorRef t = plan.Input(target, "target");
  const TensorRef w = plan.Input(weight, "weight");
  const TensorRef dst = plan.Output(out, "out");
  const TensorRef total = plan.Output(totalWeightOut, "totalWeightOut");
  kernels::NllLossDesc desc;
  desc.row_rank = static_cast<int>(self_row_dims.size());
  for (size_t d = 0; d < self_row_dims.size(); ++d) {
    desc.row_shape[d] = x.shape[self_row_dims[d]];
    desc.self_strides[d] = x.strides[self_row_dims[d]];
    desc.target_strides[d] = t.strides[d];
    if (reduction == kReductionNone) desc.out_strides[d] = dst.strides[d];
  }
  desc.classes = x.shape[class_dim];
  desc.self_class_stride = x.strides[class_dim];
  desc.weight_stride = w.strides.empty() ? 0 : w.strides[0];
  desc.self_dtype = x.dtype;
  desc.target_dtype = t.dtype;
  desc.weight_dtype = w.dtype;
  desc.self = x.buffer;
  desc.target = t.buffer;
  desc.weight = w.buffer;
  desc.reduction = reduction;
  desc.ignore_index = ignoreIndex;
  desc.single_row = self_row_dims.empty();
  desc.out = dst.buffer;
  desc.out_dtype = dst.dtype;
  desc.total_weight = total.buffer;
  desc.total_weight_dtype = total.dtype;
  desc.op = op;
  plan.AddStep(kernels::MakeNllLossStep(desc));
}

aclnnStatus PlanNllLoss(Plan& plan, const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                        int64_t reduction, int64_t ignoreIndex, const aclTensor* out, const aclTensor* totalWeightOut) {
  CANOPY_CHECK(CheckSameDtype(plan, "weight", weight->dtype, self->dtype));
  CANOPY_CHECK(CheckOutputDtypes(plan, self, out, totalWeightOut));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSelfDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kTargetDtypes));
  CANOPY_CHECK(CheckReduction(plan, reduction));
  const Shape& s = self->view_shape;
  if (s.size() != 1 && s.size() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has rank %zu; it must be [N, C] or [C]", s.size());
  }
  const bool batched = s.size() == 2;
  const Shape want_target = batched ? Shape{s[0]} : Shape{};
  if (target->view_shape != want_target) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'target' has shape %s; for self %s it must be %s",
                       ShapeToString(target->view_shape).c_str(), ShapeToString(s).c_str(),
                       ShapeToString(want_target).c_str());
  }
  const int64_t classes = s.back();
  CANOPY_CHECK(plan.CheckShape("weight", weight, Shape{classes}));
  if (reduction == kReductionNone && batched) {
    CANOPY_CHECK(plan.CheckShape("out", out, Shape{s[0]}));
  } else {
    CANOPY_CHECK(CheckOneElement(plan, "out", out, 1));
  }
  CANOPY_CHECK(CheckOneElement(plan, "totalWeightOut", totalWeightOut, 8));
  // CANN's host code: no class to pick for a target that has an element, whatever its value or ignoreIndex.
  if (classes == 0 && target->NumElements() > 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' %s has no classes, so 'target' %s is out of bounds",
                       ShapeToString(s).c_str(), ShapeToString(target->view_shape).c_str());
  }
  AddNllStep(plan, self, target, weight, reduction, ignoreIndex, out, totalWeightOut,
             batched ? std::vector<int64_t>{0} : std::vector<int64_t>{}, batched ? 1 : 0, "aclnnNLLLoss");
  return ACLNN_SUCCESS;
}

aclnnStatus PlanNllLoss2d(Plan& plan, const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                          int64_t reduction, int64_t ignoreIndex, const aclTensor* out,
                          const aclTensor* totalWeightOut) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSelfDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "weight", weight->dtype, self->dtype));
  CANOPY_CHECK(CheckOutputDtypes(plan, self, out, totalWeightOut));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kTargetDtypes));
  CANOPY_CHECK(CheckReduction(plan, reduction));
  const Shape& s = self->view_shape;
  if (s.size() != 4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has rank %zu; it must be [N, C, H, W]", s.size());
  }
  if (weight->view_shape.empty() || weight->view_shape[0] != s[1] || weight->NumElements() != s[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'weight' has shape %s; it must hold self's %lld classes",
                       ShapeToString(weight->view_shape).c_str(), static_cast<long long>(s[1]));
  }
  const Shape rows = {s[0], s[2], s[3]};
  if (target->view_shape != rows) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'target' has shape %s; for self %s it must be %s",
                       ShapeToString(target->view_shape).c_str(), ShapeToString(s).c_str(),
                       ShapeToString(rows).c_str());
  }
  if (reduction == kReductionNone) {
    CANOPY_CHECK(plan.CheckShape("out", out, rows));
  } else {
    CANOPY_CHECK(CheckOneElement(plan, "out", out, 8));
  }
  CANOPY_CHECK(CheckOneElement(plan, "totalWeightOut", totalWeightOut, 8));
  AddNllStep(plan, self, target, weight, reduction, ignoreIndex, out, totalWeightOut, {0, 2, 3}, 1, "aclnnNLLLoss2d");
  return ACLNN_SUCCESS;
}

constexpr const char* kExample = "f32[3,4] i64[3]{0:3} f32[4] 1 -100 f32[] f32[]";

}  // namespace

CANOPY_ACLNN_OP(NLLLoss, PlanNllLoss,
                (OpTraits{.header = "aclnnop/aclnn_nll_loss.h", .dtypes = kSelfDtypes, .example = kExample}),
                (const aclTensor*, self), (const aclTensor*, target), (const aclTensor*, weight), (int64_t, reduction),
                (int64_t, ignoreIndex), (aclTensor*, out), (aclTensor*, totalWeightOut))
CANOPY_ACLNN_OP(NLLLoss2d, PlanNllLoss2d,
                (OpTraits{.header = "aclnnop/aclnn_nll_loss2d.h",
                          .dtypes = kSelfDtypes,
                          .example = "f32[2,3,2,2] i64[2,2,2]{0:2} f32[3] 1 -100 f32[] f32[]"}),
                (const aclTensor*, self), (const aclTensor*, target), (const aclTensor*, weight), (int64_t, reduction),
                (int64_t, ignoreIndex), (aclTensor*, out), (aclTensor*, totalWeightOut))
