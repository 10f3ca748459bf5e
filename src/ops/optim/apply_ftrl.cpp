// aclnnApplyFtrl (CANN's experimental/optim/apply_ftrl, whose op definition names ascend910b; TensorFlow's
// ApplyFtrl): one FTRL-proximal step, varRef, accumRef and linearRef updated in place, in FLOAT:
//   accum' = accum + grad^2,  linear' = linear + grad - (accum'^-lrPower - accum^-lrPower) / lr * var,
//   var' = (clamp(linear', -l1, l1) - linear') / (accum'^-lrPower / lr + 2 l2)   (0 where |linear'| <= l1),
// lr, l1, l2 and lrPower one-element tensors read when the step runs. CANN's order: var's dtype in the list,
// every other one var's, then accum / linear / grad of var's shape, then the four of one element (161002).
// useLocking does not change the result; an empty var computes nothing.
#include <utility>
#include <vector>

#include "aclnnop/aclnn_apply_ftrl.h"
#include "adam_update.h"
#include "ops/framework/tensor_view.h"
#include "ops/math/binary_pointwise.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus PlanApplyFtrl(Plan& plan, const aclTensor* var, const aclTensor* accum, const aclTensor* linear,
                          const aclTensor* grad, const aclTensor* lr, const aclTensor* l1, const aclTensor* l2,
                          const aclTensor* lr_power, bool /*use_locking*/) {
  using Named = std::pair<const char*, const aclTensor*>;
  const Named state[] = {{"accumRef", accum}, {"linearRef", linear}, {"grad", grad}};
  const Named scalars[] = {{"lr", lr}, {"l1", l1}, {"l2", l2}, {"lrPower", lr_power}};
  CANOPY_CHECK(plan.CheckDtype("varRef", var->dtype, kAdamDtypes));
  for (const auto& [name, t] : state) CANOPY_CHECK(CheckSameDtype(plan, name, t, "varRef", var));
  for (const auto& [name, t] : scalars) CANOPY_CHECK(CheckSameDtype(plan, name, t, "varRef", var));
  for (const auto& [name, t] : state) CANOPY_CHECK(plan.CheckShape(name, t, var->view_shape));
  for (const auto& [name, t] : scalars) CANOPY_CHECK(CheckOneElement(plan, name, t));

  const Shape& shape = var->view_shape;
  const TensorRef v = plan.Input(var, "varRef");
  const TensorRef a = plan.Input(accum, "accumRef");
  const TensorRef l = plan.Input(linear, "linearRef");
  const TensorRef g = plan.Input(grad, "grad");
  const auto spread = [&](const aclTensor* t, const char* name) {
    return BroadcastTo(SqueezeAll(plan.Input(t, name)), shape);
  };
  const TensorRef rate = spread(lr, "lr"), l1_all = spread(l1, "l1"), l2_all = spread(l2, "l2"),
                  power = spread(lr_power, "lrPower");
  const TensorRef var_out = plan.Output(var, "varRef");
  const TensorRef accum_out = plan.Output(accum, "accumRef");
  const TensorRef linear_out = plan.Output(linear, "linearRef");
  if (var->NumElements() == 0) return ACLNN_SUCCESS;

  constexpr aclDataType kF32 = ACL_FLOAT;
  constexpr auto kCompute = ComputeType::kF32;
  const auto temporary = [&] { return plan.Temporary(kF32, shape); };
  const auto pointwise = [&](PointwiseOp op, const std::vector<PointwiseOperand>& operands, const TensorRef& out) {
    AddPointwise(plan, op, kF32, kF32, operands, out);
  };
  using Operand = PointwiseOperand;
  const ScalarValue one = ScalarValue::Real(1), minus_one = ScalarValue::Real(-1);
  // accum' and the two powers accum^-lrPower, accum'^-lrPower.
  const TensorRef neg_power = temporary();
  plan.Elementwise(ElementwiseOp::kMul, kCompute, {power}, neg_power, one, minus_one);
  const TensorRef accum_new = temporary();
  pointwise(PointwiseOp::kAddcmul, {Operand::Tensor(a), Operand::Tensor(g), Operand::Tensor(g), Operand::Scalar(one)},
            accum_new);
  const TensorRef old_power = temporary(), new_power = temporary();
  pointwise(PointwiseOp::kPow, {Operand::Tensor(a), Operand::Tensor(neg_power)}, old_power);
  pointwise(PointwiseOp::kPow, {Operand::Tensor(accum_new), Operand::Tensor(neg_power)}, new_power);
  // linear' = linear + (grad - sigma * var), sigma = (new - old) / lr.
  const TensorRef sigma = temporary();
  plan.Elementwise(ElementwiseOp::kSub, kCompute, {new_power, old_power}, sigma, one);
  plan.Elementwise(ElementwiseOp::kDiv, kCompute, {sigma, rate}, sigma, one);
  const TensorRef linear_new = temporary();
  pointwise(PointwiseOp::kAddcmul,
            {Operand::Tensor(g), Operand::Tensor(sigma), Operand::Tensor(v), Operand::Scalar(minus_one)}, linear_new);
  plan.Elementwise(ElementwiseOp::kAdd, kCompute, {l, linear_new}, linear_new, one);
  // var' = (clamp(linear', -l1, l1) - linear') / quadratic, quadratic = new / lr + 2 l2.
  const TensorRef quadratic = temporary();
  plan.Elementwise(ElementwiseOp::kDiv, kCompute, {new_power, rate}, quadratic, one);
  plan.Elementwise(ElementwiseOp::kAdd, kCompute, {quadratic, l2_all}, quadratic, ScalarValue::Real(2));
  const TensorRef neg_l1 = temporary(), shrunk = temporary();
  plan.Elementwise(ElementwiseOp::kMul, kCompute, {l1_all}, neg_l1, one, minus_one);
  pointwise(PointwiseOp::kClamp, {Operand::Tensor(linear_new), Operand::Tensor(neg_l1), Operand::Tensor(l1_all)},
            shrunk);
  plan.Elementwise(ElementwiseOp::kSub, kCompute, {shrunk, linear_new}, shrunk, one);
  plan.Elementwise(ElementwiseOp::kDiv, kCompute, {shrunk, quadratic}, var_out, one);
  plan.Copy(accum_new, accum_out);
  plan.Copy(linear_new, linear_out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ApplyFtrl, PlanApplyFtrl,
                (OpTraits{.header = "aclnnop/aclnn_apply_ftrl.h",
                          .dtypes = kAdamDtypes,
                          .in_place = true,
                          .example = "f32[2,3] f32[2,3]{0.1:1} f32[2,3] f32[2,3] f32[1]{0.01:0.1} f32[1]{0:0.1} "
                                     "f32[1]{0:0.1} f32[1]{-0.6:-0.4} false"}),
                (aclTensor*, varRef), (aclTensor*, accumRef), (aclTensor*, linearRef), (const aclTensor*, grad),
                (const aclTensor*, lr), (const aclTensor*, l1), (const aclTensor*, l2), (const aclTensor*, lrPower),
                (bool, useLocking))
