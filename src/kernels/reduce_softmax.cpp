// Softmax along one dimension (see reduce_softmax.h).
#include "reduce_softmax.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dtype.h"
#include "dim_offsets.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "reduce_rows.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRun = 1024;   // inner loop: elements of a row loaded at once
constexpr int64_t kTile = 1024;  // outer loop: neighbouring rows processed together
constexpr int64_t kGrainElements = 16 * 1024;
// Rows of f32 compute: elements of a row per unit of work (fixed, so a long row
// splits the same way on any team), loaded once into an f32 buffer in cache.
constexpr int64_t kRowChunk = 32 * 1024;

template <typename T>
T MaxPropagatingNan(T a, T b) {
  return (a != a || a > b) ? a : b;
}

class SoftmaxStep final : public Step {
 public:
  explicit SoftmaxStep(const SoftmaxDesc& desc) : log_(desc.log), in_(desc.in), out_(desc.out) {
    length_ = desc.rank == 0 ? 1 : desc.shape[desc.dim];
    in_dim_ = desc.rank == 0 ? 0 : desc.in.strides[desc.dim];
    out_dim_ = desc.rank == 0 ? 0 : desc.out.strides[desc.dim];
    // The other dims, ordered by input stride (largest first); the last is tiled when finer than the softmax dim.
    int order[kMaxRank];
    int count = 0;
    for (int d = 0; d < desc.rank; ++d) {
      if (d != desc.dim && desc.shape[d] != 1) order[count++] = d;
    }
    std::stable_sort(order, order + count, [&](int a, int b) { return desc.in.strides[a] > desc.in.strides[b]; });
    for (int i = 0; i < count; ++i) {
      shape_[i] = desc.shape[order[i]];
      in_strides_[i] = desc.in.strides[order[i]];
      out_strides_[i] = desc.out.strides[order[i]];
    }
    rank_ = count;
    outer_ = rank_ > 0 && in_strides_[rank_ - 1] < in_dim_;
    description_ = std::string(log_ ? "log-softmax " : "softmax ") + DtypeName(desc.in.dtype) + " -> " +
                   DtypeName(desc.out.dtype) + ", rows of " + std::to_string(length_) + (outer_ ? ", tiled" : "");
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(in_.buffer);
    char* out = context.Resolve(out_.buffer);
    if (in_.dtype == ACL_DOUBLE || out_.dtype == ACL_DOUBLE) {
      RunAs<double>(in, out);
    } else {
      RunAs<float>(in, out);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return description_; }

 private:
  // Offsets of row group `index` over the other dims (the tiled one excluded when outer).
  void Offsets(int64_t index, int groups_rank, int64_t& in_offset, int64_t& out_offset) const {
    DimOffsets(index, groups_rank, shape_, in_strides_, out_strides_, in_offset, out_offset);
  }

  template <typename T>
  T Finish(T x, T max, double sum) const {
    if (log_) return x - max - static_cast<T>(std::log(sum));
    return static_cast<T>(std::exp(static_cast<double>(x - max)) / sum);
  }

  template <typename T>
  void RunAs(const char* in, char* out) const {
    const int64_t in_element = static_cast<int64_t>(DtypeSize(in_.dtype));
    const int64_t out_element = static_cast<int64_t>(DtypeSize(out_.dtype));
    if (length_ == 0) return;
    if (!outer_) {
      if constexpr (std::is_same_v<T, float>) {
        RunRowsF32(in, out);
        return;
      }
      // One row at a time, loaded in runs: max, then the sum of exp, then the results.
      int64_t rows = 1;
      for (int d = 0; d < rank_; ++d) rows *= shape_[d];
      ParallelFor(rows, std::max<int64_t>(1, kGrainElements / length_), [&](int64_t begin, int64_t end) {
        std::vector<T> run(static_cast<size_t>(std::min(length_, kRun)));
        for (int64_t row = begin; row < end; ++row) {
          int64_t in_offset, out_offset;
          Offsets(row, rank_, in_offset, out_offset);
          const char* src = in + in_offset * in_element;
          char* dst = out + out_offset * out_element;
          T max = -INFINITY;
          for (int64_t k = 0; k < length_; k += kRun) {
            const int64_t n = std::min(kRun, length_ - k);
            Load(in_.dtype, src + k * in_dim_ * in_element, in_dim_, n, run.data());
            for (int64_t i = 0; i < n; ++i) max = MaxPropagatingNan(max, run[i]);
          }
          double sum = 0;
          for (int64_t k = 0; k < length_; k += kRun) {
            const int64_t n = std::min(kRun, length_ - k);
            Load(in_.dtype, src + k * in_dim_ * in_element, in_dim_, n, run.data());
            for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(run[i] - max));
          }
          for (int64_t k = 0; k < length_; k += kRun) {
            const int64_t n = std::min(kRun, length_ - k);
            Load(in_.dtype, src + k * in_dim_ * in_element, in_dim_, n, run.data());
            for (int64_t i = 0; i < n; ++i) run[i] = Finish(run[i], max, sum);
            Store(run.data(), out_.dtype, dst + k * out_dim_ * out_element, out_dim_, n);
          }
        }
      });
      return;
    }
    // A tile of neighbouring rows (along the finest other dim) walks the softmax dim together.
    const int inner = rank_ - 1;
    const int64_t width = shape_[inner], tile_width = std::min(kTile, width);
    const int64_t tiles = (width + tile_width - 1) / tile_width;
    int64_t groups = 1;
    for (int d = 0; d < inner; ++d) groups *= shape_[d];
    ParallelFor(
        groups * tiles, std::max<int64_t>(1, kGrainElements / (tile_width * length_)), [&](int64_t begin, int64_t end) {
          std::vector<T> row(static_cast<size_t>(tile_width)), max(static_cast<size_t>(tile_width));
          std::vector<double> sum(static_cast<size_t>(tile_width));
          for (int64_t item = begin; item < end; ++item) {
            const int64_t tile = item % tiles;
            const int64_t n = std::min(tile_width, width - tile * tile_width);
            int64_t in_offset, out_offset;
            Offsets(item / tiles, inner, in_offset, out_offset);
            in_offset += tile * tile_width * in_strides_[inner];
            out_offset += tile * tile_width * out_strides_[inner];
            const auto load = [&](int64_t k) {
              Load(in_.dtype, in + (in_offset + k * in_dim_) * in_element, in_strides_[inner], n, row.data());
            };
            std::fill(max.begin(), max.end(), static_cast<T>(-INFINITY));
            std::fill(sum.begin(), sum.end(), 0.0);
            for (int64_t k = 0; k < length_; ++k) {
              load(k);
              for (int64_t i = 0; i < n; ++i) max[i] = MaxPropagatingNan(max[i], row[i]);
            }
            for (int64_t k = 0; k < length_; ++k) {
              load(k);
              for (int64_t i = 0; i < n; ++i) sum[i] += std::exp(static_cast<double>(row[i] - max[i]));
            }
            for (int64_t k = 0; k < length_; ++k) {
              load(k);
              for (int64_t i = 0; i < n; ++i) row[i] = Finish(row[i], max[i], sum[i]);
              Store(row.data(), out_.dtype, out + (out_offset + k * out_dim_) * out_element, out_strides_[inner], n);
            }
          }
        });
  }

