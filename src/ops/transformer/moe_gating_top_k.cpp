// aclnnMoeGatingTopK: group-limited MoE routing (DeepSeek-V3's router). For
// each token row of x [rows, experts]: norm = softmax (normType 0) or sigmoid
// (1) of the logits, written to outOut (f32) when outFlag; choice = norm +
// biasOptional; the experts split into groupCount groups scored by their
// largest choice (groupSelectMode 0) or the sum of their two largest (1);
// the kGroup best groups keep their experts and the k largest choices among
// them give expertIdxOut (int32). yOut (x's dtype) is norm at those experts,
// divided by (their sum + eps) for the sigmoid (CANN's kernels renormalise
// only then, though the doc's formula shows it for both), times
// routedScalingFactor. CANN's limits: x 2-D, at most 2048 experts,
// groupCount dividing them, k <= kGroup * experts / groupCount, renorm 0,
// and for a real grouping the groups padded to 32 experts fit in 2048. Shape
// and attribute errors are CANN's tiling faults (561002), dtypes 161002.
#include "aclnnop/aclnn_moe_gating_top_k.h"
#include "kernels/moe_gating.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGatingDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kTilingError = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kMaxExperts = 2048;
constexpr int64_t kGroupAlign = 32;  // CANN's kernel sorts each group padded to 32 experts
constexpr int64_t kSoftmax = 0;
constexpr int64_t kSigmoid = 1;
constexpr int64_t kGroupByMax = 0;
constexpr int64_t kGroupByTop2Sum = 1;

