// aclnnFlatQuant, aclnnFlatQuantV2 and aclnnFlatQuantV3: for each of the K matrices of x [K, N1, N2], x'' = kroneckerP1
// @ x[k] @ kroneckerP2 (products in x's dtype, f32 accumulation), then x''[k] is quantised to INT4 as one row:
// quantScale[k] = max|x''[k]| * clipRatio / 7 (f32) and out = round(x'' * ((7 / clipRatio) /
// max|x''[k]|)), half to even, saturated to [-8, 7]. out is INT4 (x's shape) or INT32 holding eight
// INT4 (x's last extent / 8).
//
// CANN's A2 path (its host code): x, kroneckerP1, kroneckerP2 FLOAT16 / BFLOAT16 and one dtype, out
// INT4 / INT32, quantScale FLOAT (the FLOAT4_E2M1 / FLOAT8_E8M0 per-group form is the 950's); then
// the ranks (quantScale 1, kroneckerP2 2, kroneckerP1 2, x 3, out 3), x's extents in [1, 262144] x
// [1, 256] x [1, 256], N2 a multiple of 8 (INT32 out) or of 2, kroneckerP1 [N1, N1], kroneckerP2
// [N2, N2], quantScale [K], out's leading dims x's and its last N2 (INT4) or N2 / 8 (INT32); then
// clipRatio in (0, 1]; V2 and V3: dstTypeMax 0 or in [6, 12] (the FLOAT4_E2M1 form's maximum: the
// INT4 form does not read it); V3 with groupListOptional: groupListType 0, 1 or 2, groupListOptional
// INT64, [G] (types 0, 1) or [G, 2] (type 2), G <= 1024. All 161002. No empty tensor passes the
// extents check. Canopy's INT4 out must be contiguous (the packed staging copy does not take INT4
// views). V2's doc marks A2 unsupported, but CANN's host code runs it there (no platform check), so
// Canopy has it. V3's group list picks how many leading matrices are quantised
// (kernels/flat_quant_groups.h); the others get zeros.
#include <optional>

#include "aclnnop/aclnn_flat_quant.h"
#include "aclnnop/aclnn_flat_quant_v2.h"
#include "aclnnop/aclnn_flat_quant_v3.h"
#include "kernels/flat_quant_groups.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_INT32, ACL_INT4};
constexpr int64_t kInt4PerInt32 = 8;
constexpr int64_t kMaxMatrices = 262144;
constexpr int64_t kMaxExtent = 256;
constexpr double kMinDstTypeMax = 6.0;  // the FLOAT4_E2M1 form's range of maxima (0: its own)
constexpr double kMaxDstTypeMax = 12.0;
constexpr int64_t kSparseListType = 2;
constexpr int64_t kMaxGroups = 1024;

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x, const aclTensor* p1, const aclTensor* p2, const aclTensor* out,
                        const aclTensor* quant_scale) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("kroneckerP1", p1->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("kroneckerP2", p2->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("quantScale", quant_scale->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("kroneckerP1", p1->dtype, {x->dtype}));
  return plan.CheckDtype("kroneckerP2", p2->dtype, {x->dtype});
}

aclnnStatus CheckRank(Plan& plan, const char* name, const aclTensor* t, int64_t rank) {
  if (t->rank() == rank) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be %lld", name,
                     static_cast<long long>(t->rank()), static_cast<long long>(rank));
}

