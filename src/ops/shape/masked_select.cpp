// aclnnMaskedSelect: the elements of self where mask is true, self and mask
// broadcast together, in row-major order, written to the front of the 1-D out
// (which holds as many elements as the broadcast shape; the rest of it is left
// as it was, the count being known only at run time). self is converted to
// out's dtype first, as CANN does.
#include <cstring>
#include <string>

#include "aclnnop/aclnn_masked_select.h"
#include "ops/framework/aclnn_op.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMaskedSelectDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                          ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};
constexpr DtypeSet kMaskDtypes = {ACL_UINT8, ACL_BOOL};

// Copies the elements of `self` whose `mask` byte is non-zero to out[0], out[1], ...
// (self and mask are views of one shape; out has at least that many elements).
class MaskedSelectStep final : public Step {
 public:
  MaskedSelectStep(const TensorRef& self, const TensorRef& mask, const TensorRef& out)
      : self_(self), mask_(mask), out_(out) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* self = context.Resolve(self_.buffer);
    const auto* mask = reinterpret_cast<const uint8_t*>(context.Resolve(mask_.buffer));
    char* out = context.Resolve(out_.buffer);
    const auto bytes = static_cast<int64_t>(DtypeSize(out_.dtype));
    const int64_t step = out_.strides[0] * bytes;
    ForEachOffsetPair(self_.shape, self_.strides, mask_.strides, [&](int64_t s, int64_t m) {
      if (mask[m] == 0) return;
      std::memcpy(out, self + s * bytes, static_cast<size_t>(bytes));
      out += step;
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "masked select " + ShapeToString(self_.shape) + " " + DtypeName(out_.dtype);
  }

 private:
  TensorRef self_;
  TensorRef mask_;
  TensorRef out_;
};

aclnnStatus PlanMaskedSelect(Plan& plan, const aclTensor* self, const aclTensor* mask, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMaskedSelectDtypes));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, kMaskDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kMaskedSelectDtypes));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("self", self->view_shape, "mask", mask->view_shape, shape));
  CANOPY_CHECK(plan.CheckRank("out", out, 1, 1));
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  if (out->view_shape[0] != count) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'out' has %lld elements; it must have as many as self and mask broadcast to %s (%lld)",
                       static_cast<long long>(out->view_shape[0]), ShapeToString(shape).c_str(),
                       static_cast<long long>(count));
  }
  TensorRef src = plan.Input(self, "self");
  const TensorRef selector = plan.Input(mask, "mask");
  const TensorRef dst = plan.Output(out, "out");
  if (count == 0) return ACLNN_SUCCESS;
  if (src.dtype != dst.dtype) {  // converted to out's dtype before it is selected
    const TensorRef converted = plan.Temporary(dst.dtype, src.shape);
    plan.Copy(src, converted);
    src = converted;
  }
  const TensorRef self_view = BroadcastTo(src, shape);
  const TensorRef mask_view = BroadcastTo(selector, shape);
  plan.AddStep(std::make_unique<MaskedSelectStep>(self_view, mask_view, dst), {self_view, mask_view}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MaskedSelect, PlanMaskedSelect,
                (OpTraits{.header = "aclnnop/aclnn_masked_select.h", .dtypes = kMaskedSelectDtypes}),
                (const aclTensor*, self), (const aclTensor*, mask), (aclTensor*, out))
