// aclnnInplaceMaskedScatter (torch.masked_scatter_): where mask (broadcast to
// selfRef's shape) is true, selfRef takes source's elements one after another,
// both in row-major order. source must hold at least as many elements as the
// mask selects; that count is known only at run time, so the step counts
// first: too few fails the stream task with a message and nothing is written.
#include <cstring>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMaskedScatterDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                           ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL, ACL_BF16};
constexpr DtypeSet kMaskDtypes = {ACL_BOOL, ACL_UINT8};

// self[p] = source[k++] for each p (row-major) whose mask byte is non-zero;
// source is one dense dimension.
class MaskedScatterStep final : public Step {
 public:
  MaskedScatterStep(std::string op, const TensorRef& self, const TensorRef& mask, const TensorRef& source)
      : op_(std::move(op)), self_(self), mask_(mask), source_(source) {}

  aclnnStatus Run(const RunContext& context) const override {
    char* self = context.Resolve(self_.buffer);
    const auto* mask = reinterpret_cast<const uint8_t*>(context.Resolve(mask_.buffer));
    const char* source = context.Resolve(source_.buffer);
    int64_t selected = 0;
    ForEachOffsetPair(mask_.shape, mask_.strides, mask_.strides, [&](int64_t m, int64_t) { selected += mask[m] != 0; });
    const int64_t available = source_.shape[0];
    if (selected > available) {
      SetErrorMessage("%s: the mask selects %lld elements; 'source' has only %lld", op_.c_str(),
                      static_cast<long long>(selected), static_cast<long long>(available));
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    const auto bytes = static_cast<int64_t>(DtypeSize(self_.dtype));
    const int64_t step = source_.strides[0] * bytes;
    ForEachOffsetPair(self_.shape, self_.strides, mask_.strides, [&](int64_t s, int64_t m) {
      if (mask[m] == 0) return;
      std::memcpy(self + s * bytes, source, static_cast<size_t>(bytes));
      source += step;
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "masked scatter " + ShapeToString(self_.shape) + " " + DtypeName(self_.dtype);
  }

 private:
  std::string op_;
  TensorRef self_;
  TensorRef mask_;
  TensorRef source_;
};

aclnnStatus PlanInplaceMaskedScatter(Plan& plan, const aclTensor* self, const aclTensor* mask,
                                     const aclTensor* source) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kMaskedScatterDtypes));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, kMaskDtypes));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("selfRef", self->view_shape, "mask", mask->view_shape, shape));
  if (shape != self->view_shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'mask' of shape %s does not broadcast to selfRef's shape %s",
                       ShapeToString(mask->view_shape).c_str(), ShapeToString(self->view_shape).c_str());
  }
  CANOPY_CHECK(CheckSameDtype(plan, "source", source, "selfRef", self));
  plan.Input(self, "selfRef");
  const TensorRef selector = plan.Input(mask, "mask");
  TensorRef values = plan.Input(source, "source");
  const TensorRef dst = plan.Output(self, "selfRef");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  // source's elements in row-major order: a view where strides allow it, else a dense copy.
  const int64_t n = values.NumElements();
  std::optional<TensorRef> flat = Reshape(values, {n});
  if (!flat) flat = *Reshape(plan.Contiguous(values, values.dtype), {n});
  const TensorRef mask_view = BroadcastTo(selector, shape);
  plan.AddStep(std::make_unique<MaskedScatterStep>(plan.op(), dst, mask_view, *flat), {mask_view, *flat}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceMaskedScatter, PlanInplaceMaskedScatter,
                (OpTraits{
                    .header = "aclnnop/aclnn_masked_scatter.h", .dtypes = kMaskedScatterDtypes, .in_place = true}),
                (aclTensor*, selfRef), (const aclTensor*, mask), (const aclTensor*, source))
