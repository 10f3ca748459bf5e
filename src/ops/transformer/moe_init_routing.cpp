// aclnnMoeInitRouting and aclnnMoeInitRoutingV2: MoE routing, the token
// permutation MoeFinalizeRouting undoes. The rows x k expert choices
// (expertIdx, from MoeGatingTopKSoftmax) are sorted by expert number, stably,
// and the token rows of x gathered into that order (kernels/moe_init_routing.h).
//
// V1: rowIdx names each choice's slot (k-major); expandedXOut holds the first
//   min(rows, activeNum) * k rows, expandedRowIdxOut maps a slot to its row,
//   expandedExpertIdxOut the sorted experts. Shape errors are 561002 as the doc says.
// Quant (MoeInitRoutingQuant): V1 with expandedXOut INT8, each gathered element
//   quantised statically as CANN's A2 kernel does it: x, scale and offset
//   (attributes read as float) rounded to half, x * scale and + offset each
//   rounded to half, then rounded half to even and saturated to INT8. CANN has
//   no host checks for it (its doc is a stub): the shape faults are its
//   tiling's (561002), the dtypes its op definition's (161002).
// V2: no rowIdx; activeNum 0 (drop-less: rows * k rows) or > 0 (active: at
//   most activeNum rows); dropPadMode 1 lays expandedXOut out as
//   [expertNum, expertCapacity, h], dropping copies past the capacity
//   (expandedRowIdxOut -1) and zero-filling the rest; the optional per-expert
//   token counts (or their running sum) and counts before the drop. Shape and
//   attribute errors are 561103 as the doc says.
// QuantV2 (MoeInitRoutingQuantV2): V2 with expandedXOut INT8. quantMode 0:
//   static, scaleOptional and offsetOptional [1] each, in half arithmetic as
//   Quant's (x is quantised first and its INT8 rows gathered, so padding rows
//   stay 0 as CANN's kernel leaves them); 1: dynamic per expanded row on
//   DynamicQuant's kernel, the row (times scaleOptional's smooth row: [1, h],
//   or [expertNum, h] picked by the row's expert) over max|row| / 127 in f32,
//   rounded half away from zero as CANN's kernel does (it truncates to half,
//   then rounds away), the scales in dynamicQuantScaleOutOptional (0 for
//   padding rows). CANN has no host checks (its doc is a stub): the dtypes
//   are its op definition's (161002), the shapes and attributes its tiling's
//   (561002).
// V3: drop-less only; the slots whose expert is outside
//   activeExpertRangeOptional [start, end) are dropped (null: [0, expertNum],
//   as the graph's default); expandedRowIdxOut in the gather (rowIdxType 0,
//   slot -> position, -1 dropped) or scatter (1, position -> slot) form;
//   int64 counts per expert of the range, or (expert, count) pairs; quantMode
//   1 quantises each expanded row (times scaleOptional [range, h] of its
//   expert) to INT8 with DynamicQuant's kernel, its scale in expandedScaleOut;
//   unquantised, scaleOptional [rows] is gathered into expandedScaleOut.
//   Shapes are checked as CANN's host code does (161002), the attributes by
//   its tiling (561002).
// x and expandedXOut f32, f16 or bf16 (one dtype; V3 also INT8); every index
// int32 (the Atlas A2 column). An index value out of range fails the run
// (507015), except V3's, which drops it.
#include "kernels/moe_init_routing.h"
#include "aclnnop/aclnn_moe_init_routing.h"
#include "aclnnop/aclnn_moe_init_routing_quant.h"
#include "aclnnop/aclnn_moe_init_routing_quant_v2.h"
#include "aclnnop/aclnn_moe_init_routing_v2.h"
#include "aclnnop/aclnn_moe_init_routing_v3.h"
#include "kernels/quant_dynamic.h"
#include "ops/framework/aclnn_op.h"
#include "ops/nn/quant_rows.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32};
constexpr int64_t kMaxSlots = INT32_MAX;  // the index outputs are int32

using kernels::MoeInitRoutingDesc;

using moe::CheckShapeIs;
using Outputs = moe::DenseOutputs;

// x [rows, h] and expertIdx [rows, k], both 2-D with the same rows.
aclnnStatus CheckTokens(Plan& plan, aclnnStatus status, const aclTensor* x, const aclTensor* expert_idx) {
  if (x->rank() != 2 || expert_idx->rank() != 2 || x->view_shape[0] != expert_idx->view_shape[0]) {
    return plan.Reject(status, "x (%s) and expertIdx (%s) must be 2-D with the same rows ([rows, h], [rows, k])",
                       ShapeToString(x->view_shape).c_str(), ShapeToString(expert_idx->view_shape).c_str());
  }
  if (expert_idx->NumElements() > kMaxSlots) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "expertIdx has %lld elements; at most %lld (int32 indices)",
                       static_cast<long long>(expert_idx->NumElements()), static_cast<long long>(kMaxSlots));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckOutDtypes(Plan& plan, const aclTensor* x, const aclTensor* expanded_x) {
  if (expanded_x->dtype == x->dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'expandedXOut' is %s, but x is %s: they must match",
                     DtypeName(expanded_x->dtype), DtypeName(x->dtype));
}

