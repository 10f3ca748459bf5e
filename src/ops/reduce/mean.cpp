// aclnnMean: out = the mean of self over dim, computed in `dtype`, then converted to out's dtype.
// aclnnMeanV2 (ONNX ReduceMean): the same in self's dtype, which out has; an
// empty dim reduces everything, or with noopWithEmptyAxes copies self.
#include "aclnnop/aclnn_mean.h"

#include "ops/framework/tensor_view.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMeanDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE,    ACL_INT32,     ACL_INT64,
                                  ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanMean(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, int raw_dtype,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMeanDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kMeanDtypes));
  aclDataType dtype;
  CANOPY_CHECK(CheckDtypeArgument(plan, "dtype", raw_dtype, kMeanDtypes, dtype));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "dtype", dtype));
  CANOPY_CHECK(plan.CheckCastable(dtype, "out", out->dtype));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanReductionInDtype(plan, kernels::ReduceKind::kMean, self, reduced, keep_dim, dtype, out);
}

aclnnStatus PlanMeanV2(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, bool noop_with_empty,
                       const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMeanDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kMeanDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{self->dtype}));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  if (dim->values.empty() && noop_with_empty) {  // a copy of self
    CANOPY_CHECK(CheckReducedOut(plan, "out", out, self->view_shape));
    const TensorRef src = plan.Input(self, "self");
    const TensorRef dst = plan.Output(out, "out");
    if (dst.NumElements() > 0) plan.Copy(*Reshape(src, dst.shape), dst);
    return ACLNN_SUCCESS;
  }
  return PlanReduction(plan, kernels::ReduceKind::kMean, self, reduced, keep_dim, self->dtype, out);
}

}  // namespace

CANOPY_ACLNN_OP(MeanV2, PlanMeanV2,
                (OpTraits{.header = "aclnnop/aclnn_mean.h",
                          .dtypes = kMeanDtypes,
                          .example = "f32[2,3] ints[1] false true f32[2]"}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (bool, noopWithEmptyAxes),
                (aclTensor*, out))
CANOPY_ACLNN_OP(Mean, PlanMean, (OpTraits{.header = "aclnnop/aclnn_mean.h", .dtypes = kMeanDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepDim), (aclDataType, dtype),
                (aclTensor*, out))
