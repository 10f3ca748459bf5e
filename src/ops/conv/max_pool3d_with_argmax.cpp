// aclnnMaxPool3dWithArgmax: torch max_pool3d(..., return_indices=True) over
// [N, C, D, H, W] or [C, D, H, W]: the maxima and their flat indices
// (d * H + h) * W + w within the input volume. oneDNN's max pooling keeps its
// own workspace, not these indices, so this is the max-pool-with-indices
// kernel (pooling.h). Checks follow the A2 column: dilation 1, INT32 indices,
// no NDHWC.
#include <array>
#include <climits>
#include <vector>

#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMaxPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr OpTraits kMaxPool3dTraits{
    .header = "aclnnop/aclnn_max_pool3d_with_argmax.h", .dtypes = kAllDtypes, .max_rank = 5};

aclnnStatus PlanMaxPool3dWithArgmax(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size,
                                    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                                    bool ceil_mode, const aclTensor* out, const aclTensor* indices) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMaxPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  if (indices->dtype != ACL_INT32) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "indices has dtype %s; it must be INT32 (the A2 column)",
                       DtypeName(indices->dtype));
  }
  for (const aclTensor* t : {self, out, indices}) {
    if (t->format != ACL_FORMAT_NCDHW && t->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %s; it must be NCDHW or ND",
                         t == self  ? "self"
                         : t == out ? "out"
                                    : "indices",
                         FormatName(t->format));
    }
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 5));
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "self", self, self->rank() - 4));
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernel_size, {1, 3}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {0, 1, 3}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {1, 3}, 0));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {1, 3}, 1));
  const int64_t rank = self->rank();
  std::vector<PoolAxis> axes(3);
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 3);
  for (size_t d = 0; d < 3; ++d) {
    PoolAxis& a = axes[d];
    a.kernel = PerAxis(kernel_size, d, 1);
    a.stride = PerAxis(stride, d, a.kernel);  // none given: the kernel size
    a.pad_front = a.pad_back = PerAxis(padding, d, 0);
    if (a.pad_front > a.kernel / 2) {  // 2 * pad > kernel, without overflow
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "padding[%zu] is %lld; it must be at most half of kernelSize (%lld)",
                         d, static_cast<long long>(a.pad_front), static_cast<long long>(a.kernel));
    }
    if (PerAxis(dilation, d, 1) != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dilation[%zu] is %lld; only 1 is supported (the A2 column)", d,
                         static_cast<long long>(PerAxis(dilation, d, 1)));
    }
    const int64_t extent = PooledExtent(self->view_shape[rank - 3 + static_cast<int64_t>(d)], a, ceil_mode);
    if (extent < 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s gives no output on axis %zu with kernelSize %lld",
                         ShapeToString(self->view_shape).c_str(), d, static_cast<long long>(a.kernel));
    }
    expected.push_back(extent);
  }
  const int64_t volume = self->view_shape[rank - 3] * self->view_shape[rank - 2] * self->view_shape[rank - 1];
  if (volume > INT32_MAX) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s has D * H * W = %lld; at most 2^31 - 1 fit the indices",
                       ShapeToString(self->view_shape).c_str(), static_cast<long long>(volume));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  CANOPY_CHECK(plan.CheckShape("indices", indices, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  TensorRef i = plan.Output(indices, "indices");
  if (rank == 4) {  // [C, D, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
    i = Unsqueeze(i, 0);
  }
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  PlanMaxPoolWithIndices(
      plan, x, y, i,
      {FixedWindows(x.shape[2], axes[0], 1, y.shape[2]), FixedWindows(x.shape[3], axes[1], 1, y.shape[3]),
       FixedWindows(x.shape[4], axes[2], 1, y.shape[4])});
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MaxPool3dWithArgmax, PlanMaxPool3dWithArgmax,
                WithExample(kMaxPool3dTraits,
                            "f32[1,1,2,2,2] ints[2,2,2] ints[2,2,2] ints[0,0,0] ints[1,1,1] false f32[1,1,1,1,1] "
                            "i32[1,1,1,1,1]"),
                (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, stride),
                (const aclIntArray*, padding), (const aclIntArray*, dilation), (bool, ceilMode), (aclTensor*, out),
                (aclTensor*, indices))
