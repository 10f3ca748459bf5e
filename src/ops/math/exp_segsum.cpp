// aclnnExpSegsum (Mamba2's segsum, exponentiated): self [..., T] gives out
// [..., T, T] with out[i, j] = exp(self[j + 1] + ... + self[i]) for i >= j (1
// on the diagonal) and 0 above it, each sum run from j + 1 upwards as CANN's
// masked cumsum adds it, in double. CANN accepts an empty self before any
// other check.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "aclnnop/aclnn_segsum.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSegsumDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kRowGrain = 16;

class ExpSegsumStep final : public Step {
 public:
  ExpSegsumStep(const TensorRef& in, const TensorRef& out, int64_t rows, int64_t length)
      : in_(in), out_(out), rows_(rows), length_(length) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* in = reinterpret_cast<const float*>(context.Resolve(in_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    const int64_t t = length_;
    kernels::ParallelFor(rows_, kRowGrain, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const float* x = in + r * t;
        float* square = out + r * t * t;
        std::fill(square, square + t * t, 0.0F);
        for (int64_t j = 0; j < t; ++j) {
          double sum = 0;
          square[j * t + j] = 1.0F;
          for (int64_t i = j + 1; i < t; ++i) {
            sum += x[i];
            square[i * t + j] = static_cast<float>(std::exp(sum));
          }
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "exp segsum " + ShapeToString(in_.shape); }

 private:
  TensorRef in_, out_;
  int64_t rows_, length_;
};

aclnnStatus PlanExpSegsum(Plan& plan, const aclTensor* self, const aclTensor* out) {
  const Shape& xs = self->view_shape;
  const bool empty = std::ranges::find(xs, 0) != xs.end();
  if (!empty) {
    CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSegsumDtypes));
    if (out->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                         DtypeName(self->dtype));
    }
    CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
    Shape want = xs;
    want.push_back(xs.back());
    CANOPY_CHECK(plan.CheckShape("out", out, want));
    if (self->format != out->format || self->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' (format %d) and 'out' (format %d) must both be ND",
                         static_cast<int>(self->format), static_cast<int>(out->format));
    }
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (empty) return ACLNN_SUCCESS;
  const int64_t length = xs.back();
  const TensorRef values = plan.Contiguous(in, ACL_FLOAT);
  const TensorRef result = plan.Temporary(ACL_FLOAT, dst.shape);
  plan.AddStep(std::make_unique<ExpSegsumStep>(values, result, in.NumElements() / length, length), {values}, result);
  plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ExpSegsum, PlanExpSegsum,
                (OpTraits{
                    .header = "aclnnop/aclnn_segsum.h", .dtypes = kSegsumDtypes, .example = "f32[2,3,4] f32[2,3,4,4]"}),
                (const aclTensor*, self), (aclTensor*, out))
