// aclnnAdaptiveMaxPool2d and aclnnAdaptiveMaxPool3d: max pooling to a given
// output size with the flat index of each maximum within its input plane or
// volume, as torch adaptive_max_pool2d/3d: window i of an axis is
// [floor(i * in / out), ceil((i + 1) * in / out)). oneDNN's pooling takes
// one window size per axis and keeps its own workspace, not these indices,
// so this is the max-pool-with-indices kernel (pooling.h).
#include <array>
#include <climits>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool3d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kPool2dDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
constexpr DtypeSet kPool2dAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64};
constexpr DtypeSet kPool3dDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kPool3dAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr OpTraits kAdaptiveMaxPool2dTraits{
    .header = "aclnnop/aclnn_adaptive_max_pool2d.h", .dtypes = kPool2dAllDtypes, .max_rank = 4};
constexpr OpTraits kAdaptiveMaxPool3dTraits{
    .header = "aclnnop/aclnn_adaptive_max_pool3d.h", .dtypes = kPool3dAllDtypes, .max_rank = 5};

aclnnStatus CheckOutDtype(Plan& plan, const aclTensor* self, const aclTensor* out) {
  if (out->dtype == self->dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "outputOut has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                     DtypeName(self->dtype));
}

aclnnStatus CheckSameShape(Plan& plan, const aclTensor* out, const aclTensor* indices) {
  if (out->view_shape == indices->view_shape) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "indicesOut %s and outputOut %s differ in shape",
                     ShapeToString(indices->view_shape).c_str(), ShapeToString(out->view_shape).c_str());
}

// self's shape with its spatial dims (`first` on) replaced by outputSize.
Shape AdaptiveOutShape(const aclTensor* self, const aclIntArray* output_size, int64_t first) {
  Shape shape = self->view_shape;
  for (size_t d = 0; d < output_size->values.size(); ++d)
    shape[first + static_cast<int64_t>(d)] = output_size->values[d];
  return shape;
}

aclnnStatus PlanAdaptiveMaxPool2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* output_out, const aclTensor* indices_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kPool2dDtypes));
  CANOPY_CHECK(CheckOutDtype(plan, self, output_out));
  if (indices_out->dtype != ACL_INT64) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "indicesOut has dtype %s; it must be INT64",
                       DtypeName(indices_out->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "self", self, 1));
  CANOPY_CHECK(CheckSameShape(plan, output_out, indices_out));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  const bool channels_last = self->format == ACL_FORMAT_NHWC;
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NCL && !channels_last) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format %s; it must be NCHW, NCL or NHWC",
                       FormatName(self->format));
  }
  if (channels_last && self->rank() != 4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self is NHWC with rank %lld; NHWC must be [N, H, W, C]",
                       static_cast<long long>(self->rank()));
  }
  const int64_t row_dim = channels_last ? 1 : self->rank() - 2;
  CANOPY_CHECK(plan.CheckShape("outputOut", output_out, AdaptiveOutShape(self, output_size, row_dim)));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(output_out, "outputOut");
  TensorRef i = plan.Output(indices_out, "indicesOut");
  if (channels_last) {  // [N, H, W, C] viewed as [N, C, H, W]
    x = Permute(x, {0, 3, 1, 2});
    y = Permute(y, {0, 3, 1, 2});
    i = Permute(i, {0, 3, 1, 2});
  } else if (x.rank() == 3) {  // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
    i = Unsqueeze(i, 0);
  }
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  PlanMaxPoolWithIndices(plan, Unsqueeze(x, 2), Unsqueeze(y, 2), Unsqueeze(i, 2),
                         {std::vector<kernels::PoolWindow>{kernels::PoolWindow{}},
                          AdaptiveMaxWindows(x.shape[2], y.shape[2]), AdaptiveMaxWindows(x.shape[3], y.shape[3])});
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAdaptiveMaxPool3d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* output_out, const aclTensor* indices_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kPool3dDtypes));
  CANOPY_CHECK(CheckOutDtype(plan, self, output_out));
  // The A2 column: INT32 indices only.
  if (indices_out->dtype != ACL_INT32) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "indicesOut has dtype %s; it must be INT32",
                       DtypeName(indices_out->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 5));
  for (const aclTensor* t : {self, output_out, indices_out}) {
    if (t->format != ACL_FORMAT_NCDHW && t->format != ACL_FORMAT_NCHW) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %s; it must be NCDHW or NCHW",
                         t == self         ? "self"
                         : t == output_out ? "outputOut"
                                           : "indicesOut",
                         FormatName(t->format));
    }
  }
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "self", self, 1));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {3}, 1));
  CANOPY_CHECK(CheckSameShape(plan, output_out, indices_out));
  const int64_t rank = self->rank();
  const int64_t volume = self->view_shape[rank - 3] * self->view_shape[rank - 2] * self->view_shape[rank - 1];
  if (volume > INT32_MAX) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s has D * H * W = %lld; at most 2^31 - 1 fit the indices",
                       ShapeToString(self->view_shape).c_str(), static_cast<long long>(volume));
  }
  CANOPY_CHECK(plan.CheckShape("outputOut", output_out, AdaptiveOutShape(self, output_size, rank - 3)));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(output_out, "outputOut");
  TensorRef i = plan.Output(indices_out, "indicesOut");
  if (rank == 4) {  // [C, D, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
    i = Unsqueeze(i, 0);
  }
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  PlanMaxPoolWithIndices(plan, x, y, i,
                         {AdaptiveMaxWindows(x.shape[2], y.shape[2]), AdaptiveMaxWindows(x.shape[3], y.shape[3]),
                          AdaptiveMaxWindows(x.shape[4], y.shape[4])});
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AdaptiveMaxPool2d, PlanAdaptiveMaxPool2d,
                WithExample(kAdaptiveMaxPool2dTraits,
                            "f32[1,1,4,4]@NCHW ints[2,2] f32[1,1,2,2]@NCHW i64[1,1,2,2]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (aclTensor*, outputOut),
                (aclTensor*, indicesOut))

CANOPY_ACLNN_OP(AdaptiveMaxPool3d, PlanAdaptiveMaxPool3d,
                WithExample(kAdaptiveMaxPool3dTraits,
                            "f32[1,1,1,4,4]@NCDHW ints[1,2,2] f32[1,1,1,2,2]@NCDHW i32[1,1,1,2,2]@NCDHW"),
                (const aclTensor*, self), (const aclIntArray*, outputSize), (aclTensor*, outputOut),
                (aclTensor*, indicesOut))
