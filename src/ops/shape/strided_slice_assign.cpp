// aclnnStridedSliceAssignV2: varRef[begin:end:strides] = inputValue, in
// place, one strided copy into a view of varRef. CANN generates this op's
// entry from its definition and checks the slice while tiling, so a bad slice
// is 561002 (its tiling error), a bad dtype 161002. The unlisted axes take the
// whole dimension; begin and end clamp into [0, n] (a negative one counts from
// the end); the last dimension must have stride 1, as CANN's kernel copies
// whole rows of it.
#include <algorithm>
#include <vector>

#include "aclnnop/aclnn_strided_slice_assign_v2.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAssignDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_INT64, ACL_DOUBLE, ACL_INT8};
constexpr int64_t kMaxRank = 8;

int64_t ClampBound(int64_t bound, int64_t n) {
  if (bound < 0) bound += n;
  return std::clamp<int64_t>(bound, 0, n);
}

struct AxisSlice {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t stride = 1;
};

aclnnStatus TilingError(Plan& plan, const char* format, long long a, long long b = 0) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, format, a, b);
}

// Each of var's dimensions as begin/end/stride: the listed axes from the arrays, the rest whole.
aclnnStatus SlicesOf(Plan& plan, const Shape& var, const aclIntArray* begin, const aclIntArray* end,
                     const aclIntArray* strides, const aclIntArray* axes, std::vector<AxisSlice>& slices) {
  const auto rank = static_cast<int64_t>(var.size());
  slices.assign(var.size(), AxisSlice{});
  for (int64_t d = 0; d < rank; ++d) slices[static_cast<size_t>(d)].end = var[static_cast<size_t>(d)];
  const size_t count = axes != nullptr ? axes->values.size() : var.size();
  if (begin->values.size() != count || end->values.size() != count || strides->values.size() != count) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "arguments 'begin', 'end' and 'strides' hold %zu, %zu and %zu values; they need %zu (%s)",
                       begin->values.size(), end->values.size(), strides->values.size(), count,
                       axes != nullptr ? "one per axis of 'axesOptional'" : "one per dimension of 'varRef'");
  }
  std::vector<bool> seen(var.size(), false);
  for (size_t i = 0; i < count; ++i) {
    int64_t axis = static_cast<int64_t>(i);
    if (axes != nullptr) {
      axis = axes->values[i] < 0 ? axes->values[i] + rank : axes->values[i];
      if (axis < 0 || axis >= rank) {
        return TilingError(plan, "argument 'axesOptional' holds %lld, outside the %lld dimensions of 'varRef'",
                           static_cast<long long>(axes->values[i]), static_cast<long long>(rank));
      }
      if (seen[static_cast<size_t>(axis)]) {
        return TilingError(plan, "argument 'axesOptional' names dimension %lld twice", static_cast<long long>(axis));
      }
      seen[static_cast<size_t>(axis)] = true;
    }
    if (strides->values[i] <= 0) {
      return TilingError(plan, "argument 'strides' holds %lld; each stride must be positive",
                         static_cast<long long>(strides->values[i]));
    }
    const int64_t n = var[static_cast<size_t>(axis)];
    slices[static_cast<size_t>(axis)] = {ClampBound(begin->values[i], n), ClampBound(end->values[i], n),
                                         strides->values[i]};
  }
  if (slices.back().stride != 1) {
    return TilingError(plan, "the stride of the last dimension is %lld; it must be 1",
                       static_cast<long long>(slices.back().stride));
  }
  return ACLNN_SUCCESS;
}

int64_t ExtentOf(const AxisSlice& s) { return s.end <= s.begin ? 0 : (s.end - s.begin - 1) / s.stride + 1; }

aclnnStatus PlanStridedSliceAssignV2(Plan& plan, const aclTensor* varRef, const aclTensor* inputValue,
                                     const aclIntArray* begin, const aclIntArray* end, const aclIntArray* strides,
                                     const aclIntArray* axesOptional) {
  CANOPY_CHECK(plan.CheckDtype("varRef", varRef->dtype, kAssignDtypes));
  CANOPY_CHECK(plan.CheckDtype("inputValue", inputValue->dtype, kAssignDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "inputValue", inputValue, "varRef", varRef));
  const Shape& var = varRef->view_shape;
  if (varRef->rank() < 1 || varRef->rank() > kMaxRank) {
    return TilingError(plan, "'varRef' has rank %lld; it must be 1 to %lld", static_cast<long long>(varRef->rank()),
                       static_cast<long long>(kMaxRank));
  }
  if (inputValue->rank() != varRef->rank()) {
    return TilingError(plan, "'inputValue' has rank %lld; 'varRef' has rank %lld",
                       static_cast<long long>(inputValue->rank()), static_cast<long long>(varRef->rank()));
  }
  for (int64_t extent : var) {
    if (extent <= 0) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'varRef' of shape %s has an empty dimension",
                         ShapeToString(var).c_str());
    }
  }
  std::vector<AxisSlice> slices;
  CANOPY_CHECK(SlicesOf(plan, var, begin, end, strides, axesOptional, slices));
  Shape expected(var.size());
  for (size_t d = 0; d < var.size(); ++d) expected[d] = ExtentOf(slices[d]);
  if (inputValue->view_shape != expected) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'inputValue' has shape %s; the slice of 'varRef' has shape %s",
                       ShapeToString(inputValue->view_shape).c_str(), ShapeToString(expected).c_str());
  }
  plan.Input(varRef, "varRef");
  const TensorRef value = plan.Input(inputValue, "inputValue");
  TensorRef target = plan.Output(varRef, "varRef");
  for (size_t d = 0; d < var.size(); ++d) {
    target = Slice(target, static_cast<int64_t>(d), slices[d].begin, expected[d], slices[d].stride);
  }
  plan.Copy(value, target);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(StridedSliceAssignV2, PlanStridedSliceAssignV2,
                InPlace(OpTraits{.header = "aclnnop/aclnn_strided_slice_assign_v2.h", .dtypes = kAssignDtypes},
                        "f32[4,3] f32[2,2] ints[1,0] ints[4,2] ints[2,1] ints[0,1]"),
                (aclTensor*, varRef), (const aclTensor*, inputValue), (const aclIntArray*, begin),
                (const aclIntArray*, end), (const aclIntArray*, strides), (const aclIntArray*, axesOptional, optional))
