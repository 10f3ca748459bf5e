// aclnnRepeatInterleave and its Int, WithDim and IntWithDim forms:
// every element (of self flattened) or every slice along dim repeated
// consecutively. A repeat count given as an integer is a view (self with a
// stride-0 dimension of that extent after dim) copied into out, also viewed;
// counts given as a tensor are read at run time into gather indices (checked:
// none negative, their sum outputSize; else the stream task fails with a
// message), then gathered on the shared block. aclnnRepeatInterleaveTensor is
// the indices themselves: i repeated repeats[i] times (torch.repeat_interleave
// of a counts tensor alone).
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "aclnnop/aclnn_repeat_interleave.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRepeatDtypes = {ACL_UINT8, ACL_INT8,    ACL_INT16, ACL_INT32, ACL_INT64,
                                    ACL_BOOL,  ACL_FLOAT16, ACL_BF16,  ACL_FLOAT};
constexpr OpTraits kRepeat{.header = "aclnnop/aclnn_repeat_interleave.h", .dtypes = kRepeatDtypes};

// values[j] = the slice out's j-th slice repeats: slice i appears repeats[i]
// times (or repeats[0] times each, for one count), in order.
class RepeatIndexStep final : public Step {
 public:
  RepeatIndexStep(std::string op, const TensorRef& repeats, int64_t slices, int64_t output_size, BufferRef values)
      : op_(std::move(op)), repeats_(repeats), slices_(slices), output_size_(output_size), values_(values) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* base = context.Resolve(repeats_.buffer);
    auto* values = reinterpret_cast<int64_t*>(context.Resolve(values_));
    const bool one = repeats_.NumElements() == 1;
    const int64_t stride = repeats_.rank() == 0 ? 0 : repeats_.strides[0];
    int64_t total = 0;
    for (int64_t i = 0; i < slices_; ++i) {
      const int64_t r = Count(base, one ? 0 : i * stride);
      const auto element = static_cast<long long>(one ? 0 : i);
      if (r < 0) {
        return Fail("element %lld of 'repeats' is %lld; counts must not be negative", element,
                    static_cast<long long>(r));
      }
      if (r > output_size_ - total) {
        return Fail("'repeats' sum to more than outputSize %lld (reached at element %lld)",
                    static_cast<long long>(output_size_), element);
      }
      for (int64_t t = 0; t < r; ++t) values[total++] = i;
    }
    if (total != output_size_) {
      return Fail("'repeats' sum to %lld; outputSize is %lld", static_cast<long long>(total),
                  static_cast<long long>(output_size_));
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "repeat indices " + std::to_string(slices_) + " slices -> " + std::to_string(output_size_);
  }

 private:
  int64_t Count(const char* base, int64_t offset) const {
    if (repeats_.dtype == ACL_INT64) {
      int64_t v;
      std::memcpy(&v, base + offset * 8, sizeof v);
      return v;
    }
    int32_t v;
    std::memcpy(&v, base + offset * 4, sizeof v);
    return v;
  }

  aclnnStatus Fail(const char* format, ...) const __attribute__((format(printf, 2, 3))) {
    char reason[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    SetErrorMessage("%s: %s", op_.c_str(), reason);
    return kIndexOutOfRangeStatus;  // what a faulting kernel reports at synchronisation
  }

  std::string op_;
  TensorRef repeats_;
  int64_t slices_;
  int64_t output_size_;
  BufferRef values_;
};

aclnnStatus CheckRepeatCount(Plan& plan, int64_t repeats) {
  if (repeats >= 0) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'repeats' is %lld; it must not be negative",
                     static_cast<long long>(repeats));
}

aclnnStatus CheckOutputSize(Plan& plan, int64_t output_size, int64_t expected) {
  if (output_size == expected) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'outputSize' is %lld; the repeated size is %lld",
                     static_cast<long long>(output_size), static_cast<long long>(expected));
}

// out = src with dimension `dim` (extent n) repeated `repeats` times per slice:
// src viewed with a stride-0 dimension after dim, out with dim split in two.
void PlanRepeatView(Plan& plan, const TensorRef& src, int64_t dim, int64_t repeats, const TensorRef& out) {
  if (out.NumElements() == 0) return;
  Shape split = src.shape;
  split.insert(split.begin() + dim + 1, repeats);
  const TensorRef repeated = *Expand(Unsqueeze(src, dim + 1), split);
  plan.Copy(repeated, *Reshape(out, split));  // splitting one dimension is always a view
}

// The common checks: dtypes, and (with a dim) rank at least 1 and dim in range.
aclnnStatus CheckRepeatArguments(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRepeatDtypes));
  return CheckSameDtype(plan, "out", out, "self", self);
}

aclnnStatus CheckRepeatsTensor(Plan& plan, const aclTensor* repeats, int64_t slices) {
  CANOPY_CHECK(plan.CheckDtype("repeats", repeats->dtype, kIndexDtypes));
  if (repeats->rank() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'repeats' has rank %lld; it must be 0 or 1",
                       static_cast<long long>(repeats->rank()));
  }
  const int64_t count = repeats->NumElements();
  if (count != 1 && count != slices) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'repeats' has %lld elements; it must have 1 or %lld",
                       static_cast<long long>(count), static_cast<long long>(slices));
  }
  return ACLNN_SUCCESS;
}

// src (n slices along dim) gathered by the run-time repeat indices into out.
void PlanRepeatByTensor(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& repeats, int64_t output_size,
                        const TensorRef& out) {
  const int64_t slices = src.shape[dim];
  if (slices == 0 && output_size == 0) return;
  const TensorRef values = plan.Temporary(ACL_INT64, {output_size});
  plan.AddStep(std::make_unique<RepeatIndexStep>(plan.op(), repeats, slices, output_size, values.buffer), {repeats},
               values);
  PlanGatherByValues(plan, src, dim, values, out);
}

