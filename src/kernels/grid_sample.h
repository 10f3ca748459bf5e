// 2-D and 3-D grid sampling (torch.nn.functional.grid_sample): out[n, c, h, w] is
// input[n, c] read at the normalised point grid[n, h, w] = (x, y) in
// [-1, 1] (one more coordinate, z, in 3-D), with bilinear, nearest or bicubic interpolation and zeros,
// border or reflection padding, PyTorch's coordinate rules. Computed in f32
// (f16, f32) or f64 (f64).
#pragma once

#include <array>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class GridInterpolation { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum class GridPadding { kZeros = 0, kBorder = 1, kReflection = 2 };

// The spatial rank picks the form: 2 reads input [N, C, H, W] at grid
// [N, Ho, Wo, 2] = (x, y) into out [N, C, Ho, Wo]; 3 reads input [N, C, D, H, W]
// at grid [N, Do, Ho, Wo, 3] = (x, y, z) into out [N, C, Do, Ho, Wo], trilinear
// or nearest (PyTorch has no bicubic in 3-D).
struct GridSampleDesc {
  BufferRef input, grid, out;
  aclDataType dtype = ACL_FLOAT;  // of all three
  int spatial_rank = 2;           // 2 or 3
  // N, C, then the spatial sizes (outermost first); the rest unused.
  std::array<int64_t, 5> input_shape{};
  std::array<int64_t, 3> out_size{};  // the output's spatial sizes
  // In elements, as the shapes: input and out [N, C, spatial...], grid [N, spatial..., point].
  std::array<int64_t, 5> input_strides{}, grid_strides{}, out_strides{};
  GridInterpolation interpolation = GridInterpolation::kBilinear;
  GridPadding padding = GridPadding::kZeros;
  bool align_corners = false;
};

std::unique_ptr<Step> MakeGridSampleStep(const GridSampleDesc& desc);

}  // namespace canopy::kernels
