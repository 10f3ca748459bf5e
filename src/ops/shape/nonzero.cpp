// aclnnNonzero and aclnnNonzeroV2: the coordinates of self's non-zero elements
// (torch.nonzero), in row-major order of the elements: one row each
// (Nonzero, [N, D]) or one column each (NonzeroV2, [D, N]), D = self's rank.
// N is known only once the run has counted: as on CANN, the caller allocates
// out with room for the result, and phase 2 waits for the run and then sets
// out's view shape to the result's (contiguous, from out's first element);
// callers read it with aclGetViewShape. A result larger than out fails the run
// without writing out. -0.0 is zero; NaN is not.
#include <cstring>
#include <limits>
#include <string>

#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "common/shape.h"
#include "nnopbase/live_tensor.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNonzeroDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                     ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};
constexpr DtypeSet kNonzeroV2Dtypes = kNonzeroDtypes | DtypeSet{ACL_UINT16, ACL_UINT32, ACL_UINT64};

// Whether the element at `p` is non-zero: any bit but a float's sign bit.
bool IsNonZero(const char* p, aclDataType dtype) {
  uint64_t bits = 0;
  const size_t size = DtypeSize(dtype);
  std::memcpy(&bits, p, size);
  switch (dtype) {
    case ACL_FLOAT16:
    case ACL_BF16:
      return (bits & 0x7fffu) != 0;
    case ACL_FLOAT:
      return (bits & 0x7fffffffu) != 0;
    case ACL_DOUBLE:
      return (bits & 0x7fffffffffffffffu) != 0;
    default:
      return bits != 0;
  }
}

// Calls visit(coordinates) for each non-zero element of `self`, in row-major order.
template <typename Visit>
void ForEachNonZero(const char* base, const TensorRef& self, Visit&& visit) {
  const int64_t rank = self.rank();
  const auto bytes = static_cast<int64_t>(DtypeSize(self.dtype));
  Shape coordinates(static_cast<size_t>(rank), 0);
  int64_t offset = 0;
  for (int64_t done = 0, count = self.NumElements(); done < count; ++done) {
    if (IsNonZero(base + offset * bytes, self.dtype)) visit(coordinates);
    for (int64_t d = rank - 1; d >= 0; --d) {  // the next index, odometer style
      const auto i = static_cast<size_t>(d);
      offset += self.strides[i];
      if (++coordinates[i] < self.shape[i]) break;
      offset -= self.strides[i] * self.shape[i];
      coordinates[i] = 0;
    }
  }
}

// Counts, checks the count against out's room, writes the coordinates and
// leaves the count in the workspace for NonzeroShape.
class NonzeroStep final : public Step {
 public:
  NonzeroStep(const TensorRef& self, BufferRef out, int64_t capacity, BufferRef count, bool columns)
      : self_(self), out_(out), capacity_(capacity), count_(count), columns_(columns) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* self = context.Resolve(self_.buffer);
    int64_t found = 0;
    ForEachNonZero(self, self_, [&](const Shape&) { ++found; });
    const int64_t rank = self_.rank();
    const int64_t needed = found * rank;
    if (needed > capacity_) {
      SetErrorMessage("%s: self has %lld non-zero elements; out holds %lld elements, not the %lld of the result",
                      columns_ ? "aclnnNonzeroV2" : "aclnnNonzero", static_cast<long long>(found),
                      static_cast<long long>(capacity_), static_cast<long long>(needed));
      return ACLNN_ERR_PARAM_INVALID;
    }
    auto* out = reinterpret_cast<int64_t*>(context.Resolve(out_));
    int64_t k = 0;
    ForEachNonZero(self, self_, [&](const Shape& coordinates) {
      for (int64_t j = 0; j < rank; ++j) {
        out[columns_ ? j * found + k : k * rank + j] = coordinates[static_cast<size_t>(j)];
      }
      ++k;
    });
    std::memcpy(context.Resolve(count_), &found, sizeof found);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("nonzero ") + (columns_ ? "columns " : "rows ") + ShapeToString(self_.shape) + " " +
           DtypeName(self_.dtype);
  }

 private:
  TensorRef self_;
  BufferRef out_;  // int64, contiguous from out's first element
  int64_t capacity_;
  BufferRef count_;  // int64 in the workspace
  bool columns_;
};

// After the run: out's view becomes the contiguous [N, D] (or [D, N]).
class NonzeroShape final : public AfterRun {
 public:
  NonzeroShape(aclTensor* out, BufferRef count, int64_t rank, bool columns)
      : out_(out), count_(count), rank_(rank), columns_(columns) {}

  aclnnStatus Finish(const RunContext& context) const override {
    int64_t found = 0;
    std::memcpy(&found, context.Resolve(count_), sizeof found);
    // Skipped for a descriptor the client destroyed after phase 1; runs of one
    // repeatable executor on several threads write it in turn.
    const Shape shape = columns_ ? Shape{rank_, found} : Shape{found, rank_};
    canopyNnopbaseSetContiguousView(out_, shape.data(), shape.size());
    return ACLNN_SUCCESS;
  }

 private:
  aclTensor* out_;  // the caller's, checked alive before it is written
  BufferRef count_;
  int64_t rank_;
  bool columns_;
};

aclnnStatus PlanNonzero(Plan& plan, DtypeSet dtypes, bool columns, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, dtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_INT64}));
  for (int64_t extent : self->view_shape) {
    if (extent > std::numeric_limits<int32_t>::max()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'self' has shape %s; no extent may exceed 2^31 - 1",
                         ShapeToString(self->view_shape).c_str());
    }
  }
  // The result is written from out's first element on, as the contiguous tensor out's view becomes.
  if (out->strides != ContiguousStrides(out->view_shape) && out->NumElements() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'out' (shape %s) must be contiguous: the run writes the result from its first element "
                       "and then gives it the result's shape",
                       ShapeToString(out->view_shape).c_str());
  }
  const TensorRef source = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (self->NumElements() == 0 || out->NumElements() == 0) return ACLNN_SUCCESS;  // CANN: nothing, not even the shape
  const TensorRef count = plan.Temporary(ACL_INT64, {1});
  plan.AddStep(std::make_unique<NonzeroStep>(source, dst.buffer, dst.NumElements(), count.buffer, columns));
  // The prototype's out is the caller's writable tensor; the recipe sees it const.
  plan.SetAfterRun(std::make_unique<NonzeroShape>(const_cast<aclTensor*>(out), count.buffer, self->rank(), columns));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanNonzeroRows(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanNonzero(plan, kNonzeroDtypes, /*columns=*/false, self, out);
}

aclnnStatus PlanNonzeroColumns(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanNonzero(plan, kNonzeroV2Dtypes, /*columns=*/true, self, out);
}

}  // namespace

CANOPY_ACLNN_OP(Nonzero, PlanNonzeroRows,
                (OpTraits{
                    .header = "aclnnop/aclnn_nonzero.h", .dtypes = kNonzeroDtypes, .example = "f32[4,2] i64[8,2]"}),
                (const aclTensor*, self), (aclTensor*, out))
CANOPY_ACLNN_OP(
    NonzeroV2, PlanNonzeroColumns,
    (OpTraits{.header = "aclnnop/aclnn_nonzero_v2.h", .dtypes = kNonzeroV2Dtypes, .example = "f32[4,2] i64[2,8]"}),
    (const aclTensor*, self), (aclTensor*, out))
