// aclnnGroupQuant: y = round(x * scale[g] + offset), half to even, saturating,
// where row r of x [S, H] takes the scale row [H] of its group g (groupIndex:
// E cumulative row ends, non-decreasing, the last S; checked on the stream,
// where CANN's kernel traps), on AscendQuantV3's kernel in f32. x, scale
// [E, H] and offsetOptional (one value, scale's dtype) f32 / f16 / bf16;
// groupIndex INT32 / INT64 [E]; dstType 2 INT8, 29 INT4 or 3 INT32 (eight
// INT4 a value) naming y's dtype. A scale of no rows is CANN's tiling fault
// (561002).
#include "aclnnop/aclnn_group_quant.h"
#include "kernels/quant_affine.h"
#include "ops/framework/aclnn_op.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kGroupIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr DtypeSet kOutDtypes = {ACL_INT8, ACL_INT32, ACL_INT4};
constexpr int64_t kInt4PerInt32 = 8;

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* group_index,
                        const aclTensor* offset, int32_t dst_type, const aclTensor* y) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("groupIndex", group_index->dtype, kGroupIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, kOutDtypes));
  if (offset != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("offsetOptional", offset->dtype, kFloatDtypes));
    if (offset->dtype != scale->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'offsetOptional' is %s, but scale is %s: they must match",
                         DtypeName(offset->dtype), DtypeName(scale->dtype));
    }
  }
  if (static_cast<int32_t>(y->dtype) != dst_type) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstType' is %d, but y is %s: they must name one dtype",
                       static_cast<int>(dst_type), DtypeName(y->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* group_index,
                        const aclTensor* offset, const aclTensor* y) {
  if (offset != nullptr && offset->NumElements() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'offsetOptional' has shape %s; it must be [] or [1]",
                       ShapeToString(offset->view_shape).c_str());
  }
  const auto require_rank = [&plan](const char* name, const aclTensor* t, int64_t rank) {
    if (t->rank() == rank) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be %lld", name,
                       static_cast<long long>(t->rank()), static_cast<long long>(rank));
  };
  CANOPY_CHECK(require_rank("x", x, 2));
  CANOPY_CHECK(require_rank("scale", scale, 2));
  CANOPY_CHECK(require_rank("groupIndex", group_index, 1));
  if (scale->view_shape[1] != x->view_shape[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'scale' has shape %s; its dim 1 must be x's (%lld)",
                       ShapeToString(scale->view_shape).c_str(), static_cast<long long>(x->view_shape[1]));
  }
  if (group_index->view_shape[0] != scale->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupIndex' holds %lld ends, but scale has %lld rows",
                       static_cast<long long>(group_index->view_shape[0]),
                       static_cast<long long>(scale->view_shape[0]));
  }
  const int64_t last = x->view_shape[1];
  Shape y_shape = x->view_shape;
  if (y->dtype == ACL_INT32) {
    if (last % kInt4PerInt32 != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be a multiple of 8 for an INT32 y",
                         static_cast<long long>(last));
    }
    y_shape.back() = last / kInt4PerInt32;
  }
  if (y->dtype == ACL_INT4 && last % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be even for an INT4 y",
                       static_cast<long long>(last));
  }
  return plan.CheckShape("y", y, y_shape);
}

aclnnStatus PlanGroupQuant(Plan& plan, const aclTensor* x, const aclTensor* scale, const aclTensor* group_index,
                           const aclTensor* offset, int32_t dst_type, const aclTensor* y) {
  CANOPY_CHECK(CheckDtypes(plan, x, scale, group_index, offset, dst_type, y));
  CANOPY_CHECK(CheckShapes(plan, x, scale, group_index, offset, y));
  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef scale_ref = plan.Input(scale, "scale");
  const TensorRef group_ref = plan.Input(group_index, "groupIndex");
  TensorRef offset_ref;
  if (offset != nullptr) {
    offset_ref = plan.Input(offset, "offsetOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef y_ref = plan.Output(y, "y");
  if (y->dtype != ACL_INT8 && !y_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 or INT32 y must be contiguous");
  }
  if (x->NumElements() == 0) return ACLNN_SUCCESS;
  const int64_t groups = scale->view_shape[0];
  if (groups < 1) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'scale' has shape %s; it needs at least one row",
                       ShapeToString(scale->view_shape).c_str());
  }
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.in_dtype = x->dtype;
  desc.out_dtype = y->dtype == ACL_INT8 ? ACL_INT8 : ACL_INT4;
  desc.elements = x->NumElements();
  desc.axis_extent = x->view_shape[1];
  desc.param_dtype = scale->dtype;
  desc.param_count = scale->NumElements();
  desc.groups = groups;
  desc.group_index = plan.Contiguous(group_ref, group_index->dtype).buffer;
  desc.group_dtype = group_index->dtype;
  const bool has_offset = offset != nullptr && offset->NumElements() == 1;
  AddAffineStep(plan, desc, x_ref, scale_ref, has_offset ? &offset_ref : nullptr, y_ref);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_INT8};

}  // namespace

CANOPY_ACLNN_OP(GroupQuant, PlanGroupQuant,
                (OpTraits{.header = "aclnnop/aclnn_group_quant.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[4,2] f32[1,2] i32[1]{4:4} f32[1] 2 i8[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, scale), (const aclTensor*, groupIndex),
                (const aclTensor*, offsetOptional, optional), (int32_t, dstType), (aclTensor*, y))