aclnnStatus CheckShapes(Plan& plan, const aclTensor* x, const aclTensor* p1, const aclTensor* p2, const aclTensor* out,
                        const aclTensor* quant_scale) {
  CANOPY_CHECK(CheckRank(plan, "quantScale", quant_scale, 1));
  CANOPY_CHECK(CheckRank(plan, "kroneckerP2", p2, 2));
  CANOPY_CHECK(CheckRank(plan, "kroneckerP1", p1, 2));
  CANOPY_CHECK(CheckRank(plan, "x", x, 3));
  CANOPY_CHECK(CheckRank(plan, "out", out, 3));
  const int64_t k = x->view_shape[0], n1 = x->view_shape[1], n2 = x->view_shape[2];
  if (k < 1 || n1 < 1 || n2 < 1 || k > kMaxMatrices || n1 > kMaxExtent || n2 > kMaxExtent) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'x' has shape %s; its extents must be in [1, 262144], "
                       "[1, 256] and [1, 256]",
                       ShapeToString(x->view_shape).c_str());
  }
  const int64_t multiple = out->dtype == ACL_INT32 ? kInt4PerInt32 : 2;
  if (n2 % multiple != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent (%lld) must be a multiple of %lld for a %s out",
                       static_cast<long long>(n2), static_cast<long long>(multiple), DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("kroneckerP1", p1, {n1, n1}));
  CANOPY_CHECK(plan.CheckShape("kroneckerP2", p2, {n2, n2}));
  CANOPY_CHECK(plan.CheckShape("quantScale", quant_scale, {k}));
  return plan.CheckShape("out", out, {k, n1, out->dtype == ACL_INT32 ? n2 / kInt4PerInt32 : n2});
}

aclnnStatus CheckGroupList(Plan& plan, const aclTensor* group_list, int64_t list_type) {
  if (list_type < 0 || list_type > kSparseListType) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupListType' is %lld; it must be 0, 1 or 2",
                       static_cast<long long>(list_type));
  }
  CANOPY_CHECK(plan.CheckDtype("groupListOptional", group_list->dtype, DtypeSet{ACL_INT64}));
  const bool sparse = list_type == kSparseListType;
  if (sparse ? group_list->rank() != 2 || group_list->view_shape[1] != 2 : group_list->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'groupListOptional' has shape %s; with groupListType %lld "
                       "it must be %s",
                       ShapeToString(group_list->view_shape).c_str(), static_cast<long long>(list_type),
                       sparse ? "[G, 2]" : "[G]");
  }
  if (group_list->rank() > 0 && group_list->view_shape[0] > kMaxGroups) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupListOptional' has %lld groups; at most 1024",
                       static_cast<long long>(group_list->view_shape[0]));
  }
  return ACLNN_SUCCESS;
}

