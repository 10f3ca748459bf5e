#include "grid_sample.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

// [-1, 1] to pixel coordinates: the corner pixels' centres (align corners)
// or their outer edges.
template <typename T>
T Unnormalize(T coord, int64_t size, bool align_corners) {
  return align_corners ? (coord + 1) / 2 * static_cast<T>(size - 1) : ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <typename T>
T Clip(T coord, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(coord, T(0)));
}

// Reflects coord into [twice_low / 2, twice_high / 2] (PyTorch's reflect_coordinates).
template <typename T>
T Reflect(T coord, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return T(0);
  const T low = static_cast<T>(twice_low) / 2, span = static_cast<T>(twice_high - twice_low) / 2;
  coord = std::fabs(coord - low);
  const T extra = std::fmod(coord, span);
  const auto flips = static_cast<int64_t>(std::floor(coord / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

// The padding rule applied to a pixel coordinate.
template <typename T>
T ApplyPadding(T coord, int64_t size, GridPadding padding, bool align_corners) {
  if (padding == GridPadding::kBorder) return Clip(coord, size);
  if (padding == GridPadding::kReflection) {
    coord = align_corners ? Reflect(coord, 0, 2 * (size - 1)) : Reflect(coord, -1, 2 * size - 1);
    return Clip(coord, size);
  }
  return coord;
}

// Keys' cubic convolution weights (a = -0.75) of the four taps around t in [0, 1).
template <typename T>
std::array<T, 4> CubicWeights(T t) {
  const T a = T(-0.75);
  auto near = [a](T x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [a](T x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

class GridSampleStep final : public Step {
 public:
  explicit GridSampleStep(GridSampleDesc desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    if (d_.dtype == ACL_DOUBLE) {
      RunTyped<double>(context);
    } else {
      RunTyped<float>(context);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "grid sample " << d_.input_shape[0] << "x" << d_.input_shape[1] << "x" << d_.input_shape[2] << "x"
         << d_.input_shape[3] << " -> " << d_.out_h << "x" << d_.out_w << " mode " << static_cast<int>(d_.interpolation)
         << " padding " << static_cast<int>(d_.padding);
    return text.str();
  }

 private:
  template <typename T>
  void RunTyped(const RunContext& context) const {
    const char* input = context.Resolve(d_.input);
    const char* grid = context.Resolve(d_.grid);
    char* out = context.Resolve(d_.out);
    const int64_t bytes = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t channels = d_.input_shape[1], height = d_.input_shape[2], width = d_.input_shape[3];
    const auto& is = d_.input_strides;
    const auto& gs = d_.grid_strides;
    const auto& os = d_.out_strides;
    auto load = [&](const char* base, int64_t offset) {
      T value;
      Load(d_.dtype, base + offset * bytes, 1, 1, &value);
      return value;
    };
    // One output row (n, h) per unit; a static split.
    ParallelFor(d_.input_shape[0] * d_.out_h, 4, [&](int64_t begin, int64_t end) {
      std::vector<T> acc(static_cast<size_t>(channels));
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t n = unit / d_.out_h, h = unit % d_.out_h;
        for (int64_t w = 0; w < d_.out_w; ++w) {
          const int64_t g = n * gs[0] + h * gs[1] + w * gs[2];
          const T gx = load(grid, g), gy = load(grid, g + gs[3]);
          std::fill(acc.begin(), acc.end(), T(0));
          // Adds weight * input[n, :, y, x] where (y, x) lies inside the input (the padding is zero there).
          auto tap = [&](int64_t y, int64_t x, T weight) {
            if (y < 0 || y >= height || x < 0 || x >= width) return;
            const int64_t at = n * is[0] + y * is[2] + x * is[3];
            for (int64_t c = 0; c < channels; ++c) acc[static_cast<size_t>(c)] += weight * load(input, at + c * is[1]);
          };
          if (!std::isfinite(gx) || !std::isfinite(gy)) {
            // no tap: a non-finite point reads nothing (zeros)
          } else if (d_.interpolation == GridInterpolation::kBicubic) {
            // Taps around the unpadded coordinate, each mapped through the padding rule.
            const T x = Unnormalize(gx, width, d_.align_corners), y = Unnormalize(gy, height, d_.align_corners);
            const T x0 = std::floor(x), y0 = std::floor(y);
            const std::array<T, 4> wx = CubicWeights(x - x0), wy = CubicWeights(y - y0);
            for (int i = 0; i < 4; ++i) {
              for (int j = 0; j < 4; ++j) {
                const T px = ApplyPadding(x0 - 1 + j, width, d_.padding, d_.align_corners);
                const T py = ApplyPadding(y0 - 1 + i, height, d_.padding, d_.align_corners);
                tap(static_cast<int64_t>(std::floor(py)), static_cast<int64_t>(std::floor(px)), wy[i] * wx[j]);
              }
            }
          } else {
            const T x = ApplyPadding(Unnormalize(gx, width, d_.align_corners), width, d_.padding, d_.align_corners);
            const T y = ApplyPadding(Unnormalize(gy, height, d_.align_corners), height, d_.padding, d_.align_corners);
            if (d_.interpolation == GridInterpolation::kNearest) {
              tap(static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)), T(1));
            } else {
              const T x0 = std::floor(x), y0 = std::floor(y);
              const T tx = x - x0, ty = y - y0;
              const auto ix = static_cast<int64_t>(x0), iy = static_cast<int64_t>(y0);
              tap(iy, ix, (1 - ty) * (1 - tx));
              tap(iy, ix + 1, (1 - ty) * tx);
              tap(iy + 1, ix, ty * (1 - tx));
              tap(iy + 1, ix + 1, ty * tx);
            }
          }
          Store(acc.data(), d_.dtype, out + (n * os[0] + h * os[2] + w * os[3]) * bytes, os[1], channels);
        }
      }
    });
  }

  GridSampleDesc d_;
};

class GridSample3dStep final : public Step {
 public:
  explicit GridSample3dStep(GridSample3dDesc desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    if (d_.dtype == ACL_DOUBLE) {
      RunTyped<double>(context);
    } else {
      RunTyped<float>(context);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "grid sample 3d " << d_.input_shape[0] << "x" << d_.input_shape[1] << "x" << d_.input_shape[2] << "x"
         << d_.input_shape[3] << "x" << d_.input_shape[4] << " -> " << d_.out_d << "x" << d_.out_h << "x" << d_.out_w
         << " mode " << static_cast<int>(d_.interpolation) << " padding " << static_cast<int>(d_.padding);
    return text.str();
  }

 private:
  template <typename T>
  void RunTyped(const RunContext& context) const {
    const char* input = context.Resolve(d_.input);
    const char* grid = context.Resolve(d_.grid);
    char* out = context.Resolve(d_.out);
    const int64_t bytes = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t channels = d_.input_shape[1], depth = d_.input_shape[2], height = d_.input_shape[3],
                  width = d_.input_shape[4];
    const auto& is = d_.input_strides;
    const auto& gs = d_.grid_strides;
    const auto& os = d_.out_strides;
    auto load = [&](const char* base, int64_t offset) {
      T value;
      Load(d_.dtype, base + offset * bytes, 1, 1, &value);
      return value;
    };
    auto coordinate = [&](T g, int64_t size) {
      return ApplyPadding(Unnormalize(g, size, d_.align_corners), size, d_.padding, d_.align_corners);
    };
    // One output row (n, d, h) per unit; a static split.
    ParallelFor(d_.input_shape[0] * d_.out_d * d_.out_h, 4, [&](int64_t begin, int64_t end) {
      std::vector<T> acc(static_cast<size_t>(channels));
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t n = unit / (d_.out_d * d_.out_h), d = unit / d_.out_h % d_.out_d, h = unit % d_.out_h;
        for (int64_t w = 0; w < d_.out_w; ++w) {
          const int64_t g = n * gs[0] + d * gs[1] + h * gs[2] + w * gs[3];
          const T gx = load(grid, g), gy = load(grid, g + gs[4]), gz = load(grid, g + 2 * gs[4]);
          std::fill(acc.begin(), acc.end(), T(0));
          // Adds weight * input[n, :, z, y, x] where (z, y, x) lies inside the input (the padding is zero there).
          auto tap = [&](int64_t z, int64_t y, int64_t x, T weight) {
            if (z < 0 || z >= depth || y < 0 || y >= height || x < 0 || x >= width) return;
            const int64_t at = n * is[0] + z * is[2] + y * is[3] + x * is[4];
            for (int64_t c = 0; c < channels; ++c) acc[static_cast<size_t>(c)] += weight * load(input, at + c * is[1]);
          };
          if (std::isfinite(gx) && std::isfinite(gy) && std::isfinite(gz)) {  // a non-finite point reads zeros
            const T x = coordinate(gx, width), y = coordinate(gy, height), z = coordinate(gz, depth);
            if (d_.interpolation == GridInterpolation::kNearest) {
              tap(static_cast<int64_t>(std::nearbyint(z)), static_cast<int64_t>(std::nearbyint(y)),
                  static_cast<int64_t>(std::nearbyint(x)), T(1));
            } else {
              const T x0 = std::floor(x), y0 = std::floor(y), z0 = std::floor(z);
              const T tx = x - x0, ty = y - y0, tz = z - z0;
              const auto ix = static_cast<int64_t>(x0), iy = static_cast<int64_t>(y0), iz = static_cast<int64_t>(z0);
              for (int corner = 0; corner < 8; ++corner) {
                const int dz = corner >> 2, dy = (corner >> 1) & 1, dx = corner & 1;
                const T weight = (dz != 0 ? tz : 1 - tz) * (dy != 0 ? ty : 1 - ty) * (dx != 0 ? tx : 1 - tx);
                tap(iz + dz, iy + dy, ix + dx, weight);
              }
            }
          }
          Store(acc.data(), d_.dtype, out + (n * os[0] + d * os[2] + h * os[3] + w * os[4]) * bytes, os[1], channels);
        }
      }
    });
  }

  GridSample3dDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeGridSampleStep(GridSampleDesc desc) { return std::make_unique<GridSampleStep>(desc); }

std::unique_ptr<Step> MakeGridSample3dStep(GridSample3dDesc desc) { return std::make_unique<GridSample3dStep>(desc); }

}  // namespace canopy::kernels
