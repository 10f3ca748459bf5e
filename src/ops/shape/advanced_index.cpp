#include "advanced_index.h"

#include <algorithm>
#include <string>

#include "accumulate.h"
#include "gather.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/tensor_view.h"
#include "strided_loops.h"

namespace canopy::ops {
namespace {

// offsets[b] = sum over the integer entries j of values_j[b] * strides[j].
class IndexOffsetsStep final : public Step {
 public:
  IndexOffsetsStep(std::vector<BufferRef> values, Shape strides, int64_t count, BufferRef offsets)
      : values_(std::move(values)), strides_(std::move(strides)), count_(count), offsets_(offsets) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* offsets = reinterpret_cast<int64_t*>(context.Resolve(offsets_));
    std::fill(offsets, offsets + count_, 0);
    for (size_t j = 0; j < values_.size(); ++j) {
      const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_[j]));
      for (int64_t b = 0; b < count_; ++b) offsets[b] += values[b] * strides_[j];
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "index offsets of " + std::to_string(values_.size()) + " entries"; }

 private:
  std::vector<BufferRef> values_;
  Shape strides_;
  int64_t count_;
  BufferRef offsets_;
};

// The offsets into self of a bool mask's true positions, in row-major order, and their count.
class MaskOffsetsStep final : public Step {
 public:
  MaskOffsetsStep(const TensorRef& mask, Shape self_strides, BufferRef offsets, BufferRef count)
      : mask_(mask), self_strides_(std::move(self_strides)), offsets_(offsets), count_(count) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* mask = reinterpret_cast<const uint8_t*>(context.Resolve(mask_.buffer));
    auto* offsets = reinterpret_cast<int64_t*>(context.Resolve(offsets_));
    int64_t count = 0;
    ForEachOffsetPair(mask_.shape, mask_.strides, self_strides_, [&](int64_t m, int64_t s) {
      if (mask[m] != 0) offsets[count++] = s;
    });
    *reinterpret_cast<int64_t*>(context.Resolve(count_)) = count;
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "mask offsets " + ShapeToString(mask_.shape); }

 private:
  TensorRef mask_;
  Shape self_strides_;
  BufferRef offsets_;
  BufferRef count_;
};

class IndexedBlockStep final : public Step {
 public:
  IndexedBlockStep(std::string op, BlockCopy kind, const TensorRef& self, const AdvancedIndex& index, BufferRef offsets,
                   std::optional<BufferRef> count, const TensorRef& ordered)
      : op_(std::move(op)), kind_(kind), self_(self), offsets_(offsets), count_(count), ordered_(ordered) {
    const size_t b_rank = index.masked ? 1 : index.index_shape.size();
    b_shape_.assign(ordered.shape.begin(), ordered.shape.begin() + static_cast<int64_t>(b_rank));
    b_strides_.assign(ordered.strides.begin(), ordered.strides.begin() + static_cast<int64_t>(b_rank));
    for (int64_t d : index.kept) {
      block_shape_.push_back(self.shape[d]);
      self_block_.push_back(self.strides[d]);
    }
    ordered_block_.assign(ordered.strides.begin() + static_cast<int64_t>(b_rank), ordered.strides.end());
  }

  aclnnStatus Run(const RunContext& context) const override {
    char* self = context.Resolve(self_.buffer);
    char* ordered = context.Resolve(ordered_.buffer);
    const auto* offsets = reinterpret_cast<const int64_t*>(context.Resolve(offsets_));
    const auto bytes = static_cast<int64_t>(DtypeSize(self_.dtype));
    if (count_) {  // one mask: its true count against ordered's extent (1 broadcasts, except into a gather's out)
      const int64_t count = *reinterpret_cast<const int64_t*>(context.Resolve(*count_));
      const int64_t extent = b_shape_[0];
      if (count != extent && (kind_ == BlockCopy::kGather || extent != 1)) {
        SetErrorMessage("%s: the mask selects %lld elements; the indexed dimension of the %s has extent %lld",
                        op_.c_str(), static_cast<long long>(count), kind_ == BlockCopy::kGather ? "out" : "values",
                        static_cast<long long>(extent));
        return kIndexOutOfRangeStatus;
      }
      const int64_t step = extent == 1 ? 0 : b_strides_[0];
      for (int64_t j = 0; j < count; ++j) Block(self + offsets[j] * bytes, ordered + j * step * bytes, bytes);
      return ACLNN_SUCCESS;
    }
    int64_t b = 0;
    ForEachOffsetPair(b_shape_, b_strides_, b_strides_,
                      [&](int64_t o, int64_t) { Block(self + offsets[b++] * bytes, ordered + o * bytes, bytes); });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static const char* const kNames[] = {"index gather", "index put", "index put accumulate"};
    return std::string(kNames[static_cast<int>(kind_)]) + " " + ShapeToString(b_shape_) + " blocks of " +
           ShapeToString(block_shape_) + " " + DtypeName(self_.dtype);
  }

