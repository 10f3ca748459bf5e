// aclnnAddRmsNormDynamicQuantV2: x = x1 + x2 (xOut), y = RmsNorm(x) * gamma + betaOptional in f32,
// then DynamicQuant's per-row quantisation of y (times smoothScale1Optional) into y1Out / scale1Out
// and of y times smoothScale2Optional into y2Out / scale2Out, each only where outputMaskOptional asks
// for it (without a mask: the first always, the second with both smooth scales), the others left
// alone and allowed null. CANN's host code checks the mask (two values, at least one true, true
// where its smooth scale is given; without one no smoothScale2Optional alone: 161002), the needed
// outputs (161001), an INT32 (packed INT4) y's last dim (x1's / 8, 161002) and else y's shape
// (561002); the doc's A2 table the dtypes (x1, x2, gamma, smooth scales, beta and xOut FLOAT16 /
// BFLOAT16 of one dtype, y INT8 / INT4 / INT32 of one dtype, scales FLOAT: 161002, as
// AddRmsNormDynamicQuant takes them) and the tiling the other shapes (561002). An empty x1, x2,
// gamma or y2Out computes nothing.
#include <optional>
#include <tuple>

#include "aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h"

#include "ops/nn/quant_rows.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kYDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr int64_t kInt4PerInt32 = 8;
constexpr size_t kMaskLength = 2;

// Which quantised outputs are asked for (CANN's CheckFlag), or a rejection.
aclnnStatus OutputsAskedFor(Plan& plan, const aclTensor* smooth1, const aclTensor* smooth2, const aclBoolArray* mask,
                            bool& out1, bool& out2) {
  if (mask == nullptr) {
    if (smooth1 == nullptr && smooth2 != nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'smoothScale2Optional' is given without smoothScale1Optional and no "
                         "outputMaskOptional");
    }
    out1 = true;
    out2 = smooth1 != nullptr && smooth2 != nullptr;
    return ACLNN_SUCCESS;
  }
  if (mask->values.size() != kMaskLength) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'outputMaskOptional' has %zu values; it must have 2",
                       mask->values.size());
  }
  out1 = mask->values[0];
  out2 = mask->values[1];
  if ((smooth1 != nullptr && !out1) || (smooth2 != nullptr && !out2) || (!out1 && !out2)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'outputMaskOptional' is [%d, %d]; it must ask for an output, and for each "
                       "output whose smooth scale is given",
                       static_cast<int>(out1), static_cast<int>(out2));
  }
  return ACLNN_SUCCESS;
}

