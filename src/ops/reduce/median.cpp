// aclnnMedian / aclnnMedianDim / aclnnNanMedian / aclnnNanMedianDim: the lower
// median, the element at position (n - 1) / 2 of the ascending order (NaN
// largest, equal elements by position, as CANN's stable sort), of every
// element or along one dim with its index. Median propagates NaN (a line
// holding one gives its first NaN); NanMedian leaves NaN out (a line of NaN
// only gives its first NaN). A selection on the along-one-dim kernel: no sort.
#include "aclnnop/aclnn_median.h"
#include "ops/framework/tensor_view.h"
#include "reduction.h"

#include <cmath>
#include <limits>
#include <optional>

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMedianDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_UINT8,
                                    ACL_INT8,  ACL_INT16,   ACL_INT32, ACL_INT64};

aclnnStatus CheckValueDtypes(Plan& plan, const aclTensor* self, const char* out_name, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMedianDtypes));
  CANOPY_CHECK(plan.CheckDtype(out_name, out->dtype, kMedianDtypes));
  CANOPY_CHECK(plan.CheckDtype(out_name, out->dtype, {self->dtype}));
  return ACLNN_SUCCESS;
}

// What CANN writes for the median of nothing: NaN (floats; NanMedian: NaN in
// every dtype, which converts to 0 in an integer), the lowest INT32 / INT64.
ScalarValue MedianOfNothing(aclDataType dtype, bool nan_median) {
  if (nan_median || IsFloating(dtype)) return ScalarValue::Real(std::nan(""));
  if (dtype == ACL_INT64) return ScalarValue::Integer(std::numeric_limits<int64_t>::min());
  if (dtype == ACL_INT32) return ScalarValue::Integer(std::numeric_limits<int32_t>::min());
  return ScalarValue::Integer(0);
}

// Every element: self read as one line, out one element.
aclnnStatus PlanMedianOfAll(Plan& plan, kernels::DimOpKind kind, const aclTensor* self, const char* out_name,
                            const aclTensor* out) {
  CANOPY_CHECK(CheckValueDtypes(plan, self, out_name, out));
  if (self->dtype == ACL_BF16 && self->rank() > 0 && self->view_shape.back() == 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a BFLOAT16 'self' with a last dim of extent 1 is not supported");
  }
  // CANN: an empty out computes nothing, an empty self fills out; otherwise out holds the one median.
  const bool computes = out->NumElements() > 0 && self->NumElements() > 0;
  if (computes && out->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; the median is one element", out_name,
                       ShapeToString(out->view_shape).c_str());
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, out_name);
  if (out->NumElements() == 0) return ACLNN_SUCCESS;
  if (self->NumElements() == 0) {
    plan.Fill(dst, MedianOfNothing(self->dtype, kind == kernels::DimOpKind::kNanMedian));
    return ACLNN_SUCCESS;
  }
  const Shape line_shape = {in.NumElements()};
  std::optional<TensorRef> line = Reshape(in, line_shape);
  if (!line) line = Reshape(plan.Contiguous(in, in.dtype), line_shape);
  const TensorRef index = plan.Temporary(ACL_INT64, {});
  const TensorRef value = *Reshape(dst, {});
  kernels::DimOpDesc desc;
  desc.kind = kind;
  PlanDimOp(plan, desc, *line, index, 0, true, false, &value);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMedianAlong(Plan& plan, kernels::DimOpKind kind, const aclTensor* self, int64_t dim, bool keep_dim,
                            const aclTensor* values_out, const aclTensor* indices_out) {
  CANOPY_CHECK(CheckValueDtypes(plan, self, "valuesOut", values_out));
  CANOPY_CHECK(plan.CheckDtype("indicesOut", indices_out->dtype, {ACL_INT64}));
  int64_t wrapped;
  CANOPY_CHECK(NormalizeDim(plan, "dim", dim, self->rank(), wrapped));
  std::vector<bool> reduced(static_cast<size_t>(self->rank()), false);
  if (self->rank() > 0) reduced[static_cast<size_t>(wrapped)] = true;
  const Shape expected = ReducedShape(self->view_shape, reduced, keep_dim);
  CANOPY_CHECK(CheckReducedOut(plan, "valuesOut", values_out, expected));
  CANOPY_CHECK(CheckReducedOut(plan, "indicesOut", indices_out, expected));
  const int64_t extent = self->rank() == 0 ? 1 : self->view_shape[static_cast<size_t>(wrapped)];
  if (self->dtype == ACL_BF16 && self->rank() > 0 && extent == 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a BFLOAT16 'self' cannot take the median along a dim of extent 1");
  }
  if (kind == kernels::DimOpKind::kNanMedian && extent == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dim %lld of 'self' has extent 0: there is no median of nothing",
                       static_cast<long long>(wrapped));
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef values = plan.Output(values_out, "valuesOut");
  const TensorRef indices = plan.Output(indices_out, "indicesOut");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing
  kernels::DimOpDesc desc;
  desc.kind = kind;
  PlanDimOp(plan, desc, in, indices, wrapped, true, keep_dim, &values);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMedian(Plan& plan, const aclTensor* self, const aclTensor* values_out) {
  return PlanMedianOfAll(plan, kernels::DimOpKind::kMedian, self, "valuesOut", values_out);
}

aclnnStatus PlanNanMedian(Plan& plan, const aclTensor* self, const aclTensor* out) {
  return PlanMedianOfAll(plan, kernels::DimOpKind::kNanMedian, self, "out", out);
}

aclnnStatus PlanMedianDim(Plan& plan, const aclTensor* self, int64_t dim, bool keep_dim, const aclTensor* values_out,
                          const aclTensor* indices_out) {
  return PlanMedianAlong(plan, kernels::DimOpKind::kMedian, self, dim, keep_dim, values_out, indices_out);
}

aclnnStatus PlanNanMedianDim(Plan& plan, const aclTensor* self, int64_t dim, bool keep_dim, const aclTensor* values_out,
                             const aclTensor* indices_out) {
  return PlanMedianAlong(plan, kernels::DimOpKind::kNanMedian, self, dim, keep_dim, values_out, indices_out);
}

constexpr OpTraits kMedianTraits{.header = "aclnnop/aclnn_median.h", .dtypes = kMedianDtypes};

}  // namespace

CANOPY_ACLNN_OP(Median, PlanMedian, WithExample(kMedianTraits, "f32[3,4] f32[]"), (const aclTensor*, self),
                (aclTensor*, valuesOut))
CANOPY_ACLNN_OP(MedianDim, PlanMedianDim, WithExample(kMedianTraits, "f32[3,4] 1 false f32[3] i64[3]"),
                (const aclTensor*, self), (int64_t, dim), (bool, keepDim), (aclTensor*, valuesOut),
                (aclTensor*, indicesOut))
CANOPY_ACLNN_OP(NanMedian, PlanNanMedian, WithExample(kMedianTraits, "f32[3,4] f32[1]"), (const aclTensor*, self),
                (aclTensor*, out))
CANOPY_ACLNN_OP(NanMedianDim, PlanNanMedianDim, WithExample(kMedianTraits, "f32[3,4] 0 true f32[1,4] i64[1,4]"),
                (const aclTensor*, self), (int64_t, dim), (bool, keepDim), (aclTensor*, valuesOut),
                (aclTensor*, indicesOut))
