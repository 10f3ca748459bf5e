// aclnnSituGlu: x's rows (gate_rows.h) split in halves, gate the first (the
// second with activateLeft false) and up the other; out = beta * tanh(gate /
// beta) * sigmoid(gate) * up', where up' = linearBeta * tanh(up / linearBeta)
// when linearBeta is positive, else up. Computed in FLOAT.
#include <cmath>
#include <memory>
#include <string>

#include "aclnnop/aclnn_situ_glu.h"
#include "gate_rows.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSituGluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

class SituGluStep final : public Step {
 public:
  SituGluStep(const TensorRef& in, const TensorRef& out, float beta, float linear_beta, bool activate_left)
      : in_(in), out_(out), beta_(beta), linear_beta_(linear_beta), activate_left_(activate_left) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* in = reinterpret_cast<const float*>(context.Resolve(in_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    const int64_t half = out_.shape[1];
    for (int64_t r = 0; r < in_.shape[0]; ++r) {
      const float* row = in + r * 2 * half;
      const float* gate = activate_left_ ? row : row + half;
      const float* up = activate_left_ ? row + half : row;
      for (int64_t i = 0; i < half; ++i) {
        const float g = gate[i];
        const float situ = beta_ * std::tanh(g / beta_) / (1.0F + std::exp(-g));
        const float u = linear_beta_ > 0.0F ? linear_beta_ * std::tanh(up[i] / linear_beta_) : up[i];
        out[r * half + i] = situ * u;
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "situ glu " + ShapeToString(in_.shape); }

 private:
  TensorRef in_, out_;
  float beta_, linear_beta_;
  bool activate_left_;
};

aclnnStatus PlanSituGlu(Plan& plan, const aclTensor* x, int64_t dim, double beta, double linearBeta, bool activateLeft,
                        const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kSituGluDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kSituGluDtypes));
  CANOPY_CHECK(plan.CheckRank("x", x, 1, 8));
  GateRows g;
  CANOPY_CHECK(CheckGateRows(plan, x, dim, out, g));
  const TensorRef src = plan.Input(x, "x");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef in = *Reshape(plan.Contiguous(src, ACL_FLOAT), {g.rows, g.cut});
  const TensorRef result = plan.Temporary(ACL_FLOAT, {g.rows, g.cut / 2});
  plan.AddStep(
      std::make_unique<SituGluStep>(in, result, static_cast<float>(beta), static_cast<float>(linearBeta), activateLeft),
      {in}, result);
  plan.Copy(*Reshape(result, dst.shape), dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SituGlu, PlanSituGlu,
                (OpTraits{.header = "aclnnop/aclnn_situ_glu.h",
                          .dtypes = kSituGluDtypes,
                          .example = "f32[2,32] -1 1.0 0.0 true f32[2,16]"}),
                (const aclTensor*, x), (int64_t, dim), (double, beta), (double, linearBeta), (bool, activateLeft),
                (const aclTensor*, out))