// The three forms: V1 (no dstTypeMax, no group list), V2 (dstTypeMax), V3 (both).
aclnnStatus PlanForms(Plan& plan, const aclTensor* x, const aclTensor* p1, const aclTensor* p2,
                      const aclTensor* group_list, double clip_ratio, const double* dst_type_max, int64_t list_type,
                      const aclTensor* out, const aclTensor* quant_scale, bool v3) {
  CANOPY_CHECK(CheckDtypes(plan, x, p1, p2, out, quant_scale));
  CANOPY_CHECK(CheckShapes(plan, x, p1, p2, out, quant_scale));
  if (!(clip_ratio > 0.0 && clip_ratio <= 1.0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'clipRatio' is %g; it must be in (0, 1]", clip_ratio);
  }
  if (dst_type_max != nullptr && *dst_type_max != 0.0 &&
      !(*dst_type_max >= kMinDstTypeMax && *dst_type_max <= kMaxDstTypeMax)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstTypeMax' is %g; it must be 0 or in [6, 12]",
                       *dst_type_max);
  }
  if (group_list != nullptr) CANOPY_CHECK(CheckGroupList(plan, group_list, list_type));
  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef p1_ref = plan.Input(p1, "kroneckerP1");
  const TensorRef p2_ref = plan.Input(p2, "kroneckerP2");
  std::optional<TensorRef> list_ref;
  if (group_list != nullptr) {
    list_ref = plan.Input(group_list, "groupListOptional");
  } else if (v3) {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  const TensorRef scale_ref = plan.Output(quant_scale, "quantScale");
  if (out->dtype == ACL_INT4 && !out_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 out must be contiguous");
  }
  const int64_t k = x->view_shape[0], n1 = x->view_shape[1], n2 = x->view_shape[2];
  const TensorRef right = plan.Temporary(x->dtype, {k, n1, n2});
  CANOPY_CHECK(PlanProduct(plan, x_ref, *Reshape(plan.Contiguous(p2_ref, p2->dtype), {1, n2, n2}), right, 0));
  const TensorRef both = plan.Temporary(x->dtype, {k, n1, n2});
  CANOPY_CHECK(PlanProduct(plan, *Reshape(plan.Contiguous(p1_ref, p1->dtype), {1, n1, n1}), right, both, 0));
  // With a group list the quantised matrices are zeroed past its count: in contiguous buffers.
  const TensorRef y = !list_ref || out_ref.IsContiguous() ? out_ref : plan.Temporary(out->dtype, out_ref.shape);
  const TensorRef scale = !list_ref || scale_ref.IsContiguous() ? scale_ref : plan.Temporary(ACL_FLOAT, {k});
  PlanDynamicQuantRows(plan, *Reshape(both, {k, n1 * n2}), nullptr, y, scale, nullptr, nullptr,
                       static_cast<float>(clip_ratio));
  if (!list_ref) return ACLNN_SUCCESS;
  kernels::FlatQuantGroupsDesc desc;
  desc.matrices = k;
  desc.bytes_per_matrix = n1 * n2 / 2;  // INT4, or INT32 holding eight
  desc.groups = group_list->rank() > 0 ? group_list->view_shape[0] : 0;
  desc.list_type = list_type;
  desc.group_list = plan.Contiguous(*list_ref, ACL_INT64).buffer;
  desc.out = y.buffer;
  desc.scale = scale.buffer;
  plan.AddStep(kernels::MakeFlatQuantGroupsStep(desc));
  if (!out_ref.IsContiguous()) plan.Copy(y, out_ref);
  if (!scale_ref.IsContiguous()) plan.Copy(scale, scale_ref);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFlatQuant(Plan& plan, const aclTensor* x, const aclTensor* p1, const aclTensor* p2, double clip_ratio,
                          const aclTensor* out, const aclTensor* quant_scale) {
  return PlanForms(plan, x, p1, p2, nullptr, clip_ratio, nullptr, 0, out, quant_scale, false);
}

aclnnStatus PlanFlatQuantV2(Plan& plan, const aclTensor* x, const aclTensor* p1, const aclTensor* p2, double clip_ratio,
                            double dst_type_max, const aclTensor* out, const aclTensor* quant_scale) {
  return PlanForms(plan, x, p1, p2, nullptr, clip_ratio, &dst_type_max, 0, out, quant_scale, false);
}

aclnnStatus PlanFlatQuantV3(Plan& plan, const aclTensor* x, const aclTensor* p1, const aclTensor* p2,
                            const aclTensor* group_list, double clip_ratio, double dst_type_max, int64_t list_type,
                            const aclTensor* out, const aclTensor* quant_scale) {
  return PlanForms(plan, x, p1, p2, group_list, clip_ratio, &dst_type_max, list_type, out, quant_scale, true);
}

}  // namespace

CANOPY_ACLNN_OP(FlatQuant, PlanFlatQuant,
                (OpTraits{.header = "aclnnop/aclnn_flat_quant.h",
                          .dtypes = kInputDtypes,
                          .example = "f16[2,4,16] f16[4,4] f16[16,16] 1 i32[2,4,2] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, kroneckerP1), (const aclTensor*, kroneckerP2),
                (double, clipRatio), (aclTensor*, out), (aclTensor*, quantScale))

CANOPY_ACLNN_OP(FlatQuantV2, PlanFlatQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_flat_quant_v2.h",
                          .dtypes = kInputDtypes,
                          .example = "f16[2,4,16] f16[4,4] f16[16,16] 1 0 i32[2,4,2] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, kroneckerP1), (const aclTensor*, kroneckerP2),
                (double, clipRatio), (double, dstTypeMax), (aclTensor*, out), (aclTensor*, quantScale))

CANOPY_ACLNN_OP(FlatQuantV3, PlanFlatQuantV3,
                (OpTraits{.header = "aclnnop/aclnn_flat_quant_v3.h",
                          .dtypes = kInputDtypes,
                          .example = "f16[2,4,16] f16[4,4] f16[16,16] - 1 0 0 i32[2,4,2] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, kroneckerP1), (const aclTensor*, kroneckerP2),
                (const aclTensor*, groupListOptional, optional), (double, clipRatio), (double, dstTypeMax),
                (int64_t, groupListType), (aclTensor*, out), (aclTensor*, quantScale))
