// aclnnModulate (DiT's adaptive layer-norm modulation): out = self * (1 +
// scaleOptional) + shiftOptional, self [B, L, D] and the two [B, 1, D] or
// [B, D], repeated over L. CANN's host code rejects a null scale or shift
// (161002) although the names say optional, so both are required here.
// Computed in FLOAT for the 16-bit dtypes.
#include <algorithm>
#include <utility>

#include "aclnnop/aclnn_modulate.h"
#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kModulateDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kRank = 3;

bool IsEmpty(const Shape& shape) { return std::ranges::find(shape, 0) != shape.end(); }

aclnnStatus CheckFactor(Plan& plan, const char* name, const aclTensor* factor, const Shape& self_shape) {
  const Shape& fs = factor->view_shape;
  if (fs.size() != 2 && fs.size() != 3) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has %zu dims; it must have 2 or 3", name, fs.size());
  }
  if (fs.front() != self_shape[0] || fs.back() != self_shape[2]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' %s must have the first and last dims of 'self' %s", name,
                       ShapeToString(fs).c_str(), ShapeToString(self_shape).c_str());
  }
  if (fs.size() == 3 && fs[1] != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' %s must have extent 1 in dim 1", name, ShapeToString(fs).c_str());
  }
  return ACLNN_SUCCESS;
}

// A [B, D] factor viewed as [B, 1, D] (a [B, 1, D] one as it is).
TensorRef AsRows(const TensorRef& factor) {
  if (factor.rank() == kRank) return factor;
  TensorRef view = factor;
  view.shape = {factor.shape[0], 1, factor.shape[1]};
  view.strides = {factor.strides[0], 0, factor.strides[1]};
  return view;
}

aclnnStatus PlanModulate(Plan& plan, const aclTensor* self, const aclTensor* scaleOptional,
                         const aclTensor* shiftOptional, const aclTensor* out) {
  // Declared optional, so the kit's null check (161001) passes them; CANN's shape check refuses them (161002).
  if (scaleOptional == nullptr || shiftOptional == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'scaleOptional' and 'shiftOptional' must not be null");
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kModulateDtypes));
  for (const auto& [name, t] :
       {std::pair{"scaleOptional", scaleOptional}, std::pair{"shiftOptional", shiftOptional}, std::pair{"out", out}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kModulateDtypes));
    if (t->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be self's (%s)", name,
                         DtypeName(t->dtype), DtypeName(self->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckRank("self", self, kRank, kRank));
  const Shape& xs = self->view_shape;
  const bool self_empty = IsEmpty(xs);
  if (self_empty && (!IsEmpty(scaleOptional->view_shape) || !IsEmpty(shiftOptional->view_shape))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' %s is empty, so 'scaleOptional' and 'shiftOptional' must be",
                       ShapeToString(xs).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, xs));
  CANOPY_CHECK(CheckFactor(plan, "scaleOptional", scaleOptional, xs));
  CANOPY_CHECK(CheckFactor(plan, "shiftOptional", shiftOptional, xs));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef scale = AsRows(plan.Input(scaleOptional, "scaleOptional"));
  const TensorRef shift = AsRows(plan.Input(shiftOptional, "shiftOptional"));
  const TensorRef dst = plan.Output(out, "out");
  if (self_empty) return ACLNN_SUCCESS;
  const TensorRef gain = plan.Temporary(ACL_FLOAT, scale.shape);  // 1 + scale, per row
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {scale}, gain, ScalarValue::Integer(1),
                   ScalarValue::Integer(1));
  AddPointwise(plan, PointwiseOp::kAddcmul, ACL_FLOAT, ACL_FLOAT,
               {PointwiseOperand::Tensor(shift), PointwiseOperand::Tensor(in), PointwiseOperand::Tensor(gain),
                PointwiseOperand::Scalar(ScalarValue::Integer(1))},
               dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Modulate, PlanModulate,
                (OpTraits{.header = "aclnnop/aclnn_modulate.h",
                          .dtypes = kModulateDtypes,
                          .example = "f32[2,3,4] f32[2,1,4]!161002 f32[2,4]!161002 f32[2,3,4]"}),
                (const aclTensor*, self), (const aclTensor*, scaleOptional, optional),
                (const aclTensor*, shiftOptional, optional), (aclTensor*, out))
