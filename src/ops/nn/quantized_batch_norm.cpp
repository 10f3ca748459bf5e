// aclnnQuantizedBatchNorm (torch.quantized_batch_norm): x' = (x -
// inputZeroPoint) * inputScale, y = (x' - mean[c]) / sqrt(var[c] + epsilon) *
// weight[c] + bias[c] (weight 1 and bias 0 when absent), output =
// round(y / outputScale + outputZeroPoint), half to even and saturated to the
// output's integer dtype. input and output NCHW, INT8, UINT8 or INT32, of one
// dtype and shape. Computed in FLOAT, the integers carried in DOUBLE.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quantized_batch_norm.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kQuantisedDtypes = {ACL_INT8, ACL_UINT8, ACL_INT32};

struct QuantParams {
  float input_scale, output_scale;
  int32_t input_zero_point, output_zero_point;
  float epsilon;
  double low, high;  // the output dtype's range
};

// x [N, C, HW] DOUBLE dense (every INT32 exactly), per-channel FLOAT mean, var, weight, bias;
// writes y [N, C, HW] DOUBLE holding the rounded, saturated integers.
class QuantizedBatchNormStep final : public Step {
 public:
  QuantizedBatchNormStep(const TensorRef& x, const TensorRef& mean, const TensorRef& var,
                         std::optional<TensorRef> weight, std::optional<TensorRef> bias, const TensorRef& y,
                         QuantParams p)
      : x_(x), mean_(mean), var_(var), weight_(std::move(weight)), bias_(std::move(bias)), y_(y), p_(p) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto in = [&](const TensorRef& t) { return reinterpret_cast<const float*>(context.Resolve(t.buffer)); };
    const auto* x = reinterpret_cast<const double*>(context.Resolve(x_.buffer));
    const float* mean = in(mean_);
    const float* var = in(var_);
    const float* weight = weight_ ? in(*weight_) : nullptr;
    const float* bias = bias_ ? in(*bias_) : nullptr;
    auto* y = reinterpret_cast<double*>(context.Resolve(y_.buffer));
    const int64_t n = x_.shape[0], c = x_.shape[1], hw = x_.shape[2];
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        const float inv_std = 1.0F / std::sqrt(var[ch] + p_.epsilon);
        const float w = weight != nullptr ? weight[ch] : 1.0F, shift = bias != nullptr ? bias[ch] : 0.0F;
        for (int64_t i = 0; i < hw; ++i) {
          const int64_t at = (b * c + ch) * hw + i;
          const auto dequantised = static_cast<float>((x[at] - p_.input_zero_point) * p_.input_scale);
          const float normalised = (dequantised - mean[ch]) * inv_std * w + shift;
          const double q = std::nearbyint(static_cast<double>(normalised / p_.output_scale) + p_.output_zero_point);
          y[at] = std::clamp(q, p_.low, p_.high);
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "quantized batch norm " + ShapeToString(x_.shape); }

 private:
  TensorRef x_, mean_, var_;
  std::optional<TensorRef> weight_, bias_;
  TensorRef y_;
  QuantParams p_;
};

std::pair<double, double> RangeOf(aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8:
      return {-128, 127};
    case ACL_UINT8:
      return {0, 255};
    default:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  }
}