// MoeInitRoutingQuant's static quantisation of the expanded rows: int8(rint(x * scale + offset)) in half.
struct StaticQuant {
  double scale = 1, offset = 0;
};

// V1 and its quantised form: `quant` null keeps expandedXOut in x's dtype.
aclnnStatus PlanV1(Plan& plan, const char* op, const StaticQuant* quant, const aclTensor* x, const aclTensor* row_idx,
                   const aclTensor* expert_idx, int64_t active_num, const aclTensor* expanded_x_out,
                   const aclTensor* expanded_row_idx_out, const aclTensor* expanded_expert_idx_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("rowIdx", row_idx->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("expertIdx", expert_idx->dtype, kIndexDtypes));
  if (quant != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("expandedXOut", expanded_x_out->dtype, DtypeSet{ACL_INT8}));
  } else {
    CANOPY_CHECK(CheckOutDtypes(plan, x, expanded_x_out));
  }
  CANOPY_CHECK(plan.CheckDtype("expandedRowIdxOut", expanded_row_idx_out->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("expandedExpertIdxOut", expanded_expert_idx_out->dtype, kIndexDtypes));
  constexpr aclnnStatus kShapeError = ACLNN_ERR_INNER_TILING_ERROR;
  CANOPY_CHECK(CheckTokens(plan, kShapeError, x, expert_idx));
  CANOPY_CHECK(CheckShapeIs(plan, kShapeError, "rowIdx", row_idx, expert_idx->view_shape));
  if (active_num < 0) {
    return plan.Reject(kShapeError, "argument 'activeNum' is %lld; it must be at least 0",
                       static_cast<long long>(active_num));
  }
  const int64_t rows = x->view_shape[0], h = x->view_shape[1], k = expert_idx->view_shape[1];
  const int64_t expanded_rows = std::min(rows, active_num) * k;
  CANOPY_CHECK(CheckShapeIs(plan, kShapeError, "expandedXOut", expanded_x_out, {expanded_rows, h}));
  CANOPY_CHECK(CheckShapeIs(plan, kShapeError, "expandedRowIdxOut", expanded_row_idx_out, {rows * k}));
  CANOPY_CHECK(CheckShapeIs(plan, kShapeError, "expandedExpertIdxOut", expanded_expert_idx_out, {rows * k}));

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef row_ref = plan.Input(row_idx, "rowIdx");
  const TensorRef expert_ref = plan.Input(expert_idx, "expertIdx");
  const TensorRef expanded_ref = plan.Output(expanded_x_out, "expandedXOut");
  const TensorRef expanded_row_ref = plan.Output(expanded_row_idx_out, "expandedRowIdxOut");
  const TensorRef expanded_expert_ref = plan.Output(expanded_expert_idx_out, "expandedExpertIdxOut");
  if (rows * k == 0) return ACLNN_SUCCESS;

  MoeInitRoutingDesc desc;
  desc.op = op;
  desc.dtype = x->dtype;
  desc.rows = rows;
  desc.k = k;
  desc.h = h;
  desc.expanded_rows = expanded_rows;
  desc.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  desc.has_row_index = true;
  desc.row_index = plan.Contiguous(row_ref, ACL_INT32).buffer;
  desc.expert_index = plan.Contiguous(expert_ref, ACL_INT32).buffer;
  Outputs outputs;
  // Quantised, the rows are gathered in x's dtype first.
  const TensorRef gathered = quant != nullptr ? plan.Temporary(x->dtype, {expanded_rows, h}) : TensorRef{};
  desc.expanded_x = quant != nullptr ? gathered.buffer : outputs.Dense(plan, expanded_ref);
  desc.expanded_row_index = outputs.Dense(plan, expanded_row_ref);
  desc.expanded_expert_index = outputs.Dense(plan, expanded_expert_ref);
  plan.AddStep(kernels::MakeMoeInitRoutingStep(desc));
  outputs.Finish(plan);
  if (quant != nullptr && expanded_rows * h > 0) {
    // CANN reads the attributes as float; its kernel rounds x, them and each partial result to half.
    const TensorRef scale = plan.Temporary(ACL_FLOAT, {1});
    const TensorRef offset = plan.Temporary(ACL_FLOAT, {1});
    plan.Fill(scale, ScalarValue::Real(static_cast<float>(quant->scale)));
    plan.Fill(offset, ScalarValue::Real(static_cast<float>(quant->offset)));
    kernels::QuantAffineDesc affine;
    affine.in_dtype = x->dtype;
    affine.out_dtype = ACL_INT8;
    affine.elements = expanded_rows * h;
    affine.half_arithmetic = true;
    AddAffineStep(plan, affine, gathered, scale, &offset, expanded_ref);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeInitRouting(Plan& plan, const aclTensor* x, const aclTensor* row_idx, const aclTensor* expert_idx,
                               int64_t active_num, const aclTensor* expanded_x_out,
                               const aclTensor* expanded_row_idx_out, const aclTensor* expanded_expert_idx_out) {
  return PlanV1(plan, "aclnnMoeInitRouting", nullptr, x, row_idx, expert_idx, active_num, expanded_x_out,
                expanded_row_idx_out, expanded_expert_idx_out);
}

aclnnStatus PlanMoeInitRoutingQuant(Plan& plan, const aclTensor* x, const aclTensor* row_idx,
                                    const aclTensor* expert_idx, int64_t active_num, double scale, double offset,
                                    const aclTensor* expanded_x_out, const aclTensor* expanded_row_idx_out,
                                    const aclTensor* expanded_expert_idx_out) {
  const StaticQuant quant{scale, offset};
  return PlanV1(plan, "aclnnMoeInitRoutingQuant", &quant, x, row_idx, expert_idx, active_num, expanded_x_out,
                expanded_row_idx_out, expanded_expert_idx_out);
}

constexpr int64_t kDropPad = 1;
constexpr int64_t kCumsumFlag = 1;
constexpr int64_t kCountFlag = 2;
constexpr int64_t kDynamicQuant = 1;  // MoeInitRoutingQuantV2's and V3's quantMode

// MoeInitRoutingQuantV2's quantisation of V2's expanded rows: quantMode 0 static (scale and offset [1]),
// 1 dynamic per row (scale: the optional smooth rows, [1, h] or [expertNum, h]) with its scales out.
struct V2Quant {
  int64_t mode = 0;
  const aclTensor *scale = nullptr, *offset = nullptr, *dynamic_scale_out = nullptr;
};
constexpr int64_t kStaticQuant = 0;

aclnnStatus CheckV2QuantMode(Plan& plan, const V2Quant& quant) {
  if (quant.mode == kStaticQuant || quant.mode == kDynamicQuant) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'quantMode' is %lld; it must be 0 (static) or 1 (dynamic)",
                     static_cast<long long>(quant.mode));
}

// The tiling's checks of the quantisation operands, after V2's: static needs scale and offset of shape [1];
// dynamic its scales out, one per expanded row, and takes the smooth rows [1 or expertNum, h].
aclnnStatus CheckV2QuantOperands(Plan& plan, const V2Quant& quant, int64_t expanded_rows, int64_t expert_num,
                                 int64_t h) {
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  if (quant.mode == kDynamicQuant) {
    if (quant.dynamic_scale_out == nullptr) {
      return plan.Reject(kTiling, "argument 'dynamicQuantScaleOutOptional' is null; quantMode 1 needs it");
    }
    CANOPY_CHECK(CheckShapeIs(plan, kTiling, "dynamicQuantScaleOutOptional", quant.dynamic_scale_out, {expanded_rows}));
    if (quant.scale != nullptr &&
        (quant.scale->rank() != 2 || (quant.scale->view_shape[0] != 1 && quant.scale->view_shape[0] != expert_num) ||
         quant.scale->view_shape[1] != h)) {
      return plan.Reject(kTiling, "argument 'scaleOptional' has shape %s; quantMode 1 needs [1, %lld] or [%lld, %lld]",
                         ShapeToString(quant.scale->view_shape).c_str(), static_cast<long long>(h),
                         static_cast<long long>(expert_num), static_cast<long long>(h));
    }
    return ACLNN_SUCCESS;
  }
  for (const auto& [name, t] : {std::pair{"scaleOptional", quant.scale}, std::pair{"offsetOptional", quant.offset}}) {
    if (t == nullptr) return plan.Reject(kTiling, "argument '%s' is null; quantMode 0 needs it", name);
    CANOPY_CHECK(CheckShapeIs(plan, kTiling, name, t, {1}));
  }
  return ACLNN_SUCCESS;
}

// V2 and its quantised form: `quant` null keeps expandedXOut in x's dtype.
aclnnStatus PlanV2(Plan& plan, const V2Quant* quant, const aclTensor* x, const aclTensor* expert_idx,
                   int64_t active_num, int64_t expert_capacity, int64_t expert_num, int64_t drop_pad_mode,
                   int64_t count_or_cumsum_flag, bool before_capacity_flag, const aclTensor* expanded_x_out,
                   const aclTensor* expanded_row_idx_out, const aclTensor* count_or_cumsum_out,
                   const aclTensor* before_capacity_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("expertIdx", expert_idx->dtype, kIndexDtypes));
  if (quant != nullptr) {
    for (const auto& [name, t] : {std::pair{"scaleOptional", quant->scale}, std::pair{"offsetOptional", quant->offset},
                                  std::pair{"dynamicQuantScaleOutOptional", quant->dynamic_scale_out}}) {
      if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, DtypeSet{ACL_FLOAT}));
    }
    CANOPY_CHECK(plan.CheckDtype("expandedXOut", expanded_x_out->dtype, DtypeSet{ACL_INT8}));
  } else {
    CANOPY_CHECK(CheckOutDtypes(plan, x, expanded_x_out));
  }
  CANOPY_CHECK(plan.CheckDtype("expandedRowIdxOut", expanded_row_idx_out->dtype, kIndexDtypes));
  // V2's doc gives its shape faults 561103; the quantised form's are its tiling's (561002).
  const aclnnStatus kShapeError = quant != nullptr ? ACLNN_ERR_INNER_TILING_ERROR : ACLNN_ERR_INNER_NULLPTR;
  if (quant != nullptr) CANOPY_CHECK(CheckV2QuantMode(plan, *quant));
  CANOPY_CHECK(CheckTokens(plan, kShapeError, x, expert_idx));
  for (const auto& [name, value] : {std::pair{"activeNum", active_num}, std::pair{"expertCapacity", expert_capacity},
                                    std::pair{"expertNum", expert_num}}) {
    if (value < 0) {
      return plan.Reject(kShapeError, "argument '%s' is %lld; it must be at least 0", name,
                         static_cast<long long>(value));
    }
  }
  if (drop_pad_mode != 0 && drop_pad_mode != kDropPad) {
    return plan.Reject(kShapeError, "argument 'dropPadMode' is %lld; it must be 0 or 1",
                       static_cast<long long>(drop_pad_mode));
  }
  if (count_or_cumsum_flag < 0 || count_or_cumsum_flag > kCountFlag) {
    return plan.Reject(kShapeError, "argument 'expertTokensCountOrCumsumFlag' is %lld; it must be 0, 1 or 2",
                       static_cast<long long>(count_or_cumsum_flag));
  }
  const int64_t rows = x->view_shape[0], h = x->view_shape[1], k = expert_idx->view_shape[1];
  const bool drop_pad = drop_pad_mode == kDropPad;
  // The counts are an output of one form each: the running counts drop-less, the counts before the drop with drop/pad.
  const bool counts = !drop_pad && count_or_cumsum_flag > 0;
  const bool before_capacity = drop_pad && before_capacity_flag;
  if (drop_pad && (expert_num == 0 || expert_capacity == 0 || expert_capacity > rows)) {
    return plan.Reject(
        kShapeError, "dropPadMode 1 needs expertNum > 0 (is %lld) and expertCapacity in (0, rows = %lld] (is %lld)",
        static_cast<long long>(expert_num), static_cast<long long>(rows), static_cast<long long>(expert_capacity));
  }
  if (counts && expert_num == 0) {
    return plan.Reject(kShapeError, "expertTokensCountOrCumsumFlag %lld needs expertNum > 0",
                       static_cast<long long>(count_or_cumsum_flag));
  }
  int64_t slots = 0;  // the product may overflow int64 for hostile attributes
  if (drop_pad && (__builtin_mul_overflow(expert_num, expert_capacity, &slots) || slots > kMaxSlots)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "expertNum (%lld) * expertCapacity (%lld) exceeds %lld (int32 indices)",
                       static_cast<long long>(expert_num), static_cast<long long>(expert_capacity),
                       static_cast<long long>(kMaxSlots));
  }
  const int64_t expanded_rows = active_num > 0 ? std::min(active_num, rows * k) : rows * k;
  const Shape expanded_shape = drop_pad ? Shape{expert_num, expert_capacity, h} : Shape{expanded_rows, h};
  CANOPY_CHECK(CheckShapeIs(plan, kShapeError, "expandedXOut", expanded_x_out, expanded_shape));
  CANOPY_CHECK(CheckShapeIs(plan, kShapeError, "expandedRowIdxOut", expanded_row_idx_out, {rows * k}));
  const aclTensor* tokens_out = counts ? count_or_cumsum_out : before_capacity ? before_capacity_out : nullptr;
  const char* tokens_name = counts ? "expertTokensCountOrCumsumOut" : "expertTokensBeforeCapacityOut";
  if (counts || before_capacity) {
    CANOPY_CHECK(plan.CheckNotNull(tokens_name, tokens_out));
    CANOPY_CHECK(plan.CheckDtype(tokens_name, tokens_out->dtype, kIndexDtypes));
    CANOPY_CHECK(CheckShapeIs(plan, kShapeError, tokens_name, tokens_out, {expert_num}));
  }
  const int64_t out_rows = drop_pad ? expert_num * expert_capacity : expanded_rows;
  if (quant != nullptr) CANOPY_CHECK(CheckV2QuantOperands(plan, *quant, out_rows, expert_num, h));
  const bool dynamic = quant != nullptr && quant->mode == kDynamicQuant;

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef expert_ref = plan.Input(expert_idx, "expertIdx");
  TensorRef scale_ref, offset_ref;
  if (quant != nullptr) {
    // Static reads scale and offset; dynamic the optional smooth rows (in scaleOptional) only.
    if (quant->scale != nullptr) {
      scale_ref = plan.Input(quant->scale, "scaleOptional");
    } else {
      plan.SkipInput();
    }
    if (!dynamic) {
      offset_ref = plan.Input(quant->offset, "offsetOptional");
    } else {
      plan.SkipInput();
    }
  }
  const TensorRef expanded_ref = plan.Output(expanded_x_out, "expandedXOut");
  const TensorRef expanded_row_ref = plan.Output(expanded_row_idx_out, "expandedRowIdxOut");
  // An output the flags do not ask for is left as it is.
  TensorRef tokens_ref;
  for (const aclTensor* t : {count_or_cumsum_out, before_capacity_out}) {
    if (t != nullptr && t == tokens_out) {
      tokens_ref = plan.Output(t, tokens_name);
    } else {
      plan.SkipOutput();
    }
  }
  TensorRef dynamic_scale_ref;
  if (dynamic) {
    dynamic_scale_ref = plan.Output(quant->dynamic_scale_out, "dynamicQuantScaleOutOptional");
  } else if (quant != nullptr) {
    plan.SkipOutput();  // static: left alone
  }
  if (rows * k == 0) {  // no expert choices: zero padding rows, scales and counts
    if (expanded_ref.NumElements() > 0) plan.Fill(expanded_ref, ScalarValue::Integer(0));
    if (dynamic && dynamic_scale_ref.NumElements() > 0) plan.Fill(dynamic_scale_ref, ScalarValue::Integer(0));
    if (tokens_out != nullptr && tokens_ref.NumElements() > 0) plan.Fill(tokens_ref, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }

  MoeInitRoutingDesc desc;
  desc.op = quant != nullptr ? "aclnnMoeInitRoutingQuantV2" : "aclnnMoeInitRoutingV2";
  desc.dtype = x->dtype;
  desc.rows = rows;
  desc.k = k;
  desc.h = h;
  desc.expanded_rows = drop_pad ? 0 : expanded_rows;
  desc.experts = expert_num;
  desc.experts_bounded = drop_pad || counts;
  desc.drop_pad = drop_pad;
  desc.capacity = expert_capacity;
  desc.expert_index = plan.Contiguous(expert_ref, ACL_INT32).buffer;
  Outputs outputs;
  TensorRef rows_f32;  // dynamic: the expanded rows (times the smooth rows) in f32, quantised after
  if (quant != nullptr && !dynamic && h > 0) {
    // Static quantisation is elementwise, so x is quantised first (in half, as CANN's kernel computes)
    // and its INT8 rows gathered: padding rows stay 0, as CANN's kernel leaves them.
    const TensorRef quantised = plan.Temporary(ACL_INT8, {rows, h});
    kernels::QuantAffineDesc affine;
    affine.in_dtype = x->dtype;
    affine.out_dtype = ACL_INT8;
    affine.elements = rows * h;
    affine.half_arithmetic = true;
    AddAffineStep(plan, affine, x_ref, scale_ref, &offset_ref, quantised);
    desc.dtype = ACL_INT8;
    desc.x = quantised.buffer;
  } else {
    desc.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  }
  if (dynamic) {
    rows_f32 = plan.Temporary(ACL_FLOAT, {out_rows, h});
    desc.to_f32 = true;
    desc.expanded_x = rows_f32.buffer;
    if (quant->scale != nullptr) {
      desc.has_smooth = true;
      desc.smooth_per_expert = quant->scale->view_shape[0] != 1;
      desc.experts_bounded = desc.experts_bounded || desc.smooth_per_expert;  // the expert picks the smooth row
      desc.smooth = plan.Contiguous(scale_ref, ACL_FLOAT).buffer;
    }
  } else {
    desc.expanded_x = outputs.Dense(plan, expanded_ref);
  }
  desc.expanded_row_index = outputs.Dense(plan, expanded_row_ref);
  if (tokens_out != nullptr) {
    desc.counts = before_capacity                       ? MoeInitRoutingDesc::Counts::kBeforeCapacity
                  : count_or_cumsum_flag == kCumsumFlag ? MoeInitRoutingDesc::Counts::kCumsum
                                                        : MoeInitRoutingDesc::Counts::kCount;
    desc.expert_tokens = outputs.Dense(plan, tokens_ref);
  }
  plan.AddStep(kernels::MakeMoeInitRoutingStep(desc));
  if (dynamic && h == 0) {  // no columns: zero scales
    if (dynamic_scale_ref.NumElements() > 0) plan.Fill(dynamic_scale_ref, ScalarValue::Integer(0));
  } else if (dynamic) {
    kernels::DynamicQuantDesc dq;
    dq.x_dtype = ACL_FLOAT;
    dq.rows = out_rows;
    dq.columns = h;
    dq.x = rows_f32.buffer;
    dq.y = outputs.Dense(plan, expanded_ref);
    dq.scale = outputs.Dense(plan, dynamic_scale_ref);
    dq.divide_round_away = true;
    plan.AddStep(kernels::MakeDynamicQuantStep(dq));
  }
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeInitRoutingV2(Plan& plan, const aclTensor* x, const aclTensor* expert_idx, int64_t active_num,
                                 int64_t expert_capacity, int64_t expert_num, int64_t drop_pad_mode,
                                 int64_t count_or_cumsum_flag, bool before_capacity_flag,
                                 const aclTensor* expanded_x_out, const aclTensor* expanded_row_idx_out,
                                 const aclTensor* count_or_cumsum_out, const aclTensor* before_capacity_out) {
  return PlanV2(plan, nullptr, x, expert_idx, active_num, expert_capacity, expert_num, drop_pad_mode,
                count_or_cumsum_flag, before_capacity_flag, expanded_x_out, expanded_row_idx_out, count_or_cumsum_out,
                before_capacity_out);
}

aclnnStatus PlanMoeInitRoutingQuantV2(Plan& plan, const aclTensor* x, const aclTensor* expert_idx,
                                      const aclTensor* scale, const aclTensor* offset, int64_t active_num,
                                      int64_t expert_capacity, int64_t expert_num, int64_t drop_pad_mode,
                                      int64_t count_or_cumsum_flag, bool before_capacity_flag, int64_t quant_mode,
                                      const aclTensor* expanded_x_out, const aclTensor* expanded_row_idx_out,
                                      const aclTensor* count_or_cumsum_out, const aclTensor* before_capacity_out,
                                      const aclTensor* dynamic_scale_out) {
  const V2Quant quant{quant_mode, scale, offset, dynamic_scale_out};
  return PlanV2(plan, &quant, x, expert_idx, active_num, expert_capacity, expert_num, drop_pad_mode,
                count_or_cumsum_flag, before_capacity_flag, expanded_x_out, expanded_row_idx_out, count_or_cumsum_out,
                before_capacity_out);
}

constexpr DtypeSet kV3Dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8};
constexpr int64_t kUnquantised = -1;
constexpr int64_t kCountType = 1;
constexpr int64_t kKeyValueType = 2;
constexpr int64_t kMaxRangeEnd = 10240;         // CANN's limit on expert numbers
constexpr int64_t kMaxKeyValueRangeEnd = 5120;  // and in the key-value form
constexpr int64_t kScatterRowIndex = 1;

