// aclnnAscendQuant, aclnnAscendQuantV3 and aclnnAscendAntiQuant: static affine
// quantisation along one axis, on one kernel (kernels/quant_affine.h).
//
// AscendQuantV3: y = round_mode(x * scale + offset) (scale squared with
// sqrtMode), x f32 / f16 / bf16 rank 1-8, scale and offset (offset optional,
// scale's dtype and shape) one value or one per index of x's dim `axis`
// (the last two dims, as on A2/A3), roundMode round (half to even) / ceil /
// floor / trunc, dstType 2 INT8, 29 INT4 or 3 INT32 (eight INT4 a word);
// saturating. HIFLOAT8 / FP8 outputs and "hybrid" (950 series) are 161002.
//
// AscendQuant: V3 along the last dim only, with CANN's stricter operands:
// scale (and offset) of x's dtype unless x is f32, [1] or [x[-1]] or of any
// rank with every dim but the last 1; dstType is not range-checked beyond
// naming y's dtype (INT8, INT32 or INT4).
//
// AscendAntiQuant: y = (x + offset) * scale (scale squared with sqrtMode), x
// INT8, INT4 or INT32 (eight INT4), rank 0-8, scale / offset f32 or bf16 as the
// doc shapes them (1-D of 1, x[-1] or x[-2] values, or x's rank with one
// non-1 dim, the last or the one before), dstType 1 f16 or 27 bf16. FP8 /
// HIFLOAT8 x is 561003 (not supported by Canopy).
#include <cstring>
#include <optional>
#include <string>

#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "kernels/quant_affine.h"
#include "ops/framework/aclnn_op.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kQuantDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr int64_t kInt4PerInt32 = 8;
// dstType values (aclDataType numbers).
constexpr int64_t kDstInt8 = ACL_INT8, kDstInt32 = ACL_INT32, kDstInt4 = ACL_INT4;
constexpr int64_t kDstFloat16 = ACL_FLOAT16, kDstBf16 = ACL_BF16;

// The packed output / input shape: INT32 holds eight INT4 along the last dim.
aclnnStatus CheckInt4Packing(Plan& plan, aclDataType packed, int64_t last, const char* name) {
  if (packed == ACL_INT4 && last % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s's last extent (%lld) must be even for INT4", name,
                       static_cast<long long>(last));
  }
  if (packed == ACL_INT32 && last % kInt4PerInt32 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s's last extent (%lld) must be a multiple of 8 for INT32 (INT4 x 8)",
                       name, static_cast<long long>(last));
  }
  return ACLNN_SUCCESS;
}

// Offset: absent, or of scale's dtype and shape.
aclnnStatus CheckOffset(Plan& plan, const aclTensor* offset, const aclTensor* scale) {
  if (offset == nullptr) return ACLNN_SUCCESS;
  if (offset->dtype != scale->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'offset' is %s, but scale is %s: they must match",
                       DtypeName(offset->dtype), DtypeName(scale->dtype));
  }
  return plan.CheckShape("offset", offset, scale->view_shape);
}

// The four operands of every op here, in prototype order (offset optional).
struct AffineOperands {
  TensorRef x, scale, offset, y;
  bool has_offset = false;
  const TensorRef* Offset() const { return has_offset ? &offset : nullptr; }
};

AffineOperands RegisterOperands(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* offset,
                                const aclTensor* y) {
  AffineOperands ops;
  ops.x = plan.Input(x, "x");
  ops.scale = plan.Input(scale, "scale");
  ops.has_offset = offset != nullptr;
  if (ops.has_offset) {
    ops.offset = plan.Input(offset, "offset");
  } else {
    plan.SkipInput();
  }
  ops.y = plan.Output(y, "y");
  return ops;
}

// CANN's roundMode names, or nullopt.
std::optional<kernels::QuantRound> ParseRoundMode(const char* round_mode) {
  if (std::strcmp(round_mode, "round") == 0) return kernels::QuantRound::kRint;
  if (std::strcmp(round_mode, "ceil") == 0) return kernels::QuantRound::kCeil;
  if (std::strcmp(round_mode, "floor") == 0) return kernels::QuantRound::kFloor;
  if (std::strcmp(round_mode, "trunc") == 0) return kernels::QuantRound::kTrunc;
  return std::nullopt;
}

