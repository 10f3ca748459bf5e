// aclnnRReluWithNoise and its in-place form (torch.rrelu_with_noise). In
// evaluation it is a leaky ReLU of slope (lower + upper) / 2 and noise is not
// touched. In training each element draws r ~ U(lower, upper) from the
// (seed, offset) stream; where self < 0 (strictly: 0 keeps slope 1) noise
// takes r, elsewhere 1, and out = self * noise. noise may hold more elements
// than self: as CANN's kernel, the first numel(self) of it (row-major) are
// written and the rest kept.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/math/binary_pointwise.h"
#include "ops/random/random_args.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRReluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kBoundDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

// noise = self < 0 ? r : 1 and out = self * noise, all dense FLOAT of one element count.
class RReluStep final : public Step {
 public:
  RReluStep(const TensorRef& self, const TensorRef& draws, const TensorRef& noise, const TensorRef& out)
      : self_(self), draws_(draws), noise_(noise), out_(out) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* self = reinterpret_cast<const float*>(context.Resolve(self_.buffer));
    const auto* draws = reinterpret_cast<const float*>(context.Resolve(draws_.buffer));
    auto* noise = reinterpret_cast<float*>(context.Resolve(noise_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    for (int64_t i = 0; i < self_.NumElements(); ++i) {
      noise[i] = self[i] < 0.0F ? draws[i] : 1.0F;
      out[i] = self[i] * noise[i];
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "rrelu with noise " + ShapeToString(self_.shape); }

 private:
  TensorRef self_, draws_, noise_, out_;
};

aclnnStatus PlanRRelu(Plan& plan, const aclTensor* self, const aclTensor* noise, const aclScalar* lower,
                      const aclScalar* upper, bool training, int64_t seed, int64_t offset, const aclTensor* out,
                      bool in_place) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRReluDtypes));
  CANOPY_CHECK(plan.CheckDtype("noise", noise->dtype, kRReluDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "lower", lower, kBoundDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "upper", upper, kBoundDtypes));
  if (!in_place) CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kRReluDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(CheckSameDtype(plan, "noise", noise, "out", out));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  if (training && self->NumElements() > noise->NumElements()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "'noise' holds %lld elements; training needs one per element of "
                       "'self' (%lld)",
                       static_cast<long long>(noise->NumElements()), static_cast<long long>(self->NumElements()));
  }
  // Inputs, then what is written: noise (in training) and out (self in place).
  const TensorRef src = plan.Input(self, "self");
  const TensorRef slopes = plan.Input(noise, "noise");
  if (src.NumElements() == 0 || slopes.NumElements() == 0) {
    plan.Output(out, in_place ? "self" : "out");
    return ACLNN_SUCCESS;
  }
  const double low = ValueOf(*lower).real, high = ValueOf(*upper).real;
  if (!training) {
    plan.Unary(UnaryOp::kLeakyRelu, ComputeType::kF32, src, plan.Output(out, in_place ? "self" : "out"),
               UnaryParams{.a = (low + high) / 2});
    return ACLNN_SUCCESS;
  }
  const int64_t count = src.NumElements();
  const TensorRef values = plan.Contiguous(src, ACL_FLOAT);
  const TensorRef draws = plan.Temporary(ACL_FLOAT, {count});
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kUniform;
  desc.a = low;
  desc.b = high;
  desc.seed = HostSeed(seed, offset);
  AddRandomFill(plan, desc, draws, {});
  const TensorRef new_noise = plan.Temporary(ACL_FLOAT, src.shape);
  const TensorRef result = plan.Temporary(ACL_FLOAT, src.shape);
  plan.AddStep(std::make_unique<RReluStep>(values, draws, new_noise, result), {values, draws}, new_noise);
  // The first numel(self) elements of noise, row-major, in self's shape (staged when noise's strides do not flatten).
  const TensorRef noise_out = plan.Output(noise, "noise");
  if (std::optional<TensorRef> flat = Reshape(noise_out, {noise_out.NumElements()})) {
    plan.Copy(new_noise, *Reshape(Narrow(*flat, 0, 0, count), src.shape));
  } else {
    const TensorRef staged = plan.Contiguous(noise_out, noise_out.dtype);
    plan.Copy(new_noise, *Reshape(Narrow(*Reshape(staged, {staged.NumElements()}), 0, 0, count), src.shape));
    plan.Copy(staged, noise_out);
  }
  plan.Copy(result, plan.Output(out, in_place ? "self" : "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRReluWithNoise(Plan& plan, const aclTensor* self, const aclTensor* noise, const aclScalar* lower,
                               const aclScalar* upper, bool training, int64_t seed, int64_t offset,
                               const aclTensor* out) {
  return PlanRRelu(plan, self, noise, lower, upper, training, seed, offset, out, false);
}

aclnnStatus PlanInplaceRReluWithNoise(Plan& plan, const aclTensor* self, const aclTensor* noise, const aclScalar* lower,
                                      const aclScalar* upper, bool training, int64_t seed, int64_t offset) {
  return PlanRRelu(plan, self, noise, lower, upper, training, seed, offset, self, true);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_rrelu_with_noise.h", .dtypes = kRReluDtypes};

}  // namespace

CANOPY_ACLNN_OP(RReluWithNoise, PlanRReluWithNoise,
                WithExample(kTraits, "f32[2,2] f32[2,2] f32:0.1 f32:0.3 true 0 0 f32[2,2]"), (const aclTensor*, self),
                (const aclTensor*, noise), (const aclScalar*, lower), (const aclScalar*, upper), (bool, training),
                (int64_t, seed), (int64_t, offset), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRReluWithNoise, PlanInplaceRReluWithNoise,
                InPlace(kTraits, "f32[2,2] f32[2,2] f32:0.1 f32:0.3 true 0 0"), (const aclTensor*, self),
                (const aclTensor*, noise), (const aclScalar*, lower), (const aclScalar*, upper), (bool, training),
                (int64_t, seed), (int64_t, offset))