struct V3Attributes {
  int64_t active_num, expert_num, drop_pad_mode, tokens_type;
  bool tokens_flag;
  int64_t quant_mode, row_idx_type, start, end;
};

// CANN's tiling checks of the attributes (561002).
aclnnStatus CheckV3Attributes(Plan& plan, const V3Attributes& a, int64_t slots) {
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  if (a.active_num < -1 || (a.active_num != -1 && a.active_num != slots)) {
    return plan.Reject(kTiling, "argument 'activeNum' is %lld; it must be -1 or rows * k = %lld",
                       static_cast<long long>(a.active_num), static_cast<long long>(slots));
  }
  if (a.expert_num <= 0) {
    return plan.Reject(kTiling, "argument 'expertNum' is %lld; it must be above 0",
                       static_cast<long long>(a.expert_num));
  }
  if (a.drop_pad_mode != 0) {
    return plan.Reject(kTiling, "argument 'dropPadMode' is %lld; only 0 (drop-less) is supported",
                       static_cast<long long>(a.drop_pad_mode));
  }
  if (a.tokens_type != kCountType && a.tokens_type != kKeyValueType) {
    return plan.Reject(kTiling, "argument 'expertTokensNumType' is %lld; it must be 1 (count) or 2 (key-value)",
                       static_cast<long long>(a.tokens_type));
  }
  if (!a.tokens_flag) return plan.Reject(kTiling, "argument 'expertTokensNumFlag' must be true");
  const int64_t max_end = a.tokens_type == kKeyValueType ? kMaxKeyValueRangeEnd : kMaxRangeEnd;
  if (a.start < 0 || a.start >= a.end || a.end > a.expert_num || a.end > max_end) {
    return plan.Reject(kTiling,
                       "argument 'activeExpertRangeOptional' is [%lld, %lld]; it must satisfy 0 <= start < end <= "
                       "expertNum (%lld) and end <= %lld",
                       static_cast<long long>(a.start), static_cast<long long>(a.end),
                       static_cast<long long>(a.expert_num), static_cast<long long>(max_end));
  }
  if (a.quant_mode != kUnquantised && a.quant_mode != kDynamicQuant) {
    return plan.Reject(kTiling, "argument 'quantMode' is %lld; it must be -1 (none) or 1 (dynamic)",
                       static_cast<long long>(a.quant_mode));
  }
  if (a.row_idx_type != 0 && a.row_idx_type != kScatterRowIndex) {
    return plan.Reject(kTiling, "argument 'rowIdxType' is %lld; it must be 0 (gather) or 1 (scatter)",
                       static_cast<long long>(a.row_idx_type));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckV3Dtypes(Plan& plan, const aclTensor* x, const aclTensor* expert_idx, const aclTensor* scale,
                          const aclTensor* offset, const aclTensor* expanded_x, const aclTensor* expanded_row_idx,
                          const aclTensor* tokens, const aclTensor* expanded_scale, int64_t quant_mode) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kV3Dtypes));
  CANOPY_CHECK(plan.CheckDtype("expertIdx", expert_idx->dtype, kIndexDtypes));
  if (scale != nullptr) CANOPY_CHECK(plan.CheckDtype("scaleOptional", scale->dtype, DtypeSet{ACL_FLOAT}));
  if (offset != nullptr) CANOPY_CHECK(plan.CheckDtype("offsetOptional", offset->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("expandedXOut", expanded_x->dtype, kV3Dtypes));
  CANOPY_CHECK(plan.CheckDtype("expandedRowIdxOut", expanded_row_idx->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("expertTokensCountOrCumsumOut", tokens->dtype, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("expandedScaleOut", expanded_scale->dtype, DtypeSet{ACL_FLOAT}));
  const aclDataType want = quant_mode == kDynamicQuant ? ACL_INT8 : x->dtype;
  if (expanded_x->dtype != want) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "argument 'expandedXOut' is %s; with x %s and quantMode %lld it must be %s",
        DtypeName(expanded_x->dtype), DtypeName(x->dtype), static_cast<long long>(quant_mode), DtypeName(want));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeInitRoutingV3(Plan& plan, const aclTensor* x, const aclTensor* expert_idx, const aclTensor* scale,
                                 const aclTensor* offset, int64_t active_num, int64_t /*expert_capacity: unused*/,
                                 int64_t expert_num, int64_t drop_pad_mode, int64_t tokens_type, bool tokens_flag,
                                 int64_t quant_mode, const aclIntArray* active_range, int64_t row_idx_type,
                                 const aclTensor* expanded_x_out, const aclTensor* expanded_row_idx_out,
                                 const aclTensor* tokens_out, const aclTensor* expanded_scale_out) {
  CANOPY_CHECK(CheckV3Dtypes(plan, x, expert_idx, scale, offset, expanded_x_out, expanded_row_idx_out, tokens_out,
                             expanded_scale_out, quant_mode));
  if (active_range != nullptr && active_range->values.size() != 2) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "argument 'activeExpertRangeOptional' has %zu values; it must be [start, end]",
                       active_range->values.size());
  }
  const int64_t start = active_range != nullptr ? active_range->values[0] : 0;
  const int64_t end = active_range != nullptr ? active_range->values[1] : expert_num;
  const int64_t range = end - start;
  constexpr aclnnStatus kShape = ACLNN_ERR_PARAM_INVALID;  // CANN's host code checks the shapes
  CANOPY_CHECK(CheckTokens(plan, kShape, x, expert_idx));
  const int64_t rows = x->view_shape[0], h = x->view_shape[1], k = expert_idx->view_shape[1];
  const bool quantise = quant_mode == kDynamicQuant;
  if (scale != nullptr && quant_mode == kUnquantised)
    CANOPY_CHECK(CheckShapeIs(plan, kShape, "scaleOptional", scale, {rows}));
  if (scale != nullptr && quantise) CANOPY_CHECK(CheckShapeIs(plan, kShape, "scaleOptional", scale, {range, h}));
  // The scales come out where they are computed: always quantised, else only with a scale to gather.
  const bool writes_scale = quantise || (scale != nullptr && quant_mode == kUnquantised);
  if (scale != nullptr) CANOPY_CHECK(CheckShapeIs(plan, kShape, "expandedScaleOut", expanded_scale_out, {rows * k}));
  CANOPY_CHECK(CheckShapeIs(plan, kShape, "expandedXOut", expanded_x_out, {rows * k, h}));
  CANOPY_CHECK(CheckShapeIs(plan, kShape, "expandedRowIdxOut", expanded_row_idx_out, {rows * k}));
  const Shape tokens_shape = tokens_type == kKeyValueType ? Shape{expert_num, 2} : Shape{range};
  if (tokens_type == kCountType || tokens_type == kKeyValueType) {
    CANOPY_CHECK(CheckShapeIs(plan, kShape, "expertTokensCountOrCumsumOut", tokens_out, tokens_shape));
  }
  CANOPY_CHECK(CheckV3Attributes(
      plan, {active_num, expert_num, drop_pad_mode, tokens_type, tokens_flag, quant_mode, row_idx_type, start, end},
      rows * k));
  if (quantise && scale == nullptr) {
    CANOPY_CHECK(CheckShapeIs(plan, ACLNN_ERR_INNER_TILING_ERROR, "expandedScaleOut", expanded_scale_out, {rows * k}));
  }

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef expert_ref = plan.Input(expert_idx, "expertIdx");
  TensorRef scale_ref;
  if (scale != nullptr) {
    scale_ref = plan.Input(scale, "scaleOptional");
  } else {
    plan.SkipInput();
  }
  plan.SkipInput();  // offsetOptional: static quantisation only
  const TensorRef expanded_ref = plan.Output(expanded_x_out, "expandedXOut");
  const TensorRef expanded_row_ref = plan.Output(expanded_row_idx_out, "expandedRowIdxOut");
  const TensorRef tokens_ref = plan.Output(tokens_out, "expertTokensCountOrCumsumOut");
  TensorRef expanded_scale_ref;
  if (writes_scale) {
    expanded_scale_ref = plan.Output(expanded_scale_out, "expandedScaleOut");
  } else {
    plan.SkipOutput();
  }
  if (rows * k == 0) {  // no expert choices: zero counts
    if (tokens_ref.NumElements() > 0) plan.Fill(tokens_ref, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }

  kernels::MoeInitRoutingV3Desc desc;
  desc.dtype = x->dtype;
  desc.rows = rows;
  desc.k = k;
  desc.h = h;
  desc.experts = expert_num;
  desc.expert_start = start;
  desc.expert_end = end;
  desc.scatter_row_index = row_idx_type == kScatterRowIndex;
  desc.key_value = tokens_type == kKeyValueType;
  desc.quantise = quantise;
  desc.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  desc.expert_index = plan.Contiguous(expert_ref, ACL_INT32).buffer;
  Outputs outputs;
  const TensorRef rows_f32 = quantise ? plan.Temporary(ACL_FLOAT, {rows * k, h}) : TensorRef{};
  desc.expanded_x = quantise ? rows_f32.buffer : outputs.DenseKeeping(plan, expanded_ref);
  desc.expanded_row_index = outputs.DenseKeeping(plan, expanded_row_ref);
  desc.expert_tokens = outputs.DenseKeeping(plan, tokens_ref);
  if (scale != nullptr && quantise) {
    desc.has_smooth = true;
    desc.smooth = plan.Contiguous(scale_ref, ACL_FLOAT).buffer;
  } else if (scale != nullptr) {
    desc.has_row_scale = true;
    desc.row_scale = plan.Contiguous(scale_ref, ACL_FLOAT).buffer;
    desc.expanded_scale = outputs.DenseKeeping(plan, expanded_scale_ref);
  }
  plan.AddStep(kernels::MakeMoeInitRoutingV3Step(desc));
  if (quantise && h > 0) {
    kernels::DynamicQuantDesc quant;
    quant.x_dtype = ACL_FLOAT;
    quant.rows = rows * k;
    quant.columns = h;
    quant.x = rows_f32.buffer;
    quant.y = outputs.Dense(plan, expanded_ref);
    quant.scale = outputs.Dense(plan, expanded_scale_ref);
    plan.AddStep(kernels::MakeDynamicQuantStep(quant));
  }
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr DtypeSet kQuantDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8};

}  // namespace

