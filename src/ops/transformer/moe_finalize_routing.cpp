// aclnnMoeFinalizeRouting and aclnnMoeFinalizeRoutingV2 (drop-less): combine
// the experts' FFN outputs back into token order,
//   out[i, :] = x1[i, :] + x2[i, :]
//             + sum_k scales[i, k] * (expandedX[expandedRowIdx[i + k * rows], :] + bias[expertIdx[i, k], :]).
// expandedX [rows * K, H], x1 / x2 / out [rows, H], bias [E, H], scales and the
// expert numbers [rows, K], expandedRowIdx [rows * K] (int32), one float dtype
// (f32, f16, bf16) for every float tensor. V1 takes x1, bias and scales as
// required. V2 makes every term optional (no scales: K = 1, weight 1; x2
// needs x1; a bias needs expertIdxOptional), takes FLOAT scales with a
// BFLOAT16 expandedX (the doc's mixed precision), and its dropPadMode picks
// expandedRowIdx's order and expandedX's form: 0 and 1 index it by
// i + k * rows (MoeInitRouting's order), 2 and 3 by i * K + k (MoeInitRoutingV2's);
// 1 and 3 take expandedX as [E, C, H] (drop and pad), where an index of -1 is
// a dropped slot whose expandedX term is 0. V2's shape checks are its
// tiling's (561002). Index values outside their range fail the run (507015).
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_finalize_routing_v2.h"
#include "kernels/moe_finalize.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

struct FinalizeArgs {
  const char* op = "";
  const aclTensor* expanded_x = nullptr;
  const aclTensor* row_index = nullptr;
  const char* row_index_name = "expandedRowIdx";
  const aclTensor* x1 = nullptr;
  const char* x1_name = "x1";
  const aclTensor* x2 = nullptr;
  const char* x2_name = "x2Optional";
  const aclTensor* bias = nullptr;
  const char* bias_name = "bias";
  const aclTensor* scales = nullptr;
  const char* scales_name = "scales";
  const aclTensor* expert_index = nullptr;
  const char* expert_index_name = "expandedExpertIdx";
  const aclTensor* out = nullptr;
};

aclnnStatus CheckSameDtype(Plan& plan, const char* name, const aclTensor* t, aclDataType dtype) {
  if (t == nullptr || t->dtype == dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but expandedX is %s: they must match", name,
                     DtypeName(t->dtype), DtypeName(dtype));
}

