// aclnnSoftmax / aclnnLogSoftmax: along one dim of self, the row maximum subtracted first.
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_softmax.h"
#include "kernels/reduce_softmax.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace canopy::ops {

void PlanSoftmaxInto(Plan& plan, const TensorRef& in, const TensorRef& out, int dim, bool log) {
  kernels::SoftmaxDesc desc;
  desc.log = log;
  desc.rank = static_cast<int>(in.rank());
  desc.dim = dim;
  desc.in = {in.buffer, in.dtype, {}};
  desc.out = {out.buffer, out.dtype, {}};
  for (int d = 0; d < desc.rank; ++d) {
    desc.shape[d] = in.shape[static_cast<size_t>(d)];
    desc.in.strides[d] = in.strides[static_cast<size_t>(d)];
    desc.out.strides[d] = out.strides[static_cast<size_t>(d)];
  }
  plan.AddStep(kernels::MakeSoftmaxStep(desc), {in}, out);
}

}  // namespace canopy::ops

namespace {

constexpr DtypeSet kSoftmaxDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};

aclnnStatus PlanSoftmaxOf(Plan& plan, bool log, const aclTensor* self, int64_t dim, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSoftmaxDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kSoftmaxDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const int64_t rank = self->rank();
  const int64_t wrap = std::max<int64_t>(rank, 1);
  if (dim < -wrap || dim >= wrap) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dim' is %lld, outside [%lld, %lld] for rank %lld",
                       static_cast<long long>(dim), static_cast<long long>(-wrap), static_cast<long long>(wrap - 1),
                       static_cast<long long>(rank));
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  PlanSoftmaxInto(plan, in, dst, static_cast<int>(dim < 0 ? dim + wrap : dim), log);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSoftmax(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* out) {
  return PlanSoftmaxOf(plan, false, self, dim, out);
}

aclnnStatus PlanLogSoftmax(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* out) {
  return PlanSoftmaxOf(plan, true, self, dim, out);
}

}  // namespace

CANOPY_ACLNN_OP(Softmax, PlanSoftmax, (OpTraits{.header = "aclnnop/aclnn_softmax.h", .dtypes = kSoftmaxDtypes}),
                (const aclTensor*, self), (int64_t, dim), (aclTensor*, out))
CANOPY_ACLNN_OP(LogSoftmax, PlanLogSoftmax,
                (OpTraits{.header = "aclnnop/aclnn_logsoftmax.h", .dtypes = kSoftmaxDtypes}), (const aclTensor*, self),
                (int64_t, dim), (aclTensor*, out))
