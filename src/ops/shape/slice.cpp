// aclnnSlice: out = self[start:end:step] along dim, and aclnnSliceV2: the
// same along several axes at once; each is one strided copy of a view (no
// kernel of its own). start and end outside [0, N) are clamped as CANN's
// documents give it.
#include <vector>

#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSliceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT32,
                                   ACL_INT64, ACL_INT8,    ACL_UINT8, ACL_BOOL};
constexpr OpTraits kSlice{.header = "aclnnop/aclnn_slice.h", .dtypes = kSliceDtypes};

// CANN's rules for self.shape[dim] = n: start below -n is 0, at or above n is n,
// else taken modulo n; end below -n is start, at or above n is n, else taken
// modulo n and at least start.
int64_t ClampStart(int64_t start, int64_t n) {
  if (start < -n) return 0;
  if (start >= n) return n;
  return (start + n) % n;
}

int64_t ClampEnd(int64_t end, int64_t start, int64_t n) {
  if (end < -n) return start;
  if (end >= n) return n;
  return std::max(start, (end + n) % n);
}

aclnnStatus PlanSlice(Plan& plan, const aclTensor* self, int64_t dim, int64_t start, int64_t end, int64_t step,
                      const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSliceDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kSliceDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, kSlice.max_rank));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, self->rank(), d));
  if (step <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'step' is %lld; it must be positive",
                       static_cast<long long>(step));
  }
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  const int64_t n = self->view_shape[d];
  const int64_t first = ClampStart(start, n);
  const int64_t last = ClampEnd(end, first, n);
  const int64_t length = last == first ? 0 : (last - first - 1) / step + 1;  // ceil without overflow
  Shape expected = self->view_shape;
  expected[d] = length;
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  const TensorRef src = plan.Input(self, "self");
  plan.Copy(Slice(src, d, first, length, step), plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

// self sliced along axes[i] by starts[i], ends[i], steps[i] (the four of one length, axes distinct).
aclnnStatus PlanSliceV2(Plan& plan, const aclTensor* self, const aclIntArray* starts, const aclIntArray* ends,
                        const aclIntArray* axes, const aclIntArray* steps, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSliceDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kSliceDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, kSlice.max_rank));
  const size_t count = axes->values.size();
  if (starts->values.size() != count || ends->values.size() != count || steps->values.size() != count) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "arguments 'starts', 'ends', 'axes' and 'steps' hold %zu, %zu, %zu and %zu values; they must "
                       "hold as many",
                       starts->values.size(), ends->values.size(), count, steps->values.size());
  }
  std::vector<bool> seen(static_cast<size_t>(self->rank()), false);
  std::vector<int64_t> dims(count);
  for (size_t i = 0; i < count; ++i) {
    CANOPY_CHECK(CheckDim(plan, "axes", axes->values[i], self->rank(), dims[i]));
    if (seen[static_cast<size_t>(dims[i])]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'axes' names dimension %lld twice",
                         static_cast<long long>(dims[i]));
    }
    seen[static_cast<size_t>(dims[i])] = true;
    if (steps->values[i] <= 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'steps' holds %lld; each step must be positive",
                         static_cast<long long>(steps->values[i]));
    }
  }
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  Shape expected = self->view_shape;
  std::vector<int64_t> firsts(count);
  for (size_t i = 0; i < count; ++i) {
    const int64_t n = self->view_shape[dims[i]];
    firsts[i] = ClampStart(starts->values[i], n);
    const int64_t last = ClampEnd(ends->values[i], firsts[i], n);
    expected[dims[i]] = last == firsts[i] ? 0 : (last - firsts[i] - 1) / steps->values[i] + 1;
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  TensorRef src = plan.Input(self, "self");
  for (size_t i = 0; i < count; ++i) src = Slice(src, dims[i], firsts[i], expected[dims[i]], steps->values[i]);
  plan.Copy(src, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Slice, PlanSlice, WithExample(kSlice, "f32[4,3] 0 1 3 1 f32[2,3]"), (const aclTensor*, self),
                (int64_t, dim), (int64_t, start), (int64_t, end), (int64_t, step), (aclTensor*, out))
CANOPY_ACLNN_OP(SliceV2, PlanSliceV2,
                (OpTraits{.header = "aclnnop/aclnn_slice_v2.h",
                          .dtypes = kSliceDtypes,
                          .example = "f32[4,2] ints[1,1] ints[3,2] ints[0,1] ints[1,1] f32[2,1]"}),
                (const aclTensor*, self), (const aclIntArray*, starts), (const aclIntArray*, ends),
                (const aclIntArray*, axes), (const aclIntArray*, steps), (aclTensor*, out))