CANOPY_ACLNN_OP(MoeInitRouting, PlanMoeInitRouting,
                (OpTraits{.header = "aclnnop/aclnn_moe_init_routing.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 2,
                          .example = "f32[3,4] i32[3,2]{0:5} i32[3,2]{0:2} 3 f32[6,4] i32[6] i32[6]"}),
                (const aclTensor*, x), (const aclTensor*, rowIdx), (const aclTensor*, expertIdx), (int64_t, activeNum),
                (const aclTensor*, expandedXOut), (const aclTensor*, expandedRowIdxOut),
                (const aclTensor*, expandedExpertIdxOut))

CANOPY_ACLNN_OP(MoeInitRoutingQuant, PlanMoeInitRoutingQuant,
                (OpTraits{.header = "aclnnop/aclnn_moe_init_routing_quant.h",
                          .dtypes = kQuantDtypes,
                          .example = "f32[3,4] i32[3,2]{0:5} i32[3,2]{0:2} 3 1 1 i8[6,4] i32[6] i32[6]"}),
                (const aclTensor*, x), (const aclTensor*, rowIdx), (const aclTensor*, expertIdx), (int64_t, activeNum),
                (double, scale), (double, offset), (const aclTensor*, expandedXOut),
                (const aclTensor*, expandedRowIdxOut), (const aclTensor*, expandedExpertIdxOut))

