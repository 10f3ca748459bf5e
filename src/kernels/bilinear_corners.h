// The bilinear read of the deformable ops (MultiScaleDeformableAttnFunction, DeformableConv2d), as
// mmcv's kernels and CANN's make it: a point (y, x) of an H x W map reads nothing unless
// -1 < y < H and -1 < x < W, and each of its four corners outside the map weighs 0 (zero padding).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace canopy::kernels {

struct BilinearCorners {
  std::array<int64_t, 4> offset{};  // row * W + column of each corner
  std::array<float, 4> weight{};    // 0 for a corner outside the map
};

// False when (y, x) reads nothing.
inline bool BilinearAt(float y, float x, int64_t h, int64_t w, BilinearCorners& c) {
  if (!(y > -1.0F && x > -1.0F && y < static_cast<float>(h) && x < static_cast<float>(w))) return false;
  const float y0f = std::floor(y), x0f = std::floor(x);
  const auto y0 = static_cast<int64_t>(y0f), x0 = static_cast<int64_t>(x0f);
  const float ly = y - y0f, lx = x - x0f, hy = 1.0F - ly, hx = 1.0F - lx;
  const std::array<int64_t, 4> rows = {y0, y0, y0 + 1, y0 + 1}, columns = {x0, x0 + 1, x0, x0 + 1};
  const std::array<float, 4> weights = {hy * hx, hy * lx, ly * hx, ly * lx};
  for (size_t k = 0; k < 4; ++k) {
    const bool inside = rows[k] >= 0 && rows[k] < h && columns[k] >= 0 && columns[k] < w;
    c.offset[k] = inside ? rows[k] * w + columns[k] : 0;
    c.weight[k] = inside ? weights[k] : 0.0F;
  }
  return true;
}

}  // namespace canopy::kernels
