// Operations along one dimension (see reduce_dim.h).
#include "reduce_dim.h"

#include <algorithm>
#include <complex>
#include <numeric>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dim_offsets.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kTile = 1024;  // neighbouring lines walked together when the dim is not the finest
constexpr int64_t kGrainElements = 16 * 1024;

template <typename T>
bool IsNan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

// v ranks above b: larger, or NaN over a number (PyTorch's max and sort order).
template <typename T>
bool Above(T v, T b) {
  return (IsNan(v) && !IsNan(b)) || v > b;
}

// Integer sums wrap (two's complement) as PyTorch's do, without undefined behaviour.
template <typename T>
T Plus(T a, T b) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}

const char* KindName(DimOpKind kind) {
  switch (kind) {
    case DimOpKind::kArgMax:
      return "argmax";
    case DimOpKind::kCumsum:
      return "cumsum";
    case DimOpKind::kArgsort:
      return "argsort";
  }
  return "?";
}

class DimOpStep final : public Step {
 public:
  explicit DimOpStep(const DimOpDesc& desc) : d_(desc) {
    length_ = desc.rank == 0 ? 1 : desc.shape[desc.dim];
    in_dim_ = desc.rank == 0 ? 0 : desc.in.strides[desc.dim];
    out_dim_ = desc.rank == 0 || desc.kind == DimOpKind::kArgMax ? 0 : desc.out.strides[desc.dim];
    // The other dims, ordered by input stride (largest first); the last is tiled when finer than the dim.
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
    // Argsort gathers each line whole, so it never tiles.
    outer_ = desc.kind != DimOpKind::kArgsort && rank_ > 0 && in_strides_[rank_ - 1] < in_dim_;
    description_ = std::string(KindName(desc.kind)) + " " + DtypeName(desc.in.dtype) + " -> " +
                   DtypeName(desc.out.dtype) + ", lines of " + std::to_string(length_) + (outer_ ? ", tiled" : "");
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(d_.in.buffer);
    char* out = context.Resolve(d_.out.buffer);
    // Compare in a type holding every value of self; sum in out's accumulator.
    const aclDataType typed = d_.kind == DimOpKind::kCumsum ? d_.out.dtype : d_.in.dtype;
    if (IsComplex(typed)) {
      RunAs<std::complex<double>>(in, out);
    } else if (IsFloating(typed)) {
      RunAs<double>(in, out);
    } else {
      RunAs<int64_t>(in, out);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return description_; }

 private:
  void Offsets(int64_t index, int groups_rank, int64_t& in_offset, int64_t& out_offset) const {
    DimOffsets(index, groups_rank, shape_, in_strides_, out_strides_, in_offset, out_offset);
  }

  template <typename T>
  void RunAs(const char* in, char* out) const {
    if (length_ == 0) return;
    const auto lines = [&](int64_t in_offset, int64_t out_offset, int64_t n, int64_t in_step, int64_t out_step) {
      if constexpr (kIsComplex<T>) {
        Cumsum<T>(in, out, in_offset, out_offset, n, in_step, out_step);
      } else {
        switch (d_.kind) {
          case DimOpKind::kArgMax:
            return ArgMax<T>(in, out, in_offset, out_offset, n, in_step, out_step);
          case DimOpKind::kCumsum:
            return Cumsum<T>(in, out, in_offset, out_offset, n, in_step, out_step);
          case DimOpKind::kArgsort:
            return Argsort<T>(in, out, in_offset, out_offset, n, in_step, out_step);
        }
      }
    };
    if (!outer_) {
      int64_t rows = 1;
      for (int d = 0; d < rank_; ++d) rows *= shape_[d];
      ParallelFor(rows, std::max<int64_t>(1, kGrainElements / length_), [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          int64_t in_offset, out_offset;
          Offsets(row, rank_, in_offset, out_offset);
          lines(in_offset, out_offset, 1, 0, 0);
        }
      });
      return;
    }
    const int inner = rank_ - 1;
    const int64_t width = shape_[inner], tile_width = std::min(kTile, width);
    const int64_t tiles = (width + tile_width - 1) / tile_width;
    int64_t groups = 1;
    for (int d = 0; d < inner; ++d) groups *= shape_[d];
    ParallelFor(groups * tiles, std::max<int64_t>(1, kGrainElements / (tile_width * length_)),
                [&](int64_t begin, int64_t end) {
                  for (int64_t item = begin; item < end; ++item) {
                    const int64_t tile = item % tiles;
                    const int64_t n = std::min(tile_width, width - tile * tile_width);
                    int64_t in_offset, out_offset;
                    Offsets(item / tiles, inner, in_offset, out_offset);
                    in_offset += tile * tile_width * in_strides_[inner];
                    out_offset += tile * tile_width * out_strides_[inner];
                    lines(in_offset, out_offset, n, in_strides_[inner], out_strides_[inner]);
                  }
                });
  }