  // The rows of f16, bf16 and f32 data: each row, or each fixed chunk of a long
  // row, is loaded into an f32 buffer once and finished there (reduce_rows.h).
  // A row of one chunk is read from memory once; a longer one in fixed chunks:
  // each chunk's max and sum of exp(x - its max), then per row the combined max
  // M and sum S (chunk by chunk, in order), then each chunk's results from a
  // second read. Whole rows are the unit of work where there are enough for
  // the team, else chunks (the same sums either way).
  void RunRowsF32(const char* in, char* out) const {
    const int64_t in_element = static_cast<int64_t>(DtypeSize(in_.dtype));
    const int64_t out_element = static_cast<int64_t>(DtypeSize(out_.dtype));
    const RowKernels& k = Rows();
    int64_t rows = 1;
    for (int d = 0; d < rank_; ++d) rows *= shape_[d];
    const int64_t chunks = (length_ + kRowChunk - 1) / kRowChunk;
    const int64_t chunk_length = std::min(length_, kRowChunk);
    // Chunk c of row r: n elements from src to dst.
    const auto locate = [&](int64_t item, const char*& src, char*& dst, int64_t& n) {
      int64_t in_offset, out_offset;
      Offsets(item / chunks, rank_, in_offset, out_offset);
      const int64_t first = item % chunks * kRowChunk;
      n = std::min(kRowChunk, length_ - first);
      src = in + (in_offset + first * in_dim_) * in_element;
      dst = out + (out_offset + first * out_dim_) * out_element;
    };
    // Row values x of n elements with max m and sum s of exp(x - m) -> results, stored.
    const auto finish = [&](float* x, int64_t n, float m, double s, char* dst) {
      if (log_) {
        const auto log_sum = static_cast<float>(std::log(s));
        for (int64_t i = 0; i < n; ++i) x[i] = x[i] - m - log_sum;
      } else {
        if (chunks > 1) k.exp_sum(x, n, m, x);  // one chunk: x holds the terms already
        const auto scale = static_cast<float>(1 / s);
        for (int64_t i = 0; i < n; ++i) x[i] *= scale;
      }
      Store(x, out_.dtype, dst, out_dim_, n);
    };
    // Outputs far larger than the caches are stored past them (and not prefetched).
    const bool stream = StreamsOutput(rows * length_, out_element);
    const StoredRowKernels* fast =
        in_dim_ == 1 && out_dim_ == 1 && in_.dtype == out_.dtype ? StoredRows(in_.dtype, stream) : nullptr;
    if (chunks == 1 && fast != nullptr) {
      // Contiguous rows read where they lie: the max, the sum of the terms (kept
      // in f32 for softmax), the results.
      ParallelFor(rows, std::max<int64_t>(1, kGrainElements / length_), [&](int64_t begin, int64_t end) {
        std::vector<float> terms(log_ ? 0 : static_cast<size_t>(length_));
        for (int64_t row = begin; row < end; ++row) {
          const char* src;
          const char* next = nullptr;
          char* dst;
          int64_t n;
          if (row + 1 < end) locate(row + 1, next, dst, n);
          locate(row, src, dst, n);
          // The max pass brings this row's output into cache, the sum pass the next row's input.
          const float m = fast->max(src, n, stream ? nullptr : dst, n * out_element);
          if (log_) {
            const double s = fast->exp_sum(src, n, m, nullptr, next, n * in_element);
            fast->shift_store(src, dst, n, m, static_cast<float>(std::log(s)), nullptr, 0);
          } else {
            const double s = fast->exp_sum(src, n, m, terms.data(), next, n * in_element);
            fast->scale_store(terms.data(), dst, n, static_cast<float>(1 / s), nullptr, 0);
          }
        }
      });
      return;
    }
    if (chunks == 1) {
      // Each row's results are stored block by block, the next row loaded
      // between the blocks, so that memory stays busy while they are computed.
      ParallelFor(rows, std::max<int64_t>(1, kGrainElements / length_), [&](int64_t begin, int64_t end) {
        std::vector<float> buffers(static_cast<size_t>(2 * length_));
        float* x = buffers.data();
        float* next = x + length_;
        const char* src;
        char* dst;
        int64_t n;
        locate(begin, src, dst, n);
        Load(in_.dtype, src, in_dim_, n, x);
        for (int64_t row = begin; row < end; ++row) {
          const char* next_src = nullptr;
          if (row + 1 < end) locate(row + 1, next_src, dst, n);
          locate(row, src, dst, n);
          const float m = k.max(x, n);
          const double s = k.exp_sum(x, n, m, log_ ? nullptr : x);
          for (int64_t j = 0; j < n; j += kRun) {
            const int64_t count = std::min(kRun, n - j);
            finish(x + j, count, m, s, dst + j * out_dim_ * out_element);
            if (next_src != nullptr) Load(in_.dtype, next_src + j * in_dim_ * in_element, in_dim_, count, next + j);
          }
          std::swap(x, next);
        }
      });
      return;
    }
    const int64_t items = rows * chunks;
    std::vector<float> chunk_max(static_cast<size_t>(items)), row_max(static_cast<size_t>(rows));
    std::vector<double> chunk_sum(static_cast<size_t>(items)), row_sum(static_cast<size_t>(rows));
    const auto chunk_stats = [&](int64_t item, float* x) {
      const char* src;
      char* dst;
      int64_t n;
      locate(item, src, dst, n);
      float m;
      if (fast != nullptr) {
        m = fast->max(src, n, nullptr, 0);
        chunk_sum[static_cast<size_t>(item)] = fast->exp_sum(src, n, m, nullptr, nullptr, 0);
      } else {
        Load(in_.dtype, src, in_dim_, n, x);
        m = k.max(x, n);
        chunk_sum[static_cast<size_t>(item)] = k.exp_sum(x, n, m, nullptr);
      }
      chunk_max[static_cast<size_t>(item)] = m;
    };
    const auto combine = [&](int64_t r) {
      const float* m = chunk_max.data() + r * chunks;
      const double* s = chunk_sum.data() + r * chunks;
      float max = -INFINITY;
      for (int64_t c = 0; c < chunks; ++c) max = MaxPropagatingNan(max, m[c]);
      // A chunk of -inf only adds nothing below a larger max (its own sum is NaN: -inf - -inf).
      double sum = 0;
      for (int64_t c = 0; c < chunks; ++c) {
        if (m[c] == -INFINITY && max != -INFINITY) continue;
        sum += s[c] * std::exp(static_cast<double>(m[c]) - max);
      }
      row_max[static_cast<size_t>(r)] = max;
      row_sum[static_cast<size_t>(r)] = sum;
    };
    const auto chunk_results = [&](int64_t item, float* x) {
      const char* src;
      char* dst;
      int64_t n;
      locate(item, src, dst, n);
      const float m = row_max[static_cast<size_t>(item / chunks)];
      const double s = row_sum[static_cast<size_t>(item / chunks)];
      if (fast == nullptr) {
        Load(in_.dtype, src, in_dim_, n, x);
        finish(x, n, m, s, dst);
      } else if (log_) {
        fast->shift_store(src, dst, n, m, static_cast<float>(std::log(s)), nullptr, 0);
      } else {
        fast->exp_scale_store(src, dst, n, m, static_cast<float>(1 / s), nullptr, 0);
      }
    };
    // The second read takes the chunks last read first: those are still in cache.
    if (ParallelPieces(rows, 1) >= ParallelPieces(items, 1)) {
      // Enough rows for the team: each thread finishes whole rows.
      ParallelFor(rows, 1, [&](int64_t begin, int64_t end) {
        std::vector<float> x(static_cast<size_t>(chunk_length));
        for (int64_t r = begin; r < end; ++r) {
          for (int64_t c = 0; c < chunks; ++c) chunk_stats(r * chunks + c, x.data());
          combine(r);
          for (int64_t c = chunks; c-- > 0;) chunk_results(r * chunks + c, x.data());
        }
      });
      return;
    }
    ParallelFor(items, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> x(static_cast<size_t>(chunk_length));
      for (int64_t item = begin; item < end; ++item) chunk_stats(item, x.data());
    });
    for (int64_t r = 0; r < rows; ++r) combine(r);
    ParallelFor(items, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> x(static_cast<size_t>(chunk_length));
      for (int64_t item = end; item-- > begin;) chunk_results(item, x.data());
    });
  }

  bool log_;
  StridedOperand in_, out_;
  int64_t length_ = 1, in_dim_ = 0, out_dim_ = 0;
  int rank_ = 0;  // of the other dims
  int64_t shape_[kMaxRank] = {}, in_strides_[kMaxRank] = {}, out_strides_[kMaxRank] = {};
  bool outer_ = false;
  std::string description_;
};

