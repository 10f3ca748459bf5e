// aclnnForeachRoundOffNumber and its V2: out[i] = x[i] rounded to integral
// values in its own dtype, by the mode CANN's kernel takes: 1 to nearest even,
// 2 floor, 3 ceil, 4 to nearest with halves away from zero, 5 toward zero,
// 6 to odd (the odd one of floor and ceil for a non-integral value), 7 the
// fraction x - trunc(x); any other mode leaves the values as they are. V1
// reads the mode from a one-element INT8 device tensor when it runs; V2 takes
// a host scalar. Each tensor rounds in FLOAT, which holds every FLOAT16,
// BFLOAT16 and INT16 value and every rounded result exactly.
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "foreach.h"
#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRoundOffDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT16};

float RoundOff(float x, int mode) {
  switch (mode) {
    case 1:
      return std::nearbyint(x);
    case 2:
      return std::floor(x);
    case 3:
      return std::ceil(x);
    case 4:
      return std::round(x);
    case 5:
      return std::trunc(x);
    case 6: {
      const float down = std::floor(x);
      if (down == x || !std::isfinite(x)) return x;
      return std::fmod(down, 2.0F) != 0.0F ? down : down + 1.0F;
    }
    case 7:
      return std::isinf(x) ? 0.0F * x : x - std::trunc(x);
    default:
      return x;
  }
}

// values = RoundOff(values) in place (dense FLOAT), the mode fixed or read from a one-element INT8 tensor.
class RoundOffStep final : public Step {
 public:
  RoundOffStep(const TensorRef& values, std::optional<TensorRef> mode_tensor, int mode)
      : values_(values), mode_tensor_(std::move(mode_tensor)), mode_(mode) {}

  aclnnStatus Run(const RunContext& context) const override {
    int mode = mode_;
    if (mode_tensor_) {
      // Read unsigned: a negative INT8 mode, like any other outside 1 .. 7, leaves the values alone.
      uint8_t raw;
      std::memcpy(&raw, context.Resolve(mode_tensor_->buffer), sizeof raw);
      mode = raw;
    }
    auto* values = reinterpret_cast<float*>(context.Resolve(values_.buffer));
    for (int64_t i = 0; i < values_.NumElements(); ++i) values[i] = RoundOff(values[i], mode);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "round off " + ShapeToString(values_.shape) +
           (mode_tensor_ ? std::string(" by the mode tensor") : " mode " + std::to_string(mode_));
  }

 private:
  TensorRef values_;
  std::optional<TensorRef> mode_tensor_;
  int mode_;
};

void PlanRoundOff(Plan& plan, const std::vector<TensorRef>& inputs, const std::vector<TensorRef>& outputs,
                  const std::optional<TensorRef>& mode_tensor, int mode) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].NumElements() == 0) continue;
    const TensorRef values = plan.Temporary(ACL_FLOAT, inputs[i].shape);
    plan.Copy(inputs[i], values);
    std::vector<TensorRef> reads = {values};
    if (mode_tensor) reads.push_back(*mode_tensor);
    plan.AddStep(std::make_unique<RoundOffStep>(values, mode_tensor, mode), reads, values);
    plan.Copy(values, outputs[i]);
  }
}

aclnnStatus PlanForeachRoundOffNumber(Plan& plan, const aclTensorList* x, const aclTensor* roundMode,
                                      const aclTensorList* out) {
  aclDataType dtype = ACL_DT_UNDEFINED;
  CANOPY_CHECK(CheckForeachLists(plan, {{"x", x}, {"out", out}}, kRoundOffDtypes, dtype));
  CANOPY_CHECK(plan.CheckDtype("roundMode", roundMode->dtype, {ACL_INT8}));
  if (roundMode->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'roundMode' has shape %s; it must hold one value",
                       ShapeToString(roundMode->view_shape).c_str());
  }
  const std::vector<TensorRef> inputs = plan.InputList(x, "x");
  const TensorRef mode = plan.Input(roundMode, "roundMode");
  const std::vector<TensorRef> outputs = plan.OutputList(out, "out");
  PlanRoundOff(plan, inputs, outputs, mode, 0);
  return ACLNN_SUCCESS;
}

// V2 checks as its own host code does: shapes that differ are 161002 here, not a tiling error.
aclnnStatus PlanForeachRoundOffNumberV2(Plan& plan, const aclTensorList* x, const aclScalar* roundMode,
                                        const aclTensorList* out) {
  if (!x->tensors.empty()) {
    const aclDataType dtype = x->tensors[0]->dtype;
    CANOPY_CHECK(plan.CheckDtype("x[0]", dtype, kRoundOffDtypes));
    for (const ForeachList& list : {ForeachList{"x", x}, ForeachList{"out", out}}) {
      for (size_t i = 0; i < list.list->tensors.size(); ++i) {
        if (list.list->tensors[i]->dtype != dtype) {
          return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s[%zu]' has dtype %s; 'x[0]' has %s", list.name, i,
                             DtypeName(list.list->tensors[i]->dtype), DtypeName(dtype));
        }
      }
    }
    CANOPY_CHECK(CheckScalarDtype(plan, "roundMode", roundMode, {ACL_INT8, ACL_INT64}));
    if (out->tensors.size() != x->tensors.size()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' holds %zu tensors; 'x' holds %zu", out->tensors.size(),
                         x->tensors.size());
    }
    for (size_t i = 0; i < x->tensors.size(); ++i) {
      if (out->tensors[i]->view_shape != x->tensors[i]->view_shape) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out[%zu]' has shape %s; 'x[%zu]' has %s", i,
                           ShapeToString(out->tensors[i]->view_shape).c_str(), i,
                           ShapeToString(x->tensors[i]->view_shape).c_str());
      }
    }
  }
  // CANN hands the kernel the mode as an INT8.
  const auto mode = static_cast<int8_t>(ValueOf(*roundMode).integer);
  const std::vector<TensorRef> inputs = plan.InputList(x, "x");
  const std::vector<TensorRef> outputs = plan.OutputList(out, "out");
  PlanRoundOff(plan, inputs, outputs, std::nullopt, mode);
  return ACLNN_SUCCESS;
}

constexpr const char* kExample = "(f32[2,3],f32[1,3]) i8[1]{1:1} (f32[2,3],f32[1,3])";

}  // namespace

CANOPY_ACLNN_OP(ForeachRoundOffNumber, PlanForeachRoundOffNumber,
                (OpTraits{.header = "aclnnop/aclnn_foreach_round_off_number.h",
                          .dtypes = kRoundOffDtypes | DtypeSet{ACL_INT8},
                          .example = kExample}),
                (const aclTensorList*, x), (const aclTensor*, roundMode), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachRoundOffNumberV2, PlanForeachRoundOffNumberV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_round_off_number_v2.h",
                          .dtypes = kRoundOffDtypes,
                          .example = "(f32[2,3],f32[1,3]) i8:3 (f32[2,3],f32[1,3])"}),
                (const aclTensorList*, x), (const aclScalar*, roundMode), (aclTensorList*, out))