aclnnStatus RejectRoundMode(Plan& plan, const char* round_mode) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument 'roundMode' is \"%s\"; it must be \"round\", \"ceil\", \"floor\" or \"trunc\"",
                     round_mode);
}

// The quantising step of AscendQuant and AscendQuantV3, once their checks have passed: x (rank 1-8)
// along dim `dim`, scale holding 1 value or x's extent there.
aclnnStatus PlanQuantise(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* offset,
                         bool sqrt_mode, kernels::QuantRound round, int64_t dim, const aclTensor* y) {
  const int64_t rank = x->rank();
  const AffineOperands ops = RegisterOperands(plan, x, scale, offset, y);
  const TensorRef& x_ref = ops.x;
  const TensorRef& y_ref = ops.y;
  if (y->dtype != ACL_INT8 && !y_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 or INT32 y must be contiguous");
  }
  if (x->NumElements() == 0) return ACLNN_SUCCESS;
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.round = round;
  desc.in_dtype = x->dtype;
  desc.out_dtype = y->dtype == ACL_INT8 ? ACL_INT8 : ACL_INT4;
  desc.elements = x->NumElements();
  desc.axis_extent = x->view_shape[static_cast<size_t>(dim)];
  desc.inner = 1;
  for (int64_t d = dim + 1; d < rank; ++d) desc.inner *= x->view_shape[static_cast<size_t>(d)];
  desc.param_dtype = scale->dtype;
  desc.param_count = scale->NumElements();
  desc.sqrt_mode = sqrt_mode;
  const TensorRef x_float = plan.Contiguous(x_ref, x->dtype);
  AddAffineStep(plan, desc, x_float, ops.scale, ops.Offset(), y_ref);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAscendQuantV3(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* offset,
                              bool sqrt_mode, const char* round_mode, int32_t dst_type, int32_t axis,
                              const aclTensor* y) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, kFloatDtypes));
  CANOPY_CHECK(CheckOffset(plan, offset, scale));
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, kQuantDtypes));
  if (x->rank() < 1) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank 0; it must be 1 to 8");
  const std::optional<kernels::QuantRound> round = ParseRoundMode(round_mode);
  if (!round) return RejectRoundMode(plan, round_mode);
  if (dst_type != kDstInt8 && dst_type != kDstInt4 && dst_type != kDstInt32) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstType' is %d; it must be 2 (INT8), 3 (INT32) or 29 (INT4)",
                       static_cast<int>(dst_type));
  }
  if (y->dtype != static_cast<aclDataType>(dst_type)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'y' is %s, but dstType says %s", DtypeName(y->dtype),
                       DtypeName(static_cast<aclDataType>(dst_type)));
  }
  const int64_t rank = x->rank();
  const int64_t lowest_axis = rank >= 2 ? rank - 2 : rank - 1;
  const int64_t dim = axis < 0 ? axis + rank : axis;
  if (dim < lowest_axis || dim > rank - 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'axis' is %d; it must name one of x's last two dims",
                       static_cast<int>(axis));
  }
  const int64_t extent = x->view_shape[static_cast<size_t>(dim)];
  const int64_t count = scale->NumElements();
  int64_t non_one = 0;
  for (int64_t e : scale->view_shape) non_one += e != 1 ? 1 : 0;
  if ((count != 1 && count != extent) || non_one > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'scale' has shape %s; it must hold 1 value or %lld (x's extent along axis %lld)",
                       ShapeToString(scale->view_shape).c_str(), static_cast<long long>(extent),
                       static_cast<long long>(dim));
  }
  const int64_t last = x->view_shape.back();
  CANOPY_CHECK(CheckInt4Packing(plan, y->dtype, last, "x"));
  Shape y_shape = x->view_shape;
  if (y->dtype == ACL_INT32) y_shape.back() = last / kInt4PerInt32;
  CANOPY_CHECK(plan.CheckShape("y", y, y_shape));
  return PlanQuantise(plan, x, scale, offset, sqrt_mode, *round, dim, y);
}