  int64_t InBytes() const { return static_cast<int64_t>(DtypeSize(d_.in.dtype)); }
  int64_t OutBytes() const { return static_cast<int64_t>(DtypeSize(d_.out.dtype)); }

  // Element k of `n` neighbouring lines (in_step apart) into `row`.
  template <typename T>
  void LoadStep(const char* in, int64_t in_offset, int64_t k, int64_t n, int64_t in_step, T* row) const {
    Load(d_.in.dtype, in + (in_offset + k * in_dim_) * InBytes(), in_step, n, row);
  }

  template <typename T>
  void ArgMax(const char* in, char* out, int64_t in_offset, int64_t out_offset, int64_t n, int64_t in_step,
              int64_t out_step) const {
    std::vector<T> row(static_cast<size_t>(n)), best(static_cast<size_t>(n));
    std::vector<int64_t> index(static_cast<size_t>(n), 0);
    LoadStep(in, in_offset, 0, n, in_step, best.data());
    for (int64_t k = 1; k < length_; ++k) {
      LoadStep(in, in_offset, k, n, in_step, row.data());
      for (int64_t i = 0; i < n; ++i) {
        // The first largest wins ties; once a NaN is best nothing ranks above it.
        if (Above(row[i], best[i])) {
          best[i] = row[i];
          index[i] = k;
        }
      }
    }
    Store(index.data(), d_.out.dtype, out + out_offset * OutBytes(), out_step, n);
  }

  template <typename T>
  void Cumsum(const char* in, char* out, int64_t in_offset, int64_t out_offset, int64_t n, int64_t in_step,
              int64_t out_step) const {
    std::vector<T> row(static_cast<size_t>(n)), acc(static_cast<size_t>(n), T{});
    for (int64_t step = 0; step < length_; ++step) {
      const int64_t k = d_.reverse ? length_ - 1 - step : step;
      LoadStep(in, in_offset, k, n, in_step, row.data());
      char* dst = out + (out_offset + k * out_dim_) * OutBytes();
      if (d_.exclusive) {
        Store(acc.data(), d_.out.dtype, dst, out_step, n);
        for (int64_t i = 0; i < n; ++i) acc[i] = Plus(acc[i], row[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) acc[i] = Plus(acc[i], row[i]);
        Store(acc.data(), d_.out.dtype, dst, out_step, n);
      }
    }
  }

  template <typename T>
  void Argsort(const char* in, char* out, int64_t in_offset, int64_t out_offset, int64_t n, int64_t in_step,
               int64_t out_step) const {
    std::vector<T> values(static_cast<size_t>(length_));
    std::vector<int64_t> order(static_cast<size_t>(length_));
    for (int64_t line = 0; line < n; ++line) {
      Load(d_.in.dtype, in + (in_offset + line * in_step) * InBytes(), in_dim_, length_, values.data());
      std::iota(order.begin(), order.end(), int64_t{0});
      const auto key = [&](int64_t i) { return values[static_cast<size_t>(i)]; };
      if (d_.descending) {
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return Above(key(a), key(b)); });
      } else {
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return Above(key(b), key(a)); });
      }
      Store(order.data(), d_.out.dtype, out + (out_offset + line * out_step) * OutBytes(), out_dim_, length_);
    }
  }

  DimOpDesc d_;
  int64_t length_ = 1, in_dim_ = 0, out_dim_ = 0;
  int rank_ = 0;
  int64_t shape_[kMaxRank] = {}, in_strides_[kMaxRank] = {}, out_strides_[kMaxRank] = {};
  bool outer_ = false;
  std::string description_;
};

}  // namespace

std::unique_ptr<Step> MakeDimOpStep(const DimOpDesc& desc) { return std::make_unique<DimOpStep>(desc); }

}  // namespace canopy::kernels
