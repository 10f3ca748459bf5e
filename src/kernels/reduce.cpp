// The reduction engine (see reduce.h).
#include "reduce.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dim_offsets.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "reduce_rows.h"

namespace canopy::kernels {
namespace {

// Fixed sizes: they, and never the thread count, decide how a sum is split.
constexpr int64_t kBlock = 512;        // inner loop: elements loaded and summed at once
constexpr int64_t kChunk = 64 * 1024;  // inner loop: reduced elements per partial sum (a multiple of kBlock)
// Outer loop: neighbouring outputs accumulated together. Wide, so that each row
// is read as long runs of whole pages (short runs 16 KiB apart defeat the
// hardware prefetcher and the TLB: 4.4x slower than the inner loop at 256).
constexpr int64_t kTile = 4096;
constexpr int64_t kRowBlock = 16;              // outer loop: rows added serially before the cascade
constexpr int64_t kRowChunk = 256;             // outer loop: rows per partial sum (a multiple of kRowBlock)
constexpr int kLevels = 48;                    // cascade depth of a scalar sum: 2^48 blocks
constexpr int kLanes = 64;                     // independent accumulators of a block sum (4 AVX-512 vectors)
constexpr int64_t kGrainElements = 16 * 1024;  // less work than this per piece does not fork

// Integer sums wrap (two's complement) as PyTorch's do, without undefined behaviour.
template <typename A>
inline A Plus(A a, A b) {
  if constexpr (std::is_same_v<A, int64_t>) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}

// Integer products wrap as PyTorch's do.
template <typename A>
inline A Times(A a, A b) {
  if constexpr (std::is_same_v<A, int64_t>) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

// How partial results combine: Identity() is what an empty reduction gives.
template <typename A>
struct SumCombine {
  static A Identity() { return A{}; }
  static A Apply(A a, A b) { return Plus(a, b); }
};
template <typename A>
struct ProdCombine {
  static A Identity() { return A{1}; }
  static A Apply(A a, A b) { return Times(a, b); }
};
// Max and min propagate NaN, as PyTorch's amax / amin do.
template <typename A>
struct MaxCombine {
  static A Identity() {
    return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity()
                                                : std::numeric_limits<A>::lowest();
  }
  static A Apply(A a, A b) { return (a != a || a > b) ? a : b; }  // a NaN a wins; a NaN b wins the comparison
};
template <typename A>
struct MinCombine {
  static A Identity() {
    return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity() : std::numeric_limits<A>::max();
  }
  static A Apply(A a, A b) { return (a != a || a < b) ? a : b; }
};

// Pairwise combination of vectors of `width` values added in order: level l
// holds the sum of 2^l consecutive ones, so the rounding error grows with the
// logarithm of the count, not the count. `storage` holds levels * width values;
// LevelsFor(n) levels take n additions.
template <typename A, typename C>
class Cascade {
 public:
  Cascade(A* storage, int64_t width, int levels = kLevels) : levels_(storage), width_(width), count_(levels) {}
  void Add(A* values) {  // `values` is used as scratch
    for (int l = 0; l < count_; ++l) {
      A* level = levels_ + l * width_;
      if ((full_ & (uint64_t{1} << l)) == 0) {
        std::copy(values, values + width_, level);
        full_ |= uint64_t{1} << l;
        return;
      }
      for (int64_t i = 0; i < width_; ++i) values[i] = C::Apply(level[i], values[i]);
      full_ &= ~(uint64_t{1} << l);
    }
  }
  void Total(A* out) const {
    std::fill(out, out + width_, C::Identity());
    for (int l = 0; l < count_; ++l) {
      if ((full_ & (uint64_t{1} << l)) == 0) continue;
      const A* level = levels_ + l * width_;
      for (int64_t i = 0; i < width_; ++i) out[i] = C::Apply(level[i], out[i]);
    }
  }

 private:
  A* levels_;
  int64_t width_;
  int count_;
  uint64_t full_ = 0;
};

int LevelsFor(int64_t additions) { return std::bit_width(static_cast<uint64_t>(std::max<int64_t>(additions, 1))) + 1; }

template <typename A, typename C>
A BlockSum(const A* values, int64_t n) {
  A lanes[kLanes];
  std::fill(lanes, lanes + kLanes, C::Identity());
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] = C::Apply(lanes[l], values[i + l]);
  }
  for (int l = 0; l < kLanes && i < n; ++l, ++i)
    lanes[l] = C::Apply(lanes[l], values[i]);  // the tail: fewer than kLanes
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] = C::Apply(lanes[l], lanes[l + width]);
  }
  return lanes[0];
}

