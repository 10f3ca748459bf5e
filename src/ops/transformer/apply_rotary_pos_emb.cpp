// aclnnApplyRotaryPosEmb and aclnnApplyRotaryPosEmbV2: the rotary position
// embedding of query [B, S, Nq, D] and key [B, S, Nk, D] in place,
// q = q * cos + rotate(q) * sin (and k alike), with cos and sin [B, S, 1, D]
// broadcast over the heads; RotaryPositionEmbedding's kernel, once for each.
// V1 rotates by halves; V2's rotaryMode picks "half", "interleave" or
// "quarter" (RotaryPositionEmbedding's modes 0, 1, 2).
// CANN's Atlas A2 tiling (561002 for each fault): every tensor rank 4 and not
// empty, cos and sin of one shape, layout 1 (BSND: the A2 kernel has no
// other), B, S and D equal across the four, D = 128, cos's N = 1, one dtype
// (f32, f16 or bf16; another is 161002). Its A2 kernel rotates by halves
// whatever rotaryMode says; Canopy follows the doc's modes, as the A3/950
// kernels do, and rejects a mode the doc does not list (161002).
#include <cstring>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "ops/framework/aclnn_op.h"
#include "rope_plan.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRopeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kTilingError = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kRank = 4;
constexpr int64_t kHeadDim = 128;  // the A2 kernel's only D
constexpr int64_t kLayoutBsnd = 1;

aclnnStatus CheckShapes(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* cos,
                        const aclTensor* sin, int64_t layout) {
  for (const auto& [name, t] :
       {std::pair{"queryRef", query}, std::pair{"keyRef", key}, std::pair{"cos", cos}, std::pair{"sin", sin}}) {
    if (t->rank() != kRank) {
      return plan.Reject(kTilingError, "argument '%s' has rank %lld; it must be 4", name,
                         static_cast<long long>(t->rank()));
    }
  }
  if (sin->view_shape != cos->view_shape) {
    return plan.Reject(kTilingError, "argument 'sin' has shape %s, but cos has %s: they must match",
                       ShapeToString(sin->view_shape).c_str(), ShapeToString(cos->view_shape).c_str());
  }
  for (const auto& [name, t] : {std::pair{"queryRef", query}, std::pair{"keyRef", key}, std::pair{"cos", cos}}) {
    if (t->NumElements() == 0) {
      return plan.Reject(kTilingError, "argument '%s' is empty (%s); it must not be", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }
  if (layout != kLayoutBsnd) {
    return plan.Reject(kTilingError, "argument 'layout' is %lld; only 1 (BSND) is supported on Atlas A2",
                       static_cast<long long>(layout));
  }
  const Shape& q = query->view_shape;
  for (const auto& [name, t] : {std::pair{"keyRef", key}, std::pair{"cos", cos}}) {
    const Shape& s = t->view_shape;
    if (s[0] != q[0] || s[1] != q[1] || s[3] != q[3]) {
      return plan.Reject(kTilingError, "argument '%s' has shape %s, but queryRef has %s: B, S and D must match", name,
                         ShapeToString(s).c_str(), ShapeToString(q).c_str());
    }
  }
  if (q[3] != kHeadDim) {
    return plan.Reject(kTilingError, "queryRef's last dim D is %lld; it must be 128", static_cast<long long>(q[3]));
  }
  if (cos->view_shape[2] != 1) {
    return plan.Reject(kTilingError, "cos has shape %s; its third dim (N) must be 1",
                       ShapeToString(cos->view_shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanApplyRope(Plan& plan, aclTensor* query, aclTensor* key, const aclTensor* cos, const aclTensor* sin,
                          int64_t layout, kernels::RopeMode mode) {
  for (const auto& [name, t] :
       {std::pair{"queryRef", static_cast<const aclTensor*>(query)},
        std::pair{"keyRef", static_cast<const aclTensor*>(key)}, std::pair{"cos", cos}, std::pair{"sin", sin}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kRopeDtypes));
  }
  CANOPY_CHECK(CheckShapes(plan, query, key, cos, sin, layout));
  for (const auto& [name, t] :
       {std::pair{"keyRef", static_cast<const aclTensor*>(key)}, std::pair{"cos", cos}, std::pair{"sin", sin}}) {
    if (t->dtype != query->dtype) {
      return plan.Reject(kTilingError, "argument '%s' is %s, but queryRef is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(query->dtype));
    }
  }
  const TensorRef q_in = plan.Input(query, "queryRef");
  const TensorRef k_in = plan.Input(key, "keyRef");
  const TensorRef c = plan.Input(cos, "cos");
  const TensorRef s = plan.Input(sin, "sin");
  const TensorRef q_out = plan.Output(query, "queryRef");
  const TensorRef k_out = plan.Output(key, "keyRef");
  for (const auto& [in, out] : {std::pair{q_in, q_out}, std::pair{k_in, k_out}}) {
    PlanRopeStep(plan, mode, in, c, s, out);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanApplyRotaryPosEmb(Plan& plan, aclTensor* query, aclTensor* key, const aclTensor* cos,
                                  const aclTensor* sin, int64_t layout) {
  return PlanApplyRope(plan, query, key, cos, sin, layout, kernels::RopeMode::kHalf);
}

aclnnStatus PlanApplyRotaryPosEmbV2(Plan& plan, aclTensor* query, aclTensor* key, const aclTensor* cos,
                                    const aclTensor* sin, int64_t layout, char* rotary_mode) {
  struct NamedMode {
    const char* name;
    kernels::RopeMode mode;
  };
  constexpr NamedMode kModes[] = {{"half", kernels::RopeMode::kHalf},
                                  {"interleave", kernels::RopeMode::kInterleave},
                                  {"quarter", kernels::RopeMode::kQuarter}};
  for (const NamedMode& m : kModes) {
    if (std::strcmp(rotary_mode, m.name) == 0) return PlanApplyRope(plan, query, key, cos, sin, layout, m.mode);
  }
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument 'rotaryMode' is '%s'; it must be 'half', 'interleave' or "
                     "'quarter'",
                     rotary_mode);
}

// Not declared in place (OpTraits::in_place): the registry's rule names an in-place op's first argument selfRef,
// inputRef, x1Ref, varRef or data, and CANN names this one queryRef; it writes keyRef too.
constexpr OpTraits kApplyRopeTraits{.header = "aclnnop/aclnn_apply_rotary_pos_emb.h", .dtypes = kRopeDtypes};

}  // namespace

CANOPY_ACLNN_OP(ApplyRotaryPosEmb, PlanApplyRotaryPosEmb,
                InPlace(kApplyRopeTraits, "f32[1,2,2,128] f32[1,2,1,128] f32[1,2,1,128] f32[1,2,1,128] 1"),
                (aclTensor*, queryRef), (aclTensor*, keyRef), (const aclTensor*, cos), (const aclTensor*, sin),
                (int64_t, layout))

CANOPY_ACLNN_OP(ApplyRotaryPosEmbV2, PlanApplyRotaryPosEmbV2,
                InPlace(OpTraits{.header = "aclnnop/aclnn_apply_rotary_pos_emb_v2.h", .dtypes = kRopeDtypes},
                        "f32[1,2,2,128] f32[1,2,1,128] f32[1,2,1,128] f32[1,2,1,128] 1 'half'"),
                (aclTensor*, queryRef), (aclTensor*, keyRef), (const aclTensor*, cos), (const aclTensor*, sin),
                (int64_t, layout), (char*, rotaryMode))