// y's shape: x1's, or x1's with the last dim / 8 for INT32 (eight INT4 a value).
aclnnStatus CheckQuantShape(Plan& plan, const char* name, const aclTensor* y, const aclTensor* x1) {
  if (y->dtype != ACL_INT32) {
    if (y->view_shape == x1->view_shape) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument '%s' has shape %s; expected x1's %s", name,
                       ShapeToString(y->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  if (y->rank() >= 1 && x1->rank() >= 1 && y->view_shape.back() * kInt4PerInt32 == x1->view_shape.back())
    return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument '%s' (INT32, packed INT4) has shape %s; its last dim must be "
                     "x1's %s last dim / 8",
                     name, ShapeToString(y->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
}

aclnnStatus CheckArguments(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                           const aclTensor* smooth1, const aclTensor* smooth2, const aclTensor* beta,
                           const aclTensor* y1, const aclTensor* y2, const aclTensor* x_out, const aclTensor* scale1,
                           const aclTensor* scale2, bool out1, bool out2) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kXDtypes));
  for (const auto& [name, t] :
       {std::pair{"x2", x2}, std::pair{"gamma", gamma}, std::pair{"smoothScale1Optional", smooth1},
        std::pair{"smoothScale2Optional", smooth2}, std::pair{"betaOptional", beta}, std::pair{"xOut", x_out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {x1->dtype}));
  }
  if (out1) CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, kYDtypes));
  if (out2) CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, out1 ? DtypeSet{y1->dtype} : kYDtypes));
  if (out1) CANOPY_CHECK(plan.CheckDtype("scale1Out", scale1->dtype, {ACL_FLOAT}));
  if (out2) CANOPY_CHECK(plan.CheckDtype("scale2Out", scale2->dtype, {ACL_FLOAT}));
  if (out1) CANOPY_CHECK(CheckQuantShape(plan, "y1Out", y1, x1));
  if (out2) CANOPY_CHECK(CheckQuantShape(plan, "y2Out", y2, x1));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  for (const auto& [name, t] : {std::pair{"x2", x2}, std::pair{"xOut", x_out}}) {
    if (t->view_shape != x1->view_shape) {
      return plan.Reject(kShape, "argument '%s' has shape %s; expected x1's %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
    }
  }
  if (x1->rank() < 1 || gamma->view_shape != Shape{x1->view_shape.back()}) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must be [x1's last dim] (x1 is %s)",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  for (const auto& [name, t] : {std::pair{"smoothScale1Optional", smooth1}, std::pair{"smoothScale2Optional", smooth2},
                                std::pair{"betaOptional", beta}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckShape(name, t, gamma->view_shape));
  }
  const int64_t rows = x1->NumElements() / gamma->NumElements();
  for (const auto& [name, t, asked] : {std::tuple{"scale1Out", scale1, out1}, std::tuple{"scale2Out", scale2, out2}}) {
    if (asked && t->NumElements() != rows) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must hold %lld elements (x1's rows)",
                         name, ShapeToString(t->view_shape).c_str(), static_cast<long long>(rows));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddRmsNormDynamicQuantV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                         const aclTensor* smooth1, const aclTensor* smooth2, const aclTensor* beta,
                                         double epsilon, const aclBoolArray* mask, const aclTensor* y1,
                                         const aclTensor* y2, const aclTensor* x_out, const aclTensor* scale1,
                                         const aclTensor* scale2) {
  bool out1 = false, out2 = false;
  CANOPY_CHECK(OutputsAskedFor(plan, smooth1, smooth2, mask, out1, out2));
  for (const auto& [name, t, asked] : {std::tuple{"y1Out", y1, out1}, std::tuple{"scale1Out", scale1, out1},
                                       std::tuple{"y2Out", y2, out2}, std::tuple{"scale2Out", scale2, out2}}) {
    if (asked && t == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null; outputMaskOptional asks for it", name);
    }
  }
  const bool empty = x1->NumElements() == 0 || x2->NumElements() == 0 || gamma->NumElements() == 0 ||
                     (y2 != nullptr && y2->NumElements() == 0);
  if (!empty) {
    CANOPY_CHECK(
        CheckArguments(plan, x1, x2, gamma, smooth1, smooth2, beta, y1, y2, x_out, scale1, scale2, out1, out2));
  }
  const int64_t length = gamma->NumElements();
  const int64_t rows = empty ? 0 : x1->NumElements() / length;
  const NormPlan norm = AddRmsRows(epsilon, rows, length, x1, x2, gamma, x_out);
  NormOperandRefs refs;
  RegisterRowNormInputs(plan, norm, refs);
  const std::optional<TensorRef> smooth1_ref = OptionalInput(plan, smooth1, "smoothScale1Optional");
  const std::optional<TensorRef> smooth2_ref = OptionalInput(plan, smooth2, "smoothScale2Optional");
  const std::optional<TensorRef> beta_ref = OptionalInput(plan, beta, "betaOptional");
  if (beta_ref) refs.beta = {true, *beta_ref};
  const std::optional<TensorRef> y1_ref = OptionalOutput(plan, y1, "y1Out");
  const std::optional<TensorRef> y2_ref = OptionalOutput(plan, y2, "y2Out");
  RegisterRowNormOutputs(plan, norm, refs);
  const std::optional<TensorRef> scale1_ref = OptionalOutput(plan, scale1, "scale1Out");
  const std::optional<TensorRef> scale2_ref = OptionalOutput(plan, scale2, "scale2Out");
  // Two INT4 values share a byte, so a strided INT4 view cannot be written
  // through a staging copy; INT8 and packed INT32 views can.
  for (const auto& [name, ref] : {std::pair{"y1Out", &y1_ref}, std::pair{"y2Out", &y2_ref}}) {
    if (*ref && ref->value().dtype == ACL_INT4 && !ref->value().IsContiguous()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 %s must be contiguous", name);
    }
  }
  if (empty) return ACLNN_SUCCESS;
  const TensorRef normalised = plan.Temporary(ACL_FLOAT, {rows, length});
  PlanRowNormStep(plan, norm, refs, &normalised);
  if (out1) PlanDynamicQuantRows(plan, normalised, smooth1_ref ? &*smooth1_ref : nullptr, *y1_ref, *scale1_ref);
  if (out2) PlanDynamicQuantRows(plan, normalised, smooth2_ref ? &*smooth2_ref : nullptr, *y2_ref, *scale2_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AddRmsNormDynamicQuantV2, PlanAddRmsNormDynamicQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h",
                          .dtypes = kXDtypes,
                          // !CODE (registry_example.h): outputMask [1, 0] asks for y1Out and scale1Out
                          .example = "f16[2,8] f16[2,8] f16[8] - - f16[8] 1e-6 bools[1,0] i8[2,8]!161001 i8[2,8] "
                                     "f16[2,8] f32[2]!161001 f32[2]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma),
                (const aclTensor*, smoothScale1Optional, optional), (const aclTensor*, smoothScale2Optional, optional),
                (const aclTensor*, betaOptional, optional), (double, epsilon),
                (const aclBoolArray*, outputMaskOptional, optional), (aclTensor*, y1Out, optional),
                (aclTensor*, y2Out, optional), (aclTensor*, xOut), (aclTensor*, scale1Out, optional),
                (aclTensor*, scale2Out, optional))
