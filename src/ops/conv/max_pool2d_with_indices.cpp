// aclnnMaxPool2dWithIndices: torch.nn.functional.max_pool2d(...,
// return_indices=True) over [N, C, H, W] or [C, H, W]: the maxima and their
// flat indices h * W + w within the input plane. oneDNN's max pooling keeps
// its own workspace, not these indices, so this is Canopy's own kernel
// (kernels/max_pool_indices.*). Checks follow the A2 column: dilation 1, no NHWC.
#include <array>
#include <vector>

#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMaxPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64};
constexpr OpTraits kMaxPoolIndicesTraits{
    .header = "aclnnop/aclnn_max_pool2d_with_indices.h", .dtypes = kAllDtypes, .max_rank = 4};

// Element `axis` of a 1- or 2-element array (one element: both axes); `fallback` for an empty one.
int64_t AxisValue(const aclIntArray* array, size_t axis, int64_t fallback) {
  const auto& v = array->values;
  if (v.empty()) return fallback;
  return v.size() == 1 ? v[0] : v[axis];
}

aclnnStatus PlanMaxPool2dWithIndices(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size,
                                     const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                                     bool ceil_mode, const aclTensor* out, const aclTensor* indices) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMaxPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format (%s) and out's (%s) differ", FormatName(self->format),
                       FormatName(out->format));
  }
  if (self->format == ACL_FORMAT_NHWC) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format NHWC; NCHW (or ND, NCL) is supported");
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernel_size, {1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {0, 1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {1, 2}, 0));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {1, 2}, 1));
  std::array<PoolAxis, 2> axes;
  for (size_t d = 0; d < 2; ++d) {
    PoolAxis& a = axes[d];
    a.kernel = AxisValue(kernel_size, d, 1);
    a.stride = AxisValue(stride, d, a.kernel);  // none given: the kernel size
    a.pad_front = a.pad_back = AxisValue(padding, d, 0);
    if (2 * a.pad_front > a.kernel) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "padding[%zu] is %lld; it must be at most half of kernelSize (%lld)",
                         d, static_cast<long long>(a.pad_front), static_cast<long long>(a.kernel));
    }
    if (AxisValue(dilation, d, 1) != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dilation[%zu] is %lld; only 1 is supported", d,
                         static_cast<long long>(AxisValue(dilation, d, 1)));
    }
  }
  const int64_t rank = self->rank();
  for (int64_t d = rank - 3; d < rank; ++d) {
    if (self->view_shape[d] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty in C, H or W; only the batch may be empty",
                         ShapeToString(self->view_shape).c_str());
    }
  }
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 2);
  for (size_t d = 0; d < 2; ++d) {
    const int64_t extent = PooledExtent(self->view_shape[rank - 2 + static_cast<int64_t>(d)], axes[d], ceil_mode);
    if (extent < 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s gives no output on axis %zu with kernelSize %lld",
                         ShapeToString(self->view_shape).c_str(), d, static_cast<long long>(axes[d].kernel));
    }
    expected.push_back(extent);
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  CANOPY_CHECK(plan.CheckShape("indices", indices, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  TensorRef i = plan.Output(indices, "indices");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  if (rank == 3) {                                 // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
    i = Unsqueeze(i, 0);
  }
  // [N, C, 1, H, W]: a depth of one.
  PlanMaxPoolWithIndices(
      plan, Unsqueeze(x, 2), Unsqueeze(y, 2), Unsqueeze(i, 2),
      {std::vector<kernels::PoolWindow>{kernels::PoolWindow{}}, FixedWindows(x.shape[2], axes[0], 1, y.shape[2]),
       FixedWindows(x.shape[3], axes[1], 1, y.shape[3])});
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    MaxPool2dWithIndices, PlanMaxPool2dWithIndices,
    WithExample(kMaxPoolIndicesTraits,
                "f32[1,1,4,3]@NCHW ints[2,2] ints[2,2] ints[0,0] ints[1,1] false f32[1,1,2,1]@NCHW i32[1,1,2,1]@NCHW"),
    (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, stride),
    (const aclIntArray*, padding), (const aclIntArray*, dilation), (bool, ceilMode), (aclTensor*, out),
    (aclTensor*, indices))
