// Row normalisation (see reduce_norm.h).
#include "reduce_norm.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "reduce_rows.h"

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
    stream_ = d_.y.present && StreamsOutput(d_.rows * d_.length, static_cast<int64_t>(DtypeSize(d_.y.dtype)));
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
    const bool rms = d_.kind == NormKind::kRms;
    const RowKernels& k = Rows();
    const auto rstd_of = [&](double mean_square) { return 1.0 / std::sqrt(mean_square + d_.eps); };
    const auto length = static_cast<double>(d_.length);
    const StoredRowKernels* fast = FastRows();
    if (chunks_ == 1 && fast != nullptr) {
      // Contiguous rows read where they lie, gamma and beta in f32 once.
      ParallelFor(d_.rows, std::max<int64_t>(1, kGrainElements / d_.length), [&](int64_t begin, int64_t end) {
        std::vector<float> gamma(static_cast<size_t>(d_.length)), beta(d_.beta.present ? gamma.size() : 0);
        LoadChannels(d_.gamma, b.gamma, 0, 0, d_.length, 1.0f, gamma.data());
        if (d_.gamma_offset != 0) {
          for (float& g : gamma) g += static_cast<float>(d_.gamma_offset);
        }
        if (d_.beta.present) LoadChannels(d_.beta, b.beta, 0, 0, d_.length, 0.0f, beta.data());
        const int64_t x_element = ElementBytes(d_.x), y_element = ElementBytes(d_.y);
        for (int64_t r = begin; r < end; ++r) {
          const char* x = b.x + r * d_.x.row_stride * x_element;
          const char* next = r + 1 < end ? x + d_.x.row_stride * x_element : nullptr;
          char* y = b.y + r * d_.y.row_stride * y_element;
          // The first pass brings this row's output into cache (unless streamed), the next the next row's input.
          const int64_t x_bytes = d_.length * x_element, y_bytes = stream_ ? 0 : d_.length * y_element;
          double m = 0, s;
          if (rms) {
            s = rstd_of(fast->sum_squares(x, d_.length, y, y_bytes) / length);
          } else {
            m = fast->sum(x, d_.length, y, y_bytes) / length;
            s = rstd_of(fast->sum_squared_deviations(x, d_.length, m, next, x_bytes) / length);
          }
          StoreStats(b, r, m, s);
          fast->affine_store(x, y, d_.length, static_cast<float>(m), static_cast<float>(s), gamma.data(),
                             d_.beta.present ? beta.data() : nullptr, true, rms ? next : nullptr, x_bytes);
        }
      });
      return ACLNN_SUCCESS;
    }
    if (chunks_ == 1) {
      // Each row is loaded once (into f32, in cache), its statistics found and
      // its results stored; the next row loads block by block between the
      // results' blocks, so that memory stays busy while they are computed.
      ParallelFor(d_.rows, std::max<int64_t>(1, kGrainElements / d_.length), [&](int64_t begin, int64_t end) {
        Scratch scratch(d_.length);
        std::vector<float> other(static_cast<size_t>(d_.length));
        float* x = scratch.row.data();
        float* next = other.data();
        LoadWholeChunk(b, begin, 0, x, scratch);
        for (int64_t r = begin; r < end; ++r) {
          double m = 0, s;
          if (rms) {
            s = rstd_of(k.sum_squares(x, d_.length) / length);
          } else {
            m = k.sum(x, d_.length) / length;
            s = rstd_of(k.sum_squared_deviations(x, d_.length, m) / length);
          }
          StoreStats(b, r, m, s);
          Normalize(b, r, 0, m, s, x, scratch, [&](int64_t j, int64_t count) {
            if (r + 1 < end) LoadBlock(b, r + 1, j, count, next + j, scratch);
          });
          std::swap(x, next);
        }
      });
      return ACLNN_SUCCESS;
    }

    // Long rows: fixed chunks. Pass 1 finds each chunk's sum of squares
    // (RmsNorm) or its sum and squared deviations from its own mean (LayerNorm),
    // combined per row chunk by chunk (Chan et al.: the chunks' deviations, plus
    // their counts times their means' squared distance from the row's); pass 2
    // reads each chunk again and stores its results. Whole rows are the unit of
    // work where there are enough for the team, else chunks (the same sums).
    const int64_t items = d_.rows * chunks_;
    std::vector<double> sums(static_cast<size_t>(items)), squares(static_cast<size_t>(items));
    std::vector<double> mean(static_cast<size_t>(d_.rows), 0.0), rstd(static_cast<size_t>(d_.rows));
    const int64_t x_element = ElementBytes(d_.x), y_element = ElementBytes(d_.y);
    // gamma and beta of x's dtype, contiguous, unshifted: the whole-row kernels read them in place.
    const auto in_place = [&](const NormOperand& t) { return !t.present || (t.dtype == d_.x.dtype && t.stride == 1); };
    const bool raw_params = d_.gamma.present && in_place(d_.gamma) && in_place(d_.beta) && d_.gamma_offset == 0;
    const auto chunk_stats = [&](int64_t item, Scratch& scratch) {
      if (fast != nullptr) {
        const int64_t first = item % chunks_ * kChunk, n = std::min(kChunk, d_.length - first);
        const char* x = b.x + ((item / chunks_) * d_.x.row_stride + first) * x_element;
        const auto at = static_cast<size_t>(item);
        if (rms) {
          squares[at] = fast->sum_squares(x, n, nullptr, 0);
        } else {
          sums[at] = fast->sum(x, n, nullptr, 0);
          squares[at] = fast->sum_squared_deviations(x, n, sums[at] / static_cast<double>(n), nullptr, 0);
        }
        return;
      }
      float* x = scratch.row.data();
      const int64_t n = LoadWholeChunk(b, item / chunks_, item % chunks_ * kChunk, x, scratch);
      const auto at = static_cast<size_t>(item);
      if (rms) {
        squares[at] = k.sum_squares(x, n);
      } else {
        sums[at] = k.sum(x, n);
        squares[at] = k.sum_squared_deviations(x, n, sums[at] / static_cast<double>(n));
      }
    };
    const auto combine = [&](int64_t r) {
      const double* sum = sums.data() + r * chunks_;
      const double* square = squares.data() + r * chunks_;
      double m = 0, total = 0;
      if (!rms) {
        for (int64_t c = 0; c < chunks_; ++c) m += sum[c];
        m /= length;
      }
      for (int64_t c = 0; c < chunks_; ++c) {
        total += square[c];
        if (!rms) {
          const auto n = static_cast<double>(std::min(kChunk, d_.length - c * kChunk));
          const double distance = sum[c] / n - m;
          total += n * distance * distance;
        }
      }
      mean[static_cast<size_t>(r)] = m;
      rstd[static_cast<size_t>(r)] = rstd_of(total / length);
      StoreStats(b, r, m, rstd[static_cast<size_t>(r)]);
    };
    const auto chunk_results = [&](int64_t item, Scratch& scratch) {
      const int64_t r = item / chunks_;
      const int64_t first = item % chunks_ * kChunk;
      float* x = scratch.row.data();
      const int64_t n = std::min(kChunk, d_.length - first);
      if (fast != nullptr) {
        const char* x_chunk = b.x + (r * d_.x.row_stride + first) * x_element;
        char* y_chunk = b.y + (r * d_.y.row_stride + first) * y_element;
        const auto m = static_cast<float>(mean[static_cast<size_t>(r)]);
        const auto s = static_cast<float>(rstd[static_cast<size_t>(r)]);
        if (raw_params) {  // gamma (and beta) read where they lie
          const char* beta = d_.beta.present ? b.beta + first * x_element : nullptr;
          fast->affine_store(x_chunk, y_chunk, n, m, s, b.gamma + first * x_element, beta, false, nullptr, 0);
          return;
        }
        // gamma and beta of the chunk in f32 (x's buffer holds gamma, the per-block buffers are too short).
        float* gamma = x;
        LoadChannels(d_.gamma, b.gamma, r, first, n, 1.0f, gamma);
        if (d_.gamma_offset != 0) {
          for (int64_t i = 0; i < n; ++i) gamma[i] += static_cast<float>(d_.gamma_offset);
        }
        if (d_.beta.present) LoadChannels(d_.beta, b.beta, r, first, n, 0.0f, scratch.chunk_beta.data());
        fast->affine_store(x_chunk, y_chunk, n, m, s, gamma, d_.beta.present ? scratch.chunk_beta.data() : nullptr,
                           true, nullptr, 0);
        return;
      }
      for (int64_t j = 0; j < n; j += kBlock) {
        LoadRow(b, r, first + j, std::min(kBlock, n - j), x + j, scratch.x2.data());
      }
      Normalize(b, r, first, mean[static_cast<size_t>(r)], rstd[static_cast<size_t>(r)], x, scratch,
                [](int64_t, int64_t) {});
    };
    // The second read takes the chunks last read first: those are still in cache.
    if (ParallelPieces(d_.rows, 1) >= ParallelPieces(items, 1)) {
      // Enough rows for the team: each thread finishes whole rows.
      ParallelFor(d_.rows, 1, [&](int64_t begin, int64_t end) {
        Scratch scratch(kChunk, d_.beta.present ? kChunk : 0);
        for (int64_t r = begin; r < end; ++r) {
          for (int64_t c = 0; c < chunks_; ++c) chunk_stats(r * chunks_ + c, scratch);
          combine(r);
          for (int64_t c = chunks_; c-- > 0;) chunk_results(r * chunks_ + c, scratch);
        }
      });
      return ACLNN_SUCCESS;
    }
    ParallelFor(items, 1, [&](int64_t begin, int64_t end) {
      Scratch scratch(kChunk, d_.beta.present ? kChunk : 0);
      for (int64_t item = begin; item < end; ++item) chunk_stats(item, scratch);
    });
    for (int64_t r = 0; r < d_.rows; ++r) combine(r);
    ParallelFor(items, 1, [&](int64_t begin, int64_t end) {
      Scratch scratch(kChunk, d_.beta.present ? kChunk : 0);
      for (int64_t item = end; item-- > begin;) chunk_results(item, scratch);
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

  // A chunk of a row in f32, and the per-block buffers of its results.
  struct Scratch {
    explicit Scratch(int64_t length, int64_t beta_length = 0)
        : row(static_cast<size_t>(length)),
          x2(kBlock),
          gamma(kBlock),
          beta(kBlock),
          ada(kBlock),
          chunk_beta(static_cast<size_t>(beta_length)) {}
    std::vector<float> row, x2, gamma, beta, ada;
    std::vector<float> chunk_beta;  // a chunk's beta, for the whole-row kernels
  };

  // The whole-row kernels where the step is a plain normalisation of contiguous
  // rows into rows of the same dtype, per-channel gamma and beta (null otherwise).
  const StoredRowKernels* FastRows() const {
    const bool plain = !d_.x2.present && d_.x_scale == 1 && !d_.sum.present && !d_.y2.present &&
                       !d_.ada_scale.present && d_.swish_scale <= 0 && d_.groups == 1 && d_.repeat == 1;
    const bool contiguous = d_.y.present && d_.x.stride == 1 && d_.y.stride == 1 && d_.y.dtype == d_.x.dtype;
    return plain && contiguous ? StoredRows(d_.x.dtype, stream_) : nullptr;
  }

  // Loads elements [j, j + count) of row r (count <= kBlock) into x, storing x1 + x2 where asked.
  void LoadBlock(const Buffers& b, int64_t r, int64_t j, int64_t count, float* x, Scratch& scratch) const {
    LoadRow(b, r, j, count, x, scratch.x2.data());
    if (d_.sum.present) StoreRow(d_.sum, b.sum, r, j, count, x);
  }

  // Loads the chunk of row r from element `first` (up to kChunk elements) into
  // x, storing x1 + x2 where asked; returns its length.
  int64_t LoadWholeChunk(const Buffers& b, int64_t r, int64_t first, float* x, Scratch& scratch) const {
    const int64_t n = std::min(kChunk, d_.length - first);
    for (int64_t j = 0; j < n; j += kBlock) LoadBlock(b, r, first + j, std::min(kBlock, n - j), x + j, scratch);
    return n;
  }

  // The results of the chunk of row r from element `first`, whose values are in
  // x: normalised, scaled and shifted per channel, stored. between(j, count) runs
  // after each block [j, j + count) of the chunk.
  template <typename Between>
  void Normalize(const Buffers& b, int64_t r, int64_t first, double mean, double rstd, float* row, Scratch& scratch,
                 const Between& between) const {
    const auto m = static_cast<float>(mean);
    const auto s = static_cast<float>(rstd);
    const int64_t n = std::min(kChunk, d_.length - first);
    float* gamma = scratch.gamma.data();
    float* beta = scratch.beta.data();
    float* ada = scratch.ada.data();
    for (int64_t block = 0; block < n; block += kBlock) {
      const int64_t j = first + block, count = std::min(kBlock, n - block);
      float* x = row + block;
      LoadChannels(d_.gamma, b.gamma, r, j, count, 1.0f, gamma);
      if (d_.gamma_offset != 0) {
        for (int64_t i = 0; i < count; ++i) gamma[i] += static_cast<float>(d_.gamma_offset);
      }
      if (d_.beta.present) {
        LoadChannels(d_.beta, b.beta, r, j, count, 0.0f, beta);
        for (int64_t i = 0; i < count; ++i) x[i] = (x[i] - m) * s * gamma[i] + beta[i];
      } else {
        for (int64_t i = 0; i < count; ++i) x[i] = (x[i] - m) * s * gamma[i];
      }
      if (d_.swish_scale > 0) {
        const auto scale = static_cast<float>(d_.swish_scale);
        for (int64_t i = 0; i < count; ++i) x[i] = x[i] / (1.0f + std::exp(-scale * x[i]));
      }
      if (d_.ada_scale.present) {
        LoadAda(d_.ada_scale, b.ada_scale, r, j, count, ada);
        for (int64_t i = 0; i < count; ++i) x[i] *= 1.0f + ada[i];
        LoadAda(d_.ada_shift, b.ada_shift, r, j, count, ada);
        for (int64_t i = 0; i < count; ++i) x[i] += ada[i];
      }
      StoreRow(d_.y, b.y, r, j, count, x);
      if (d_.y2.present) StoreRow(d_.y2, b.y2, r, j, count, x);
      between(block, count);
    }
  }

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
  bool stream_ = false;  // outputs far larger than the caches: stored past them
  std::string description_;
};

}  // namespace

std::unique_ptr<Step> MakeNormStep(const NormDesc& desc) { return std::make_unique<NormStep>(desc); }

}  // namespace canopy::kernels
