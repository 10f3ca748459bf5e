// aclnnBernoulli, aclnnBernoulliTensor and their in-place forms: every element
// of out is 1 with probability prob (a scalar in [0, 1], or prob[i] of a
// tensor paired with out by flat index, its values unchecked as in CANN) and
// 0 otherwise, in out's dtype; self gives only the shape and dtype. Counter
// based (kernels/random.h): the same seed and offset give the same tensor.
#include "aclnnop/aclnn_bernoulli.h"
#include "random_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBernoulliDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8,
                                       ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kProbDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};

aclnnStatus CheckSelfAndOut(Plan& plan, const char* self_name, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kBernoulliDtypes));
  if (out == self) return ACLNN_SUCCESS;
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have self's dtype %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBernoulliScalar(Plan& plan, const aclTensor* self, const aclScalar* prob, int64_t seed, int64_t offset,
                                const aclTensor* out) {
  const bool in_place = out == self;
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kBernoulliDtypes));
  if (!kProbDtypes.Contains(prob->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar 'prob' has dtype %s; supported: %s", DtypeName(prob->dtype),
                       kProbDtypes.ToString().c_str());
  }
  CANOPY_CHECK(CheckSelfAndOut(plan, self_name, self, out));
  const double p = ValueOf(*prob).real;
  if (!(p >= 0 && p <= 1)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'prob' is %g; it must lie in [0, 1]", p);
  if (!in_place) CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  plan.Input(self, self_name);  // operands in prototype order: self is input 0 (its values are not read)
  const TensorRef dst = plan.Output(out, in_place ? self_name : "out");
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kBernoulli;
  desc.a = p;
  desc.seed = HostSeed(seed, offset);
  AddRandomFill(plan, desc, dst, {});
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBernoulliTensor(Plan& plan, const aclTensor* self, const aclTensor* prob, int64_t seed, int64_t offset,
                                const aclTensor* out) {
  const bool in_place = out == self;
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kBernoulliDtypes));
  CANOPY_CHECK(plan.CheckDtype("prob", prob->dtype, kProbDtypes));
  CANOPY_CHECK(CheckSelfAndOut(plan, self_name, self, out));
  if (!in_place) CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  plan.Input(self, self_name);
  const TensorRef p = plan.Input(prob, "prob");
  const TensorRef dst = plan.Output(out, in_place ? self_name : "out");
  if (prob->NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing
  // The probabilities in flat order: a contiguous copy where prob is a view.
  const TensorRef flat = plan.Contiguous(p, p.dtype);
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kBernoulli;
  desc.seed = HostSeed(seed, offset);
  desc.has_prob = true;
  desc.prob.buffer = flat.buffer;
  desc.prob.dtype = flat.dtype;
  desc.prob.strides[0] = 1;
  desc.prob_count = flat.NumElements();
  AddRandomFill(plan, desc, dst, {flat});
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBernoulli(Plan& plan, const aclTensor* self, const aclScalar* prob, int64_t seed, int64_t offset,
                          const aclTensor* out) {
  return PlanBernoulliScalar(plan, self, prob, seed, offset, out);
}
aclnnStatus PlanInplaceBernoulli(Plan& plan, const aclTensor* selfRef, const aclScalar* prob, int64_t seed,
                                 int64_t offset) {
  return PlanBernoulliScalar(plan, selfRef, prob, seed, offset, selfRef);
}
aclnnStatus PlanBernoulliTensorOut(Plan& plan, const aclTensor* self, const aclTensor* prob, int64_t seed,
                                   int64_t offset, const aclTensor* out) {
  return PlanBernoulliTensor(plan, self, prob, seed, offset, out);
}
aclnnStatus PlanInplaceBernoulliTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* prob, int64_t seed,
                                       int64_t offset) {
  return PlanBernoulliTensor(plan, selfRef, prob, seed, offset, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_bernoulli.h", .dtypes = kBernoulliDtypes};

}  // namespace

CANOPY_ACLNN_OP(Bernoulli, PlanBernoulli, WithExample(kTraits, "f32[2,3] f32:0.25 7 0 f32[2,3]"),
                (const aclTensor*, self), (const aclScalar*, prob), (int64_t, seed), (int64_t, offset),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBernoulli, PlanInplaceBernoulli, InPlace(kTraits, "f32[2,3] f32:0.25 7 0"),
                (const aclTensor*, selfRef), (const aclScalar*, prob), (int64_t, seed), (int64_t, offset))
CANOPY_ACLNN_OP(BernoulliTensor, PlanBernoulliTensorOut, WithExample(kTraits, "f32[2,3] f32[2,3]{0:1} 7 0 f32[2,3]"),
                (const aclTensor*, self), (const aclTensor*, prob), (int64_t, seed), (int64_t, offset),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBernoulliTensor, PlanInplaceBernoulliTensor, InPlace(kTraits, "f32[2,3] f32[2,3]{0:1} 7 0"),
                (const aclTensor*, selfRef), (const aclTensor*, prob), (int64_t, seed), (int64_t, offset))
