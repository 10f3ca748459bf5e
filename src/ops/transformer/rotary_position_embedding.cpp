// aclnnRotaryPositionEmbedding: y = x * cos + rotate(x) * sin over the last dim D
// of a rank-4 x ([B,S,N,D], [B,N,S,D] or [S,B,N,D]; the formula does not care
// which). Modes: 0 half (rotate = cat(-x2, x1) of the two halves), 1 interleave
// (pairs (x0, x1) -> (-x1, x0)), 2 quarter (cat(-x2, x1, -x4, x3)), 3
// interleave-half (evens then odds, then half). Shape faults and an unknown
// mode are 561002, as CANN's tiling reports them.
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "ops/framework/aclnn_op.h"
#include "rope_plan.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRopeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kRopeRank = 4;
constexpr int64_t kMaxHeadDim = 896;  // Atlas A2 / A3: D < 896
constexpr int64_t kLastMode = 3;

bool IsOne(int64_t extent) { return extent == 1; }

// cos / sin [c0, c1, c2, D] against x [x0, x1, x2, D]: each of the first three
// dims 1 or x's extent. CANN's list (111D, BSND, B1ND, BS1D, 11ND, 1S1D, B11D)
// is exactly these combinations.
bool CosPatternAllowed(const Shape& c, const Shape& x, bool interleave) {
  int matched = 0;
  for (size_t d = 0; d < 3; ++d) {
    if (c[d] == x[d] && !IsOne(c[d])) {
      ++matched;
    } else if (!IsOne(c[d])) {
      return false;
    }
  }
  // Interleave mode takes cos varying along one dim only (11SD, 1S1D, S11D).
  return !interleave || matched <= 1;
}

aclnnStatus PlanRope(Plan& plan, const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kRopeDtypes));
  for (const auto& [name, t] : {std::pair{"cos", cos}, std::pair{"sin", sin}, std::pair{"out", out}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kRopeDtypes));
    if (t->dtype != x->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but x is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(x->dtype));
    }
  }
  if (mode < 0 || mode > kLastMode) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'mode' is %lld; it must be 0, 1, 2 or 3",
                       static_cast<long long>(mode));
  }
  for (const auto& [name, t] :
       {std::pair{"x", x}, std::pair{"cos", cos}, std::pair{"sin", sin}, std::pair{"out", out}}) {
    if (t->rank() != kRopeRank) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument '%s' has rank %lld; it must be 4", name,
                         static_cast<long long>(t->rank()));
    }
  }
  const Shape& xs = x->view_shape;
  if (out->view_shape != xs) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'out' has shape %s, but x has %s: they must match",
                       ShapeToString(out->view_shape).c_str(), ShapeToString(xs).c_str());
  }
  const TensorRef in = plan.Input(x, "x");
  const TensorRef c = plan.Input(cos, "cos");
  const TensorRef s = plan.Input(sin, "sin");
  const TensorRef y = plan.Output(out, "out");
  if (x->NumElements() == 0) return ACLNN_SUCCESS;  // no shape constraints on an empty x
  if (sin->view_shape != cos->view_shape) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'sin' has shape %s, but cos has %s: they must match",
                       ShapeToString(sin->view_shape).c_str(), ShapeToString(cos->view_shape).c_str());
  }
  const int64_t d = xs[3];
  const int64_t multiple = mode == 2 ? 4 : 2;
  if (cos->view_shape[3] != d || d % multiple != 0 || d >= kMaxHeadDim) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "x's last dim D is %lld and cos's %lld: they must match, D must be a multiple of %lld and "
                       "below %lld",
                       static_cast<long long>(d), static_cast<long long>(cos->view_shape[3]),
                       static_cast<long long>(multiple), static_cast<long long>(kMaxHeadDim));
  }
  if (!CosPatternAllowed(cos->view_shape, xs, mode == 1)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "cos and sin have shape %s for x %s: each of their first three dims must be 1 or x's "
                       "(in interleave mode, at most one of them x's)",
                       ShapeToString(cos->view_shape).c_str(), ShapeToString(xs).c_str());
  }
  PlanRopeStep(plan, static_cast<kernels::RopeMode>(mode), in, c, s, y);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(RotaryPositionEmbedding, PlanRope,
                (OpTraits{.header = "aclnnop/aclnn_rotary_position_embedding.h",
                          .dtypes = kRopeDtypes,
                          .example = "f32[1,2,1,2] f32[1,2,1,2] f32[1,2,1,2] 0 f32[1,2,1,2]"}),
                (const aclTensor*, x), (const aclTensor*, cos), (const aclTensor*, sin), (int64_t, mode),
                (aclTensor*, out))
