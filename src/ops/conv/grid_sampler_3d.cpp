// aclnnGridSampler3D: torch.nn.functional.grid_sample on 5-D tensors: input
// [N, C, D, H, W] read at grid [N, Do, Ho, Wo, 3] = (x, y, z) in [-1, 1] into
// out [N, C, Do, Ho, Wo], trilinear (0) or nearest (1), zeros / border /
// reflection padding, align_corners either way (kernels/grid_sample.*). An
// NDHWC input (and out) is [N, D, H, W, C], read through a permuted view.
#include <climits>

#include "aclnnop/aclnn_grid_sampler3d.h"
#include "kernels/grid_sample.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGridDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr int64_t kNearest = 1, kReflection = 2;

bool IsPlanar(aclFormat format) {
  return format == ACL_FORMAT_NCDHW || format == ACL_FORMAT_NDHWC || format == ACL_FORMAT_ND;
}

aclnnStatus PlanGridSampler3D(Plan& plan, const aclTensor* input, const aclTensor* grid, int64_t interpolation_mode,
                              int64_t padding_mode, bool align_corners, const aclTensor* out) {
  for (const aclTensor* t : {grid, out}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has dtype %s; it must be input's (%s)",
                         t == grid ? "grid" : "out", DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kGridDtypes));
  if (!IsPlanar(input->format) || !IsPlanar(out->format)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input and out must be NCDHW, NDHWC or ND (input %d, out %d)",
                       static_cast<int>(input->format), static_cast<int>(out->format));
  }
  if (padding_mode < 0 || padding_mode > kReflection) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "paddingMode is %lld; it must be 0 (zeros), 1 (border) or 2 (reflection)",
                       static_cast<long long>(padding_mode));
  }
  if (interpolation_mode < 0 || interpolation_mode > kNearest) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "interpolationMode is %lld; it must be 0 (bilinear) or 1 (nearest)",
                       static_cast<long long>(interpolation_mode));
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 5, 5));
  CANOPY_CHECK(plan.CheckRank("grid", grid, 5, 5));
  CANOPY_CHECK(plan.CheckRank("out", out, 5, 5));
  // [N, C, D, H, W] in the order the dimensions lie in the views.
  const bool channels_last = input->format == ACL_FORMAT_NDHWC;
  const std::vector<int64_t> planar =
      channels_last ? std::vector<int64_t>{0, 4, 1, 2, 3} : std::vector<int64_t>{0, 1, 2, 3, 4};
  Shape in(5), o(5);
  for (size_t d = 0; d < 5; ++d) {
    in[d] = input->view_shape[static_cast<size_t>(planar[d])];
    o[d] = out->view_shape[static_cast<size_t>(planar[d])];
  }
  const Shape& g = grid->view_shape;
  if (g[0] != in[0] || o[0] != in[0] || g[4] != 3 || o[1] != in[1] || g[1] != o[2] || g[2] != o[3] || g[3] != o[4]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "input %s, grid %s and out %s do not match: grid must be [N, Do, Ho, Wo, 3] and out [N, C, Do, "
                       "Ho, Wo] (in input's layout)",
                       ShapeToString(input->view_shape).c_str(), ShapeToString(g).c_str(),
                       ShapeToString(out->view_shape).c_str());
  }
  // CANN's host code reads the view's last two dimensions as given (H and W of
  // NCDHW, W and C of NDHWC); an empty D or C passes and, as there, leaves out
  // as it was (the input is empty, so nothing is sampled or written).
  const Shape& view = input->view_shape;
  if (view[3] == 0 || view[4] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s is empty in its last two dimensions",
                       ShapeToString(view).c_str());
  }
  if (in[2] * in[3] * in[4] >= INT32_MAX) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s has D * H * W of 2^31 - 1 or more",
                       ShapeToString(input->view_shape).c_str());
  }
  const TensorRef x = Permute(plan.Input(input, "input"), planar);
  const TensorRef points = plan.Input(grid, "grid");
  const TensorRef y = Permute(plan.Output(out, "out"), planar);
  if (x.NumElements() == 0 || y.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::GridSampleDesc desc;
  desc.input = x.buffer;
  desc.grid = points.buffer;
  desc.out = y.buffer;
  desc.dtype = x.dtype;
  desc.spatial_rank = 3;
  for (size_t d = 0; d < 5; ++d) {
    desc.input_shape[d] = x.shape[d];
    desc.input_strides[d] = x.strides[d];
    desc.grid_strides[d] = points.strides[d];
    desc.out_strides[d] = y.strides[d];
  }
  desc.out_size[0] = y.shape[2];
  desc.out_size[1] = y.shape[3];
  desc.out_size[2] = y.shape[4];
  desc.interpolation = static_cast<kernels::GridInterpolation>(interpolation_mode);
  desc.padding = static_cast<kernels::GridPadding>(padding_mode);
  desc.align_corners = align_corners;
  plan.AddStep(kernels::MakeGridSampleStep(desc), {x, points}, y);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(GridSampler3D, PlanGridSampler3D,
                (OpTraits{.header = "aclnnop/aclnn_grid_sampler3d.h",
                          .dtypes = kGridDtypes,
                          .example = "f32[1,2,3,4,5] f32[1,2,3,3,3]{-1:1} 0 0 false f32[1,2,2,3,3]"}),
                (const aclTensor*, input), (const aclTensor*, grid), (int64_t, interpolationMode),
                (int64_t, paddingMode), (bool, alignCorners), (aclTensor*, out))