// The operands are registered by the caller in its prototype's order; this checks and plans.
aclnnStatus CheckFinalize(Plan& plan, const FinalizeArgs& a, int64_t& k) {
  CANOPY_CHECK(plan.CheckDtype("expandedX", a.expanded_x->dtype, kFloatDtypes));
  const aclDataType dtype = a.expanded_x->dtype;
  for (const auto& [name, t] : {std::pair{a.x1_name, a.x1}, std::pair{a.x2_name, a.x2}, std::pair{a.bias_name, a.bias},
                                std::pair{a.scales_name, a.scales}, std::pair{"out", a.out}}) {
    CANOPY_CHECK(CheckSameDtype(plan, name, t, dtype));
  }
  CANOPY_CHECK(plan.CheckDtype(a.row_index_name, a.row_index->dtype, DtypeSet{ACL_INT32}));
  if (a.expert_index != nullptr) {
    CANOPY_CHECK(plan.CheckDtype(a.expert_index_name, a.expert_index->dtype, DtypeSet{ACL_INT32}));
  }
  if (a.out->rank() != 2 || a.expanded_x->rank() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "expandedX (%s) and out (%s) must be 2-D",
                       ShapeToString(a.expanded_x->view_shape).c_str(), ShapeToString(a.out->view_shape).c_str());
  }
  const int64_t rows = a.out->view_shape[0], h = a.out->view_shape[1];
  const int64_t expanded = a.expanded_x->view_shape[0];
  if (a.row_index->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be 1-D", a.row_index_name,
                       ShapeToString(a.row_index->view_shape).c_str());
  }
  const int64_t slots = a.row_index->view_shape[0];
  if (rows == 0 ? slots != 0 : slots % rows != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has %lld entries: not K per row of out (%lld rows)",
                       a.row_index_name, static_cast<long long>(slots), static_cast<long long>(rows));
  }
  k = rows == 0 ? (a.scales != nullptr && a.scales->rank() == 2 ? a.scales->view_shape[1] : 0) : slots / rows;
  if (a.expanded_x->view_shape[1] != h || expanded != slots) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "argument 'expandedX' has shape %s; it must be [%lld, %lld] (rows * K, H)",
        ShapeToString(a.expanded_x->view_shape).c_str(), static_cast<long long>(slots), static_cast<long long>(h));
  }
  if (a.x1 != nullptr) CANOPY_CHECK(plan.CheckShape(a.x1_name, a.x1, {rows, h}));
  if (a.x2 != nullptr) CANOPY_CHECK(plan.CheckShape(a.x2_name, a.x2, {rows, h}));
  if (a.scales != nullptr) CANOPY_CHECK(plan.CheckShape(a.scales_name, a.scales, {rows, k}));
  if (a.bias != nullptr) {
    if (a.expert_index == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null, but a bias needs it", a.expert_index_name);
    }
    if (a.bias->rank() != 2 || a.bias->view_shape[1] != h) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be [E, %lld]", a.bias_name,
                         ShapeToString(a.bias->view_shape).c_str(), static_cast<long long>(h));
    }
  }
  if (a.expert_index != nullptr) CANOPY_CHECK(plan.CheckShape(a.expert_index_name, a.expert_index, {rows, k}));
  return ACLNN_SUCCESS;
}

// V2's forms: expandedRowIdx's order and drop and pad (-1 indices).
struct FinalizeLayout {
  bool token_major_index = false;
  bool drop_pad = false;
};

void AddFinalize(Plan& plan, const FinalizeArgs& a, int64_t k, const TensorRef& expanded, const TensorRef& row_index,
                 const TensorRef* x1, const TensorRef* x2, const TensorRef* bias, const TensorRef* scales,
                 const TensorRef* expert_index, const TensorRef& out, const FinalizeLayout& layout = {}) {
  if (out.NumElements() == 0) return;
  kernels::MoeFinalizeDesc desc;
  desc.op = a.op;
  desc.dtype = a.expanded_x->dtype;
  desc.rows = out.shape[0];
  desc.h = out.shape[1];
  desc.k = k;
  desc.expanded_rows = expanded.shape[0];
  desc.token_major_index = layout.token_major_index;
  desc.drop_pad = layout.drop_pad;
  const auto dense = [&](const TensorRef& t) { return plan.Contiguous(t, t.dtype).buffer; };
  desc.expanded_x = dense(expanded);
  desc.row_index = dense(row_index);
  if (x1 != nullptr) {
    desc.has_x1 = true;
    desc.x1 = dense(*x1);
  }
  if (x2 != nullptr) {
    desc.has_x2 = true;
    desc.x2 = dense(*x2);
  }
  if (scales != nullptr) {
    desc.has_scales = true;
    desc.scales = dense(*scales);
    desc.scales_dtype = scales->dtype;  // V2: FLOAT with a BFLOAT16 expandedX
  }
  if (bias != nullptr) {
    desc.has_bias = true;
    desc.bias = dense(*bias);
    desc.experts = bias->shape[0];
    desc.expert_index = dense(*expert_index);
  }
  const TensorRef dst = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  desc.out = dst.buffer;
  plan.AddStep(kernels::MakeMoeFinalizeStep(desc));
  if (!out.IsContiguous()) plan.Copy(dst, out);
}

