// aclnnGridSampler2D: torch.nn.functional.grid_sample on 4-D tensors: input
// [N, C, H, W] read at grid [N, Ho, Wo, 2] = (x, y) in [-1, 1] into out
// [N, C, Ho, Wo], bilinear / nearest / bicubic, zeros / border / reflection
// padding, align_corners either way. oneDNN has no grid sampling, so this is
// Canopy's own kernel (kernels/grid_sample.*).
#include <climits>

#include "aclnnop/aclnn_grid_sampler2d.h"
#include "kernels/grid_sample.h"
#include "ops/framework/aclnn_op.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The A2 column: no BFLOAT16; bicubic only for f32 and f16.
constexpr DtypeSet kGridDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
constexpr OpTraits kGridTraits{.header = "aclnnop/aclnn_grid_sampler2d.h", .dtypes = kGridDtypes, .max_rank = 4};
constexpr int64_t kBicubic = 2, kReflection = 2;

aclnnStatus PlanGridSampler2D(Plan& plan, const aclTensor* input, const aclTensor* grid, int64_t interpolation_mode,
                              int64_t padding_mode, bool align_corners, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kGridDtypes));
  for (const aclTensor* t : {grid, out}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has dtype %s; it must be input's (%s)",
                         t == grid ? "grid" : "out", DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  if (interpolation_mode < 0 || interpolation_mode > kBicubic) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "interpolationMode is %lld; it must be 0 (bilinear), 1 (nearest) or 2 (bicubic)",
                       static_cast<long long>(interpolation_mode));
  }
  if (padding_mode < 0 || padding_mode > kReflection) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "paddingMode is %lld; it must be 0 (zeros), 1 (border) or 2 (reflection)",
                       static_cast<long long>(padding_mode));
  }
  if (interpolation_mode == kBicubic && input->dtype == ACL_DOUBLE) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "bicubic interpolation takes FLOAT or FLOAT16, not DOUBLE");
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 4, 4));
  CANOPY_CHECK(plan.CheckRank("grid", grid, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  const Shape& in = input->view_shape;
  const Shape& g = grid->view_shape;
  if (g[0] != in[0] || g[3] != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "grid is %s; for input %s it must be [%lld, Ho, Wo, 2]",
                       ShapeToString(g).c_str(), ShapeToString(in).c_str(), static_cast<long long>(in[0]));
  }
  if (in[2] == 0 || in[3] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s is empty in H or W", ShapeToString(in).c_str());
  }
  if (in[2] * in[3] >= INT32_MAX) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s has H * W of 2^31 - 1 or more", ShapeToString(in).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {in[0], in[1], g[1], g[2]}));

  const TensorRef x = plan.Input(input, "input");
  const TensorRef points = plan.Input(grid, "grid");
  const TensorRef y = plan.Output(out, "out");
  if (y.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::GridSampleDesc desc;
  desc.input = x.buffer;
  desc.grid = points.buffer;
  desc.out = y.buffer;
  desc.dtype = x.dtype;
  desc.spatial_rank = 2;
  for (size_t d = 0; d < 4; ++d) {
    desc.input_shape[d] = x.shape[d];
    desc.input_strides[d] = x.strides[d];
    desc.grid_strides[d] = points.strides[d];
    desc.out_strides[d] = y.strides[d];
  }
  desc.out_size[0] = y.shape[2];
  desc.out_size[1] = y.shape[3];
  desc.interpolation = static_cast<kernels::GridInterpolation>(interpolation_mode);
  desc.padding = static_cast<kernels::GridPadding>(padding_mode);
  desc.align_corners = align_corners;
  plan.AddStep(kernels::MakeGridSampleStep(desc), {x, points}, y);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(GridSampler2D, PlanGridSampler2D,
                WithExample(kGridTraits, "f32[1,1,5,8] f32[1,3,3,2]{-1:1} 0 0 false f32[1,1,3,3]"),
                (const aclTensor*, input), (const aclTensor*, grid), (int64_t, interpolationMode),
                (int64_t, paddingMode), (bool, alignCorners), (aclTensor*, out))
