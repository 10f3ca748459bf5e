// Row normalisation (see reduce_norm.h).
#include "reduce_norm.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

// Fixed sizes: they, and never the thread count, decide how a row is split.
constexpr int64_t kBlock = 1024;       // elements loaded at once
constexpr int64_t kChunk = 32 * 1024;  // elements per partial sum (a multiple of kBlock)
constexpr int64_t kGrainElements = 16 * 1024;

class NormStep final : public Step {
 public:
  explicit NormStep(const NormDesc& desc) : d_(desc) {
    chunks_ = std::max<int64_t>(1, (d_.length + kChunk - 1) / kChunk);
    description_ = std::string(d_.kind == NormKind::kRms ? "rms-norm " : "layer-norm ") + DtypeName(d_.x.dtype) +
                   (d_.x2.present ? (d_.x_scale != 1 ? " (alpha x1 + x2)" : " (x1 + x2)") : "") + " -> " +
                   DtypeName(d_.y.dtype) + ", " + std::to_string(d_.rows) + " row(s) of " + std::to_string(d_.length) +
                   (d_.groups > 1 || d_.repeat > 1 ? ", grouped" : "") +
                   (d_.y2.present ? std::string(" and ") + DtypeName(d_.y2.dtype) : "") +
                   (d_.ada_scale.present ? ", adaptive scale and shift" : "");
  }

  aclnnStatus Run(const RunContext& context) const override {
    Buffers b;
    b.x = context.Resolve(d_.x.buffer);
    if (d_.x2.present) b.x2 = context.Resolve(d_.x2.buffer);
    if (d_.sum.present) b.sum = context.Resolve(d_.sum.buffer);
    if (d_.gamma.present) b.gamma = context.Resolve(d_.gamma.buffer);
    if (d_.beta.present) b.beta = context.Resolve(d_.beta.buffer);
    if (d_.y.present) b.y = context.Resolve(d_.y.buffer);
    if (d_.y2.present) b.y2 = context.Resolve(d_.y2.buffer);
    if (d_.ada_scale.present) b.ada_scale = context.Resolve(d_.ada_scale.buffer);
    if (d_.ada_shift.present) b.ada_shift = context.Resolve(d_.ada_shift.buffer);
    if (d_.mean.present) b.mean = context.Resolve(d_.mean.buffer);
    if (d_.rstd.present) b.rstd = context.Resolve(d_.rstd.buffer);
    if (d_.rows == 0) return ACLNN_SUCCESS;
    if (d_.length == 0) {
      // Statistics of nothing: mean 0, rstd NaN (as CANN fills them); y is empty.
      for (int64_t r = 0; r < d_.rows; ++r) StoreStats(b, r, 0.0, std::nan(""));
      return ACLNN_SUCCESS;
    }
    const int64_t items = d_.rows * chunks_;
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::min(d_.length, kChunk));
    std::vector<double> partial(static_cast<size_t>(items));
    std::vector<double> mean(static_cast<size_t>(d_.rows), 0.0), rstd(static_cast<size_t>(d_.rows));