// An optional input: its operand, or a skipped slot.
TensorRef OptionalInput(Plan& plan, const aclTensor* t, const char* name) {
  if (t != nullptr) return plan.Input(t, name);
  plan.SkipInput();
  return {};
}

aclnnStatus PlanMoeFinalizeRouting(Plan& plan, const aclTensor* expanded_x, const aclTensor* x1,
                                   const aclTensor* x2_optional, const aclTensor* bias, const aclTensor* scales,
                                   const aclTensor* expanded_row_idx, const aclTensor* expanded_expert_idx,
                                   const aclTensor* out) {
  FinalizeArgs a;
  a.op = "aclnnMoeFinalizeRouting";
  a.expanded_x = expanded_x;
  a.x1 = x1;
  a.x2 = x2_optional;
  a.bias = bias;
  a.scales = scales;
  a.row_index = expanded_row_idx;
  a.expert_index = expanded_expert_idx;
  a.out = out;
  int64_t k = 0;
  CANOPY_CHECK(CheckFinalize(plan, a, k));
  const TensorRef e = plan.Input(expanded_x, "expandedX");
  const TensorRef r1 = plan.Input(x1, "x1");
  const TensorRef r2 = OptionalInput(plan, x2_optional, "x2Optional");
  const TensorRef b = plan.Input(bias, "bias");
  const TensorRef s = plan.Input(scales, "scales");
  const TensorRef ri = plan.Input(expanded_row_idx, "expandedRowIdx");
  const TensorRef ei = plan.Input(expanded_expert_idx, "expandedExpertIdx");
  const TensorRef o = plan.Output(out, "out");
  AddFinalize(plan, a, k, e, ri, &r1, x2_optional != nullptr ? &r2 : nullptr, &b, &s, &ei, o);
  return ACLNN_SUCCESS;
}

constexpr int64_t kLastDropPadMode = 3;

