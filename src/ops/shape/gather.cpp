#include "gather.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/parallel_for.h"
#include "ops/framework/tensor_view.h"
#include "strided_loops.h"

namespace canopy::ops {
namespace {

// Bytes of slices worth a thread of their own (kernels/parallel_for.h's grain).
constexpr int64_t kGatherGrainBytes = 128 * 1024;

// Rows gathered from a table in memory start a new page every 4 KiB, and the
// hardware prefetchers stop at page boundaries: each page's first lines wait
// for memory. Touching one line of every page of the next row while the
// current one is copied overlaps those waits (Zen 5, 16384 random rows of
// 16 KiB from a 512 MiB table on two threads: 0.63 -> 0.80 of a copy's rate
// stand-alone; docs/perf.md). An earlier trial prefetched 16-256 consecutive
// lines of the next row, all within its first pages, and gained nothing.
constexpr int64_t kPageBytes = 4096;

inline void PrefetchPages(const char* row, int64_t bytes) {
  for (int64_t at = 0; at < bytes; at += kPageBytes) __builtin_prefetch(row + at);
}

// Reads every index value (int32 or int64, any view), checks it against the
// gathered dimension's extent and stores it as a dense int64 for GatherStep.
class IndexCheckStep final : public Step {
 public:
  IndexCheckStep(std::string op, std::string name, const TensorRef& index, int64_t dim, int64_t extent, IndexSign sign,
                 BufferRef values)
      : op_(std::move(op)),
        name_(std::move(name)),
        index_(index),
        dim_(dim),
        extent_(extent),
        lowest_(sign == IndexSign::kNegativeFromEnd ? -extent : 0),
        values_(values) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* base = context.Resolve(index_.buffer);
    auto* values = reinterpret_cast<int64_t*>(context.Resolve(values_));
    const bool wide = index_.dtype == ACL_INT64;
    int64_t position = 0;
    int64_t bad_position = -1;
    int64_t bad_value = 0;
    ForEachOffsetPair(index_.shape, index_.strides, index_.strides, [&](int64_t offset, int64_t) {
      int64_t value;
      if (wide) {
        std::memcpy(&value, base + offset * 8, sizeof value);
      } else {
        int32_t narrow;
        std::memcpy(&narrow, base + offset * 4, sizeof narrow);
        value = narrow;
      }
      if ((value < lowest_ || value >= extent_) && bad_position < 0) {
        bad_position = position;
        bad_value = value;
      }
      values[position++] = value < 0 ? value + extent_ : value;
    });
    if (bad_position < 0) return ACLNN_SUCCESS;
    SetErrorMessage(
        "%s: element %lld of '%s' is %lld, out of range for dimension %lld of extent %lld (valid: [%lld, %lld))",
        op_.c_str(), static_cast<long long>(bad_position), name_.c_str(), static_cast<long long>(bad_value),
        static_cast<long long>(dim_), static_cast<long long>(extent_), static_cast<long long>(lowest_),
        static_cast<long long>(extent_));
    return kIndexOutOfRangeStatus;
  }

  std::string Describe() const override {
    return "index check '" + name_ + "' " + ShapeToString(index_.shape) + " in [" + std::to_string(lowest_) + ", " +
           std::to_string(extent_) + ")";
  }

 private:
  std::string op_;
  std::string name_;
  TensorRef index_;
  int64_t dim_;
  int64_t extent_;
  int64_t lowest_;  // the smallest value accepted: 0 or -extent
  BufferRef values_;
};

// out[p] = src[p with p[dim] = values[k]] for the k-th position p of out.
class ElementGatherStep final : public Step {
 public:
  ElementGatherStep(const TensorRef& src, int64_t dim, BufferRef values, const TensorRef& out)
      : src_(src), dim_(static_cast<size_t>(dim)), values_(values), out_(out), src_strides_(src.strides) {
    src_strides_[dim_] = 0;  // the index value picks the position along dim
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(src_.buffer);
    char* out = context.Resolve(out_.buffer);
    const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_));
    const auto bytes = static_cast<int64_t>(DtypeSize(out_.dtype));
    const int64_t along = src_.strides[dim_];
    int64_t k = 0;
    ForEachOffsetPair(out_.shape, src_strides_, out_.strides, [&](int64_t s, int64_t o) {
      std::memcpy(out + o * bytes, src + (s + values[k++] * along) * bytes, static_cast<size_t>(bytes));
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "gather elements dim " + std::to_string(dim_) + " " + ShapeToString(src_.shape) + " -> " +
           ShapeToString(out_.shape) + " " + DtypeName(out_.dtype);
  }

 private:
  TensorRef src_;
  size_t dim_;
  BufferRef values_;
  TensorRef out_;
  Shape src_strides_;
};

// Slices along `dim` between a view addressed by the checked dense int64
// values and a view addressed in order: a gather reads indexed[.., values[k], ..]
// into ordered[.., k, ..]; a scatter writes ordered[.., k, ..] to
// indexed[.., values[k], ..] (duplicates: the last k wins, deterministically).
class IndexedCopyStep final : public Step {
 public:
  enum class Direction : uint8_t { kGather, kScatter };

