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
  IndexCheckStep(std::string op, std::string name, const TensorRef& index, int64_t dim, int64_t extent,
                 BufferRef values)
      : op_(std::move(op)), name_(std::move(name)), index_(index), dim_(dim), extent_(extent), values_(values) {}

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
      if ((value < 0 || value >= extent_) && bad_position < 0) {
        bad_position = position;
        bad_value = value;
      }
      values[position++] = value;
    });
    if (bad_position < 0) return ACLNN_SUCCESS;
    SetErrorMessage(
        "%s: element %lld of '%s' is %lld, out of range for dimension %lld of extent %lld (valid: [0, %lld))",
        op_.c_str(), static_cast<long long>(bad_position), name_.c_str(), static_cast<long long>(bad_value),
        static_cast<long long>(dim_), static_cast<long long>(extent_), static_cast<long long>(extent_));
    return kIndexOutOfRangeStatus;
  }

  std::string Describe() const override {
    return "index check '" + name_ + "' " + ShapeToString(index_.shape) + " in [0, " + std::to_string(extent_) + ")";
  }

 private:
  std::string op_;
  std::string name_;
  TensorRef index_;
  int64_t dim_;
  int64_t extent_;
  BufferRef values_;
};

// out[pre, k, post] = src[pre, values[k], post] for checked dense int64 values.
class GatherStep final : public Step {
 public:
  GatherStep(const TensorRef& src, int64_t dim, BufferRef values, const TensorRef& out)
      : src_(src),
        dim_(static_cast<size_t>(dim)),
        values_(values),
        out_(out),
        pre_(out.shape.begin(), out.shape.begin() + dim),
        src_pre_(src.strides.begin(), src.strides.begin() + dim),
        out_pre_(out.strides.begin(), out.strides.begin() + dim) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(src_.buffer);
    char* out = context.Resolve(out_.buffer);
    const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_));
    const auto bytes = static_cast<int64_t>(DtypeSize(src_.dtype));
    const size_t post_rank = out_.shape.size() - dim_ - 1;
    const int64_t* post_shape = out_.shape.data() + dim_ + 1;
    const int64_t* src_post = src_.strides.data() + dim_ + 1;
    const int64_t* out_post = out_.strides.data() + dim_ + 1;
    const int64_t count = out_.shape[dim_];
    const int64_t src_step = src_.strides[dim_];
    const int64_t out_step = out_.strides[dim_];
    ForEachOffsetPair(pre_, src_pre_, out_pre_, [&](int64_t src_offset, int64_t out_offset) {
      for (int64_t k = 0; k < count; ++k) {
        CopyBlock(out + (out_offset + k * out_step) * bytes, out_post,
                  src + (src_offset + values[k] * src_step) * bytes, src_post, post_shape, post_rank, bytes);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "gather dim " + std::to_string(dim_) + " " + ShapeToString(src_.shape) + " -> " + ShapeToString(out_.shape) +
           " " + DtypeName(src_.dtype);
  }

 private:
  TensorRef src_;
  size_t dim_;
  BufferRef values_;
  TensorRef out_;
  Shape pre_;  // the dimensions before dim, and their strides in src and out
  Shape src_pre_;
  Shape out_pre_;
};

}  // namespace

void PlanGather(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& index, const char* index_name,
                const TensorRef& out) {
  const int64_t count = index.NumElements();
  if (count == 0) return;  // nothing is read or written
  // Every value is checked even when `out` is empty: an out-of-range index is never silent.
  const TensorRef values = plan.Temporary(ACL_INT64, {count});
  plan.AddStep(std::make_unique<IndexCheckStep>(plan.op(), index_name, index, dim, src.shape[dim], values.buffer),
               {index}, values);
  if (out.NumElements() == 0) return;

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
  plan.AddStep(std::make_unique<GatherStep>(src, dim, values.buffer, *target), {src, values}, *target);
  if (is_staged) plan.Copy(staged, out);
}

void PlanGatherArguments(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out) {
  TensorRef src = plan.Input(self, "self");
  TensorRef indices = plan.Input(index, "index");
  TensorRef dst = plan.Output(out, "out");
  if (self->rank() == 0) {
    src = Unsqueeze(src, 0);
    dst = Unsqueeze(dst, 0);
  }
  // These ops give a rank-0 index (and any index of a rank-0 self, one value) a dimension of extent 1 in out.
  if (index->rank() == 0 || self->rank() == 0) indices = *Reshape(indices, {indices.NumElements()});
  PlanGather(plan, src, dim, indices, "index", dst);
}

}  // namespace canopy::ops