// A group of dimensions (kept or reduced) ordered outermost first.
struct Dims {
  int rank = 0;
  int64_t shape[kMaxRank] = {};
  int64_t in[kMaxRank] = {};
  int64_t out[kMaxRank] = {};
  int64_t Count() const {
    int64_t count = 1;
    for (int d = 0; d < rank; ++d) count *= shape[d];
    return count;
  }
  // The input and output offsets of linear index `index` over the group.
  void Offsets(int64_t index, int64_t& in_offset, int64_t& out_offset) const {
    DimOffsets(index, rank, shape, in, out, in_offset, out_offset);
  }
};

// Orders `dims` by input stride, largest first, and merges neighbours that step
// through memory as one dimension (for kept dims, in the output as well).
void SortAndCoalesce(Dims& dims, bool with_out) {
  int order[kMaxRank];
  std::iota(order, order + dims.rank, 0);
  std::stable_sort(order, order + dims.rank, [&](int a, int b) {
    return dims.in[a] != dims.in[b] ? dims.in[a] > dims.in[b] : dims.out[a] > dims.out[b];
  });
  Dims sorted;
  for (int i = 0; i < dims.rank; ++i) {
    const int d = order[i];
    if (sorted.rank > 0) {
      const int last = sorted.rank - 1;
      const bool merges = sorted.in[last] == dims.in[d] * dims.shape[d] &&
                          (!with_out || sorted.out[last] == dims.out[d] * dims.shape[d]);
      if (merges) {
        sorted.shape[last] *= dims.shape[d];
        sorted.in[last] = dims.in[d];
        sorted.out[last] = dims.out[d];
        continue;
      }
    }
    sorted.shape[sorted.rank] = dims.shape[d];
    sorted.in[sorted.rank] = dims.in[d];
    sorted.out[sorted.rank] = dims.out[d];
    ++sorted.rank;
  }
  if (sorted.rank == 0) sorted = Dims{1, {1}, {0}, {0}};  // one element: a scalar result, or a sum of one
  dims = sorted;
}

const char* KindName(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::kSum:
      return "sum";
    case ReduceKind::kMean:
      return "mean";
    case ReduceKind::kMax:
      return "max";
    case ReduceKind::kMin:
      return "min";
    case ReduceKind::kNorm:
      return "p-norm";
    case ReduceKind::kProd:
      return "prod";
    case ReduceKind::kNansum:
      return "nansum";
    case ReduceKind::kAny:
      return "any";
    case ReduceKind::kAll:
      return "all";
    case ReduceKind::kVariance:
      return "variance";
    case ReduceKind::kLogSumExp:
      return "log-sum-exp";
  }
  return "?";
}