CANOPY_ACLNN_OP(MoeInitRoutingV2, PlanMoeInitRoutingV2,
                (OpTraits{.header = "aclnnop/aclnn_moe_init_routing_v2.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 3,
                          .example = "f32[3,4] i32[3,2]{0:2} 0 0 3 0 0 false f32[6,4] i32[6] i32[3] i32[3]"}),
                (const aclTensor*, x), (const aclTensor*, expertIdx), (int64_t, activeNum), (int64_t, expertCapacity),
                (int64_t, expertNum), (int64_t, dropPadMode), (int64_t, expertTokensCountOrCumsumFlag),
                (bool, expertTokensBeforeCapacityFlag), (const aclTensor*, expandedXOut),
                (const aclTensor*, expandedRowIdxOut), (const aclTensor*, expertTokensCountOrCumsumOut, optional),
                (const aclTensor*, expertTokensBeforeCapacityOut, optional))

CANOPY_ACLNN_OP(MoeInitRoutingQuantV2, PlanMoeInitRoutingQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_moe_init_routing_quant_v2.h",
                          .dtypes = kQuantDtypes,
                          .max_rank = 3,
                          // !CODE (registry_example.h): quantMode 1 needs the dynamic scale output
                          .example = "f32[3,4] i32[3,2]{0:2} - - 0 0 3 0 0 false 1 i8[6,4] i32[6] - - "
                                     "f32[6]!561002"}),
                (const aclTensor*, x), (const aclTensor*, expertIdx), (const aclTensor*, scaleOptional, optional),
                (const aclTensor*, offsetOptional, optional), (int64_t, activeNum), (int64_t, expertCapacity),
                (int64_t, expertNum), (int64_t, dropPadMode), (int64_t, expertTokensCountOrCumsumFlag),
                (bool, expertTokensBeforeCapacityFlag), (int64_t, quantMode), (const aclTensor*, expandedXOut),
                (const aclTensor*, expandedRowIdxOut),
                (const aclTensor*, expertTokensCountOrCumsumOutOptional, optional),
                (const aclTensor*, expertTokensBeforeCapacityOutOptional, optional),
                (const aclTensor*, dynamicQuantScaleOutOptional, optional))

CANOPY_ACLNN_OP(MoeInitRoutingV3, PlanMoeInitRoutingV3,
                (OpTraits{.header = "aclnnop/aclnn_moe_init_routing_v3.h",
                          .dtypes = kV3Dtypes,
                          .example = "f32[3,4] i32[3,2]{0:3} - - -1 0 4 0 1 true -1 ints[0,4] 0 f32[6,4] i32[6] "
                                     "i64[4] f32[6]"}),
                (const aclTensor*, x), (const aclTensor*, expertIdx), (const aclTensor*, scaleOptional, optional),
                (const aclTensor*, offsetOptional, optional), (int64_t, activeNum), (int64_t, expertCapacity),
                (int64_t, expertNum), (int64_t, dropPadMode), (int64_t, expertTokensNumType),
                (bool, expertTokensNumFlag), (int64_t, quantMode),
                (const aclIntArray*, activeExpertRangeOptional, optional), (int64_t, rowIdxType),
                (const aclTensor*, expandedXOut), (const aclTensor*, expandedRowIdxOut),
                (const aclTensor*, expertTokensCountOrCumsumOut), (const aclTensor*, expandedScaleOut))