    // Pass 1: sums (LayerNorm) or sums of squares (RmsNorm); x1 + x2 stored once here.
    const bool rms = d_.kind == NormKind::kRms;
    ParallelFor(items, grain, [&](int64_t begin, int64_t end) {
      std::vector<float> x(kBlock), x2(kBlock);
      for (int64_t item = begin; item < end; ++item) {
        const int64_t r = item / chunks_;
        double acc = 0;
        ForBlocks(item, [&](int64_t j, int64_t n) {
          LoadRow(b, r, j, n, x.data(), x2.data());
          if (d_.sum.present) StoreRow(d_.sum, b.sum, r, j, n, x.data());
          if (rms) {
            for (int64_t i = 0; i < n; ++i) acc += static_cast<double>(x[i]) * x[i];
          } else {
            for (int64_t i = 0; i < n; ++i) acc += x[i];
          }
        });
        partial[static_cast<size_t>(item)] = acc;
      }
    });
    const auto row_total = [&](int64_t r) {
      double total = 0;
      for (int64_t c = 0; c < chunks_; ++c) total += partial[static_cast<size_t>(r * chunks_ + c)];
      return total / static_cast<double>(d_.length);
    };
    if (rms) {
      for (int64_t r = 0; r < d_.rows; ++r) rstd[static_cast<size_t>(r)] = 1.0 / std::sqrt(row_total(r) + d_.eps);
    } else {
      for (int64_t r = 0; r < d_.rows; ++r) mean[static_cast<size_t>(r)] = row_total(r);
      // Pass 2: the variance from the deviations.
      ParallelFor(items, grain, [&](int64_t begin, int64_t end) {
        std::vector<float> x(kBlock), x2(kBlock);
        for (int64_t item = begin; item < end; ++item) {
          const int64_t r = item / chunks_;
          const double m = mean[static_cast<size_t>(r)];
          double acc = 0;
          ForBlocks(item, [&](int64_t j, int64_t n) {
            LoadRow(b, r, j, n, x.data(), x2.data());
            for (int64_t i = 0; i < n; ++i) {
              const double dev = x[i] - m;
              acc += dev * dev;
            }
          });
          partial[static_cast<size_t>(item)] = acc;
        }
      });
      for (int64_t r = 0; r < d_.rows; ++r) rstd[static_cast<size_t>(r)] = 1.0 / std::sqrt(row_total(r) + d_.eps);
    }
    for (int64_t r = 0; r < d_.rows; ++r) StoreStats(b, r, mean[static_cast<size_t>(r)], rstd[static_cast<size_t>(r)]);

