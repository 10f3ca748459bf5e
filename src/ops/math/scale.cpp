// aclnnScale (Caffe's Scale layer): y = x * scale (+ bias), scale and bias
// laid over x's dims from axis on (or a single value over all of x),
// computed in FLOAT for FLOAT16 / BFLOAT16 and rounded once.
#include "aclnnop/aclnn_scale.h"
#include "binary_pointwise.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kScaleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus RejectScaleShape(Plan& plan, const Shape& scale, const Shape& x, int64_t axis) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'scale' %s does not match the dims of x %s from axis %ld on",
                     ShapeToString(scale).c_str(), ShapeToString(x).c_str(), static_cast<long>(axis));
}

// The dims of x that scale spans, from `axis` on: `count` of them (0: scale is a single value).
aclnnStatus ScaleSpan(Plan& plan, const Shape& x, const Shape& scale, int64_t axis, int64_t num_axes, bool from_blob,
                      int64_t& count) {
  const auto rank = static_cast<int64_t>(x.size());
  int64_t scale_count = 1;
  for (int64_t extent : scale) scale_count *= extent;
  if (from_blob && num_axes == 0) {
    if (scale_count != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "with numAxes 0 'scale' must hold one value, not %s",
                         ShapeToString(scale).c_str());
    }
    count = 0;
    return ACLNN_SUCCESS;
  }
  count = from_blob ? (num_axes == -1 ? rank - axis : num_axes) : static_cast<int64_t>(scale.size());
  if (count + axis > rank || (from_blob && count <= 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "axis %ld and %ld scale dims exceed x's rank %ld",
                       static_cast<long>(axis), static_cast<long>(count), static_cast<long>(rank));
  }
  const Shape spanned(x.begin() + axis, x.begin() + axis + count);
  if (!from_blob && scale_count == 1 && count <= 1) {
    count = 0;  // a single value
    return ACLNN_SUCCESS;
  }
  if (spanned != scale) return RejectScaleShape(plan, scale, x, axis);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanScale(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* bias, int64_t axis,
                      int64_t num_axes, bool scale_from_blob, const aclTensor* y) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kScaleDtypes));
  if (bias != nullptr && bias->dtype != scale->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'bias' is %s; it must have scale's dtype %s", DtypeName(bias->dtype),
                       DtypeName(scale->dtype));
  }
  for (auto [t, name] : {std::pair{scale, "scale"}, std::pair{y, "y"}}) {
    if (t->dtype != x->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is %s; it must have x's dtype %s", name, DtypeName(t->dtype),
                         DtypeName(x->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckShape("y", y, x->view_shape));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckShape("bias", bias, scale->view_shape));
  const auto rank = static_cast<int64_t>(x->view_shape.size());
  if (axis < -rank || axis >= rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "axis %ld is outside [%ld, %ld)", static_cast<long>(axis),
                       static_cast<long>(-rank), static_cast<long>(rank));
  }
  if (num_axes < -1)
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "numAxes %ld must be -1 or more", static_cast<long>(num_axes));
  const int64_t first = axis < 0 ? axis + rank : axis;
  int64_t count = 0;
  CANOPY_CHECK(ScaleSpan(plan, x->view_shape, scale->view_shape, first, num_axes, scale_from_blob, count));

  const TensorRef in = plan.Input(x, "x");
  // scale (and bias) viewed right-aligned against x: their dims, then ones to x's last dim.
  Shape aligned = count == 0 ? Shape{} : Shape(x->view_shape.begin() + first, x->view_shape.begin() + first + count);
  if (count > 0) aligned.resize(static_cast<size_t>(rank - first), 1);
  const TensorRef s = *Reshape(plan.Input(scale, "scale"), aligned);
  std::optional<TensorRef> b;
  if (bias != nullptr) {
    b = *Reshape(plan.Input(bias, "bias"), aligned);
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(y, "y");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  if (b) {
    AddPointwise(plan, PointwiseOp::kAddcmul, x->dtype, x->dtype,
                 {PointwiseOperand::Tensor(*b), PointwiseOperand::Tensor(in), PointwiseOperand::Tensor(s),
                  PointwiseOperand::Scalar(ScalarValue::Integer(1))},
                 dst);
  } else {
    plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(x->dtype), {in, s}, dst, ScalarValue::Integer(1));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Scale, PlanScale,
                (OpTraits{.header = "aclnnop/aclnn_scale.h",
                          .dtypes = kScaleDtypes,
                          .example = "f32[4,2] f32[4] f32[4] 0 1 false f32[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, bias, optional), (int64_t, axis),
                (int64_t, numAxes), (bool, scaleFromBlob), (aclTensor*, y))
