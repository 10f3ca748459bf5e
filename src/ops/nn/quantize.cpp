// aclnnQuantize (torch.quantize_per_tensor / quantize_per_channel): out =
// round(x / scales + zeroPoints), half to even, saturating to out's dtype, on
// AscendQuantV3's kernel (kernels/quant_affine.h) in f32. x f32 / f16 / bf16;
// scales f32 / f16 / bf16, 1-D, 1 value or one per index of x's dim `axis`
// (unused for 1 value); zeroPoints optional, INT32 / INT8 / UINT8 / BF16, 1-D
// of scales' size; dtype and out INT8, UINT8 or INT32 (A2/A3: HIFLOAT8 / FP8
// are 950 series only, 161002). A BF16 scales or zeroPoints asks for BF16
// everywhere. CANN checks the shapes before the dtypes; so does Canopy.
#include "aclnnop/aclnn_quantize.h"
#include "kernels/quant_affine.h"
#include "ops/framework/aclnn_op.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kZeroPointDtypes = {ACL_INT8, ACL_UINT8, ACL_INT32, ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_INT8, ACL_UINT8, ACL_INT32};

aclnnStatus CheckShapes(Plan& plan, const aclTensor* x, const aclTensor* scales, const aclTensor* zero_points,
                        int32_t axis, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckShape("out", out, x->view_shape));
  if (scales->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'scales' has rank %lld; it must be 1",
                       static_cast<long long>(scales->rank()));
  }
  const int64_t size = scales->view_shape[0];
  if (zero_points != nullptr) {
    if (zero_points->rank() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'zeroPoints' has rank %lld; it must be 1",
                         static_cast<long long>(zero_points->rank()));
    }
    if (zero_points->view_shape[0] != size) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'zeroPoints' holds %lld values, but scales holds %lld",
                         static_cast<long long>(zero_points->view_shape[0]), static_cast<long long>(size));
    }
  }
  if (size == 1) return ACLNN_SUCCESS;  // per tensor: axis unused
  const int64_t rank = x->rank();
  if (axis < -rank || axis >= rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'axis' is %d; it must be in [%lld, %lld]",
                       static_cast<int>(axis), static_cast<long long>(-rank), static_cast<long long>(rank - 1));
  }
  const int64_t dim = axis < 0 ? axis + rank : axis;
  if (size != x->view_shape[static_cast<size_t>(dim)]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'scales' holds %lld values; it must hold 1 or %lld (x's dim %lld)",
                       static_cast<long long>(size), static_cast<long long>(x->view_shape[static_cast<size_t>(dim)]),
                       static_cast<long long>(dim));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x, const aclTensor* scales, const aclTensor* zero_points,
                        int dtype, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("scales", scales->dtype, kFloatDtypes));
  if (zero_points != nullptr) CANOPY_CHECK(plan.CheckDtype("zeroPoints", zero_points->dtype, kZeroPointDtypes));
  if (!kOutDtypes.Contains(static_cast<aclDataType>(dtype))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %d; it must be 2 (INT8), 4 (UINT8) or 3 (INT32)",
                       dtype);
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  if (out->dtype != static_cast<aclDataType>(dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' is %s, but dtype says %s", DtypeName(out->dtype),
                       DtypeName(static_cast<aclDataType>(dtype)));
  }
  const bool bf16 = scales->dtype == ACL_BF16 || (zero_points != nullptr && zero_points->dtype == ACL_BF16);
  if (bf16) {
    const auto require = [&plan](const char* name, aclDataType dtype_of) {
      if (dtype_of == ACL_BF16) return ACLNN_SUCCESS;
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' is %s: with a BFLOAT16 scales or zeroPoints it must be BFLOAT16", name,
                         DtypeName(dtype_of));
    };
    CANOPY_CHECK(require("x", x->dtype));
    CANOPY_CHECK(require("scales", scales->dtype));
    if (zero_points != nullptr) CANOPY_CHECK(require("zeroPoints", zero_points->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanQuantize(Plan& plan, const aclTensor* x, const aclTensor* scales, const aclTensor* zero_points,
                         int dtype, int32_t axis, const aclTensor* out) {
  CANOPY_CHECK(CheckShapes(plan, x, scales, zero_points, axis, out));
  CANOPY_CHECK(CheckDtypes(plan, x, scales, zero_points, dtype, out));
  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef scales_ref = plan.Input(scales, "scales");
  TensorRef zero_ref;
  if (zero_points != nullptr) {
    zero_ref = plan.Input(zero_points, "zeroPoints");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  if (x->NumElements() == 0 || scales->NumElements() == 0) return ACLNN_SUCCESS;
  const int64_t count = scales->NumElements();
  const int64_t rank = x->rank();
  const int64_t dim = count == 1 ? 0 : (axis < 0 ? axis + rank : axis);
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.divide = true;
  desc.in_dtype = x->dtype;
  desc.out_dtype = out->dtype;
  desc.elements = x->NumElements();
  desc.axis_extent = count == 1 ? 1 : x->view_shape[static_cast<size_t>(dim)];
  desc.inner = 1;
  for (int64_t d = dim + 1; count != 1 && d < rank; ++d) desc.inner *= x->view_shape[static_cast<size_t>(d)];
  desc.param_dtype = scales->dtype;
  desc.param_count = count;
  if (zero_points != nullptr) desc.offset_dtype = zero_points->dtype;
  AddAffineStep(plan, desc, x_ref, scales_ref, zero_points != nullptr ? &zero_ref : nullptr, out_ref);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT32};

}  // namespace

CANOPY_ACLNN_OP(Quantize, PlanQuantize,
                (OpTraits{.header = "aclnnop/aclnn_quantize.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[4,2] f32[2]{0.5:2} i32[2]{-3:3} 3 1 i32[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, scales), (const aclTensor*, zeroPoints, optional),
                (aclDataType, dtype), (int32_t, axis), (aclTensor*, out))