aclnnStatus PlanQuantizedBatchNorm(Plan& plan, const aclTensor* input, const aclTensor* mean, const aclTensor* var,
                                   const aclScalar* inputScale, const aclScalar* inputZeroPoint,
                                   const aclScalar* outputScale, const aclScalar* outputZeroPoint,
                                   const aclTensor* weight, const aclTensor* bias, float epsilon,
                                   const aclTensor* output) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kQuantisedDtypes));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kQuantisedDtypes));
  for (const auto& [name, t] :
       {std::pair{"weight", weight}, std::pair{"bias", bias}, std::pair{"mean", mean}, std::pair{"var", var}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_FLOAT}));
  }
  CANOPY_CHECK(CheckScalarDtype(plan, "inputScale", inputScale, {ACL_FLOAT}));
  CANOPY_CHECK(CheckScalarDtype(plan, "inputZeroPoint", inputZeroPoint, {ACL_INT32}));
  CANOPY_CHECK(CheckScalarDtype(plan, "outputScale", outputScale, {ACL_FLOAT}));
  CANOPY_CHECK(CheckScalarDtype(plan, "outputZeroPoint", outputZeroPoint, {ACL_INT32}));
  if (input->format != output->format || (input->format != ACL_FORMAT_NCHW && input->format != ACL_FORMAT_ND)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input (%d) and output (%d) must both be NCHW",
                       static_cast<int>(input->format), static_cast<int>(output->format));
  }
  if (output->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'output' has dtype %s; it must be input's (%s)",
                       DtypeName(output->dtype), DtypeName(input->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("output", output, input->view_shape));
  CANOPY_CHECK(plan.CheckRank("input", input, 4, 4));
  const int64_t channels = input->view_shape[1];
  for (const auto& [name, t] :
       {std::pair{"weight", weight}, std::pair{"bias", bias}, std::pair{"mean", mean}, std::pair{"var", var}}) {
    if (t != nullptr && (t->rank() != 1 || t->view_shape[0] != channels)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has shape %s; it must be [%lld], input's channels", name,
                         ShapeToString(t->view_shape).c_str(), static_cast<long long>(channels));
    }
  }
  if (input->NumElements() == 0 || mean->NumElements() == 0 || var->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s, mean and var must not be empty",
                       ShapeToString(input->view_shape).c_str());
  }
  const TensorRef x = plan.Input(input, "input");
  const TensorRef m = plan.Input(mean, "mean");
  const TensorRef v = plan.Input(var, "var");
  std::optional<TensorRef> w, b;
  for (const auto& [name, t, ref] : {std::tuple{"weight", weight, &w}, std::tuple{"bias", bias, &b}}) {
    if (t != nullptr) {
      *ref = plan.Input(t, name);
    } else {
      plan.SkipInput();
    }
  }
  const TensorRef y = plan.Output(output, "output");
  const Shape& s = x.shape;
  const TensorRef values = *Reshape(plan.Contiguous(x, ACL_DOUBLE), {s[0], s[1], s[2] * s[3]});
  std::vector<TensorRef> reads = {values, plan.Contiguous(m, ACL_FLOAT), plan.Contiguous(v, ACL_FLOAT)};
  if (w) reads.push_back(*(w = plan.Contiguous(*w, ACL_FLOAT)));
  if (b) reads.push_back(*(b = plan.Contiguous(*b, ACL_FLOAT)));
  const auto [low, high] = RangeOf(output->dtype);
  const QuantParams params{.input_scale = static_cast<float>(ValueOf(*inputScale).real),
                           .output_scale = static_cast<float>(ValueOf(*outputScale).real),
                           .input_zero_point = static_cast<int32_t>(ValueOf(*inputZeroPoint).integer),
                           .output_zero_point = static_cast<int32_t>(ValueOf(*outputZeroPoint).integer),
                           .epsilon = epsilon,
                           .low = low,
                           .high = high};
  const TensorRef result = plan.Temporary(ACL_DOUBLE, values.shape);
  plan.AddStep(std::make_unique<QuantizedBatchNormStep>(values, reads[1], reads[2], w, b, result, params), reads,
               result);
  plan.Copy(*Reshape(result, y.shape), y);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(QuantizedBatchNorm, PlanQuantizedBatchNorm,
                (OpTraits{.header = "aclnnop/aclnn_quantized_batch_norm.h",
                          .dtypes = kQuantisedDtypes | DtypeSet{ACL_FLOAT},
                          .example = "i8[1,2,2,2]@NCHW f32[2] f32[2]{0.5:2} f32:0.1 i32:1 f32:0.2 i32:-2 f32[2] f32[2] "
                                     "0.00001 i8[1,2,2,2]@NCHW"}),
                (const aclTensor*, input), (const aclTensor*, mean), (const aclTensor*, var),
                (const aclScalar*, inputScale), (const aclScalar*, inputZeroPoint), (const aclScalar*, outputScale),
                (const aclScalar*, outputZeroPoint), (aclTensor*, weight, optional), (aclTensor*, bias, optional),
                (float, epsilon), (aclTensor*, output))
