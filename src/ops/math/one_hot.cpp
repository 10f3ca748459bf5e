// aclnnOneHot: out is self's shape with a class dimension of numClasses
// inserted at axis (-1: last); an element is onValue where the index equals
// its class and offValue elsewhere, so an index outside [0, numClasses) gives
// a run of offValue. onValue and offValue have out's dtype and only their
// first elements count. Nothing is computed for an empty self or no classes.
#include <cstring>

#include "aclnnop/aclnn_one_hot.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The Atlas A2 lists of the host code (the doc's UINT8 self and INT8 / UINT8 values are other SoCs').
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr DtypeSet kValueDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT64};

// dst [outer, classes, inner] (contiguous) from the INT64 indices [outer, inner].
class OneHotStep final : public Step {
 public:
  OneHotStep(const TensorRef& indices, const TensorRef& on, const TensorRef& off, const TensorRef& dst, int64_t outer,
             int64_t classes)
      : indices_(indices), on_(on), off_(off), dst_(dst), outer_(outer), classes_(classes) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* indices = reinterpret_cast<const int64_t*>(context.Resolve(indices_.buffer));
    const char* on = context.Resolve(on_.buffer);
    const char* off = context.Resolve(off_.buffer);
    char* dst = context.Resolve(dst_.buffer);
    const auto element = DtypeSize(dst_.dtype);
    const int64_t inner = indices_.NumElements() / outer_;
    for (int64_t o = 0; o < outer_; ++o) {
      for (int64_t c = 0; c < classes_; ++c) {
        const int64_t row = o * classes_ + c;
        for (int64_t i = 0; i < inner; ++i) {
          const char* value = indices[o * inner + i] == c ? on : off;
          std::memcpy(dst + static_cast<size_t>(row * inner + i) * element, value, element);
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "one hot of " + ShapeToString(indices_.shape) + " into " + ShapeToString(dst_.shape);
  }

 private:
  TensorRef indices_;
  TensorRef on_;
  TensorRef off_;
  TensorRef dst_;
  int64_t outer_;
  int64_t classes_;
};

aclnnStatus PlanOneHot(Plan& plan, const aclTensor* self, int num_classes, const aclTensor* on_value,
                       const aclTensor* off_value, int64_t axis, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kValueDtypes));
  CANOPY_CHECK(plan.CheckDtype("onValue", on_value->dtype, kValueDtypes));
  CANOPY_CHECK(plan.CheckDtype("offValue", off_value->dtype, kValueDtypes));
  for (auto [value, name] : {std::pair{on_value, "onValue"}, std::pair{off_value, "offValue"}}) {
    if (value->dtype != out->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is %s; it must have out's dtype %s", name,
                         DtypeName(value->dtype), DtypeName(out->dtype));
    }
  }
  const Shape& shape = self->view_shape;
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  if (count == 0 ? num_classes <= 0 : num_classes < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "numClasses %d must be %s", num_classes,
                       count == 0 ? "positive for an empty self" : "at least 0");
  }
  const auto rank = static_cast<int64_t>(shape.size());
  if (axis < -1 || axis > rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "axis %ld must be in [-1, %ld]", static_cast<long>(axis),
                       static_cast<long>(rank));
  }
  CANOPY_CHECK(plan.CheckRank("out", out, rank + 1, rank + 1));
  const int64_t dim = axis < 0 ? rank : axis;
  Shape out_shape = shape;
  out_shape.insert(out_shape.begin() + dim, num_classes);
  CANOPY_CHECK(plan.CheckShape("out", out, out_shape));

  const TensorRef indices = plan.Input(self, "self");
  const TensorRef on = plan.Input(on_value, "onValue");
  const TensorRef off = plan.Input(off_value, "offValue");
  const TensorRef result = plan.Output(out, "out");
  if (count == 0 || num_classes == 0) return ACLNN_SUCCESS;
  // Only the first elements are read; there must be one.
  for (auto [value, name] : {std::pair{&on, "onValue"}, std::pair{&off, "offValue"}}) {
    if (value->NumElements() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is empty; its first element is the fill value", name);
    }
  }
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[static_cast<size_t>(d)];
  const TensorRef flat = plan.Contiguous(indices, ACL_INT64);
  const TensorRef dst = result.IsContiguous() ? result : plan.Temporary(result.dtype, result.shape);
  plan.AddStep(std::make_unique<OneHotStep>(flat, on, off, dst, outer, num_classes), {flat, on, off}, dst);
  if (!result.IsContiguous()) plan.Copy(dst, result);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(OneHot, PlanOneHot,
                (OpTraits{.header = "aclnnop/aclnn_one_hot.h",
                          .dtypes = kIndexDtypes | kValueDtypes,
                          .example = "i64[2,3]{0:3} 4 f32[1] f32[1] -1 f32[2,3,4]"}),
                (const aclTensor*, self), (int, numClasses), (const aclTensor*, onValue), (const aclTensor*, offValue),
                (int64_t, axis), (aclTensor*, out))