// V2's dtypes (its host code, 161002) and shapes (its tiling, 561002); on success K, the expanded rows, H and
// whether expandedX is drop-and-pad's [E, C, H].
aclnnStatus CheckFinalizeV2(Plan& plan, const FinalizeArgs& a, int64_t drop_pad_mode, int64_t& k, int64_t& expanded,
                            int64_t& h, bool& drop_pad) {
  CANOPY_CHECK(plan.CheckDtype("expandedX", a.expanded_x->dtype, kFloatDtypes));
  const aclDataType dtype = a.expanded_x->dtype;
  for (const auto& [name, t] : {std::pair{a.x1_name, a.x1}, std::pair{a.x2_name, a.x2}, std::pair{a.bias_name, a.bias},
                                std::pair{"out", a.out}}) {
    CANOPY_CHECK(CheckSameDtype(plan, name, t, dtype));
  }
  if (a.scales != nullptr) {
    CANOPY_CHECK(plan.CheckDtype(a.scales_name, a.scales->dtype, kFloatDtypes));
    if (a.scales->dtype != dtype && !(dtype == ACL_BF16 && a.scales->dtype == ACL_FLOAT)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' is %s with expandedX %s: it must match, or be FLOAT with a BFLOAT16 "
                         "expandedX (mixed precision)",
                         a.scales_name, DtypeName(a.scales->dtype), DtypeName(dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype(a.row_index_name, a.row_index->dtype, DtypeSet{ACL_INT32}));
  if (a.expert_index != nullptr) {
    CANOPY_CHECK(plan.CheckDtype(a.expert_index_name, a.expert_index->dtype, DtypeSet{ACL_INT32}));
  }
  if (drop_pad_mode < 0 || drop_pad_mode > kLastDropPadMode) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dropPadMode' is %lld; it must be 0 to 3",
                       static_cast<long long>(drop_pad_mode));
  }
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  const auto shape = [](const aclTensor* t) { return ShapeToString(t->view_shape); };
  if (a.row_index->rank() != 1) {
    return plan.Reject(kShape, "argument '%s' has shape %s; it must be 1-D", a.row_index_name,
                       shape(a.row_index).c_str());
  }
  k = 1;  // without scales
  if (a.scales != nullptr) {
    if (a.scales->rank() != 2 || a.scales->view_shape[1] <= 0) {
      return plan.Reject(kShape, "argument '%s' has shape %s; it must be [rows, K] with K above 0", a.scales_name,
                         shape(a.scales).c_str());
    }
    k = a.scales->view_shape[1];
  }
  const int64_t rows = a.row_index->view_shape[0] / k;
  drop_pad = drop_pad_mode == 1 || drop_pad_mode == 3;
  int64_t experts = 0;
  if (!drop_pad) {
    if (a.expanded_x->rank() != 2) {
      return plan.Reject(kShape, "argument 'expandedX' has shape %s; it must be 2-D with dropPadMode %lld",
                         shape(a.expanded_x).c_str(), static_cast<long long>(drop_pad_mode));
    }
    expanded = a.expanded_x->view_shape[0];
    h = a.expanded_x->view_shape[1];
  } else {
    if (a.expanded_x->rank() != 3) {
      return plan.Reject(kShape, "argument 'expandedX' has shape %s; it must be [E, C, H] with dropPadMode %lld",
                         shape(a.expanded_x).c_str(), static_cast<long long>(drop_pad_mode));
    }
    experts = a.expanded_x->view_shape[0];
    expanded = experts * a.expanded_x->view_shape[1];
    h = a.expanded_x->view_shape[2];
  }
  const Shape row_shape = {rows, h};
  if (a.x1 != nullptr) CANOPY_CHECK(moe::CheckShapeIs(plan, kShape, a.x1_name, a.x1, row_shape));
  if (a.x2 != nullptr) {
    if (a.x1 == nullptr) return plan.Reject(kShape, "argument '%s' is given without '%s'", a.x2_name, a.x1_name);
    CANOPY_CHECK(moe::CheckShapeIs(plan, kShape, a.x2_name, a.x2, row_shape));
  }
  if (a.scales != nullptr) CANOPY_CHECK(moe::CheckShapeIs(plan, kShape, a.scales_name, a.scales, {rows, k}));
  if (a.bias != nullptr) {
    if (a.expert_index == nullptr) {
      return plan.Reject(kShape, "argument '%s' is null, but a bias needs it", a.expert_index_name);
    }
    if (a.bias->rank() != 2 || a.bias->view_shape[1] != h || (drop_pad && a.bias->view_shape[0] != experts) ||
        a.bias->view_shape[0] < k || a.bias->view_shape[0] == 0) {
      return plan.Reject(kShape, "argument '%s' has shape %s; it must be [E, %lld] with E of at least K = %lld%s",
                         a.bias_name, shape(a.bias).c_str(), static_cast<long long>(h), static_cast<long long>(k),
                         drop_pad ? " and expandedX's E" : "");
    }
  }
  if (a.expert_index != nullptr) {
    CANOPY_CHECK(moe::CheckShapeIs(plan, kShape, a.expert_index_name, a.expert_index, {rows, k}));
  }
  if (a.out->view_shape != row_shape) {
    return plan.Reject(kShape, "argument 'out' has shape %s; it must be [%lld, %lld] (expandedRowIdx's %lld / K, H)",
                       shape(a.out).c_str(), static_cast<long long>(rows), static_cast<long long>(h),
                       static_cast<long long>(a.row_index->view_shape[0]));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeFinalizeRoutingV2(Plan& plan, const aclTensor* expanded_x, const aclTensor* expanded_row_idx,
                                     const aclTensor* x1_optional, const aclTensor* x2_optional,
                                     const aclTensor* bias_optional, const aclTensor* scales_optional,
                                     const aclTensor* expert_idx_optional, int64_t drop_pad_mode,
                                     const aclTensor* out) {
  FinalizeArgs a;
  a.op = "aclnnMoeFinalizeRoutingV2";
  a.expanded_x = expanded_x;
  a.row_index = expanded_row_idx;
  a.x1 = x1_optional;
  a.x1_name = "x1Optional";
  a.x2 = x2_optional;
  a.bias = bias_optional;
  a.bias_name = "biasOptional";
  a.scales = scales_optional;
  a.scales_name = "scalesOptional";
  a.expert_index = expert_idx_optional;
  a.expert_index_name = "expertIdxOptional";
  a.out = out;
  int64_t k = 0, expanded_rows = 0, h = 0;
  bool drop_pad = false;
  CANOPY_CHECK(CheckFinalizeV2(plan, a, drop_pad_mode, k, expanded_rows, h, drop_pad));
  const TensorRef e = plan.Input(expanded_x, "expandedX");
  const TensorRef ri = plan.Input(expanded_row_idx, "expandedRowIdx");
  const TensorRef r1 = OptionalInput(plan, x1_optional, "x1Optional");
  const TensorRef r2 = OptionalInput(plan, x2_optional, "x2Optional");
  const TensorRef b = OptionalInput(plan, bias_optional, "biasOptional");
  const TensorRef s = OptionalInput(plan, scales_optional, "scalesOptional");
  const TensorRef ei = OptionalInput(plan, expert_idx_optional, "expertIdxOptional");
  const TensorRef o = plan.Output(out, "out");
  if (o.NumElements() == 0) return ACLNN_SUCCESS;
  FinalizeLayout layout;
  layout.token_major_index = drop_pad_mode >= 2;
  layout.drop_pad = drop_pad;
  // [E, C, H] read as E * C rows (a dense copy first where the view is strided).
  const TensorRef rows = *Reshape(plan.Contiguous(e, e.dtype), {expanded_rows, h});
  AddFinalize(plan, a, k, rows, ri, x1_optional != nullptr ? &r1 : nullptr, x2_optional != nullptr ? &r2 : nullptr,
              bias_optional != nullptr ? &b : nullptr, scales_optional != nullptr ? &s : nullptr,
              expert_idx_optional != nullptr ? &ei : nullptr, o, layout);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};

}  // namespace

CANOPY_ACLNN_OP(MoeFinalizeRouting, PlanMoeFinalizeRouting,
                (OpTraits{
                    .header = "aclnnop/aclnn_moe_finalize_routing.h",
                    .dtypes = kAllDtypes,
                    .max_rank = 2,
                    .example = "f32[6,4] f32[3,4] f32[3,4] f32[2,4] f32[3,2] i32[6]{0:5} i32[3,2]{0:1} f32[3,4]"}),
                (const aclTensor*, expandedX), (const aclTensor*, x1), (const aclTensor*, x2Optional, optional),
                (const aclTensor*, bias), (const aclTensor*, scales), (const aclTensor*, expandedRowIdx),
                (const aclTensor*, expandedExpertIdx), (const aclTensor*, out))

CANOPY_ACLNN_OP(
    MoeFinalizeRoutingV2, PlanMoeFinalizeRoutingV2,
    (OpTraits{.header = "aclnnop/aclnn_moe_finalize_routing_v2.h",
              .dtypes = kAllDtypes,
              .max_rank = 3,  // expandedX [E, C, H] in the drop-and-pad modes
              .example = "f32[6,4] i32[6]{0:5} f32[3,4]!561002 f32[3,4] - f32[3,2]!561002 i32[3,2]{0:1} 0 f32[3,4]"}),
    (const aclTensor*, expandedX), (const aclTensor*, expandedRowIdx), (const aclTensor*, x1Optional, optional),
    (const aclTensor*, x2Optional, optional), (const aclTensor*, biasOptional, optional),
    (const aclTensor*, scalesOptional, optional), (const aclTensor*, expertIdxOptional, optional),
    (int64_t, dropPadMode), (const aclTensor*, out))