aclnnStatus PlanRepeatInterleaveInt(Plan& plan, const aclTensor* self, int64_t repeats, int64_t output_size,
                                    const aclTensor* out) {
  CANOPY_CHECK(CheckRepeatArguments(plan, self, out));
  CANOPY_CHECK(CheckRepeatCount(plan, repeats));
  const int64_t n = self->NumElements();
  const int64_t total = n == 0 || repeats <= INT64_MAX / n ? n * repeats : -1;
  CANOPY_CHECK(CheckOutputSize(plan, output_size, total));
  CANOPY_CHECK(plan.CheckShape("out", out, {total}));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  // Each element repeated: self's own shape with a repeat dimension last, against out split the same way.
  Shape split = src.shape;
  split.push_back(repeats);
  if (dst.NumElements() > 0) plan.Copy(*Expand(Unsqueeze(src, src.rank()), split), *Reshape(dst, split));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRepeatInterleaveIntWithDim(Plan& plan, const aclTensor* self, int64_t repeats, int64_t dim,
                                           int64_t output_size, const aclTensor* out) {
  CANOPY_CHECK(CheckRepeatArguments(plan, self, out));
  CANOPY_CHECK(CheckRepeatCount(plan, repeats));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, kRepeat.max_rank));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, self->rank(), d));
  const int64_t n = self->view_shape[d];
  const int64_t total = n == 0 || repeats <= INT64_MAX / n ? n * repeats : -1;
  CANOPY_CHECK(CheckOutputSize(plan, output_size, total));
  Shape expected = self->view_shape;
  expected[d] = total;
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  const TensorRef src = plan.Input(self, "self");
  PlanRepeatView(plan, src, d, repeats, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRepeatInterleave(Plan& plan, const aclTensor* self, const aclTensor* repeats, int64_t output_size,
                                 const aclTensor* out) {
  CANOPY_CHECK(CheckRepeatArguments(plan, self, out));
  CANOPY_CHECK(CheckRepeatsTensor(plan, repeats, self->NumElements()));
  CANOPY_CHECK(plan.CheckShape("out", out, {output_size}));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef counts = plan.Input(repeats, "repeats");
  const TensorRef dst = plan.Output(out, "out");
  PlanRepeatByTensor(plan, Flat(plan, src), 0, counts, output_size, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRepeatInterleaveWithDim(Plan& plan, const aclTensor* self, const aclTensor* repeats, int64_t dim,
                                        int64_t output_size, const aclTensor* out) {
  CANOPY_CHECK(CheckRepeatArguments(plan, self, out));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, kRepeat.max_rank));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, self->rank(), d));
  CANOPY_CHECK(CheckRepeatsTensor(plan, repeats, self->view_shape[d]));
  Shape expected = self->view_shape;
  expected[d] = output_size;
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef counts = plan.Input(repeats, "repeats");
  PlanRepeatByTensor(plan, src, d, counts, output_size, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRepeatInterleaveTensor(Plan& plan, const aclTensor* repeats, int64_t output_size,
                                       const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("repeats", repeats->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "repeats", repeats));
  if (repeats->NumElements() != 0 && repeats->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'repeats' has shape %s; it must be 1-D or empty",
                       ShapeToString(repeats->view_shape).c_str());
  }
  const TensorRef counts = plan.Input(repeats, "repeats");
  const TensorRef dst = plan.Output(out, "out");
  if (repeats->NumElements() == 0 || out->NumElements() == 0) return ACLNN_SUCCESS;  // CANN: nothing done
  CANOPY_CHECK(plan.CheckShape("out", out, {output_size}));
  const TensorRef values = plan.Temporary(ACL_INT64, {output_size});
  plan.AddStep(std::make_unique<RepeatIndexStep>(plan.op(), counts, counts.NumElements(), output_size, values.buffer),
               {counts}, values);
  plan.Copy(values, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(RepeatInterleaveTensor, PlanRepeatInterleaveTensor,
                (OpTraits{.header = "aclnnop/aclnn_repeat_interleave.h",
                          .dtypes = kIndexDtypes,
                          .example = "i64[3]{2:2} 6 i64[6]"}),
                (const aclTensor*, repeats), (int64_t, outputSize), (aclTensor*, out))
CANOPY_ACLNN_OP(RepeatInterleave, PlanRepeatInterleave, WithExample(kRepeat, "f32[3] i64[1]{2:2} 6 f32[6]"),
                (const aclTensor*, self), (const aclTensor*, repeats), (int64_t, outputSize), (aclTensor*, out))
CANOPY_ACLNN_OP(RepeatInterleaveWithDim, PlanRepeatInterleaveWithDim,
                WithExample(kRepeat, "f32[2,3] i64[1]{2:2} 0 4 f32[4,3]"), (const aclTensor*, self),
                (const aclTensor*, repeats), (int64_t, dim), (int64_t, outputSize), (aclTensor*, out))
CANOPY_ACLNN_OP(RepeatInterleaveInt, PlanRepeatInterleaveInt, WithExample(kRepeat, "f32[3] 2 6 f32[6]"),
                (const aclTensor*, self), (int64_t, repeats), (int64_t, outputSize), (aclTensor*, out))
CANOPY_ACLNN_OP(RepeatInterleaveIntWithDim, PlanRepeatInterleaveIntWithDim,
                WithExample(kRepeat, "f32[2,3] 2 0 4 f32[4,3]"), (const aclTensor*, self), (int64_t, repeats),
                (int64_t, dim), (int64_t, outputSize), (aclTensor*, out))