class ReduceStep final : public Step {
 public:
  explicit ReduceStep(const ReduceDesc& desc)
      : kind_(desc.kind),
        p_(desc.p),
        correction_(desc.correction),
        root_(desc.root),
        in_(desc.in),
        out_(desc.out),
        center_(desc.center),
        acc_(ReduceAccumulatorDtype(desc)) {
    for (int d = 0; d < desc.rank; ++d) {
      if (desc.shape[d] == 1) continue;  // steps nowhere
      Dims& group = desc.reduced[d] ? reduced_ : kept_;
      group.shape[group.rank] = desc.shape[d];
      group.in[group.rank] = desc.in.strides[d];
      group.out[group.rank] = desc.reduced[d] ? 0 : desc.out.strides[d];
      ++group.rank;
    }
    const bool some_kept = kept_.rank > 0;
    const bool some_reduced = reduced_.rank > 0;
    SortAndCoalesce(kept_, true);
    SortAndCoalesce(reduced_, false);
    // Outer when a kept dimension steps through memory more finely than every
    // reduced one: a tile of outputs then reads contiguous runs of each row.
    outer_ = some_kept && (!some_reduced || kept_.in[kept_.rank - 1] < reduced_.in[reduced_.rank - 1]);
    // Sums of f32, f16 or bf16 over one contiguous run: the vector block sum (the same sums, bit for bit).
    if (!outer_ && acc_ == ACL_FLOAT && (kind_ == ReduceKind::kSum || kind_ == ReduceKind::kMean) &&
        reduced_.rank == 1 && reduced_.in[0] == 1) {
      if (const StoredRowKernels* fast = StoredRows(in_.dtype)) block_sum_ = fast->block_sum;
    }
    if (outer_ && acc_ == ACL_FLOAT && (kind_ == ReduceKind::kSum || kind_ == ReduceKind::kMean)) {
      if (const StoredRowKernels* fast = StoredRows(in_.dtype)) add_rows_ = fast->add_rows;
    }
    description_ = std::string("reduce ") + KindName(kind_) + " " + DtypeName(in_.dtype) + " -> " +
                   DtypeName(out_.dtype) + " in " + DtypeName(acc_) + ", " + std::to_string(kept_.Count()) +
                   " output(s) of " + std::to_string(reduced_.Count()) + " element(s), " +
                   (outer_ ? "outer" : "inner") + " loop";
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(in_.buffer);
    char* out = context.Resolve(out_.buffer);
    const char* center = IsCentered(kind_) ? context.Resolve(center_.buffer) : nullptr;
    switch (acc_) {
      case ACL_FLOAT:
        return RunAs<float>(in, out, center);
      case ACL_DOUBLE:
        return RunAs<double>(in, out, center);
      case ACL_COMPLEX64:
        return RunAs<std::complex<float>>(in, out, center);
      case ACL_COMPLEX128:
        return RunAs<std::complex<double>>(in, out, center);
      default:
        return RunAs<int64_t>(in, out, center);
    }
  }

  std::string Describe() const override { return description_; }

 private:
  template <typename A>
  aclnnStatus RunAs(const char* in, char* out, const char* center) const {
    if (kept_.Count() == 0) return ACLNN_SUCCESS;
    if constexpr (!kIsComplex<A>) {
      const bool norm = kind_ == ReduceKind::kNorm;
      if (kind_ == ReduceKind::kMax || kind_ == ReduceKind::kAny || (norm && p_ == INFINITY)) {
        return RunWith<A, MaxCombine<A>>(in, out, center);
      }
      if (kind_ == ReduceKind::kMin || kind_ == ReduceKind::kAll || (norm && p_ == -INFINITY)) {
        return RunWith<A, MinCombine<A>>(in, out, center);
      }
    }
    if (kind_ == ReduceKind::kProd) return RunWith<A, ProdCombine<A>>(in, out, center);
    return RunWith<A, SumCombine<A>>(in, out, center);
  }

  template <typename A, typename C>
  aclnnStatus RunWith(const char* in, char* out, const char* center) const {
    if (outer_) {
      RunOuter<A, C>(in, out, center);
    } else {
      RunInner<A, C>(in, out, center);
    }
    return ACLNN_SUCCESS;
  }

  // Whether loaded elements are mapped before they are combined (so never added in place).
  bool Maps() const {
    return kind_ == ReduceKind::kNorm || kind_ == ReduceKind::kNansum || kind_ == ReduceKind::kAny ||
           kind_ == ReduceKind::kAll || IsCentered(kind_);
  }

  // Log-sum-exp's shift: the max where finite, else 0 (a row of -inf gives -inf, one with +inf gives +inf).
  template <typename A>
  static A Shift(A center) {
    return std::isfinite(center) ? center : A{0};
  }

