// aclnnNorm: the p-norm of self over dim, (sum |self|^p)^(1/p), on the reduction
// engine (p 0 counts non-zeros, +-inf takes the largest / smallest |self|).
// aclnnLinalgVectorNorm: the same with ord, computed for the `dtype` out has
// (CANN's A2 path takes any pair of self and out dtypes that promote, through
// FLOAT); an empty self fills out with 0.
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_norm.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanNorm(Plan& plan, const aclTensor* self, const aclScalar* p_scalar, const aclIntArray* dim, bool keepdim,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kNormDtypes));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  const double p = ValueOf(*p_scalar).real;
  if (self->NumElements() == 0) {
    // The norm of nothing is 0, whatever p (CANN fills out).
    CANOPY_CHECK(plan.CheckShape("out", out, ReducedShape(self->view_shape, reduced, keepdim)));
    plan.Input(self, "self");
    const TensorRef dst = plan.Output(out, "out");
    plan.Fill(dst, ScalarValue::Real(0));
    return ACLNN_SUCCESS;
  }
  return PlanReduction(plan, kernels::ReduceKind::kNorm, self, reduced, keepdim, out->dtype, out, p);
}

aclnnStatus PlanLinalgVectorNorm(Plan& plan, const aclTensor* self, const aclScalar* ord, const aclIntArray* dims,
                                 bool keepDims, int dtype, const aclTensor* out) {
  if (static_cast<int>(out->dtype) != dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must be the 'dtype' argument (%d)",
                       DtypeName(out->dtype), dtype);
  }
  for (const auto& [name, t] : {std::pair{"self", self}, std::pair{"out", out}}) {
    if (IsComplex(t->dtype) || !IsFloating(t->dtype)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; it must be a real float", name,
                         DtypeName(t->dtype));
    }
  }
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable("self", self->dtype, "out", out->dtype, promoted));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dims", dims, self->rank(), reduced));
  CANOPY_CHECK(plan.CheckShape("out", out, ReducedShape(self->view_shape, reduced, keepDims)));
  const ScalarValue value = ValueOf(*ord);
  const double p = value.As<double>();
  if (self->NumElements() == 0) {
    plan.Input(self, "self");
    plan.Fill(plan.Output(out, "out"), ScalarValue::Real(0));
    return ACLNN_SUCCESS;
  }
  return PlanReduction(plan, kernels::ReduceKind::kNorm, self, reduced, keepDims, out->dtype, out, p);
}

}  // namespace

CANOPY_ACLNN_OP(LinalgVectorNorm, PlanLinalgVectorNorm,
                (OpTraits{.header = "aclnnop/aclnn_linalg_vector_norm.h",
                          .dtypes = kNormDtypes,
                          .example = "f32[3,4] f32:2 ints[1] false 0 f32[3]"}),
                (const aclTensor*, self), (const aclScalar*, ord), (const aclIntArray*, dims), (bool, keepDims),
                (const aclDataType, dtype), (aclTensor*, out))

CANOPY_ACLNN_OP(Norm, PlanNorm, (OpTraits{.header = "aclnnop/aclnn_norm.h", .dtypes = kNormDtypes}),
                (const aclTensor*, self), (const aclScalar*, pScalar), (const aclIntArray*, dim), (bool, keepdim),
                (aclTensor*, out))
