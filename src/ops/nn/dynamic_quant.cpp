// aclnnDynamicQuant and aclnnDynamicQuantV2: per-token dynamic quantisation. x
// (f16 or bf16, rank 2-8), optionally times smoothScalesOptional (x's dtype,
// one per last-dim column), is quantised row by row (a row: one index of every
// dim but the last): scaleOut = max|row| / q_max (f32, x's shape less its last
// dim) and yOut = round(row / scaleOut), half to even. yOut is INT8 (q_max
// 127), INT4 (q_max 7, two a byte) or INT32 holding eight INT4 values (its
// last extent an eighth of x's). A row of zeros gives scale 0 and zeros.
//
// DynamicQuantV2 adds, as on A2/A3: offsetOut (f32, scaleOut's shape), which
// asks for the asymmetric form (scale = (max - min) / (q_max - q_min), offset
// = q_max - max / scale, y = round(row / scale + offset)); and
// groupIndexOptional (INT32 / INT64, 1-D: cumulative row counts, with
// smoothScalesOptional then [groups <= 1024, x[-1]] and each row taking its
// group's smooth scales). groupIndexOptional without smoothScalesOptional is
// ignored, as CANN does. CANN's host code reads no dstType (yOut's dtype
// decides), so neither does Canopy. The tiling's shape checks on the grouped
// smooth scales are 561002, as CANN reports them.
//
// Scope: the FP8 / HIFLOAT8 outputs of the 950 series are rejected (161002,
// outside the A2/A3 dtypes); INT4 and INT32 outputs must be contiguous, as the
// doc says.
#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_dynamic_quant_v2.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kOutputDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr DtypeSet kGroupIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kInt4PerInt32 = 8;
constexpr int64_t kMinRank = 2;
constexpr int64_t kMaxRank = 8;
constexpr int64_t kMaxGroups = 1024;  // CANN's tiling limit on the experts

aclnnStatus CheckRank(Plan& plan, const aclTensor* x) {
  if (x->rank() < kMinRank || x->rank() > kMaxRank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank %lld; it must be 2 to 8",
                       static_cast<long long>(x->rank()));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckSmoothDtype(Plan& plan, const aclTensor* x, const aclTensor* smooth_scales) {
  CANOPY_CHECK(plan.CheckDtype("smoothScalesOptional", smooth_scales->dtype, kInputDtypes));
  if (smooth_scales->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'smoothScalesOptional' is %s, but x is %s: they must match",
                       DtypeName(smooth_scales->dtype), DtypeName(x->dtype));
  }
  return ACLNN_SUCCESS;
}

// yOut's shape for x (INT4: an even last extent; INT32: eight INT4 a value), then scaleOut's.
aclnnStatus CheckOutputShapes(Plan& plan, const aclTensor* x, const aclTensor* y_out, const aclTensor* scale_out) {
  const int64_t columns = x->view_shape.back();
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
  return plan.CheckShape("scaleOut", scale_out, Shape(x->view_shape.begin(), x->view_shape.end() - 1));
}

