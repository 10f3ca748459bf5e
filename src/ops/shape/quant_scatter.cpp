// aclnnInplaceQuantScatter: updates quantised to INT8 along their last axis,
// q = rint(updates / quantScales + quantZeroPoints) in f32, saturated (the
// QuantUpdateScatter kernel's default "div" mode), then written into selfRef
// as slabs along `axis` from the offsets in indices (slab_scatter.h: offsets
// out of range fail the run before selfRef is written).
//
// CANN's aclnn layer checks only nulls, dtypes and equal ranks (161002), and
// returns an empty call at once; the rest is its kernel's tiling, whose
// failure in phase 1 reaches the caller as ACLNN_ERR_INNER_NULLPTR: ranks 3
// to 8, axis in [1, rank - 2] (negative: [1 - rank, -2]), quantAxis the last
// axis, one scale (and zero point) per element of it, indices 1-D or [n, 2],
// updates fitting selfRef, and (A2's documented constraint) a last axis of
// 32 bytes' multiple. `reduction` is not read: CANN's code always passes
// "update" (its doc lists only 1).
#include "aclnnop/aclnn_quant_scatter.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/nn/quant_rows.h"
#include "slab_scatter.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSelfDtypes = {ACL_INT8};
constexpr DtypeSet kUpdatesDtypes = {ACL_BF16, ACL_FLOAT16};
constexpr DtypeSet kScalesDtypes = {ACL_BF16, ACL_FLOAT};
constexpr DtypeSet kZeroPointDtypes = {ACL_BF16, ACL_INT32};
constexpr DtypeSet kAllDtypes = {ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT};
constexpr aclnnStatus kTilingRejects = ACLNN_ERR_INNER_NULLPTR;
constexpr int64_t kMinRank = 3;
constexpr int64_t kMaxRank = 8;
constexpr int64_t kAlignBytes = 32;

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* self, const aclTensor* indices, const aclTensor* updates,
                        const aclTensor* scales, const aclTensor* zero_points) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kSelfDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("updates", updates->dtype, kUpdatesDtypes));
  CANOPY_CHECK(plan.CheckDtype("quantScales", scales->dtype, kScalesDtypes));
  if (zero_points != nullptr) CANOPY_CHECK(plan.CheckDtype("quantZeroPoints", zero_points->dtype, kZeroPointDtypes));
  // (f16, f32, INT32) or (bf16, bf16, bf16), the zero points left out or not.
  const bool half = updates->dtype == ACL_FLOAT16;
  const aclDataType scale_dtype = half ? ACL_FLOAT : ACL_BF16;
  const aclDataType zero_dtype = half ? ACL_INT32 : ACL_BF16;
  if (scales->dtype != scale_dtype || (zero_points != nullptr && zero_points->dtype != zero_dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "updates %s, quantScales %s and quantZeroPoints %s: they must be (FLOAT16, FLOAT, INT32) or "
                       "(BFLOAT16, BFLOAT16, BFLOAT16)",
                       DtypeName(updates->dtype), DtypeName(scales->dtype),
                       zero_points != nullptr ? DtypeName(zero_points->dtype) : "(none)");
  }
  if (self->rank() != updates->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "selfRef (rank %lld) and updates (rank %lld) must have one rank",
                       static_cast<long long>(self->rank()), static_cast<long long>(updates->rank()));
  }
  return ACLNN_SUCCESS;
}