  IndexedCopyStep(Direction direction, const TensorRef& indexed, int64_t dim, BufferRef values,
                  const TensorRef& ordered)
      : direction_(direction),
        indexed_(indexed),
        dim_(static_cast<size_t>(dim)),
        values_(values),
        ordered_(ordered),
        pre_(ordered.shape.begin(), ordered.shape.begin() + dim),
        indexed_pre_(indexed.strides.begin(), indexed.strides.begin() + dim),
        ordered_pre_(ordered.strides.begin(), ordered.strides.begin() + dim) {
    // The dimensions after dim, merged where both views run contiguously
    // across them (a row of a table moves as one memcpy), extents of 1 dropped.
    for (size_t d = dim_ + 1; d < ordered.shape.size(); ++d) {
      const int64_t extent = ordered.shape[d];
      if (extent == 1) continue;
      if (!post_shape_.empty() && indexed_post_.back() == indexed.strides[d] * extent &&
          ordered_post_.back() == ordered.strides[d] * extent) {
        post_shape_.back() *= extent;
        indexed_post_.back() = indexed.strides[d];
        ordered_post_.back() = ordered.strides[d];
      } else {
        post_shape_.push_back(extent);
        indexed_post_.push_back(indexed.strides[d]);
        ordered_post_.push_back(ordered.strides[d]);
      }
    }
    for (const int64_t extent : post_shape_) post_elements_ *= extent;
  }