// The operands in prototype order (V2's groupIndexOptional and offsetOut where `v2`), then the
// quantisation of x's rows.
aclnnStatus PlanRows(Plan& plan, bool v2, const aclTensor* x, const aclTensor* smooth_scales,
                     const aclTensor* group_index, const aclTensor* y_out, const aclTensor* scale_out,
                     const aclTensor* offset_out) {
  const auto optional_input = [&plan](const aclTensor* tensor, const char* name) {
    if (tensor == nullptr) {
      plan.SkipInput();
      return TensorRef{};
    }
    return plan.Input(tensor, name);
  };
  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef smooth_ref = optional_input(smooth_scales, "smoothScalesOptional");
  const TensorRef group_ref = v2 ? optional_input(group_index, "groupIndexOptional") : TensorRef{};
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef scale_ref = plan.Output(scale_out, "scaleOut");
  TensorRef offset_ref;
  if (offset_out != nullptr) {
    offset_ref = plan.Output(offset_out, "offsetOut");
  } else if (v2) {
    plan.SkipOutput();
  }
  if (y_out->dtype != ACL_INT8 && !y_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 or INT32 yOut must be contiguous");
  }
  if (x->NumElements() == 0) return ACLNN_SUCCESS;

  // The grouped smooth scales' shapes are checked by CANN's tiling (561002).
  const bool grouped = smooth_scales != nullptr && group_index != nullptr && group_index->NumElements() > 0;
  if (smooth_scales != nullptr && group_index != nullptr) {
    const int64_t groups = group_index->NumElements();
    const int64_t expected_rank = grouped ? 2 : 1;
    if (groups > kMaxGroups) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'groupIndexOptional' names %lld groups; at most 1024",
                         static_cast<long long>(groups));
    }
    if (smooth_scales->rank() != expected_rank || (grouped && smooth_scales->view_shape[0] != groups) ||
        smooth_scales->view_shape.back() != x->view_shape.back()) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                         "argument 'smoothScalesOptional' has shape %s; with %lld groups it must be [%lld, %lld]",
                         ShapeToString(smooth_scales->view_shape).c_str(), static_cast<long long>(groups),
                         static_cast<long long>(groups), static_cast<long long>(x->view_shape.back()));
    }
  }
  const int64_t columns = x->view_shape.back();
  const int64_t rows = x->NumElements() / columns;
  const TensorRef x_rows = *Reshape(plan.Contiguous(x_ref, x->dtype), {rows, columns});
  PlanDynamicQuantRows(plan, x_rows, smooth_scales != nullptr ? &smooth_ref : nullptr, y_ref, scale_ref,
                       offset_out != nullptr ? &offset_ref : nullptr, grouped ? &group_ref : nullptr);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDynamicQuant(Plan& plan, const aclTensor* x, const aclTensor* smooth_scales, const aclTensor* y_out,
                             const aclTensor* scale_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, kOutputDtypes));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale_out->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(CheckRank(plan, x));
  if (smooth_scales != nullptr) {
    CANOPY_CHECK(CheckSmoothDtype(plan, x, smooth_scales));
    CANOPY_CHECK(plan.CheckShape("smoothScalesOptional", smooth_scales, {x->view_shape.back()}));
  }
  CANOPY_CHECK(CheckOutputShapes(plan, x, y_out, scale_out));
  return PlanRows(plan, false, x, smooth_scales, nullptr, y_out, scale_out, nullptr);
}

aclnnStatus PlanDynamicQuantV2(Plan& plan, const aclTensor* x, const aclTensor* smooth_scales,
                               const aclTensor* group_index, int64_t /*dst_type*/, const aclTensor* y_out,
                               const aclTensor* scale_out, const aclTensor* offset_out) {
  // CANN's order: every dtype, then the shapes.
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  if (smooth_scales != nullptr) {
    CANOPY_CHECK(CheckSmoothDtype(plan, x, smooth_scales));
    if (group_index != nullptr)
      CANOPY_CHECK(plan.CheckDtype("groupIndexOptional", group_index->dtype, kGroupIndexDtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, kOutputDtypes));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale_out->dtype, DtypeSet{ACL_FLOAT}));
  if (offset_out != nullptr) CANOPY_CHECK(plan.CheckDtype("offsetOut", offset_out->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(CheckRank(plan, x));
  if (smooth_scales != nullptr && group_index != nullptr) {
    if (group_index->rank() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupIndexOptional' has rank %lld; it must be 1",
                         static_cast<long long>(group_index->rank()));
    }
  } else if (smooth_scales != nullptr) {
    CANOPY_CHECK(plan.CheckShape("smoothScalesOptional", smooth_scales, {x->view_shape.back()}));
  }
  CANOPY_CHECK(CheckOutputShapes(plan, x, y_out, scale_out));
  if (offset_out != nullptr) CANOPY_CHECK(plan.CheckShape("offsetOut", offset_out, scale_out->view_shape));
  return PlanRows(plan, true, x, smooth_scales, group_index, y_out, scale_out, offset_out);
}

}  // namespace

CANOPY_ACLNN_OP(DynamicQuant, PlanDynamicQuant,
                (OpTraits{.header = "aclnnop/aclnn_dynamic_quant.h",
                          .dtypes = kInputDtypes,
                          .max_rank = 8,
                          .example = "f16[4,32] f16[32] i8[4,32] f32[4]"}),
                (const aclTensor*, x), (const aclTensor*, smoothScalesOptional, optional), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut))

CANOPY_ACLNN_OP(DynamicQuantV2, PlanDynamicQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_dynamic_quant_v2.h",
                          .dtypes = kInputDtypes,
                          .max_rank = 8,
                          .example = "f16[4,32] f16[32] - 2 i8[4,32] f32[4] f32[4]"}),
                (const aclTensor*, x), (const aclTensor*, smoothScalesOptional, optional),
                (const aclTensor*, groupIndexOptional, optional), (int64_t, dstType), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut), (const aclTensor*, offsetOut, optional))
