// aclnnClippedSwiglu (gpt-oss's clamped SwiGLU): x's rows (gate_rows.h) split
// into a and b, the even and odd elements (interleaved) or the two halves;
// out = A * sigmoid(alpha * A) * (B + bias) with A = min(a, limit) and B =
// clamp(b, -limit, limit). With groupIndexOptional (INT64 counts per expert)
// only the first sum(groupIndex) rows are computed, as CANN's kernel does;
// out's other rows keep what they held. Computed in FLOAT.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "aclnnop/aclnn_clipped_swiglu.h"
#include "gate_rows.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kClippedSwigluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxGroups = 8192;  // CANN's documented bound on groupIndex's length

struct ClippedSwigluParams {
  float alpha, limit, bias;
  bool interleaved;
};

class ClippedSwigluStep final : public Step {
 public:
  ClippedSwigluStep(const TensorRef& in, std::optional<TensorRef> groups, const TensorRef& out,
                    ClippedSwigluParams params)
      : in_(in), groups_(std::move(groups)), out_(out), p_(params) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* in = reinterpret_cast<const float*>(context.Resolve(in_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    const int64_t half = out_.shape[1];
    int64_t rows = in_.shape[0];
    if (groups_) {
      const auto* counts = reinterpret_cast<const int64_t*>(context.Resolve(groups_->buffer));
      int64_t total = 0;
      for (int64_t i = 0; i < groups_->NumElements(); ++i) total += std::max<int64_t>(counts[i], 0);
      rows = std::min(rows, total);
    }
    for (int64_t r = 0; r < rows; ++r) {
      const float* row = in + r * 2 * half;
      for (int64_t i = 0; i < half; ++i) {
        const float a = p_.interleaved ? row[2 * i] : row[i];
        const float b = p_.interleaved ? row[2 * i + 1] : row[half + i];
        const float gate = std::min(a, p_.limit);
        const float linear = std::clamp(b, -p_.limit, p_.limit);
        out[r * half + i] = gate / (1.0F + std::exp(-p_.alpha * gate)) * (linear + p_.bias);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "clipped swiglu " + ShapeToString(in_.shape) + (p_.interleaved ? " interleaved" : "");
  }

 private:
  TensorRef in_;
  std::optional<TensorRef> groups_;
  TensorRef out_;
  ClippedSwigluParams p_;
};

aclnnStatus PlanClippedSwiglu(Plan& plan, const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim,
                              double alpha, double limit, double bias, bool interleaved, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kClippedSwigluDtypes));
  if (groupIndexOptional != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("groupIndexOptional", groupIndexOptional->dtype, {ACL_INT64}));
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kClippedSwigluDtypes));
  CANOPY_CHECK(plan.CheckRank("x", x, 1, 8));
  GateRows g;
  CANOPY_CHECK(CheckGateRows(plan, x, dim, out, g));
  if (groupIndexOptional != nullptr &&
      (groupIndexOptional->rank() != 1 || groupIndexOptional->view_shape[0] > kMaxGroups)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "'groupIndexOptional' has shape %s; it must be 1-D of at most %lld",
                       ShapeToString(groupIndexOptional->view_shape).c_str(), static_cast<long long>(kMaxGroups));
  }
  if (!(limit > 0)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'limit' (%g) must be positive", limit);
  }
  const TensorRef src = plan.Input(x, "x");
  std::optional<TensorRef> groups;
  if (groupIndexOptional != nullptr) {
    groups = Flat(plan, plan.Input(groupIndexOptional, "groupIndexOptional"));
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef in = *Reshape(plan.Contiguous(src, ACL_FLOAT), {g.rows, g.cut});
  const TensorRef result = plan.Temporary(ACL_FLOAT, {g.rows, g.cut / 2});
  std::vector<TensorRef> reads = {in};
  if (groups) {
    groups = plan.Contiguous(*groups, ACL_INT64);
    reads.push_back(*groups);
    plan.Copy(dst, *Reshape(result, dst.shape));  // the rows not computed keep out's values
  }
  const ClippedSwigluParams params{static_cast<float>(alpha), static_cast<float>(limit), static_cast<float>(bias),
                                   interleaved};
  plan.AddStep(std::make_unique<ClippedSwigluStep>(in, groups, result, params), reads, result);
  plan.Copy(*Reshape(result, dst.shape), dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ClippedSwiglu, PlanClippedSwiglu,
                (OpTraits{.header = "aclnnop/aclnn_clipped_swiglu.h",
                          .dtypes = kClippedSwigluDtypes | DtypeSet{ACL_INT64},
                          .example = "f32[2,32] i64[1]{1:1} -1 1.0 7.0 1.702 true f32[2,16]"}),
                (const aclTensor*, x), (const aclTensor*, groupIndexOptional, optional), (int64_t, dim),
                (double, alpha), (double, limit), (double, bias), (bool, interleaved), (const aclTensor*, out))
