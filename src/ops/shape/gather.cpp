#include "gather.h"

#include <cstring>
#include <string>

#include "ops/framework/tensor_view.h"
#include "strided_loops.h"

namespace canopy::ops {
namespace {

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
        ordered_pre_(ordered.strides.begin(), ordered.strides.begin() + dim) {}

  aclnnStatus Run(const RunContext& context) const override {
    char* indexed = context.Resolve(indexed_.buffer);
    char* ordered = context.Resolve(ordered_.buffer);
    const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_));
    const auto bytes = static_cast<int64_t>(DtypeSize(ordered_.dtype));
    const size_t post_rank = ordered_.shape.size() - dim_ - 1;
    const int64_t* post_shape = ordered_.shape.data() + dim_ + 1;
    const int64_t* indexed_post = indexed_.strides.data() + dim_ + 1;
    const int64_t* ordered_post = ordered_.strides.data() + dim_ + 1;
    const int64_t count = ordered_.shape[dim_];
    const int64_t indexed_step = indexed_.strides[dim_];
    const int64_t ordered_step = ordered_.strides[dim_];
    const bool gather = direction_ == Direction::kGather;
    ForEachOffsetPair(pre_, indexed_pre_, ordered_pre_, [&](int64_t indexed_offset, int64_t ordered_offset) {
      for (int64_t k = 0; k < count; ++k) {
        char* at_index = indexed + (indexed_offset + values[k] * indexed_step) * bytes;
        char* in_order = ordered + (ordered_offset + k * ordered_step) * bytes;
        if (gather) {
          CopyBlock(in_order, ordered_post, at_index, indexed_post, post_shape, post_rank, bytes);
        } else {
          CopyBlock(at_index, indexed_post, in_order, ordered_post, post_shape, post_rank, bytes);
        }
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
  Shape pre_;  // the dimensions before dim, and their strides in both views
  Shape indexed_pre_;
  Shape ordered_pre_;
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