class SoftmaxCrossEntropyStep final : public Step {
 public:
  explicit SoftmaxCrossEntropyStep(const SoftmaxCrossEntropyDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* features = context.Resolve(d_.features.buffer);
    const char* labels = context.Resolve(d_.labels.buffer);
    char* loss = context.Resolve(d_.loss.buffer);
    char* backprop = context.Resolve(d_.backprop.buffer);
    const auto bytes = [](const StridedOperand& t) { return static_cast<int64_t>(DtypeSize(t.dtype)); };
    const int64_t n = d_.classes;
    ParallelFor(d_.rows, std::max<int64_t>(1, kGrainElements / std::max<int64_t>(n, 1)),
                [&](int64_t begin, int64_t end) {
                  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
                  for (int64_t r = begin; r < end; ++r) {
                    Load(d_.features.dtype, features + r * d_.features.strides[0] * bytes(d_.features),
                         d_.features.strides[1], n, x.data());
                    Load(d_.labels.dtype, labels + r * d_.labels.strides[0] * bytes(d_.labels), d_.labels.strides[1], n,
                         y.data());
                    float max = -INFINITY;
                    for (int64_t i = 0; i < n; ++i) max = MaxPropagatingNan(max, x[i]);
                    double sum = 0;
                    for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(x[i]) - max);
                    const double log_sum = max + std::log(sum);  // log(sum_c exp(x_c))
                    double row_loss = 0;
                    for (int64_t i = 0; i < n; ++i) {
                      const double log_softmax = x[i] - log_sum;
                      row_loss -= y[i] * log_softmax;
                      x[i] = static_cast<float>(std::exp(log_softmax) - y[i]);
                    }
                    const auto value = static_cast<float>(row_loss);
                    Store(&value, d_.loss.dtype, loss + r * d_.loss.strides[0] * bytes(d_.loss), 1, 1);
                    Store(x.data(), d_.backprop.dtype, backprop + r * d_.backprop.strides[0] * bytes(d_.backprop),
                          d_.backprop.strides[1], n);
                  }
                });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("softmax cross-entropy ") + DtypeName(d_.features.dtype) + ", " + std::to_string(d_.rows) +
           " row(s) of " + std::to_string(d_.classes);
  }

 private:
  SoftmaxCrossEntropyDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeSoftmaxStep(const SoftmaxDesc& desc) { return std::make_unique<SoftmaxStep>(desc); }

std::unique_ptr<Step> MakeSoftmaxCrossEntropyStep(const SoftmaxCrossEntropyDesc& desc) {
  return std::make_unique<SoftmaxCrossEntropyStep>(desc);
}

}  // namespace canopy::kernels
