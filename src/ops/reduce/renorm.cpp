// aclnnRenorm, aclnnInplaceRenorm (torch.renorm): each slice of self along dim
// whose p-norm over the other dims exceeds maxNorm is scaled by maxNorm /
// (norm + 1e-7); the others are kept. The norms accumulate in FLOAT (p 0
// counts non-zeros, inf takes the largest magnitude). self and out are FLOAT,
// FLOAT16 or BF16 of one dtype and shape, rank 2 to 8.
#include "aclnnop/aclnn_renorm.h"
#include "ops/math/binary_pointwise.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRenormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

double AsDouble(const aclScalar& s) {
  const ScalarValue v = ValueOf(s);
  return static_cast<float>(v.As<double>());
}

aclnnStatus PlanRenormInto(Plan& plan, const aclTensor* self, const aclScalar* p, int64_t dim, const aclScalar* maxNorm,
                           const aclTensor* out) {
  const bool in_place = out == self;
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kRenormDtypes));
  if (!in_place) {
    CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kRenormDtypes));
    if (out->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have self's dtype %s",
                         DtypeName(out->dtype), DtypeName(self->dtype));
    }
  }
  if (self->rank() < 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has rank %lld; renorm needs 2 to 8 dims", self_name,
                       static_cast<long long>(self->rank()));
  }
  if (!in_place) CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const double order = AsDouble(*p);
  if (order < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'p' is %g; it may not be negative", order);
  int64_t d = 0;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), d));
  const double max_norm = AsDouble(*maxNorm);
  if (max_norm < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'maxNorm' is %g; it may not be negative", max_norm);
  const TensorRef in = plan.Input(self, self_name);
  const TensorRef dst = plan.Output(out, in_place ? self_name : "out");
  if (self->NumElements() == 0) return ACLNN_SUCCESS;
  // One norm per slice (a [1, .., size(dim), .., 1] tensor), its factor, then self times it.
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), true);
  reduced[static_cast<size_t>(d)] = false;
  Shape slices(static_cast<size_t>(self->rank()), 1);
  slices[static_cast<size_t>(d)] = self->view_shape[static_cast<size_t>(d)];
  const TensorRef norms = plan.Temporary(ACL_FLOAT, slices);
  PlanReduceInto(plan, kernels::ReduceKind::kNorm, in, reduced, true, ACL_FLOAT, norms, order);
  const TensorRef factors = plan.Temporary(ACL_FLOAT, slices);
  AddPointwise(plan, PointwiseOp::kRenormFactor, ACL_FLOAT, ACL_FLOAT,
               {PointwiseOperand::Tensor(norms), PointwiseOperand::Scalar(ScalarValue::Real(max_norm))}, factors);
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {in, BroadcastTo(factors, in.shape)}, dst,
                   ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRenorm(Plan& plan, const aclTensor* self, const aclScalar* p, int64_t dim, const aclScalar* maxNorm,
                       const aclTensor* out) {
  return PlanRenormInto(plan, self, p, dim, maxNorm, out);
}
aclnnStatus PlanInplaceRenorm(Plan& plan, const aclTensor* selfRef, const aclScalar* p, int64_t dim,
                              const aclScalar* maxNorm) {
  return PlanRenormInto(plan, selfRef, p, dim, maxNorm, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_renorm.h", .dtypes = kRenormDtypes};

}  // namespace

CANOPY_ACLNN_OP(Renorm, PlanRenorm, WithExample(kTraits, "f32[3,4] f32:2 0 f32:1.5 f32[3,4]"), (const aclTensor*, self),
                (const aclScalar*, p), (int64_t, dim), (const aclScalar*, maxNorm), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceRenorm, PlanInplaceRenorm, InPlace(kTraits, "f32[3,4] f32:2 0 f32:1.5"), (aclTensor*, selfRef),
                (const aclScalar*, p), (int64_t, dim), (const aclScalar*, maxNorm))