aclnnStatus CheckShapeIs(Plan& plan, const char* name, const aclTensor* t, const Shape& want) {
  return moe::CheckShapeIs(plan, kTilingError, name, t, want);
}

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x, const aclTensor* bias, const aclTensor* y_out,
                        const aclTensor* expert_idx_out, const aclTensor* out_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kGatingDtypes));
  for (const auto& [name, t] : {std::pair{"biasOptional", bias}, std::pair{"yOut", y_out}}) {
    if (t != nullptr && t->dtype != x->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but x is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(x->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("expertIdxOut", expert_idx_out->dtype, DtypeSet{ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("outOut", out_out->dtype, DtypeSet{ACL_FLOAT}));
  return ACLNN_SUCCESS;
}

struct GroupAttributes {
  int64_t k, group_k, groups, select_mode, renorm, norm_type;
};

aclnnStatus CheckAttributes(Plan& plan, const GroupAttributes& a, int64_t experts) {
  if (experts > kMaxExperts) {
    return plan.Reject(kTilingError, "x has %lld experts (its last extent); at most %lld",
                       static_cast<long long>(experts), static_cast<long long>(kMaxExperts));
  }
  if (a.k <= 0 || a.k > experts) {
    return plan.Reject(kTilingError, "argument 'k' is %lld; it must be in [1, %lld] (the experts)",
                       static_cast<long long>(a.k), static_cast<long long>(experts));
  }
  if (a.groups <= 0 || a.group_k <= 0 || a.group_k > a.groups) {
    return plan.Reject(kTilingError,
                       "arguments 'kGroup' (%lld) and 'groupCount' (%lld) must satisfy 1 <= kGroup <= "
                       "groupCount",
                       static_cast<long long>(a.group_k), static_cast<long long>(a.groups));
  }
  if (a.norm_type != kSoftmax && a.norm_type != kSigmoid) {
    return plan.Reject(kTilingError, "argument 'normType' is %lld; it must be 0 (softmax) or 1 (sigmoid)",
                       static_cast<long long>(a.norm_type));
  }
  if (a.select_mode != kGroupByMax && a.select_mode != kGroupByTop2Sum) {
    return plan.Reject(kTilingError, "argument 'groupSelectMode' is %lld; it must be 0 (max) or 1 (sum of top 2)",
                       static_cast<long long>(a.select_mode));
  }
  if (a.renorm != 0) {
    return plan.Reject(kTilingError, "argument 'renorm' is %lld; only 0 is supported",
                       static_cast<long long>(a.renorm));
  }
  if (experts % a.groups != 0) {
    return plan.Reject(kTilingError, "argument 'groupCount' is %lld; it must divide the %lld experts",
                       static_cast<long long>(a.groups), static_cast<long long>(experts));
  }
  const int64_t per_group = experts / a.groups;
  if (a.select_mode == kGroupByTop2Sum && per_group < 2) {
    return plan.Reject(kTilingError, "groupSelectMode 1 needs at least 2 experts a group; there are %lld",
                       static_cast<long long>(per_group));
  }
  const int64_t kept_experts = a.group_k * per_group;
  if (a.k > kept_experts) {
    return plan.Reject(kTilingError, "argument 'k' is %lld; at most kGroup * experts / groupCount = %lld",
                       static_cast<long long>(a.k), static_cast<long long>(kept_experts));
  }
  const int64_t padded = a.groups * ((per_group + kGroupAlign - 1) / kGroupAlign * kGroupAlign);
  if (a.groups != 1 && a.groups != experts && a.group_k != a.groups && padded > kMaxExperts) {
    return plan.Reject(kTilingError, "groupCount * (experts / groupCount rounded up to %lld) is %lld; at most %lld",
                       static_cast<long long>(kGroupAlign), static_cast<long long>(padded),
                       static_cast<long long>(kMaxExperts));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeGatingTopK(Plan& plan, const aclTensor* x, const aclTensor* bias, int64_t k, int64_t k_group,
                              int64_t group_count, int64_t group_select_mode, int64_t renorm, int64_t norm_type,
                              bool out_flag, double routed_scaling_factor, double eps, const aclTensor* y_out,
                              const aclTensor* expert_idx_out, const aclTensor* out_out) {
  CANOPY_CHECK(CheckDtypes(plan, x, bias, y_out, expert_idx_out, out_out));
  if (x->rank() != 2) {
    return plan.Reject(kTilingError, "argument 'x' has rank %lld; it must be 2 ([rows, experts])",
                       static_cast<long long>(x->rank()));
  }
  const int64_t rows = x->view_shape[0], experts = x->view_shape[1];
  if (bias != nullptr) CANOPY_CHECK(CheckShapeIs(plan, "biasOptional", bias, {experts}));
  CANOPY_CHECK(CheckAttributes(plan, {k, k_group, group_count, group_select_mode, renorm, norm_type}, experts));
  CANOPY_CHECK(CheckShapeIs(plan, "yOut", y_out, {rows, k}));
  CANOPY_CHECK(CheckShapeIs(plan, "expertIdxOut", expert_idx_out, {rows, k}));
  const aclTensor* norm_out = out_flag ? out_out : nullptr;
  if (out_flag) {
    CANOPY_CHECK(CheckShapeIs(plan, "outOut", out_out, x->view_shape));
  }

  const TensorRef x_ref = plan.Input(x, "x");
  TensorRef bias_ref;
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "biasOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef expert_ref = plan.Output(expert_idx_out, "expertIdxOut");
  TensorRef norm_ref;
  if (norm_out != nullptr) {
    norm_ref = plan.Output(norm_out, "outOut");
  } else {
    plan.SkipOutput();  // outOut is left alone without outFlag
  }
  if (rows == 0) return ACLNN_SUCCESS;

  moe::DenseOutputs outputs;
  kernels::MoeGroupGatingDesc desc;
  desc.dtype = x->dtype;
  desc.rows = rows;
  desc.experts = experts;
  desc.k = k;
  desc.groups = group_count;
  desc.group_k = k_group;
  desc.sigmoid = norm_type == kSigmoid;
  desc.group_by_top2_sum = group_select_mode == kGroupByTop2Sum;
  desc.scale = static_cast<float>(routed_scaling_factor);  // CANN's attributes are f32
  desc.eps = static_cast<float>(eps);
  desc.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  if (bias != nullptr) {
    desc.has_bias = true;
    desc.bias = plan.Contiguous(bias_ref, bias_ref.dtype).buffer;
  }
  desc.y = outputs.Dense(plan, y_ref);
  desc.expert_index = outputs.Dense(plan, expert_ref);
  if (norm_out != nullptr) {
    desc.has_norm = true;
    desc.norm = outputs.Dense(plan, norm_ref);
  }
  plan.AddStep(kernels::MakeMoeGroupGatingStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MoeGatingTopK, PlanMoeGatingTopK,
                (OpTraits{.header = "aclnnop/aclnn_moe_gating_top_k.h",
                          .dtypes = kGatingDtypes,
                          .example = "f32[3,16] f32[16] 4 2 4 1 0 1 false 1 1e-20 f32[3,4] i32[3,4] f32[3,16]"}),
                (const aclTensor*, x), (const aclTensor*, biasOptional, optional), (int64_t, k), (int64_t, kGroup),
                (int64_t, groupCount), (int64_t, groupSelectMode), (int64_t, renorm), (int64_t, normType),
                (bool, outFlag), (double, routedScalingFactor), (double, eps), (const aclTensor*, yOut),
                (const aclTensor*, expertIdxOut), (const aclTensor*, outOut))