// What the kernel's tiling rejects (see the file comment); `slab_axis` on success.
aclnnStatus CheckTiling(Plan& plan, const aclTensor* self, const aclTensor* indices, const aclTensor* updates,
                        const aclTensor* scales, const aclTensor* zero_points, int64_t axis, int64_t quant_axis,
                        int64_t& slab_axis) {
  const int64_t rank = updates->rank();
  if (rank < kMinRank || rank > kMaxRank) {
    return plan.Reject(kTilingRejects, "updates has rank %lld; it must be %lld to %lld", static_cast<long long>(rank),
                       static_cast<long long>(kMinRank), static_cast<long long>(kMaxRank));
  }
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 1 || a > rank - 2) {
    return plan.Reject(kTilingRejects, "argument 'axis' is %lld; it must be in [1, %lld] or [%lld, -2]",
                       static_cast<long long>(axis), static_cast<long long>(rank - 2),
                       static_cast<long long>(1 - rank));
  }
  if (quant_axis != -1 && quant_axis != rank - 1) {
    return plan.Reject(kTilingRejects, "argument 'quantAxis' is %lld; it must be -1 or %lld",
                       static_cast<long long>(quant_axis), static_cast<long long>(rank - 1));
  }
  const int64_t columns = updates->view_shape.back();
  for (const aclTensor* param : {scales, zero_points}) {
    if (param != nullptr && param->NumElements() != columns) {
      return plan.Reject(kTilingRejects, "%s %s has %lld elements; it must have one per updates' last axis (%lld)",
                         param == scales ? "quantScales" : "quantZeroPoints", ShapeToString(param->view_shape).c_str(),
                         static_cast<long long>(param->NumElements()), static_cast<long long>(columns));
    }
  }
  const int64_t self_bytes = self->view_shape.back() * static_cast<int64_t>(DtypeSize(self->dtype));
  const int64_t update_bytes = columns * static_cast<int64_t>(DtypeSize(updates->dtype));
  if (self_bytes % kAlignBytes != 0 || update_bytes % kAlignBytes != 0) {
    return plan.Reject(kTilingRejects, "the last axis of selfRef %s and updates %s must fill whole 32-byte blocks",
                       ShapeToString(self->view_shape).c_str(), ShapeToString(updates->view_shape).c_str());
  }
  if (indices->rank() != 1 && indices->rank() != 2) {
    return plan.Reject(kTilingRejects, "argument 'indices' has rank %lld; it must be 1 or 2",
                       static_cast<long long>(indices->rank()));
  }
  return CheckSlabsFit(plan, kTilingRejects, "selfRef", self, indices, updates, axis, slab_axis);
}

aclnnStatus PlanInplaceQuantScatter(Plan& plan, const aclTensor* self, const aclTensor* indices,
                                    const aclTensor* updates, const aclTensor* scales, const aclTensor* zero_points,
                                    int64_t axis, int64_t quant_axis, int64_t /*reduction*/) {
  CANOPY_CHECK(CheckDtypes(plan, self, indices, updates, scales, zero_points));
  const bool empty = self->NumElements() == 0 || indices->NumElements() == 0 || updates->NumElements() == 0 ||
                     scales->NumElements() == 0;
  int64_t slab_axis = 0;
  if (!empty) CANOPY_CHECK(CheckTiling(plan, self, indices, updates, scales, zero_points, axis, quant_axis, slab_axis));

  plan.Input(self, "selfRef");
  const TensorRef offsets = plan.Input(indices, "indices");
  const TensorRef values = plan.Input(updates, "updates");
  const TensorRef scale = plan.Input(scales, "quantScales");
  TensorRef zero;
  if (zero_points != nullptr) {
    zero = plan.Input(zero_points, "quantZeroPoints");
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(self, "selfRef");
  if (empty) return ACLNN_SUCCESS;  // CANN returns such a call at once

  const int64_t columns = values.shape.back();
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.divide = true;
  desc.in_dtype = values.dtype;
  desc.out_dtype = ACL_INT8;
  desc.elements = values.NumElements();
  desc.axis_extent = columns;
  desc.param_dtype = scale.dtype;
  desc.param_count = columns;
  if (zero_points != nullptr) desc.offset_dtype = zero.dtype;
  const TensorRef quantised = plan.Temporary(ACL_INT8, values.shape);
  AddAffineStep(plan, desc, values, scale, zero_points != nullptr ? &zero : nullptr, quantised);
  plan.AddStep(MakeSlabScatterStep(plan.op(), dst, offsets, quantised, slab_axis), {offsets, quantised}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceQuantScatter, PlanInplaceQuantScatter,
                (OpTraits{.header = "aclnnop/aclnn_quant_scatter.h",
                          .dtypes = kAllDtypes,
                          .in_place = true,
                          .example = "i8[1,1,32] i32[1]{0:0} f16[1,1,32] f32[1,1,32]{0.5:2} i32[1,1,32] -2 -1 1"}),
                (aclTensor*, selfRef), (const aclTensor*, indices), (const aclTensor*, updates),
                (const aclTensor*, quantScales), (const aclTensor*, quantZeroPoints, optional), (int64_t, axis),
                (int64_t, quantAxis), (int64_t, reduction))