 private:
  void Block(char* at_self, char* at_ordered, int64_t bytes) const {
    const size_t rank = block_shape_.size();
    switch (kind_) {
      case BlockCopy::kGather:
        CopyBlock(at_ordered, ordered_block_.data(), at_self, self_block_.data(), block_shape_.data(), rank, bytes);
        break;
      case BlockCopy::kScatter:
        CopyBlock(at_self, self_block_.data(), at_ordered, ordered_block_.data(), block_shape_.data(), rank, bytes);
        break;
      case BlockCopy::kAccumulate:
        kernels::VisitStorage(self_.dtype, [&](auto tag) {
          using S = decltype(tag);
          ForEachOffsetPair(block_shape_, self_block_, ordered_block_, [&](int64_t s, int64_t o) {
            CombineElement<S>(at_self + s * bytes, at_ordered + o * bytes, CombineType<S>(1));
          });
        });
        break;
    }
  }

  std::string op_;
  BlockCopy kind_;
  TensorRef self_;
  BufferRef offsets_;
  std::optional<BufferRef> count_;
  TensorRef ordered_;
  Shape b_shape_;  // B's extents in ordered, and ordered's strides over them
  Shape b_strides_;
  Shape block_shape_;  // the kept dimensions, and both views' strides over them
  Shape self_block_;
  Shape ordered_block_;
};

std::string EntryName(const char* list_name, size_t i) {
  return std::string(list_name) + "[" + std::to_string(i) + "]";
}

}  // namespace

Shape AdvancedIndex::ResultShape(const Shape& self, int64_t selected) const {
  Shape result;
  for (int64_t d : kept) result.push_back(self[d]);
  const Shape b = masked ? Shape{selected} : index_shape;
  result.insert(result.begin() + lead, b.begin(), b.end());
  return result;
}

TensorRef AdvancedIndex::IndexFirst(const TensorRef& result) const {
  const auto b_rank = static_cast<int64_t>(masked ? 1 : index_shape.size());
  std::vector<int64_t> order;
  for (int64_t i = 0; i < b_rank; ++i) order.push_back(lead + i);
  for (int64_t i = 0; i < result.rank(); ++i) {
    if (i < lead || i >= lead + b_rank) order.push_back(i);
  }
  return Permute(result, order);
}

