// aclnnDynamicQuant: per-token symmetric dynamic quantisation. x (f16 or bf16,
// rank 2-8), optionally times smoothScalesOptional (x's dtype, one per last-dim
// column), is quantised row by row (a row: one index of every dim but the
// last): scaleOut = max|row| / q_max (f32, x's shape less its last dim) and
// yOut = round(row / scaleOut), half to even. yOut is INT8 (q_max 127), INT4
// (q_max 7, two a byte) or INT32 holding eight INT4 values (its last extent an
// eighth of x's). A row of zeros gives scale 0 and zeros.
//
// Scope: the FP8 / HIFLOAT8 outputs of the 950 series are rejected (161002,
// outside the A2/A3 dtypes); INT4 and INT32 outputs must be contiguous, as the
// doc says.
#include "aclnnop/aclnn_dynamic_quant.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kOutputDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr int64_t kInt4PerInt32 = 8;
constexpr int64_t kMinRank = 2;
constexpr int64_t kMaxRank = 8;

aclnnStatus PlanDynamicQuant(Plan& plan, const aclTensor* x, const aclTensor* smooth_scales, const aclTensor* y_out,
                             const aclTensor* scale_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, kOutputDtypes));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale_out->dtype, DtypeSet{ACL_FLOAT}));
  if (x->rank() < kMinRank || x->rank() > kMaxRank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank %lld; it must be 2 to 8",
                       static_cast<long long>(x->rank()));
  }
  const int64_t columns = x->view_shape.back();
  const Shape row_shape(x->view_shape.begin(), x->view_shape.end() - 1);
  if (smooth_scales != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("smoothScalesOptional", smooth_scales->dtype, kInputDtypes));
    if (smooth_scales->dtype != x->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'smoothScalesOptional' is %s, but x is %s: they must match",
                         DtypeName(smooth_scales->dtype), DtypeName(x->dtype));
    }
    CANOPY_CHECK(plan.CheckShape("smoothScalesOptional", smooth_scales, {columns}));
  }
  const bool int4 = y_out->dtype != ACL_INT8;
  Shape y_shape = x->view_shape;
  if (y_out->dtype == ACL_INT4 && columns % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be even for an INT4 yOut",
                       static_cast<long long>(columns));
  }
  if (y_out->dtype == ACL_INT32) {
    if (columns % kInt4PerInt32 != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be a multiple of 8 for an INT32 yOut",
                         static_cast<long long>(columns));
    }
    y_shape.back() = columns / kInt4PerInt32;
  }
  CANOPY_CHECK(plan.CheckShape("yOut", y_out, y_shape));
  CANOPY_CHECK(plan.CheckShape("scaleOut", scale_out, row_shape));

  const TensorRef x_ref = plan.Input(x, "x");
  TensorRef smooth_ref;
  if (smooth_scales != nullptr) {
    smooth_ref = plan.Input(smooth_scales, "smoothScalesOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef scale_ref = plan.Output(scale_out, "scaleOut");
  if (int4 && !y_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 or INT32 yOut must be contiguous");
  }
  if (x->NumElements() == 0) return ACLNN_SUCCESS;

  const int64_t rows = x->NumElements() / columns;
  const TensorRef x_rows = *Reshape(plan.Contiguous(x_ref, x->dtype), {rows, columns});
  PlanDynamicQuantRows(plan, x_rows, smooth_scales != nullptr ? &smooth_ref : nullptr, y_ref, scale_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(DynamicQuant, PlanDynamicQuant,
                (OpTraits{.header = "aclnnop/aclnn_dynamic_quant.h",
                          .dtypes = kInputDtypes,
                          .max_rank = 8,
                          .example = "f16[4,32] f16[32] i8[4,32] f32[4]"}),
                (const aclTensor*, x), (const aclTensor*, smoothScalesOptional, optional), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut))
