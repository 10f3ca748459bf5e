#include "grid_sample.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
  if (!std::isfinite(coord)) return std::numeric_limits<T>::quiet_NaN();  // Clip then takes the last pixel
  const T low = static_cast<T>(twice_low) / 2, span = static_cast<T>(twice_high - twice_low) / 2;
  coord = std::fabs(coord - low);
  const T extra = std::fmod(coord, span);
  // The parity of the flips in floating point: their count can be past int64 (a coordinate of 1e30).
  const bool even = std::fmod(std::floor(coord / span), T(2)) == 0;
  return even ? extra + low : span - extra + low;
}

// A pixel coordinate held within a few pixels of an input of `size`: every tap
// of one farther out reads zeros either way, and held it converts to an
// integer without overflow (zeros padding).
template <typename T>
T HeldNearInput(T coord, int64_t size) {
  return std::clamp(coord, T(-4), static_cast<T>(size + 3));
}

// The padding rule applied to a pixel coordinate. Border and reflection end
// in PyTorch's clip, min(size - 1, max(coord, 0)), which takes +inf and NaN to
// the last pixel and -inf to the first. Zeros padding keeps the coordinate,
// held near the input.
template <typename T>
T ApplyPadding(T coord, int64_t size, GridPadding padding, bool align_corners) {
  if (padding == GridPadding::kBorder) return Clip(coord, size);
  if (padding == GridPadding::kReflection) {
    coord = align_corners ? Reflect(coord, 0, 2 * (size - 1)) : Reflect(coord, -1, 2 * size - 1);
    return Clip(coord, size);
  }
  return HeldNearInput(coord, size);
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
  explicit GridSampleStep(const GridSampleDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    if (d_.spatial_rank == 3) return RunRank<3>(context);
    return RunRank<2>(context);
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "grid sample " << d_.spatial_rank << "-d " << d_.input_shape[0] << "x" << d_.input_shape[1];
    const auto rank = static_cast<size_t>(d_.spatial_rank);
    for (size_t k = 0; k < rank; ++k) text << "x" << d_.input_shape[2 + k];
    text << " ->";
    for (size_t k = 0; k < rank; ++k) text << (k == 0 ? " " : "x") << d_.out_size[k];
    text << " mode " << static_cast<int>(d_.interpolation) << " padding " << static_cast<int>(d_.padding);
    return text.str();
  }

 private:
  template <size_t kDims>
  aclnnStatus RunRank(const RunContext& context) const {
    if (d_.dtype == ACL_DOUBLE) {
      RunTyped<double, kDims>(context);
    } else {
      RunTyped<float, kDims>(context);
    }
    return ACLNN_SUCCESS;
  }

  // Spatial dimension k (0 outermost) of every array below; the grid's point
  // holds them innermost first: (x, y[, z]).
  template <typename T, size_t kDims>
  void RunTyped(const RunContext& context) const {
    using Index = std::array<int64_t, kDims>;
    const char* input = context.Resolve(d_.input);
    const char* grid = context.Resolve(d_.grid);
    char* out = context.Resolve(d_.out);
    const int64_t bytes = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t channels = d_.input_shape[1];
    const auto& is = d_.input_strides;
    const auto& gs = d_.grid_strides;
    const auto& os = d_.out_strides;
    Index size{};
    for (size_t k = 0; k < kDims; ++k) size[k] = d_.input_shape[2 + k];
    const int64_t width_out = d_.out_size[kDims - 1];
    int64_t rows = d_.input_shape[0];  // output rows: n and every spatial index but the last
    for (size_t k = 0; k + 1 < kDims; ++k) rows *= d_.out_size[k];
    auto load = [&](const char* base, int64_t offset) {
      T value;
      Load(d_.dtype, base + offset * bytes, 1, 1, &value);
      return value;
    };
    auto coordinate = [&](T g, int64_t extent) {
      return ApplyPadding(Unnormalize(g, extent, d_.align_corners), extent, d_.padding, d_.align_corners);
    };
    // One output row per unit; a static split.
    ParallelFor(rows, 4, [&](int64_t begin, int64_t end) {
      std::vector<T> acc(static_cast<size_t>(channels));
      for (int64_t unit = begin; unit < end; ++unit) {
        Index o{};  // the output's spatial index
        int64_t rest = unit;
        for (size_t k = kDims - 1; k-- > 0;) {
          o[k] = rest % d_.out_size[k];
          rest /= d_.out_size[k];
        }
        const int64_t n = rest;
        // Adds weight * input[n, :, at...] where `at` lies inside the input (the padding is zero there).
        auto tap = [&](const Index& at, T weight) {
          int64_t offset = n * is[0];
          for (size_t k = 0; k < kDims; ++k) {
            if (at[k] < 0 || at[k] >= size[k]) return;
            offset += at[k] * is[2 + k];
          }
          for (int64_t c = 0; c < channels; ++c) {
            acc[static_cast<size_t>(c)] += weight * load(input, offset + c * is[1]);
          }
        };
        for (int64_t w = 0; w < width_out; ++w) {
          o[kDims - 1] = w;
          int64_t g = n * gs[0], y = n * os[0];
          for (size_t k = 0; k < kDims; ++k) {
            g += o[k] * gs[1 + k];
            y += o[k] * os[2 + k];
          }
          std::array<T, kDims> point{};
          bool finite = true;
          for (size_t k = 0; k < kDims; ++k) {
            const auto component = static_cast<int64_t>(kDims - 1 - k);  // (x, y[, z]): innermost first
            point[k] = load(grid, g + component * gs[kDims + 1]);
            finite = finite && std::isfinite(point[k]);
          }
          std::fill(acc.begin(), acc.end(), T(0));
          if (!finite && d_.padding == GridPadding::kZeros) {
            // no tap: a non-finite point reads nothing (zeros); border and reflection clip it
          } else if (kDims == 2 && d_.interpolation == GridInterpolation::kBicubic) {
            // Taps around the unpadded coordinate, each mapped through the padding rule (held
            // near the input under zeros padding, as ApplyPadding holds it).
            auto unpadded = [&](T g, int64_t extent) {
              const T c = Unnormalize(g, extent, d_.align_corners);
              return d_.padding == GridPadding::kZeros ? HeldNearInput(c, extent) : c;
            };
            const T py = unpadded(point[0], size[0]);
            const T px = unpadded(point[kDims - 1], size[kDims - 1]);
            const T x0 = std::floor(px), y0 = std::floor(py);
            const std::array<T, 4> wx = CubicWeights(px - x0), wy = CubicWeights(py - y0);
            for (int i = 0; i < 4; ++i) {
              for (int j = 0; j < 4; ++j) {
                const T tx = ApplyPadding(x0 - 1 + j, size[kDims - 1], d_.padding, d_.align_corners);
                const T ty = ApplyPadding(y0 - 1 + i, size[0], d_.padding, d_.align_corners);
                Index at{};
                at[0] = static_cast<int64_t>(std::floor(ty));
                at[kDims - 1] = static_cast<int64_t>(std::floor(tx));
                tap(at, wy[i] * wx[j]);
              }
            }
          } else {
            std::array<T, kDims> pos{};
            for (size_t k = 0; k < kDims; ++k) pos[k] = coordinate(point[k], size[k]);
            if (d_.interpolation == GridInterpolation::kNearest) {
              Index at{};
              for (size_t k = 0; k < kDims; ++k) at[k] = static_cast<int64_t>(std::nearbyint(pos[k]));
              tap(at, T(1));
            } else {
              // (Bi/tri)linear: the 2^kDims corners around the point, the innermost dimension's bit lowest.
              for (size_t corner = 0; corner < (size_t{1} << kDims); ++corner) {
                Index at{};
                T weight = 1;
                for (size_t k = 0; k < kDims; ++k) {
                  const T low = std::floor(pos[k]), t = pos[k] - low;
                  const bool up = ((corner >> (kDims - 1 - k)) & 1) != 0;
                  at[k] = static_cast<int64_t>(low) + (up ? 1 : 0);
                  weight *= up ? t : 1 - t;
                }
                tap(at, weight);
              }
            }
          }
          Store(acc.data(), d_.dtype, out + y * bytes, os[1], channels);
        }
      }
    });
  }

  GridSampleDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeGridSampleStep(const GridSampleDesc& desc) { return std::make_unique<GridSampleStep>(desc); }

}  // namespace canopy::kernels
