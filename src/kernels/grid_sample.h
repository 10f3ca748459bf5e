// 2-D and 3-D grid sampling (torch.nn.functional.grid_sample): out[n, c, h, w] is
// input[n, c] read at the normalised point grid[n, h, w] = (x, y) in
// [-1, 1], with bilinear, nearest or bicubic interpolation and zeros,
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

struct GridSampleDesc {
  BufferRef input, grid, out;
  aclDataType dtype = ACL_FLOAT;         // of all three
  std::array<int64_t, 4> input_shape{};  // N, C, H, W
  int64_t out_h = 0, out_w = 0;
  std::array<int64_t, 4> input_strides{}, grid_strides{}, out_strides{};  // in elements
  GridInterpolation interpolation = GridInterpolation::kBilinear;
  GridPadding padding = GridPadding::kZeros;
  bool align_corners = false;
};

std::unique_ptr<Step> MakeGridSampleStep(GridSampleDesc desc);

// The 3-D form: input [N, C, D, H, W] read at grid [N, Do, Ho, Wo, 3] = (x, y, z)
// into out [N, C, Do, Ho, Wo], trilinear or nearest (PyTorch has no bicubic in 3-D).
struct GridSample3dDesc {
  BufferRef input, grid, out;
  aclDataType dtype = ACL_FLOAT;         // of all three
  std::array<int64_t, 5> input_shape{};  // N, C, D, H, W
  int64_t out_d = 0, out_h = 0, out_w = 0;
  std::array<int64_t, 5> input_strides{}, grid_strides{}, out_strides{};  // in elements
  GridInterpolation interpolation = GridInterpolation::kBilinear;
  GridPadding padding = GridPadding::kZeros;
  bool align_corners = false;
};

std::unique_ptr<Step> MakeGridSample3dStep(GridSample3dDesc desc);

}  // namespace canopy::kernels