// AscendQuant's scale / offset: every dim but the last 1, the last 1 or x's last extent.
aclnnStatus CheckLastDimParam(Plan& plan, const char* name, const aclTensor* param, int64_t last) {
  const Shape& s = param->view_shape;
  bool ok = s.empty() || s.back() == 1 || s.back() == last;
  for (size_t d = 0; ok && d + 1 < s.size(); ++d) ok = s[d] == 1;
  if (!ok) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument '%s' has shape %s; its last extent must be 1 or %lld (x's last) and every other 1",
                       name, ShapeToString(s).c_str(), static_cast<long long>(last));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAscendQuant(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* offset,
                            bool sqrt_mode, const char* round_mode, int32_t dst_type, const aclTensor* y) {
  // CANN's order: dtypes, shapes, then roundMode.
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, kQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, kFloatDtypes));
  if (offset != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("offset", offset->dtype, kFloatDtypes));
    if (offset->dtype != scale->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'offset' is %s, but scale is %s: they must match",
                         DtypeName(offset->dtype), DtypeName(scale->dtype));
    }
  }
  if (x->dtype != ACL_FLOAT && scale->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'scale' is %s, but x is %s: a non-FLOAT x needs its own dtype",
                       DtypeName(scale->dtype), DtypeName(x->dtype));
  }
  if (static_cast<int32_t>(y->dtype) != dst_type) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstType' is %d, but y is %s: they must name one dtype",
                       static_cast<int>(dst_type), DtypeName(y->dtype));
  }
  if (x->rank() < 1) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank 0; it must be 1 to 8");
  const int64_t last = x->view_shape.back();
  Shape y_shape = x->view_shape;
  if (y->dtype == ACL_INT32) y_shape.back() = last / kInt4PerInt32;
  if (y->dtype == ACL_INT32) CANOPY_CHECK(CheckInt4Packing(plan, ACL_INT32, last, "x"));
  CANOPY_CHECK(plan.CheckShape("y", y, y_shape));
  CANOPY_CHECK(CheckInt4Packing(plan, y->dtype == ACL_INT4 ? ACL_INT4 : ACL_INT8, last, "x"));
  const int64_t scale_last = scale->view_shape.empty() ? 1 : scale->view_shape.back();
  if (offset != nullptr) {
    const int64_t offset_last = offset->view_shape.empty() ? 1 : offset->view_shape.back();
    if (offset_last != scale_last) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'offset' has last extent %lld, but scale's is %lld",
                         static_cast<long long>(offset_last), static_cast<long long>(scale_last));
    }
  }
  CANOPY_CHECK(CheckLastDimParam(plan, "scale", scale, last));
  if (scale->rank() > x->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'scale' has rank %lld, above x's %lld",
                       static_cast<long long>(scale->rank()), static_cast<long long>(x->rank()));
  }
  if (offset != nullptr) {
    CANOPY_CHECK(CheckLastDimParam(plan, "offset", offset, last));
    if (offset->rank() > x->rank()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'offset' has rank %lld, above x's %lld",
                         static_cast<long long>(offset->rank()), static_cast<long long>(x->rank()));
    }
  }
  const std::optional<kernels::QuantRound> round = ParseRoundMode(round_mode);
  if (!round) return RejectRoundMode(plan, round_mode);
  return PlanQuantise(plan, x, scale, offset, sqrt_mode, *round, x->rank() - 1, y);
}

