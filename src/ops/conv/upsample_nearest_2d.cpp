// aclnnUpsampleNearest2d: nearest-neighbour upsampling of H and W of an NCHW
// or NHWC tensor to outputSize, with PyTorch's index rule
// src = min(floor(dst * (in / out)), in - 1), the scale computed in float.
// Canopy's own gather (kernels/nearest_resize.h): oneDNN's nearest resampling
// rounds to the nearest source centre instead, which picks other rows when
// the ratio is not an integer.
#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "common/dtype.h"
#include "kernels/nearest_resize.h"
#include "ops/framework/aclnn_op.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kUpsampleDtypes = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE, ACL_UINT8};
constexpr OpTraits kUpsampleTraits{
    .header = "aclnnop/aclnn_upsample_nearest_2d.h", .dtypes = kUpsampleDtypes, .max_rank = 4};
constexpr int64_t kMaxExtent = int64_t{1} << 20;  // the doc's bound on every dim

// Output index i of an axis of `in` resampled to `out` reads input index:
std::vector<int64_t> SourceIndices(int64_t in, int64_t out) {
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  std::vector<int64_t> source(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    source[static_cast<size_t>(i)] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(i) * scale)), in - 1);
  }
  return source;
}

aclnnStatus PlanUpsampleNearest2d(Plan& plan, const aclTensor* self, const aclIntArray* output_size,
                                  const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUpsampleDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  if (self->format != ACL_FORMAT_NCHW && self->format != ACL_FORMAT_NHWC) {
    CANOPY_CHECK(CheckFormat(plan, "self", self, ACL_FORMAT_NCHW));
  }
  CANOPY_CHECK(CheckFormat(plan, "out", out, self->format));
  CANOPY_CHECK(CheckIntArray(plan, "outputSize", output_size, {2}, 1));
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty; UpsampleNearest2d takes no empty tensor",
                       ShapeToString(self->view_shape).c_str());
  }
  const bool channels_last = self->format == ACL_FORMAT_NHWC;
  const int row_dim = channels_last ? 1 : 2, column_dim = channels_last ? 2 : 3;
  Shape expected = self->view_shape;
  expected[row_dim] = output_size->values[0];
  expected[column_dim] = output_size->values[1];
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  for (const aclTensor* t : {self, out}) {
    for (int64_t extent : t->view_shape) {
      if (extent > kMaxExtent) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has an extent of %lld; at most 2^20 is supported",
                           t == self ? "self" : "out", static_cast<long long>(extent));
      }
    }
  }

  const TensorRef x = plan.Input(self, "self");
  const TensorRef y = plan.Output(out, "out");
  kernels::NearestResizeDesc desc;
  desc.src = x.buffer;
  desc.dst = y.buffer;
  desc.element_bytes = static_cast<int64_t>(DtypeSize(x.dtype));
  for (size_t d = 0; d < 4; ++d) {
    desc.dst_shape[d] = y.shape[d];
    desc.src_strides[d] = x.strides[d];
    desc.dst_strides[d] = y.strides[d];
  }
  desc.row_dim = row_dim;
  desc.column_dim = column_dim;
  desc.source_row = SourceIndices(x.shape[row_dim], y.shape[row_dim]);
  desc.source_column = SourceIndices(x.shape[column_dim], y.shape[column_dim]);
  plan.AddStep(kernels::MakeNearestResizeStep(std::move(desc)));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(UpsampleNearest2d, PlanUpsampleNearest2d,
                WithExample(kUpsampleTraits, "f32[1,2,2,2]@NCHW ints[4,4] f32[1,2,4,4]@NCHW"), (const aclTensor*, self),
                (const aclIntArray*, outputSize), (aclTensor*, out))
