// aclnnAvgPool3d: 3-D average pooling of [N, C, D, H, W] or [C, D, H, W] with
// ceil mode, count-include-pad and a divisor override, as
// torch.nn.functional.avg_pool3d, on oneDNN's pooling primitive (pooling.h).
#include <vector>

#include "aclnnop/aclnn_avgpool3d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAvgPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kAvgPool3dTraits{.header = "aclnnop/aclnn_avgpool3d.h", .dtypes = kAvgPoolDtypes, .max_rank = 5};

aclnnStatus PlanAvgPool3d(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size, const aclIntArray* stride,
                          const aclIntArray* padding, bool ceil_mode, bool count_include_pad, int64_t divisor_override,
                          const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAvgPoolDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAvgPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  // The doc lists ND; NCDHW names the same layout.
  for (const aclTensor* t : {self, out}) {
    if (t->format != ACL_FORMAT_ND && t->format != ACL_FORMAT_NCDHW) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %s; it must be ND (or NCDHW)",
                         t == self ? "self" : "out", FormatName(t->format));
    }
  }
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format (%s) and out's (%s) differ", FormatName(self->format),
                       FormatName(out->format));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 5));
  CANOPY_CHECK(plan.CheckRank("out", out, self->rank(), self->rank()));
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernel_size, {1, 3}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {0, 1, 3}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {1, 3}, 0));
  const int64_t rank = self->rank();
  std::vector<PoolAxis> axes(3);
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 3);
  for (size_t d = 0; d < 3; ++d) {
    PoolAxis& a = axes[d];
    const int64_t in = self->view_shape[rank - 3 + static_cast<int64_t>(d)];
    a.kernel = PerAxis(kernel_size, d, 1);
    if (a.kernel > in) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "kernelSize[%zu] is %lld; it must be at most self's extent %lld", d,
                         static_cast<long long>(a.kernel), static_cast<long long>(in));
    }
    a.stride = PerAxis(stride, d, a.kernel);  // none given: the kernel size
    a.pad_front = a.pad_back = PerAxis(padding, d, 0);
    if (a.pad_front > a.kernel / 2) {  // 2 * pad > kernel, without overflow
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "padding[%zu] is %lld; it must be at most half of kernelSize (%lld)",
                         d, static_cast<long long>(a.pad_front), static_cast<long long>(a.kernel));
    }
    expected.push_back(PooledExtent(in, a, ceil_mode));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (rank == 4) {  // [C, D, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
  }
  if (y.NumElements() == 0) return ACLNN_SUCCESS;
  return PlanAvgPool(plan, x, y, axes, count_include_pad, divisor_override);
}

}  // namespace

CANOPY_ACLNN_OP(AvgPool3d, PlanAvgPool3d,
                WithExample(kAvgPool3dTraits,
                            "f32[1,2,4,4,4] ints[4,4,4] ints[1,1,1] ints[0,0,0] false true 0 f32[1,2,1,1,1]"),
                (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, stride),
                (const aclIntArray*, padding), (bool, ceilMode), (bool, countIncludePad), (int64_t, divisorOverride),
                (aclTensor*, out))