  // What each kind combines for each loaded element; `center` holds one value
  // per element, `center_step` apart (0: one value for all).
  template <typename A>
  void Map(A* values, int64_t n, const A* center, int64_t center_step) const {
    if constexpr (!kIsComplex<A>) {
      if (kind_ == ReduceKind::kAny || kind_ == ReduceKind::kAll) {
        for (int64_t i = 0; i < n; ++i) values[i] = values[i] != 0 ? A{1} : A{0};  // NaN is non-zero
        return;
      }
    }
    if constexpr (std::is_floating_point_v<A>) {
      if (kind_ == ReduceKind::kNansum) {
        for (int64_t i = 0; i < n; ++i) values[i] = values[i] != values[i] ? A{0} : values[i];
        return;
      }
      if (kind_ == ReduceKind::kVariance) {
        for (int64_t i = 0; i < n; ++i) {
          const A deviation = values[i] - center[i * center_step];
          values[i] = deviation * deviation;
        }
        return;
      }
      if (kind_ == ReduceKind::kLogSumExp) {
        for (int64_t i = 0; i < n; ++i) values[i] = std::exp(values[i] - Shift(center[i * center_step]));
        return;
      }
      if (kind_ != ReduceKind::kNorm) return;
      if (p_ == 0) {
        for (int64_t i = 0; i < n; ++i) values[i] = values[i] != 0 ? A{1} : A{0};  // NaN counts
      } else if (p_ == 2) {
        for (int64_t i = 0; i < n; ++i) values[i] = values[i] * values[i];
      } else if (p_ == 1 || std::isinf(p_)) {
        for (int64_t i = 0; i < n; ++i) values[i] = std::abs(values[i]);
      } else {
        const A p = static_cast<A>(p_);
        for (int64_t i = 0; i < n; ++i) values[i] = std::pow(std::abs(values[i]), p);
      }
    }
  }

  template <typename A>
  void Finish(A* values, int64_t n, const A* center, int64_t center_step) const {
    if constexpr (!kIsComplex<A>) {
      if (kind_ == ReduceKind::kAny) {
        // Max of 0s and 1s; nothing to reduce leaves max's identity (below 0): false.
        for (int64_t i = 0; i < n; ++i) values[i] = values[i] > 0 ? A{1} : A{0};
        return;
      }
    }
    if constexpr (std::is_floating_point_v<A>) {
      if (kind_ == ReduceKind::kVariance) {
        // PyTorch's divisor: never below 0 (a sum of 0 over it is NaN, a positive one inf).
        const A divisor = static_cast<A>(std::max(0.0, static_cast<double>(reduced_.Count()) - correction_));
        for (int64_t i = 0; i < n; ++i) values[i] = root_ ? std::sqrt(values[i] / divisor) : values[i] / divisor;
        return;
      }
      if (kind_ == ReduceKind::kLogSumExp) {
        for (int64_t i = 0; i < n; ++i) values[i] = std::log(values[i]) + Shift(center[i * center_step]);
        return;
      }
      if (kind_ == ReduceKind::kNorm) {
        if (p_ == 2) {
          for (int64_t i = 0; i < n; ++i) values[i] = std::sqrt(values[i]);
        } else if (p_ != 0 && p_ != 1 && !std::isinf(p_)) {
          const A root = static_cast<A>(1 / p_);
          for (int64_t i = 0; i < n; ++i) values[i] = std::pow(values[i], root);
        }
        return;
      }
    }
    if (kind_ != ReduceKind::kMean) return;
    const int64_t count = reduced_.Count();
    if constexpr (std::is_same_v<A, int64_t>) {
      // An integer mean truncates towards zero, as the cast of the exact mean does; an empty one is 0.
      for (int64_t i = 0; i < n; ++i) values[i] = count == 0 ? 0 : values[i] / count;
    } else {
      using Real = decltype(std::abs(A{}));
      for (int64_t i = 0; i < n; ++i) values[i] = values[i] / static_cast<Real>(count);  // 0 / 0: NaN, as PyTorch
    }
  }

