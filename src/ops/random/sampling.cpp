// aclnnMultinomial (and its *Tensor form): per row of self ((C) or (N, C),
// non-negative weights, normalised by their sum), `numsamples` category
// indices into an INT64 out, with replacement or without (then distinct, the
// exponential race). Weights that are negative, not finite or all zero fail
// the run with a message. aclnnRandperm: a random permutation of 0..n-1 in
// out's dtype. Counter based (kernels/random.h).
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_randperm.h"
#include "random_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kWeightDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeSet kRandpermDtypes = {ACL_INT64, ACL_INT32,   ACL_INT16,  ACL_UINT8, ACL_INT8,
                                      ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr int64_t kMaxCategories = int64_t{1} << 24;

aclnnStatus PlanMultinomialCommon(Plan& plan, const aclTensor* self, int64_t numsamples, bool replacement,
                                  const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t seed,
                                  int64_t offset, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kWeightDtypes));
  if (seedTensor != nullptr) CANOPY_CHECK(CheckSeedTensors(plan, seedTensor, offsetTensor, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_INT64}));
  const Shape& s = self->view_shape;
  if (s.size() != 1 && s.size() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has rank %zu; it must be (C) or (N, C)", s.size());
  }
  const Shape want = s.size() == 1 ? Shape{numsamples} : Shape{s[0], numsamples};
  if (out->view_shape.size() != s.size() || out->view_shape != want) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has shape %s; it must be %s",
                       ShapeToString(out->view_shape).c_str(), ShapeToString(want).c_str());
  }
  if (numsamples <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'numsamples' is %lld; it must be above 0",
                       static_cast<long long>(numsamples));
  }
  const int64_t classes = s.back();
  if (!replacement && numsamples > classes) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%lld samples without replacement from %lld categories",
                       static_cast<long long>(numsamples), static_cast<long long>(classes));
  }
  if (classes > kMaxCategories) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has %lld categories; at most 2^24 are supported",
                       static_cast<long long>(classes));
  }
  const TensorRef w = plan.Input(self, "self");
  std::vector<TensorRef> reads = {w};
  kernels::MultinomialDesc desc;
  desc.seed = HostSeed(seed, offset);
  if (seedTensor != nullptr) desc.seed = TensorSeed(plan, seedTensor, offsetTensor, offset, reads);
  const TensorRef dst = plan.Output(out, "out");
  if (self->NumElements() == 0) return ACLNN_SUCCESS;  // CANN leaves out unwritten
  const bool batched = s.size() == 2;
  desc.rows = batched ? s[0] : 1;
  desc.classes = classes;
  desc.samples = numsamples;
  desc.replacement = replacement;
  desc.weights.buffer = w.buffer;
  desc.weights.dtype = w.dtype;
  desc.weights.strides[0] = batched ? w.strides[0] : 0;
  desc.weights.strides[1] = w.strides.back();
  desc.out.buffer = dst.buffer;
  desc.out.dtype = dst.dtype;
  desc.out.strides[0] = batched ? dst.strides[0] : 0;
  desc.out.strides[1] = dst.strides.back();
  plan.AddStep(kernels::MakeMultinomialStep(desc), reads, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMultinomial(Plan& plan, const aclTensor* self, int64_t numsamples, bool replacement, int64_t seed,
                            int64_t offset, const aclTensor* out) {
  return PlanMultinomialCommon(plan, self, numsamples, replacement, nullptr, nullptr, seed, offset, out);
}
aclnnStatus PlanMultinomialTensor(Plan& plan, const aclTensor* self, int64_t numsamples, bool replacement,
                                  const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset,
                                  const aclTensor* out) {
  return PlanMultinomialCommon(plan, self, numsamples, replacement, seedTensor, offsetTensor, 0, offset, out);
}

aclnnStatus PlanRandperm(Plan& plan, int64_t n, int64_t seed, int64_t offset, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kRandpermDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, Shape{n}));
  if (n < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'n' is %lld", static_cast<long long>(n));
  const TensorRef dst = plan.Output(out, "out");
  if (n == 0) return ACLNN_SUCCESS;
  kernels::RandpermDesc desc;
  desc.n = n;
  desc.seed = HostSeed(seed, offset);
  desc.out.buffer = dst.buffer;
  desc.out.dtype = dst.dtype;
  desc.out.strides[0] = dst.strides[0];
  plan.AddStep(kernels::MakeRandpermStep(desc), {}, dst);
  return ACLNN_SUCCESS;
}

constexpr OpTraits kMultinomialTraits{.header = "aclnnop/aclnn_multinomial.h", .dtypes = kWeightDtypes};

}  // namespace

CANOPY_ACLNN_OP(Multinomial, PlanMultinomial, WithExample(kMultinomialTraits, "f32[2,5]{0.1:1} 3 true 7 0 i64[2,3]"),
                (const aclTensor*, self), (int64_t, numsamples), (bool, replacement), (int64_t, seed),
                (int64_t, offset), (aclTensor*, out))
CANOPY_ACLNN_OP(MultinomialTensor, PlanMultinomialTensor,
                WithExample(kMultinomialTraits, "f32[2,5]{0.1:1} 3 true i64[1] i64[1] 0 i64[2,3]"),
                (const aclTensor*, self), (int64_t, numsamples), (bool, replacement), (const aclTensor*, seedTensor),
                (const aclTensor*, offsetTensor), (int64_t, offset), (aclTensor*, out))
CANOPY_ACLNN_OP(Randperm, PlanRandperm,
                (OpTraits{.header = "aclnnop/aclnn_randperm.h", .dtypes = kRandpermDtypes, .example = "6 7 0 i64[6]"}),
                (int64_t, n), (int64_t, seed), (int64_t, offset), (aclTensor*, out))
