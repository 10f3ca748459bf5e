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
// v ranks below b: smaller, or NaN under a number (PyTorch's min).
template <typename T>
bool Below(T v, T b) {
  return (IsNan(v) && !IsNan(b)) || v < b;
}

// Integer sums and products wrap (two's complement) as PyTorch's do, without undefined behaviour.
template <typename T>
T Plus(T a, T b) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}
template <typename T>
T Times(T a, T b) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

const char* KindName(DimOpKind kind) {
  switch (kind) {
    case DimOpKind::kArgMax:
      return "argmax";
    case DimOpKind::kArgMin:
      return "argmin";
    case DimOpKind::kCumsum:
      return "cumsum";
    case DimOpKind::kCummax:
      return "cummax";
    case DimOpKind::kCummin:
      return "cummin";
    case DimOpKind::kArgsort:
      return "argsort";
    case DimOpKind::kTopk:
      return "topk";
    case DimOpKind::kCumprod:
      return "cumprod";
    case DimOpKind::kKthvalue:
      return "kthvalue";
    case DimOpKind::kMedian:
      return "median";
    case DimOpKind::kNanMedian:
      return "nanmedian";
  }
  return "?";
}

bool Selects(DimOpKind kind) {
  return kind == DimOpKind::kKthvalue || kind == DimOpKind::kMedian || kind == DimOpKind::kNanMedian;
}
bool DropsDim(DimOpKind kind) { return kind == DimOpKind::kArgMax || kind == DimOpKind::kArgMin || Selects(kind); }
bool Gathers(DimOpKind kind) { return kind == DimOpKind::kArgsort || kind == DimOpKind::kTopk || Selects(kind); }
bool Running(DimOpKind kind) { return kind == DimOpKind::kCumsum || kind == DimOpKind::kCumprod; }

// A run of `n` neighbouring lines (n = 1: one line): where each output starts and how they step.
struct Lines {
  int64_t in = 0, out = 0, values = 0;  // offsets, in elements
  int64_t n = 1;
  int64_t in_step = 0, out_step = 0, values_step = 0;
};

class DimOpStep final : public Step {
 public:
  explicit DimOpStep(const DimOpDesc& desc) : d_(desc) {
    length_ = desc.rank == 0 ? 1 : desc.shape[desc.dim];
    in_dim_ = desc.rank == 0 ? 0 : desc.in.strides[desc.dim];
    out_dim_ = desc.rank == 0 || DropsDim(desc.kind) ? 0 : desc.out.strides[desc.dim];
    values_dim_ = desc.rank == 0 || DropsDim(desc.kind) || !desc.has_values ? 0 : desc.values.strides[desc.dim];
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
      values_strides_[i] = desc.has_values ? desc.values.strides[order[i]] : 0;
    }
    rank_ = count;
    // Sorting gathers each line whole, so it never tiles.
    outer_ = !Gathers(desc.kind) && rank_ > 0 && in_strides_[rank_ - 1] < in_dim_;
    description_ = std::string(KindName(desc.kind)) + " " + DtypeName(desc.in.dtype) + " -> " +
                   DtypeName(desc.out.dtype) +
                   (desc.has_values ? std::string(" and ") + DtypeName(desc.values.dtype) : "") + ", lines of " +
                   std::to_string(length_) + (outer_ ? ", tiled" : "");
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(d_.in.buffer);
    char* out = context.Resolve(d_.out.buffer);
    char* values = d_.has_values ? context.Resolve(d_.values.buffer) : nullptr;
    // Compare in a type holding every value of self; sum in out's accumulator.
    const aclDataType typed = Running(d_.kind) ? d_.out.dtype : d_.in.dtype;
    if (IsComplex(typed)) {
      RunAs<std::complex<double>>(in, out, values);
    } else if (IsFloating(typed)) {
      RunAs<double>(in, out, values);
    } else {
      RunAs<int64_t>(in, out, values);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return description_; }

 private:
  // The offsets of row group `index` over the first `groups_rank` other dims.
  Lines LinesAt(int64_t index, int groups_rank) const {
    Lines l;
    DimOffsets(index, groups_rank, shape_, in_strides_, out_strides_, l.in, l.out);
    int64_t unused;
    if (d_.has_values) DimOffsets(index, groups_rank, shape_, in_strides_, values_strides_, unused, l.values);
    return l;
  }