  // The sum of reduced elements [begin, end) (in the reduced dims' order) below `base`.
  template <typename A, typename C>
  A SumRange(const char* base, int64_t begin, int64_t end, const A* center, A* buffer, A* levels) const {
    const int64_t element = static_cast<int64_t>(DtypeSize(in_.dtype));
    if (begin >= end) return C::Identity();  // nothing to sum (a reduced extent may be 0)
    if constexpr (std::is_same_v<A, float> && std::is_same_v<C, SumCombine<float>>) {
      if (block_sum_ != nullptr) {  // one run of unit stride: the blocks summed where they lie
        Cascade<A, C> cascade(levels, 1);
        for (int64_t position = begin; position < end; position += kBlock) {
          A sum = block_sum_(base + position * element, std::min(kBlock, end - position));
          cascade.Add(&sum);
        }
        A total;
        cascade.Total(&total);
        return total;
      }
    }
    const int last = reduced_.rank - 1;
    int64_t index[kMaxRank];
    for (int64_t rest = begin, d = last; d >= 0; --d) {
      index[d] = rest % reduced_.shape[d];
      rest /= reduced_.shape[d];
    }
    Cascade<A, C> cascade(levels, 1);
    int64_t filled = 0;
    for (int64_t position = begin; position < end;) {
      const int64_t n = std::min({reduced_.shape[last] - index[last], end - position, kBlock - filled});
      int64_t offset = 0;
      for (int d = 0; d <= last; ++d) offset += index[d] * reduced_.in[d];
      Load(in_.dtype, base + offset * element, reduced_.in[last], n, buffer + filled);
      Map(buffer + filled, n, center, 0);
      filled += n;
      position += n;
      index[last] += n;
      for (int d = last; d > 0 && index[d] == reduced_.shape[d]; --d) {
        index[d] = 0;
        ++index[d - 1];
      }
      if (filled == kBlock) {
        A sum = BlockSum<A, C>(buffer, filled);
        cascade.Add(&sum);
        filled = 0;
      }
    }
    if (filled > 0) {
      A sum = BlockSum<A, C>(buffer, filled);
      cascade.Add(&sum);
    }
    A total;
    cascade.Total(&total);
    return total;
  }

  // The centre of the outputs at out_offset (out's strides), `step` apart, or 0s for the other kinds.
  template <typename A>
  void LoadCenter(const char* center, int64_t out_offset, int64_t step, int64_t n, A* values) const {
    if (center == nullptr) {
      std::fill(values, values + n, A{});
      return;
    }
    Load(center_.dtype, center + out_offset * static_cast<int64_t>(DtypeSize(center_.dtype)), step, n, values);
  }

  template <typename A>
  void StoreOne(A value, const A& center, char* out, int64_t out_offset) const {
    Finish(&value, 1, &center, 0);
    Store(&value, out_.dtype, out + out_offset * static_cast<int64_t>(DtypeSize(out_.dtype)), 1, 1);
  }