aclnnStatus CheckAdvancedIndex(Plan& plan, const aclTensor* self, const aclTensorList* list, const char* list_name,
                               AdvancedIndex& index) {
  const int64_t rank = self->rank();
  if (static_cast<int64_t>(list->tensors.size()) > rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' holds %zu tensors; self has only %lld dimensions",
                       list_name, list->tensors.size(), static_cast<long long>(rank));
  }
  int64_t dim = 0;
  bool has_integer = false;
  std::vector<bool> is_indexed(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    const aclTensor* t = list->tensors[i];
    const std::string name = EntryName(list_name, i);
    if (t->NumElements() == 0) {  // undefined: this dimension stays whole
      ++dim;
      continue;
    }
    if (t->dtype == ACL_BOOL) {
      const int64_t k = t->rank();
      if (k == 0 || dim + k > rank) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "mask '%s' of shape %s does not fit self's dimensions from %lld",
                           name.c_str(), ShapeToString(t->view_shape).c_str(), static_cast<long long>(dim));
      }
      for (int64_t j = 0; j < k; ++j) {
        if (t->view_shape[j] != self->view_shape[dim + j]) {
          return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                             "mask '%s' of shape %s must match self's shape %s from dimension %lld", name.c_str(),
                             ShapeToString(t->view_shape).c_str(), ShapeToString(self->view_shape).c_str(),
                             static_cast<long long>(dim));
        }
      }
      if (index.masked || has_integer) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "'%s' is a mask next to other index tensors; Canopy takes a mask only as the one "
                           "non-empty entry",
                           name.c_str());
      }
      index.masked = true;
      index.index_shape = {t->NumElements()};
      for (int64_t j = 0; j < k; ++j) {
        index.indexed.push_back(dim + j);
        is_indexed[static_cast<size_t>(dim + j)] = true;
      }
      index.entries.push_back(static_cast<int>(i));
      dim += k;
      continue;
    }
    CANOPY_CHECK(plan.CheckDtype(name.c_str(), t->dtype, DtypeSet{ACL_INT32, ACL_INT64, ACL_BOOL}));
    if (index.masked) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "'%s' follows a mask; Canopy takes a mask only as the one non-empty entry", name.c_str());
    }
    if (dim >= rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' indexes past self's %lld dimensions", name.c_str(),
                         static_cast<long long>(rank));
    }
    if (!has_integer) {
      index.index_shape = t->view_shape;
    } else {
      CANOPY_CHECK(plan.CheckBroadcast(list_name, index.index_shape, name.c_str(), t->view_shape, index.index_shape));
    }
    has_integer = true;
    index.indexed.push_back(dim);
    is_indexed[static_cast<size_t>(dim)] = true;
    index.entries.push_back(static_cast<int>(i));
    ++dim;
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!is_indexed[static_cast<size_t>(d)]) index.kept.push_back(d);
  }
  // B goes where the indexed dimensions were when they are adjacent, else in front.
  if (!index.indexed.empty()) {
    const int64_t first = index.indexed.front();
    const int64_t last = index.indexed.back();
    const bool adjacent = last - first + 1 == static_cast<int64_t>(index.indexed.size());
    index.lead = adjacent ? first : 0;
  }
  return ACLNN_SUCCESS;
}

TensorRef PlanIndexOffsets(Plan& plan, const AdvancedIndex& index, const TensorRef& self,
                           const std::vector<TensorRef>& entries, const char* list_name,
                           std::optional<TensorRef>& count, IndexSign sign) {
  int64_t positions = 1;
  for (int64_t extent : index.index_shape) positions *= extent;
  TensorRef offsets = plan.Temporary(ACL_INT64, {std::max<int64_t>(positions, 1)});
  if (index.masked) {
    const int entry = index.entries.front();
    Shape strides;
    for (int64_t d : index.indexed) strides.push_back(self.strides[d]);
    count = plan.Temporary(ACL_INT64, {1});
    plan.AddStep(std::make_unique<MaskOffsetsStep>(entries[entry], strides, offsets.buffer, count->buffer),
                 {entries[entry]}, offsets);
    return offsets;
  }
  std::vector<BufferRef> values;
  Shape strides;
  std::vector<TensorRef> reads;
  for (size_t j = 0; j < index.entries.size(); ++j) {
    const int64_t d = index.indexed[j];
    const std::string name = EntryName(list_name, static_cast<size_t>(index.entries[j]));
    const std::optional<TensorRef> checked = PlanIndexValues(
        plan, BroadcastTo(entries[index.entries[j]], index.index_shape), name.c_str(), d, self.shape[d], sign);
    if (!checked) return offsets;  // B is empty: nothing is indexed
    values.push_back(checked->buffer);
    strides.push_back(self.strides[d]);
    reads.push_back(*checked);
  }
  plan.AddStep(std::make_unique<IndexOffsetsStep>(values, strides, std::max<int64_t>(positions, 1), offsets.buffer),
               reads, offsets);
  return offsets;
}

void PlanIndexedBlocks(Plan& plan, BlockCopy kind, const AdvancedIndex& index, const TensorRef& self,
                       const TensorRef& offsets, const std::optional<TensorRef>& count, const TensorRef& ordered) {
  // Nothing to move when a kept dimension is empty, or (without a mask) when B is.
  for (int64_t d : index.kept) {
    if (self.shape[d] == 0) return;
  }
  if (!index.masked && ordered.NumElements() == 0) return;
  std::optional<BufferRef> count_buffer;
  std::vector<TensorRef> reads = {offsets};
  if (count) {
    count_buffer = count->buffer;
    reads.push_back(*count);
  }
  auto step = std::make_unique<IndexedBlockStep>(plan.op(), kind, self, index, offsets.buffer, count_buffer, ordered);
  if (kind == BlockCopy::kGather) {
    reads.push_back(self);
    plan.AddStep(std::move(step), reads, ordered);
  } else {
    reads.push_back(ordered);
    plan.AddStep(std::move(step), reads, self);
  }
}

}  // namespace canopy::ops
