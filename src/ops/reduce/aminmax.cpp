// aclnnAminmax / aclnnAminmaxDim / aclnnAminmaxAll: the smallest and the
// largest element of self over a dims list, one dim or every dim, as two
// passes of the reduction engine over the same input (NaN propagates, as
// Amax / Amin). An empty self computes nothing (CANN returns at once); an
// empty reduction is rejected where CANN's checks say so.
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_aminmax_all.h"
#include "aclnnop/aclnn_aminmax_dim.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAminmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_UINT8, ACL_BOOL,
                                     ACL_BF16,  ACL_INT8,    ACL_INT16, ACL_INT64, ACL_DOUBLE};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* self, const aclTensor* min_out, const aclTensor* max_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAminmaxDtypes));
  CANOPY_CHECK(plan.CheckDtype("minOut", min_out->dtype, {self->dtype}));
  CANOPY_CHECK(plan.CheckDtype("maxOut", max_out->dtype, {self->dtype}));
  return ACLNN_SUCCESS;
}

// Both outputs of self reduced over `reduced`; out shapes checked as Amax's.
aclnnStatus PlanBoth(Plan& plan, const aclTensor* self, const std::vector<bool>& reduced, bool keep_dim,
                     const aclTensor* min_out, const aclTensor* max_out) {
  const Shape expected = ReducedShape(self->view_shape, reduced, keep_dim);
  CANOPY_CHECK(CheckReducedOut(plan, "minOut", min_out, expected));
  CANOPY_CHECK(CheckReducedOut(plan, "maxOut", max_out, expected));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef min = plan.Output(min_out, "minOut");
  const TensorRef max = plan.Output(max_out, "maxOut");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  PlanReduceInto(plan, kernels::ReduceKind::kMin, in, reduced, keep_dim, self->dtype, min);
  PlanReduceInto(plan, kernels::ReduceKind::kMax, in, reduced, keep_dim, self->dtype, max);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAminmax(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim,
                        const aclTensor* min_out, const aclTensor* max_out) {
  CANOPY_CHECK(CheckDtypes(plan, self, min_out, max_out));
  // CANN's checks: a list of one dim must name a dim of non-zero extent; any other list needs a non-empty self.
  if (dim->values.size() != 1 && self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "'self' is empty: with %zu dims in 'dim' there is no minimum or maximum of nothing",
                       dim->values.size());
  }
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  if (dim->values.size() == 1 && self->rank() > 0) {
    const int64_t d = dim->values[0] < 0 ? dim->values[0] + self->rank() : dim->values[0];
    if (self->view_shape[static_cast<size_t>(d)] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "dim %lld of 'self' has extent 0: there is no minimum or maximum of nothing",
                         static_cast<long long>(d));
    }
  }
  return PlanBoth(plan, self, reduced, keep_dim, min_out, max_out);
}

aclnnStatus PlanAminmaxDim(Plan& plan, const aclTensor* self, int64_t dim, bool keep_dim, const aclTensor* min_out,
                           const aclTensor* max_out) {
  CANOPY_CHECK(CheckDtypes(plan, self, min_out, max_out));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), false);
  if (self->rank() > 0) {
    reduced[static_cast<size_t>(wrapped)] = true;
    if (self->view_shape[static_cast<size_t>(wrapped)] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "dim %lld of 'self' has extent 0: there is no minimum or maximum of nothing",
                         static_cast<long long>(wrapped));
    }
  }
  return PlanBoth(plan, self, reduced, keep_dim, min_out, max_out);
}

// Every dim into one-element outputs; an empty self computes nothing, as CANN.
aclnnStatus PlanAminmaxAll(Plan& plan, const aclTensor* self, const aclTensor* min_out, const aclTensor* max_out) {
  CANOPY_CHECK(CheckDtypes(plan, self, min_out, max_out));
  const std::vector<bool> every(static_cast<size_t>(self->rank()), true);
  if (self->NumElements() == 0) {
    plan.Input(self, "self");
    plan.Output(min_out, "minOut");
    plan.Output(max_out, "maxOut");
    return ACLNN_SUCCESS;
  }
  return PlanBoth(plan, self, every, false, min_out, max_out);
}

constexpr OpTraits kAminmaxTraits{.header = "aclnnop/aclnn_aminmax.h", .dtypes = kAminmaxDtypes};

}  // namespace

CANOPY_ACLNN_OP(Aminmax, PlanAminmax, WithExample(kAminmaxTraits, "f32[3,4] ints[1] false f32[3] f32[3]"),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclTensor*, minOut),
                (aclTensor*, maxOut))
CANOPY_ACLNN_OP(AminmaxDim, PlanAminmaxDim,
                (OpTraits{.header = "aclnnop/aclnn_aminmax_dim.h",
                          .dtypes = kAminmaxDtypes,
                          .example = "f32[3,4] 0 true f32[1,4] f32[1,4]"}),
                (const aclTensor*, self), (int64_t, dim), (bool, keepDim), (aclTensor*, minOut), (aclTensor*, maxOut))
CANOPY_ACLNN_OP(
    AminmaxAll, PlanAminmaxAll,
    (OpTraits{.header = "aclnnop/aclnn_aminmax_all.h", .dtypes = kAminmaxDtypes, .example = "f32[3,4] f32[1] f32[1]"}),
    (const aclTensor*, self), (aclTensor*, minOut), (aclTensor*, maxOut))