  // Each output sums runs of memory; a long reduction splits into fixed chunks
  // whose partial sums are combined in order afterwards.
  template <typename A, typename C>
  void RunInner(const char* in, char* out, const char* center) const {
    const int64_t element = static_cast<int64_t>(DtypeSize(in_.dtype));
    const int64_t outputs = kept_.Count();
    const int64_t count = reduced_.Count();
    const int64_t chunks = std::max<int64_t>(1, (count + kChunk - 1) / kChunk);
    std::vector<A> partials(chunks > 1 ? static_cast<size_t>(outputs * chunks) : 0);
    const int64_t per_item = std::max<int64_t>(1, std::min(count, kChunk));
    ParallelFor(outputs * chunks, std::max<int64_t>(1, kGrainElements / per_item), [&](int64_t begin, int64_t end) {
      std::vector<A> buffer(kBlock), levels(kLevels);
      for (int64_t item = begin; item < end; ++item) {
        const int64_t output = item / chunks, chunk = item % chunks;
        int64_t in_offset, out_offset;
        kept_.Offsets(output, in_offset, out_offset);
        A c;
        LoadCenter(center, out_offset, 1, 1, &c);
        const A sum = SumRange<A, C>(in + in_offset * element, chunk * kChunk, std::min(count, (chunk + 1) * kChunk),
                                     &c, buffer.data(), levels.data());
        if (chunks == 1) {
          StoreOne(sum, c, out, out_offset);
        } else {
          partials[static_cast<size_t>(item)] = sum;
        }
      }
    });
    if (chunks == 1) return;
    ParallelFor(outputs, std::max<int64_t>(1, kGrainElements / chunks), [&](int64_t begin, int64_t end) {
      std::vector<A> levels(kLevels);
      for (int64_t output = begin; output < end; ++output) {
        Cascade<A, C> cascade(levels.data(), 1);
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          A partial = partials[static_cast<size_t>(output * chunks + chunk)];
          cascade.Add(&partial);
        }
        A total;
        cascade.Total(&total);
        int64_t in_offset, out_offset;
        kept_.Offsets(output, in_offset, out_offset);
        A c;
        LoadCenter(center, out_offset, 1, 1, &c);
        StoreOne(total, c, out, out_offset);
      }
    });
  }

  // A tile of neighbouring outputs (along the finest kept dimension) adds whole
  // rows of the input as vectors; the rows split into fixed chunks (the unit of
  // parallel work) whose partial sums are combined in order afterwards.
  template <typename A, typename C>
  void RunOuter(const char* in, char* out, const char* center) const {
    const int64_t in_element = static_cast<int64_t>(DtypeSize(in_.dtype));
    const int64_t out_element = static_cast<int64_t>(DtypeSize(out_.dtype));
    const int inner = kept_.rank - 1;
    const int64_t width = kept_.shape[inner];
    const int64_t in_step = kept_.in[inner], out_step = kept_.out[inner];
    Dims outer_kept = kept_;  // the kept dims around the tiled one
    outer_kept.rank = inner;
    const int64_t groups = outer_kept.Count();
    const int64_t tile_width = std::min(kTile, width);
    const int64_t tiles = (width + tile_width - 1) / tile_width;
    const int64_t rows = reduced_.Count();
    const int64_t chunks = std::max<int64_t>(1, (rows + kRowChunk - 1) / kRowChunk);
    const int last = reduced_.rank - 1;
    // Rows of the input dtype that is the accumulator's own, with unit stride, are added in place.
    const bool direct = in_.dtype == kNativeDtype<A> && in_step == 1 && !Maps();
    // Sums of f32, f16 or bf16 rows of unit stride along one reduced dim: the vector row adds.
    const bool add_rows = std::is_same_v<A, float> && std::is_same_v<C, SumCombine<A>> && add_rows_ != nullptr &&
                          in_step == 1 && reduced_.rank == 1;
    const int row_levels = LevelsFor((std::min(rows, kRowChunk) + kRowBlock - 1) / kRowBlock);
    std::vector<A> partials(chunks > 1 ? static_cast<size_t>(groups * tiles * chunks * tile_width) : 0);

    // The out offset of tile (group, tile)'s first output.
    const auto tile_out_offset = [&](int64_t tile_index) {
      int64_t in_offset, out_offset;
      outer_kept.Offsets(tile_index / tiles, in_offset, out_offset);
      return out_offset + (tile_index % tiles) * tile_width * out_step;
    };
    // Places tile (group, tile)'s finished sums in the output.
    const auto store_tile = [&](int64_t tile_index, A* values, const A* centers, int64_t n) {
      const int64_t out_offset = tile_out_offset(tile_index);
      Finish(values, n, centers, 1);
      Store(values, out_.dtype, out + out_offset * out_element, out_step, n);
    };

    const int64_t per_item = tile_width * std::max<int64_t>(1, std::min(rows, kRowChunk));
    ParallelFor(groups * tiles * chunks, std::max<int64_t>(1, kGrainElements / per_item),
                [&](int64_t begin, int64_t end) {
                  std::vector<A> row(direct ? 0 : tile_width), block(tile_width), sum(tile_width), centers(tile_width);
                  std::vector<A> levels(static_cast<size_t>(row_levels * tile_width));
                  for (int64_t item = begin; item < end; ++item) {
                    const int64_t tile_index = item / chunks, chunk = item % chunks;
                    const int64_t tile = tile_index % tiles;
                    const int64_t n = std::min(tile_width, width - tile * tile_width);
                    int64_t in_offset, out_offset;
                    outer_kept.Offsets(tile_index / tiles, in_offset, out_offset);
                    in_offset += tile * tile_width * in_step;
                    LoadCenter(center, tile_out_offset(tile_index), out_step, n, centers.data());
                    const int64_t first = chunk * kRowChunk, stop = std::min(rows, first + kRowChunk);
                    int64_t index[kMaxRank] = {};
                    for (int64_t rest = first, d = last; d >= 0 && first < stop; --d) {
                      index[d] = rest % reduced_.shape[d];
                      rest /= reduced_.shape[d];
                    }
                    Cascade<A, C> cascade(levels.data(), n, row_levels);
                    A* acc = block.data();
                    std::fill(acc, acc + n, C::Identity());
                    for (int64_t r = first; r < stop; ++r) {
                      int64_t offset = in_offset;
                      for (int d = 0; d <= last; ++d) offset += index[d] * reduced_.in[d];
                      if (add_rows) {  // acc += the block's rows, widened where they lie (the same sums)
                        const int64_t count = std::min(kRowBlock - (r - first) % kRowBlock, stop - r);
                        if constexpr (std::is_same_v<A, float>) {
                          add_rows_(in + offset * in_element, reduced_.in[0], count, acc, n);
                        }
                        r += count - 1;
                        index[0] += count - 1;
                      } else {
                        const A* values;
                        if (direct) {
                          values = reinterpret_cast<const A*>(in + offset * in_element);
                        } else {
                          Load(in_.dtype, in + offset * in_element, in_step, n, row.data());
                          Map(row.data(), n, centers.data(), 1);
                          values = row.data();
                        }
                        for (int64_t i = 0; i < n; ++i) acc[i] = C::Apply(acc[i], values[i]);
                      }
                      if ((r - first) % kRowBlock == kRowBlock - 1 || r + 1 == stop) {
                        cascade.Add(acc);
                        std::fill(acc, acc + n, C::Identity());
                      }
                      for (int d = last; d >= 0 && ++index[d] == reduced_.shape[d] && d > 0; --d) index[d] = 0;
                    }
                    cascade.Total(sum.data());
                    if (chunks == 1) {
                      store_tile(tile_index, sum.data(), centers.data(), n);
                    } else {
                      std::copy(sum.begin(), sum.begin() + n, partials.begin() + item * tile_width);
                    }
                  }
                });
    if (chunks == 1) return;
    const int chunk_levels = LevelsFor(chunks);
    ParallelFor(groups * tiles, 1, [&](int64_t begin, int64_t end) {
      std::vector<A> values(tile_width), sum(tile_width), centers(tile_width);
      std::vector<A> levels(static_cast<size_t>(chunk_levels * tile_width));
      for (int64_t tile_index = begin; tile_index < end; ++tile_index) {
        const int64_t n = std::min(tile_width, width - (tile_index % tiles) * tile_width);
        Cascade<A, C> cascade(levels.data(), n, chunk_levels);
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          const auto from = partials.begin() + (tile_index * chunks + chunk) * tile_width;
          std::copy(from, from + n, values.begin());
          cascade.Add(values.data());
        }
        cascade.Total(sum.data());
        LoadCenter(center, tile_out_offset(tile_index), out_step, n, centers.data());
        store_tile(tile_index, sum.data(), centers.data(), n);
      }
    });
  }

  ReduceKind kind_;
  double p_ = 2;
  double correction_ = 0;
  bool root_ = false;
  StridedOperand in_, out_, center_;
  aclDataType acc_;
  Dims kept_, reduced_;
  bool outer_ = false;
  float (*block_sum_)(const void*, int64_t) = nullptr;
  void (*add_rows_)(const void*, int64_t, int64_t, float*, int64_t) = nullptr;
  std::string description_;
};

}  // namespace

aclDataType ReduceAccumulatorDtype(aclDataType out) {
  switch (out) {
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_BF16:
      return ACL_FLOAT;
    case ACL_DOUBLE:
      return ACL_DOUBLE;
    case ACL_COMPLEX64:
      return ACL_COMPLEX64;
    case ACL_COMPLEX128:
      return ACL_COMPLEX128;
    default:
      return ACL_INT64;  // integers and bool
  }
}

aclDataType ReduceAccumulatorDtype(const ReduceDesc& desc) {
  const bool tests_self = desc.kind == ReduceKind::kAny || desc.kind == ReduceKind::kAll;
  return ReduceAccumulatorDtype(tests_self ? desc.in.dtype : desc.out.dtype);
}

std::unique_ptr<Step> MakeReduceStep(const ReduceDesc& desc) { return std::make_unique<ReduceStep>(desc); }

}  // namespace canopy::kernels
