// aclnnLayerNorm (and its implMode and fast forms): (input - mean) * rstd *
// weight + bias over the trailing dims normalizedShape names.
#include "aclnnop/aclnn_layer_norm.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLayerNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int32_t kKeepFloat16 = 2;
constexpr size_t kMaxNormalizedDims = 8;  // implMode: 0 high precision, 1 high performance, 2 keep float16

// weight or bias: a supported dtype, input's or FLOAT.
aclnnStatus CheckAffineDtype(Plan& plan, const char* name, const aclTensor* t, const aclTensor* input) {
  if (t == nullptr) return ACLNN_SUCCESS;
  CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kLayerNormDtypes));
  if (t->dtype != ACL_FLOAT && t->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; it must be input's (%s) or FLOAT", name,
                       DtypeName(t->dtype), DtypeName(input->dtype));
  }
  return ACLNN_SUCCESS;
}

// meanOutOptional / rstdOutOptional: input's leading dims, then a 1 per normalised dim (an empty one is not checked).
aclnnStatus CheckStatShape(Plan& plan, const char* name, const aclTensor* t, const aclTensor* input, size_t leading) {
  if (t == nullptr || t->NumElements() == 0) return ACLNN_SUCCESS;
  Shape expected(input->view_shape.begin(), input->view_shape.begin() + static_cast<std::ptrdiff_t>(leading));
  expected.resize(input->view_shape.size(), 1);
  return plan.CheckShape(name, t, expected);
}

aclnnStatus PlanLayerNormWithImplMode(Plan& plan, const aclTensor* input, const aclIntArray* normalized_shape,
                                      const aclTensor* weight, const aclTensor* bias, double eps, const aclTensor* out,
                                      const aclTensor* mean, const aclTensor* rstd, int32_t impl_mode) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kLayerNormDtypes));
  CANOPY_CHECK(CheckAffineDtype(plan, "weightOptional", weight, input));
  CANOPY_CHECK(CheckAffineDtype(plan, "biasOptional", bias, input));
  if (weight != nullptr && bias != nullptr && weight->dtype != bias->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'weightOptional' (%s) and 'biasOptional' (%s) differ in dtype",
                       DtypeName(weight->dtype), DtypeName(bias->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kLayerNormDtypes));
  if (mean != nullptr) CANOPY_CHECK(plan.CheckDtype("meanOutOptional", mean->dtype, kLayerNormDtypes));
  if (rstd != nullptr) CANOPY_CHECK(plan.CheckDtype("rstdOutOptional", rstd->dtype, kLayerNormDtypes));
  const std::vector<int64_t>& dims = normalized_shape->values;
  if (dims.size() > kMaxNormalizedDims) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'normalizedShape' has %zu dims, more than %zu", dims.size(),
                       kMaxNormalizedDims);
  }
  if (dims.empty()) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'normalizedShape' is empty");
  if (dims.size() > input->view_shape.size()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'normalizedShape' has %zu dims but 'input' only %lld",
                       dims.size(), static_cast<long long>(input->rank()));
  }
  const size_t leading = input->view_shape.size() - dims.size();
  for (const auto& [name, t] : {std::pair{"weightOptional", weight}, std::pair{"biasOptional", bias}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, dims));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != input->view_shape[leading + i]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "normalizedShape %s does not match the trailing dims of input %s",
                         ShapeToString(dims).c_str(), ShapeToString(input->view_shape).c_str());
    }
  }
  CANOPY_CHECK(plan.CheckShape("out", out, input->view_shape));
  CANOPY_CHECK(CheckStatShape(plan, "meanOutOptional", mean, input, leading));
  CANOPY_CHECK(CheckStatShape(plan, "rstdOutOptional", rstd, input, leading));
  if (impl_mode < 0 || impl_mode > kKeepFloat16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'implMode' is %d; it must be 0, 1 or 2", impl_mode);
  }
  if (impl_mode == kKeepFloat16) {
    for (const aclTensor* t : {input, weight, bias}) {
      if (t != nullptr && t->dtype != ACL_FLOAT16) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "implMode 2 (keep float16) needs every input FLOAT16, not %s",
                           DtypeName(t->dtype));
      }
    }
  }
  NormPlan norm;
  norm.kind = kernels::NormKind::kLayer;
  norm.eps = eps;
  norm.rows =
      ElementCount(Shape(input->view_shape.begin(), input->view_shape.begin() + static_cast<std::ptrdiff_t>(leading)));
  norm.length = ElementCount(dims);
  norm.x = Given(input, "input");
  norm.gamma = Given(weight, "weightOptional");
  norm.beta = Given(bias, "biasOptional");
  norm.y = Given(out, "out");
  norm.mean = Given(mean, "meanOutOptional");
  norm.rstd = Given(rstd, "rstdOutOptional");
  return PlanRowNorm(plan, norm);
}

aclnnStatus PlanLayerNorm(Plan& plan, const aclTensor* input, const aclIntArray* normalized_shape,
                          const aclTensor* weight, const aclTensor* bias, double eps, const aclTensor* out,
                          const aclTensor* mean, const aclTensor* rstd) {
  return PlanLayerNormWithImplMode(plan, input, normalized_shape, weight, bias, eps, out, mean, rstd, 0);
}

constexpr OpTraits kLayerNormTraits{.header = "aclnnop/aclnn_layer_norm.h", .dtypes = kLayerNormDtypes};

}  // namespace

CANOPY_ACLNN_OP(LayerNorm, PlanLayerNorm,
                WithExample(kLayerNormTraits, "f32[2,3] ints[3] f32[3] f32[3] 1e-5 f32[2,3] f32[2,1] f32[2,1]"),
                (const aclTensor*, input), (const aclIntArray*, normalizedShape),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, biasOptional, optional), (double, eps),
                (aclTensor*, out), (aclTensor*, meanOutOptional, optional), (aclTensor*, rstdOutOptional, optional))
CANOPY_ACLNN_OP(LayerNormWithImplMode, PlanLayerNormWithImplMode,
                WithExample(kLayerNormTraits, "f32[2,3] ints[3] f32[3] f32[3] 1e-5 f32[2,3] f32[2,1] f32[2,1] 0"),
                (const aclTensor*, input), (const aclIntArray*, normalizedShape),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, biasOptional, optional), (double, eps),
                (aclTensor*, out), (aclTensor*, meanOutOptional, optional), (aclTensor*, rstdOutOptional, optional),
                (int32_t, implMode))
CANOPY_ACLNN_OP(FastLayerNorm, PlanLayerNorm,
                WithExample(kLayerNormTraits, "f32[2,3] ints[3] f32[3] f32[3] 1e-5 f32[2,3] f32[2,1] f32[2,1]"),
                (const aclTensor*, input), (const aclIntArray*, normalizedShape),
                (const aclTensor*, weightOptional, optional), (const aclTensor*, biasOptional, optional), (double, eps),
                (aclTensor*, out), (aclTensor*, meanOutOptional, optional), (aclTensor*, rstdOutOptional, optional))