    // Last pass: the normalised rows, scaled and shifted per channel.
    ParallelFor(items, grain, [&](int64_t begin, int64_t end) {
      std::vector<float> x(kBlock), x2(kBlock), gamma(kBlock), beta(kBlock), ada(kBlock);
      for (int64_t item = begin; item < end; ++item) {
        const int64_t r = item / chunks_;
        const auto m = static_cast<float>(mean[static_cast<size_t>(r)]);
        const auto s = static_cast<float>(rstd[static_cast<size_t>(r)]);
        ForBlocks(item, [&](int64_t j, int64_t n) {
          LoadRow(b, r, j, n, x.data(), x2.data());
          LoadChannels(d_.gamma, b.gamma, r, j, n, 1.0f, gamma.data());
          if (d_.gamma_offset != 0) {
            for (int64_t i = 0; i < n; ++i) gamma[i] += static_cast<float>(d_.gamma_offset);
          }
          LoadChannels(d_.beta, b.beta, r, j, n, 0.0f, beta.data());
          for (int64_t i = 0; i < n; ++i) x[i] = (x[i] - m) * s * gamma[i] + beta[i];
          if (d_.swish_scale > 0) {
            const auto scale = static_cast<float>(d_.swish_scale);
            for (int64_t i = 0; i < n; ++i) x[i] = x[i] / (1.0f + std::exp(-scale * x[i]));
          }
          if (d_.ada_scale.present) {
            LoadAda(d_.ada_scale, b.ada_scale, r, j, n, ada.data());
            for (int64_t i = 0; i < n; ++i) x[i] *= 1.0f + ada[i];
            LoadAda(d_.ada_shift, b.ada_shift, r, j, n, ada.data());
            for (int64_t i = 0; i < n; ++i) x[i] += ada[i];
          }
          StoreRow(d_.y, b.y, r, j, n, x.data());
          if (d_.y2.present) StoreRow(d_.y2, b.y2, r, j, n, x.data());
        });
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return description_; }

 private:
  struct Buffers {
    const char* x = nullptr;
    const char* x2 = nullptr;
    char* sum = nullptr;
    const char* gamma = nullptr;
    const char* beta = nullptr;
    char* y = nullptr;
    char* y2 = nullptr;
    const char* ada_scale = nullptr;
    const char* ada_shift = nullptr;
    char* mean = nullptr;
    char* rstd = nullptr;
  };

  static int64_t ElementBytes(const NormOperand& t) { return static_cast<int64_t>(DtypeSize(t.dtype)); }

  // Calls body(j, n) over the blocks of chunk (item % chunks_) of a row.
  template <typename Body>
  void ForBlocks(int64_t item, const Body& body) const {
    const int64_t first = (item % chunks_) * kChunk;
    const int64_t last = std::min(d_.length, first + kChunk);
    for (int64_t j = first; j < last; j += kBlock) body(j, std::min(kBlock, last - j));
  }

  // Elements [j, j + n) of row r of x (plus x2), as f32.
  void LoadRow(const Buffers& b, int64_t r, int64_t j, int64_t n, float* x, float* x2) const {
    const int64_t offset = r * d_.x.row_stride + j * d_.x.stride;
    Load(d_.x.dtype, b.x + offset * ElementBytes(d_.x), d_.x.stride, n, x);
    if (d_.x_scale != 1) {
      const auto scale = static_cast<float>(d_.x_scale);
      for (int64_t i = 0; i < n; ++i) x[i] *= scale;
    }
    if (!d_.x2.present) return;
    const int64_t offset2 = r * d_.x2.row_stride + j * d_.x2.stride;
    Load(d_.x2.dtype, b.x2 + offset2 * ElementBytes(d_.x2), d_.x2.stride, n, x2);
    for (int64_t i = 0; i < n; ++i) x[i] += x2[i];
  }

  static void StoreRow(const NormOperand& t, char* base, int64_t r, int64_t j, int64_t n, const float* values) {
    const int64_t offset = r * t.row_stride + j * t.stride;
    Store(values, t.dtype, base + offset * ElementBytes(t), t.stride, n);
  }

  // gamma or beta for elements [j, j + n) of row r (`absent` where not given).
  void LoadChannels(const NormOperand& t, const char* base, int64_t r, int64_t j, int64_t n, float absent,
                    float* dst) const {
    if (!t.present) {
      std::fill(dst, dst + n, absent);
      return;
    }
    const int64_t channels_per_row = d_.length / d_.repeat;
    const int64_t first_channel = (r % d_.groups) * channels_per_row;
    if (d_.repeat == 1) {
      Load(t.dtype, base + (first_channel + j) * t.stride * ElementBytes(t), t.stride, n, dst);
      return;
    }
    for (int64_t i = 0; i < n;) {  // runs of `repeat` elements share a channel
      const int64_t element = j + i;
      const int64_t channel = first_channel + element / d_.repeat;
      const int64_t run = std::min(n - i, d_.repeat - element % d_.repeat);
      float value;
      Load(t.dtype, base + channel * t.stride * ElementBytes(t), 1, 1, &value);
      std::fill(dst + i, dst + i + run, value);
      i += run;
    }
  }

  // AdaLayerNorm's scale or shift for elements [j, j + n) of row r.
  void LoadAda(const NormOperand& t, const char* base, int64_t r, int64_t j, int64_t n, float* dst) const {
    const int64_t offset = (r / d_.ada_rows) * t.row_stride + j * t.stride;
    Load(t.dtype, base + offset * ElementBytes(t), t.stride, n, dst);
  }

  void StoreStats(const Buffers& b, int64_t r, double mean, double rstd) const {
    const auto store = [r](const NormOperand& t, char* base, double value) {
      if (!t.present) return;
      const auto v = static_cast<float>(value);
      Store(&v, t.dtype, base + r * t.row_stride * ElementBytes(t), 1, 1);
    };
    store(d_.mean, b.mean, mean);
    store(d_.rstd, b.rstd, rstd);
  }

  NormDesc d_;
  int64_t chunks_ = 1;
  std::string description_;
};

}  // namespace

std::unique_ptr<Step> MakeNormStep(const NormDesc& desc) { return std::make_unique<NormStep>(desc); }

}  // namespace canopy::kernels