  aclnnStatus Run(const RunContext& context) const override {
    char* indexed = context.Resolve(indexed_.buffer);
    char* ordered = context.Resolve(ordered_.buffer);
    const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_));
    if (direction_ == Direction::kGather) {
      RunGather(indexed, ordered, values);
      return ACLNN_SUCCESS;
    }
    // A scatter runs in order on one thread: with duplicate values the last k wins.
    const auto bytes = static_cast<int64_t>(DtypeSize(ordered_.dtype));
    const int64_t count = ordered_.shape[dim_];
    const int64_t indexed_step = indexed_.strides[dim_];
    const int64_t ordered_step = ordered_.strides[dim_];
    ForEachOffsetPair(pre_, indexed_pre_, ordered_pre_, [&](int64_t indexed_offset, int64_t ordered_offset) {
      for (int64_t k = 0; k < count; ++k) {
        char* at_index = indexed + (indexed_offset + values[k] * indexed_step) * bytes;
        char* in_order = ordered + (ordered_offset + k * ordered_step) * bytes;
        CopyBlock(at_index, indexed_post_.data(), in_order, ordered_post_.data(), post_shape_.data(),
                  post_shape_.size(), bytes);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string(direction_ == Direction::kGather ? "gather" : "scatter") + " dim " + std::to_string(dim_) + " " +
           ShapeToString(indexed_.shape) + " <-> " + ShapeToString(ordered_.shape) + " " + DtypeName(ordered_.dtype);
  }

 private:
  Direction direction_;
  TensorRef indexed_;
  size_t dim_;
  BufferRef values_;
  TensorRef ordered_;
  // A gather writes each slice of `ordered` once: the slices (pre, k) split
  // over the engine's team, each read from wherever values[k] points.
  void RunGather(const char* indexed, char* ordered, const int64_t* values) const {
    const auto bytes = static_cast<int64_t>(DtypeSize(ordered_.dtype));
    const int64_t count = ordered_.shape[dim_];
    int64_t slices = count;
    for (const int64_t extent : pre_) slices *= extent;
    const int64_t indexed_step = indexed_.strides[dim_];
    const int64_t ordered_step = ordered_.strides[dim_];
    const int64_t grain = std::max<int64_t>(1, kGatherGrainBytes / std::max<int64_t>(1, post_elements_ * bytes));
    const size_t pre_rank = pre_.size();
    // Rows of whole pages and more, each one run of memory: the next row's
    // pages are touched (one line each) while this one is copied.
    const int64_t run_bytes = post_elements_ * bytes;
    const bool prefetch_pages = run_bytes >= kPageBytes && post_shape_.size() == 1 && indexed_post_[0] == 1;
    kernels::ParallelFor(slices, grain, [&](int64_t begin, int64_t end) {
      // The first slice's position, then a walk: k, then the dimensions before dim.
      Shape at(pre_rank, 0);
      int64_t rest = begin / count;
      int64_t k = begin % count;
      int64_t indexed_offset = 0;
      int64_t ordered_offset = 0;
      for (size_t d = pre_rank; d-- > 0;) {
        at[d] = rest % pre_[d];
        rest /= pre_[d];
        indexed_offset += at[d] * indexed_pre_[d];
        ordered_offset += at[d] * ordered_pre_[d];
      }
      for (int64_t slice = begin; slice < end; ++slice) {
        if (prefetch_pages && slice + 1 < end && k + 1 < count) {
          PrefetchPages(indexed + (indexed_offset + values[k + 1] * indexed_step) * bytes, run_bytes);
        }
        CopyBlock(ordered + (ordered_offset + k * ordered_step) * bytes, ordered_post_.data(),
                  indexed + (indexed_offset + values[k] * indexed_step) * bytes, indexed_post_.data(),
                  post_shape_.data(), post_shape_.size(), bytes);
        if (++k < count) continue;
        k = 0;
        for (size_t d = pre_rank; d-- > 0;) {
          indexed_offset += indexed_pre_[d];
          ordered_offset += ordered_pre_[d];
          if (++at[d] < pre_[d]) break;
          indexed_offset -= indexed_pre_[d] * pre_[d];
          ordered_offset -= ordered_pre_[d] * pre_[d];
          at[d] = 0;
        }
      }
    });
  }

  Shape pre_;  // the dimensions before dim, and their strides in both views
  Shape indexed_pre_;
  Shape ordered_pre_;
  Shape post_shape_;  // the dimensions after dim, merged, and their strides in both views
  Shape indexed_post_;
  Shape ordered_post_;
  int64_t post_elements_ = 1;
};

}  // namespace

std::optional<TensorRef> PlanIndexValues(Plan& plan, const TensorRef& index, const char* index_name, int64_t dim,
                                         int64_t extent, IndexSign sign) {
  const int64_t count = index.NumElements();
  if (count == 0) return std::nullopt;
  const TensorRef values = plan.Temporary(ACL_INT64, {count});
  plan.AddStep(std::make_unique<IndexCheckStep>(plan.op(), index_name, index, dim, extent, sign, values.buffer),
               {index}, values);
  return values;
}

void PlanGatherElements(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& values, const TensorRef& out) {
  if (out.NumElements() == 0) return;
  plan.AddStep(std::make_unique<ElementGatherStep>(src, dim, values.buffer, out), {src, values}, out);
}

void PlanGatherByValues(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& values, const TensorRef& out) {
  if (out.NumElements() == 0) return;
  plan.AddStep(std::make_unique<IndexedCopyStep>(IndexedCopyStep::Direction::kGather, src, dim, values.buffer, out),
               {src, values}, out);
}

void PlanScatterSlices(Plan& plan, const TensorRef& values, const TensorRef& dst, int64_t dim,
                       const TensorRef& source) {
  if (source.NumElements() == 0) return;
  plan.AddStep(std::make_unique<IndexedCopyStep>(IndexedCopyStep::Direction::kScatter, dst, dim, values.buffer, source),
               {source, values}, dst);
}

void PlanGather(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& index, const char* index_name,
                const TensorRef& out, IndexSign sign) {
  // Every value is checked even when `out` is empty: an out-of-range index is never silent.
  const std::optional<TensorRef> values = PlanIndexValues(plan, index, index_name, dim, src.shape[dim], sign);
  if (!values || out.NumElements() == 0) return;

  // The gather writes one dimension per index value: out's index dimensions as one.
  const int64_t index_rank = index.rank();
  TensorRef staged;
  bool is_staged = false;
  std::optional<TensorRef> target;
  if (index_rank == 0) {
    target = Unsqueeze(out, dim);  // one value: out has no dimension for it
  } else {
    target = Flatten(out, dim, dim + index_rank - 1);
    if (!target) {  // out's strides cannot merge them (a transposed out): gather densely, then copy
      staged = plan.Temporary(out.dtype, out.shape);
      is_staged = true;
      target = Flatten(staged, dim, dim + index_rank - 1);
    }
  }
  PlanGatherByValues(plan, src, dim, *values, *target);
  if (is_staged) plan.Copy(staged, out);
}

void PlanGatherArguments(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out,
                         IndexSign sign) {
  TensorRef src = plan.Input(self, "self");
  TensorRef indices = plan.Input(index, "index");
  TensorRef dst = plan.Output(out, "out");
  if (self->rank() == 0) {
    src = Unsqueeze(src, 0);
    dst = Unsqueeze(dst, 0);
  }
  // These ops give a rank-0 index (and any index of a rank-0 self, one value) a dimension of extent 1 in out.
  if (index->rank() == 0 || self->rank() == 0) indices = *Reshape(indices, {indices.NumElements()});
  PlanGather(plan, src, dim, indices, "index", dst, sign);
}

}  // namespace canopy::ops
