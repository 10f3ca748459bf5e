// aclnnProd / aclnnProdDim: the product of self's elements (all, or along one
// dim) in `dtype`, on the reduction engine: 16-bit floats multiply in f32,
// integers and bool in int64 (wrapping), an empty product is 1.
#include "aclnnop/aclnn_prod.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kProdDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8,      ACL_UINT8,      ACL_INT16,
                                  ACL_INT32,   ACL_INT64, ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus PlanProdOver(Plan& plan, const aclTensor* self, const std::vector<bool>& reduced, bool keep_dim,
                         int raw_dtype, const aclTensor* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kProdDtypes, dtype));
  if (dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %s but 'out' has dtype %s", DtypeName(dtype),
                       DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "dtype", dtype));
  return PlanReductionInDtype(plan, kernels::ReduceKind::kProd, self, reduced, keep_dim, dtype, out);
}

aclnnStatus PlanProd(Plan& plan, const aclTensor* self, int raw_dtype, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kProdDtypes));
  return PlanProdOver(plan, self, std::vector<bool>(static_cast<size_t>(self->rank()), true), false, raw_dtype, out);
}

aclnnStatus PlanProdDim(Plan& plan, const aclTensor* self, int64_t dim, bool keep_dim, int raw_dtype,
                        const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kProdDtypes));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), false);
  if (self->rank() > 0) reduced[static_cast<size_t>(wrapped)] = true;
  return PlanProdOver(plan, self, reduced, keep_dim, raw_dtype, out);
}

constexpr OpTraits kProdTraits{.header = "aclnnop/aclnn_prod.h", .dtypes = kProdDtypes};

}  // namespace

CANOPY_ACLNN_OP(Prod, PlanProd, WithExample(kProdTraits, "f32[4,2] 0 f32[1]"), (const aclTensor*, self),
                (aclDataType, dtype), (aclTensor*, out))
CANOPY_ACLNN_OP(ProdDim, PlanProdDim, WithExample(kProdTraits, "f32[4,2] 0 true 0 f32[1,2]"), (const aclTensor*, self),
                (int64_t, dim), (bool, keepDim), (aclDataType, dtype), (aclTensor*, out))