  template <typename T>
  void RunAs(const char* in, char* out, char* values) const {
    if (length_ == 0) return;
    const auto lines = [&](const Lines& l) {
      if constexpr (kIsComplex<T>) {
        Cumsum<T>(in, out, l);
      } else {
        switch (d_.kind) {
          case DimOpKind::kArgMax:
          case DimOpKind::kArgMin:
            return ArgExtreme<T>(in, out, values, l);
          case DimOpKind::kCumsum:
          case DimOpKind::kCumprod:
            return Cumsum<T>(in, out, l);
          case DimOpKind::kCummax:
          case DimOpKind::kCummin:
            return CumExtreme<T>(in, out, values, l);
          case DimOpKind::kArgsort:
          case DimOpKind::kTopk:
            return Sort<T>(in, out, values, l);
          case DimOpKind::kKthvalue:
          case DimOpKind::kMedian:
          case DimOpKind::kNanMedian:
            return Select<T>(in, out, values, l);
        }
      }
    };
    if (!outer_) {
      int64_t rows = 1;
      for (int d = 0; d < rank_; ++d) rows *= shape_[d];
      ParallelFor(rows, std::max<int64_t>(1, kGrainElements / length_), [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) lines(LinesAt(row, rank_));
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
                    const int64_t first = (item % tiles) * tile_width;
                    Lines l = LinesAt(item / tiles, inner);
                    l.n = std::min(tile_width, width - first);
                    l.in_step = in_strides_[inner];
                    l.out_step = out_strides_[inner];
                    l.values_step = values_strides_[inner];
                    l.in += first * l.in_step;
                    l.out += first * l.out_step;
                    l.values += first * l.values_step;
                    lines(l);
                  }
                });
  }

  int64_t InBytes() const { return static_cast<int64_t>(DtypeSize(d_.in.dtype)); }
  int64_t OutBytes() const { return static_cast<int64_t>(DtypeSize(d_.out.dtype)); }
  int64_t ValuesBytes() const { return static_cast<int64_t>(DtypeSize(d_.values.dtype)); }

  // Element k of the lines into `row`.
  template <typename T>
  void LoadStep(const char* in, const Lines& l, int64_t k, T* row) const {
    Load(d_.in.dtype, in + (l.in + k * in_dim_) * InBytes(), l.in_step, l.n, row);
  }

  // Element k of the lines' indices (out) and values.
  template <typename T>
  void StoreStep(char* out, char* values, const Lines& l, int64_t k, const int64_t* index, const T* value) const {
    Store(index, d_.out.dtype, out + (l.out + k * out_dim_) * OutBytes(), l.out_step, l.n);
    if (values != nullptr) {
      Store(value, d_.values.dtype, values + (l.values + k * values_dim_) * ValuesBytes(), l.values_step, l.n);
    }
  }

  template <typename T>
  void ArgExtreme(const char* in, char* out, char* values, const Lines& l) const {
    const bool max = d_.kind == DimOpKind::kArgMax;
    std::vector<T> row(static_cast<size_t>(l.n)), best(static_cast<size_t>(l.n));
    std::vector<int64_t> index(static_cast<size_t>(l.n), 0);
    LoadStep(in, l, 0, best.data());
    for (int64_t k = 1; k < length_; ++k) {
      LoadStep(in, l, k, row.data());
      for (int64_t i = 0; i < l.n; ++i) {
        // The first extreme wins ties; once a NaN is best nothing ranks past it.
        if (max ? Above(row[i], best[i]) : Below(row[i], best[i])) {
          best[i] = row[i];
          index[i] = k;
        }
      }
    }
    StoreStep(out, values, l, 0, index.data(), best.data());
  }

  template <typename T>
  void CumExtreme(const char* in, char* out, char* values, const Lines& l) const {
    const bool max = d_.kind == DimOpKind::kCummax;
    std::vector<T> row(static_cast<size_t>(l.n)), best(static_cast<size_t>(l.n));
    std::vector<int64_t> index(static_cast<size_t>(l.n), 0);
    for (int64_t k = 0; k < length_; ++k) {
      LoadStep(in, l, k, row.data());
      for (int64_t i = 0; i < l.n; ++i) {
        // PyTorch's rule: a NaN, or (no NaN so far) an element at least as extreme, takes over.
        const bool takes =
            k == 0 || IsNan(row[i]) || (!IsNan(best[i]) && (max ? !(row[i] < best[i]) : !(row[i] > best[i])));
        if (takes) {
          best[i] = row[i];
          index[i] = k;
        }
      }
      StoreStep(out, values, l, k, index.data(), best.data());
    }
  }

  // Running sums (kCumsum) or products (kCumprod).
  template <typename T>
  void Cumsum(const char* in, char* out, const Lines& l) const {
    const bool product = d_.kind == DimOpKind::kCumprod;
    std::vector<T> row(static_cast<size_t>(l.n)), acc(static_cast<size_t>(l.n), product ? T{1} : T{});
    const auto combine = [product](T a, T b) { return product ? Times(a, b) : Plus(a, b); };
    for (int64_t step = 0; step < length_; ++step) {
      const int64_t k = d_.reverse ? length_ - 1 - step : step;
      LoadStep(in, l, k, row.data());
      char* dst = out + (l.out + k * out_dim_) * OutBytes();
      if (d_.exclusive) {
        Store(acc.data(), d_.out.dtype, dst, l.out_step, l.n);
        for (int64_t i = 0; i < l.n; ++i) acc[i] = combine(acc[i], row[i]);
      } else {
        for (int64_t i = 0; i < l.n; ++i) acc[i] = combine(acc[i], row[i]);
        Store(acc.data(), d_.out.dtype, dst, l.out_step, l.n);
      }
    }
  }

  // A stable sort of each line (one line at a time: sorting never tiles);
  // top-k keeps the first k.
  template <typename T>
  void Sort(const char* in, char* out, char* values, const Lines& l) const {
    const int64_t kept = d_.kind == DimOpKind::kTopk ? d_.k : length_;
    std::vector<T> line(static_cast<size_t>(length_)), sorted(static_cast<size_t>(kept));
    std::vector<int64_t> order(static_cast<size_t>(length_));
    Load(d_.in.dtype, in + l.in * InBytes(), in_dim_, length_, line.data());
    std::iota(order.begin(), order.end(), int64_t{0});
    const auto key = [&](int64_t i) { return line[static_cast<size_t>(i)]; };
    const auto before = [&](int64_t a, int64_t b) {
      return d_.descending ? Above(key(a), key(b)) : Above(key(b), key(a));
    };
    if (kept < length_) {
      // The first k in stable order: ties broken by position.
      std::partial_sort(order.begin(), order.begin() + kept, order.end(),
                        [&](int64_t a, int64_t b) { return before(a, b) || (!before(b, a) && a < b); });
    } else {
      std::stable_sort(order.begin(), order.end(), before);
    }
    Store(order.data(), d_.out.dtype, out + l.out * OutBytes(), out_dim_, kept);
    if (values == nullptr) return;
    for (int64_t i = 0; i < kept; ++i) sorted[static_cast<size_t>(i)] = key(order[static_cast<size_t>(i)]);
    Store(sorted.data(), d_.values.dtype, values + l.values * ValuesBytes(), values_dim_, kept);
  }

  // One element of each line's stable ascending order (see DimOpKind::kKthvalue),
  // found by a selection under a total order (value, then position): no full sort.
  template <typename T>
  void Select(const char* in, char* out, char* values, const Lines& l) const {
    std::vector<T> line(static_cast<size_t>(length_));
    Load(d_.in.dtype, in + l.in * InBytes(), in_dim_, length_, line.data());
    const auto key = [&](int64_t i) { return line[static_cast<size_t>(i)]; };
    int64_t index = -1;
    int64_t position = d_.k;
    if (d_.kind != DimOpKind::kKthvalue) {
      int64_t first_nan = -1, numbers = 0;
      for (int64_t i = 0; i < length_; ++i) {
        if (!IsNan(key(i))) {
          ++numbers;
        } else if (first_nan < 0) {
          first_nan = i;
        }
      }
      const bool nan_result = first_nan >= 0 && (d_.kind == DimOpKind::kMedian || numbers == 0);
      if (nan_result) index = first_nan;
      position = ((d_.kind == DimOpKind::kMedian ? length_ : numbers) - 1) / 2;
    }
    if (index < 0) {
      std::vector<int64_t> order(static_cast<size_t>(length_));
      std::iota(order.begin(), order.end(), int64_t{0});
      std::nth_element(order.begin(), order.begin() + position, order.end(), [&](int64_t a, int64_t b) {
        return Above(key(b), key(a)) || (!Above(key(a), key(b)) && a < b);
      });
      index = order[static_cast<size_t>(position)];
    }
    const T value = key(index);
    Store(&index, d_.out.dtype, out + l.out * OutBytes(), 0, 1);
    if (values != nullptr) Store(&value, d_.values.dtype, values + l.values * ValuesBytes(), 0, 1);
  }

  DimOpDesc d_;
  int64_t length_ = 1, in_dim_ = 0, out_dim_ = 0, values_dim_ = 0;
  int rank_ = 0;
  int64_t shape_[kMaxRank] = {}, in_strides_[kMaxRank] = {}, out_strides_[kMaxRank] = {},
          values_strides_[kMaxRank] = {};
  bool outer_ = false;
  std::string description_;
};

}  // namespace

std::unique_ptr<Step> MakeDimOpStep(const DimOpDesc& desc) { return std::make_unique<DimOpStep>(desc); }

}  // namespace canopy::kernels
