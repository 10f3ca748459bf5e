// aclnnReflectionPad1d: the last dimension of self (rank 2 or 3) padded with
// padding[0] elements before and padding[1] after, mirrored about its first and
// last element (the edge itself not repeated): out[..., j] = self[..., r(j - padding[0])]
// with r(i) = -i below 0 and 2(n - 1) - i past n - 1. A negative padding crops.
#include <cstring>
#include <string>

#include "aclnnop/aclnn_reflection_pad1d.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kReflectionPadDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16,   ACL_INT16,      ACL_DOUBLE,
                                           ACL_INT8,  ACL_UINT8, ACL_BOOL,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

class ReflectionPadStep final : public Step {
 public:
  ReflectionPadStep(const TensorRef& src, const TensorRef& dst, int64_t front)
      : src_(src),
        dst_(dst),
        front_(front),
        rows_(src.shape.begin(), src.shape.end() - 1),
        src_rows_(src.strides.begin(), src.strides.end() - 1),
        dst_rows_(dst.strides.begin(), dst.strides.end() - 1) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(src_.buffer);
    char* dst = context.Resolve(dst_.buffer);
    const auto bytes = static_cast<int64_t>(DtypeSize(src_.dtype));
    const int64_t n = src_.shape.back(), width = dst_.shape.back();
    const int64_t src_step = src_.strides.back() * bytes, dst_step = dst_.strides.back() * bytes;
    ForEachOffsetPair(rows_, src_rows_, dst_rows_, [&](int64_t src_offset, int64_t dst_offset) {
      const char* row = src + src_offset * bytes;
      char* to = dst + dst_offset * bytes;
      for (int64_t j = 0; j < width; ++j) {
        int64_t i = j - front_;
        if (i < 0) i = -i;
        if (i >= n) i = 2 * (n - 1) - i;
        std::memcpy(to + j * dst_step, row + i * src_step, static_cast<size_t>(bytes));
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "reflection pad " + ShapeToString(src_.shape) + " -> " + ShapeToString(dst_.shape) + " front " +
           std::to_string(front_) + " " + DtypeName(src_.dtype);
  }

 private:
  TensorRef src_;
  TensorRef dst_;
  int64_t front_;
  Shape rows_;  // the dimensions before the last, and their strides on both sides
  Shape src_rows_;
  Shape dst_rows_;
};

aclnnStatus PlanReflectionPad1d(Plan& plan, const aclTensor* self, const aclIntArray* padding, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kReflectionPadDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kReflectionPadDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format %d and out's format %d differ",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 3));
  if (out->rank() != self->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has rank %lld; self has rank %lld",
                       static_cast<long long>(out->rank()), static_cast<long long>(self->rank()));
  }
  if (padding->values.size() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'padding' has %zu values; it needs 2",
                       padding->values.size());
  }
  const int64_t front = padding->values[0], back = padding->values[1];
  const int64_t n = self->view_shape.back();
  if (front >= n || back >= n) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'padding' is [%lld, %lld]; each value must be less than self's last extent %lld",
                       static_cast<long long>(front), static_cast<long long>(back), static_cast<long long>(n));
  }
  if (front < -n || back < -n) {  // the sum below stays in range
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'padding' is [%lld, %lld]; it crops more than self's %lld",
                       static_cast<long long>(front), static_cast<long long>(back), static_cast<long long>(n));
  }
  Shape expected = self->view_shape;
  expected.back() = n + front + back;
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  if (self->NumElements() == 0 || out->NumElements() == 0) {
    // CANN takes an empty batch (3-D self of extent 0 in dimension 0) and nothing else empty.
    if (self->rank() == 2 || self->view_shape[1] == 0 || self->view_shape[2] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "self of shape %s: only the batch dimension of a 3-D self may be empty (out %s)",
                         ShapeToString(self->view_shape).c_str(), ShapeToString(out->view_shape).c_str());
    }
  }
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  plan.AddStep(std::make_unique<ReflectionPadStep>(src, dst, front), {src}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ReflectionPad1d, PlanReflectionPad1d,
                (OpTraits{.header = "aclnnop/aclnn_reflection_pad1d.h",
                          .dtypes = kReflectionPadDtypes,
                          .example = "f32[2,4] ints[1,2] f32[2,7]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