aclnnStatus PlanAscendAntiQuant(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* offset,
                                int64_t dst_type, bool sqrt_mode, const aclTensor* y) {
  if (x->dtype == ACL_FLOAT8_E4M3FN || x->dtype == ACL_FLOAT8_E5M2 || x->dtype == ACL_HIFLOAT8) {
    return plan.Reject(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                       "argument 'x' is %s: FP8 / HIFLOAT8 dequantisation is not supported by Canopy",
                       DtypeName(x->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kQuantDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, DtypeSet{ACL_FLOAT, ACL_BF16}));
  CANOPY_CHECK(CheckOffset(plan, offset, scale));
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, DtypeSet{ACL_FLOAT16, ACL_BF16}));
  if (dst_type != kDstFloat16 && dst_type != kDstBf16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstType' is %lld; it must be 1 (FLOAT16) or 27 (BFLOAT16)",
                       static_cast<long long>(dst_type));
  }
  if (y->dtype != static_cast<aclDataType>(dst_type)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'y' is %s, but dstType says %s", DtypeName(y->dtype),
                       DtypeName(static_cast<aclDataType>(dst_type)));
  }
  // The values' shape: INT32 x holds eight INT4 along its last dim.
  Shape values_shape = x->view_shape;
  if (x->dtype == ACL_INT32) {
    if (values_shape.empty()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT32 x (eight INT4 a value) needs rank 1 or more");
    }
    values_shape.back() *= kInt4PerInt32;
  }
  if (x->dtype == ACL_INT4 && !values_shape.empty())
    CANOPY_CHECK(CheckInt4Packing(plan, ACL_INT4, values_shape.back(), "x"));
  CANOPY_CHECK(plan.CheckShape("y", y, values_shape));
  // Which axis the scale runs along (none: one value).
  const auto rank = static_cast<int64_t>(values_shape.size());
  const Shape& s = scale->view_shape;
  const int64_t count = scale->NumElements();
  int64_t dim = -1;  // -1: one value for all
  bool ok = scale->rank() == 1 || scale->rank() == rank;
  if (ok && count != 1) {
    if (scale->rank() == 1 && rank >= 1 && s[0] == values_shape[static_cast<size_t>(rank - 1)]) {
      dim = rank - 1;
    } else if (scale->rank() == 1 && rank >= 2 && s[0] == values_shape[static_cast<size_t>(rank - 2)]) {
      dim = rank - 2;
    } else if (scale->rank() == rank && rank >= 1) {
      int64_t non_one = 0;
      for (int64_t d = 0; d < rank; ++d) {
        if (s[static_cast<size_t>(d)] == 1) continue;
        ++non_one;
        dim = d;
      }
      ok = non_one == 1 && dim >= rank - 2 && s[static_cast<size_t>(dim)] == values_shape[static_cast<size_t>(dim)];
    } else {
      ok = false;
    }
  }
  if (!ok) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'scale' has shape %s; for x of %s it must be [1], [x[-1]], [x[-2]] or of x's rank "
                       "with one non-1 dim, the last or the one before, equal to x's",
                       ShapeToString(s).c_str(), ShapeToString(values_shape).c_str());
  }

  const AffineOperands ops = RegisterOperands(plan, x, scale, offset, y);
  const TensorRef& x_ref = ops.x;
  const TensorRef& y_ref = ops.y;
  if (x->dtype != ACL_INT8 && !x_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 or INT32 x must be contiguous");
  }
  if (y->NumElements() == 0) return ACLNN_SUCCESS;
  kernels::QuantAffineDesc desc;
  desc.quantise = false;
  desc.in_dtype = x->dtype == ACL_INT8 ? ACL_INT8 : ACL_INT4;
  desc.out_dtype = y->dtype;
  desc.elements = y->NumElements();
  desc.axis_extent = dim >= 0 ? values_shape[static_cast<size_t>(dim)] : 1;
  desc.inner = 1;
  for (int64_t d = dim + 1; dim >= 0 && d < rank; ++d) desc.inner *= values_shape[static_cast<size_t>(d)];
  desc.param_dtype = scale->dtype;
  desc.param_count = count;
  desc.sqrt_mode = sqrt_mode;
  AddAffineStep(plan, desc, x_ref, ops.scale, ops.Offset(), y_ref);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32};

}  // namespace

CANOPY_ACLNN_OP(AscendQuantV3, PlanAscendQuantV3,
                (OpTraits{.header = "aclnnop/aclnn_ascend_quant_v3.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[4,2] f32[2] f32[2] false 'round' 2 -1 i8[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, offset, optional),
                (bool, sqrtMode), (const char*, roundMode), (int32_t, dstType), (int32_t, axis), (const aclTensor*, y))

CANOPY_ACLNN_OP(AscendQuant, PlanAscendQuant,
                (OpTraits{.header = "aclnnop/aclnn_ascend_quant.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[4,2] f32[2] f32[2] false 'round' 2 i8[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, offset, optional),
                (bool, sqrtMode), (const char*, roundMode), (int32_t, dstType), (const aclTensor*, y))

CANOPY_ACLNN_OP(AscendAntiQuant, PlanAscendAntiQuant,
                (OpTraits{.header = "aclnnop/aclnn_ascend_anti_quant.h",
                          .dtypes = kAllDtypes,
                          .example = "i8[4,2] f32[1] f32[1] 1 false f16[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, offset, optional),
                (int64_t, dstType), (bool, sqrtMode), (const aclTensor*, y))
