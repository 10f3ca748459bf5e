// aclnnGaussianNllLoss (CANN's experimental/loss/gaussian_nll_loss, Atlas A2; torch gaussian_nll_loss):
// 0.5 (log v + (input - target)^2 / v) with v = max(var, eps), plus 0.5 log(2 pi) when full, kept
// ("none") or its "mean" or "sum" (reductionOptional, null: "mean"). CANN generates the entry from its
// op definition: input, target, var and out one dtype of FLOAT / FLOAT16 / BFLOAT16 (161002). Its tiling
// (561002) takes target of input's shape or of its rank with one dim of 1, var of input's shape, that
// with a last dim of 1, that without its last dim, or a scalar, eps finite and above 0 (as a float), a
// known reduction, and out of input's shape (none) or of one element. An empty mean is NaN, a sum 0.
#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_gaussian_nll_loss.h"
#include "loss.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

// target: input's shape, or its rank with exactly one dim of 1 where input's differs.
aclnnStatus CheckTargetShape(Plan& plan, const Shape& input, const Shape& target) {
  int differing = 0;
  bool fits = target.size() == input.size();
  for (size_t d = 0; fits && d < input.size(); ++d) {
    if (target[d] == input[d]) continue;
    fits = target[d] == 1 && ++differing == 1;
  }
  if (fits) return ACLNN_SUCCESS;
  return plan.Reject(kTiling, "argument 'target' has shape %s; it must be input's %s or differ in one dim of 1",
                     ShapeToString(target).c_str(), ShapeToString(input).c_str());
}

// var: input's shape, a scalar, or input's leading dims with a last dim of 1 or none (`unsqueeze`: var
// then needs a trailing dim of 1 to broadcast).
aclnnStatus CheckVarShape(Plan& plan, const Shape& input, const Shape& var, bool& unsqueeze) {
  unsqueeze = false;
  if (var == input || var.empty()) return ACLNN_SUCCESS;
  const bool keeps_last = !input.empty() && var.size() == input.size() && var.back() == 1 &&
                          std::equal(var.begin(), var.end() - 1, input.begin());
  const bool drops_last =
      !input.empty() && var.size() + 1 == input.size() && std::equal(var.begin(), var.end(), input.begin());
  unsqueeze = drops_last;
  if (keeps_last || drops_last) return ACLNN_SUCCESS;
  return plan.Reject(kTiling,
                     "argument 'var' has shape %s; it must be input's %s, that with a last dim of 1 or without its "
                     "last dim, or a scalar",
                     ShapeToString(var).c_str(), ShapeToString(input).c_str());
}

aclnnStatus PlanGaussianNllLoss(Plan& plan, const aclTensor* input, const aclTensor* target, const aclTensor* var,
                                bool full, double eps, const char* reduction, const aclTensor* out) {
  CANOPY_CHECK(CheckOneLossDtype(plan, {{"input", input}, {"target", target}, {"var", var}, {"out", out}}));
  const Shape& shape = input->view_shape;
  CANOPY_CHECK(CheckTargetShape(plan, shape, target->view_shape));
  bool unsqueeze = false;
  CANOPY_CHECK(CheckVarShape(plan, shape, var->view_shape, unsqueeze));
  const auto eps_f32 = static_cast<float>(eps);  // the op's attribute is a float
  if (!std::isfinite(eps_f32) || !(eps_f32 > 0)) {
    return plan.Reject(kTiling, "argument 'eps' is %g; it must be finite and above 0 as a float", eps);
  }
  int64_t mode = kReductionMean;
  CANOPY_CHECK(ParseReduction(plan, "reductionOptional", reduction, "mean", kTiling, mode));
  CANOPY_CHECK(CheckLossOutCount(plan, kTiling, "out", out, shape, mode));
  const TensorRef x = plan.Input(input, "input");
  const TensorRef t = plan.Input(target, "target");
  TensorRef v = plan.Input(var, "var");
  if (unsqueeze) v = Unsqueeze(v, static_cast<int64_t>(shape.size()) - 1);
  PlanLoss(plan, full ? PointwiseOp::kGaussianNllLossFull : PointwiseOp::kGaussianNllLoss, input->dtype,
           {PointwiseOperand::Tensor(x), PointwiseOperand::Tensor(t), PointwiseOperand::Tensor(v),
            PointwiseOperand::Scalar(ScalarValue::Real(eps_f32))},
           shape, mode, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(GaussianNllLoss, PlanGaussianNllLoss,
                (OpTraits{.header = "aclnnop/aclnn_gaussian_nll_loss.h",
                          .dtypes = kGeneratedLossDtypes,
                          .example = "f32[2,3] f32[2,3] f32[2,3]{0.1:1} false 1e-6 'mean' f32[]"}),
                (const aclTensor*, input), (const aclTensor*, target), (const aclTensor*, var), (bool, full),
                (double, eps), (char*, reductionOptional, optional), (const aclTensor*, out))
