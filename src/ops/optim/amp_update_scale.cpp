// aclnnAmpUpdateScale (torch._amp_update_scale_), read and decided on the stream:
//   foundInf != 0: scale *= backoffFactor, tracker = 0
//   else tracker + 1 == growthInterval: scale *= growthFactor when that stays
//     finite in scale's dtype (else it is kept), tracker = 0
//   else: tracker += 1
// One element each; the scale is computed in f32 and rounded to its dtype.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "aclnnop/aclnn_amp_update_scale.h"
#include "adam_update.h"
#include "common/half.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kScaleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

struct AmpDesc {
  BufferRef scale, found_inf, tracker;  // f32, f32, s32 working copies (one element each)
  BufferRef new_scale, new_tracker;     // f32, s32
  aclDataType scale_dtype = ACL_FLOAT;
  float growth = 0, backoff = 0;
  int32_t interval = 1;
};

// `value` as the scale's dtype keeps it (the f32 working value is rounded there).
float RoundedTo(float value, aclDataType dtype) {
  if (dtype == ACL_FLOAT16) return HalfToFloat(FloatToHalf(value));
  if (dtype == ACL_BF16) return Bf16ToFloat(FloatToBf16(value));
  return value;
}

class AmpUpdateStep final : public Step {
 public:
  explicit AmpUpdateStep(const AmpDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const float scale = *reinterpret_cast<const float*>(context.Resolve(d_.scale));
    const float found = *reinterpret_cast<const float*>(context.Resolve(d_.found_inf));
    const int32_t tracker = *reinterpret_cast<const int32_t*>(context.Resolve(d_.tracker));
    float next_scale = scale;
    int32_t next_tracker = 0;
    if (found != 0.0f) {
      next_scale = RoundedTo(scale * d_.backoff, d_.scale_dtype);
    } else if (static_cast<int64_t>(tracker) + 1 == d_.interval) {
      const float grown = RoundedTo(scale * d_.growth, d_.scale_dtype);
      if (std::isfinite(grown)) next_scale = grown;
    } else {
      next_tracker = tracker + 1;
    }
    *reinterpret_cast<float*>(context.Resolve(d_.new_scale)) = next_scale;
    *reinterpret_cast<int32_t*>(context.Resolve(d_.new_tracker)) = next_tracker;
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "amp_update_scale"; }

 private:
  AmpDesc d_;
};

aclnnStatus PlanAmpUpdateScale(Plan& plan, const aclTensor* current_scale, const aclTensor* growth_tracker,
                               const aclTensor* found_inf, double growth_factor, double backoff_factor,
                               int64_t growth_interval, const aclTensor* updated_scale,
                               const aclTensor* updated_growth_tracker) {
  CANOPY_CHECK(plan.CheckDtype("currentScale", current_scale->dtype, kScaleDtypes));
  for (const auto& [name, tensor] : {std::pair{"foundInf", found_inf}, std::pair{"updatedScale", updated_scale}}) {
    if (tensor->dtype != current_scale->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s (%s) must have currentScale's dtype (%s)", name,
                         DtypeName(tensor->dtype), DtypeName(current_scale->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("growthTracker", growth_tracker->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("updatedGrowthTracker", updated_growth_tracker->dtype, {ACL_INT32}));
  // CANN's tiling: every input a [1], growthInterval in [1, INT32_MAX] (561002).
  for (const auto& [name, tensor] : {std::pair{"currentScale", current_scale},
                                     std::pair{"growthTracker", growth_tracker}, std::pair{"foundInf", found_inf}}) {
    if (tensor->view_shape.size() != 1 || tensor->NumElements() != 1) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s has shape %s; it must be [1]", name,
                         ShapeToString(tensor->view_shape).c_str());
    }
  }
  if (growth_interval < 1 || growth_interval > std::numeric_limits<int32_t>::max()) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "growthInterval %lld is outside [1, 2147483647]",
                       static_cast<long long>(growth_interval));
  }
  for (const auto& [name, tensor] :
       {std::pair{"updatedScale", updated_scale}, std::pair{"updatedGrowthTracker", updated_growth_tracker}}) {
    if (tensor->NumElements() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has shape %s; it must hold one element", name,
                         ShapeToString(tensor->view_shape).c_str());
    }
  }
  const TensorRef scale_in = plan.Input(current_scale, "currentScale");
  const TensorRef tracker_in = plan.Input(growth_tracker, "growthTracker");
  const TensorRef found_in = plan.Input(found_inf, "foundInf");
  const TensorRef scale_out = plan.Output(updated_scale, "updatedScale");
  const TensorRef tracker_out = plan.Output(updated_growth_tracker, "updatedGrowthTracker");
  const TensorRef scale = WorkingCopy(plan, scale_in, ACL_FLOAT), found = WorkingCopy(plan, found_in, ACL_FLOAT);
  const TensorRef tracker = WorkingCopy(plan, tracker_in, ACL_INT32);
  const TensorRef new_scale = plan.Temporary(ACL_FLOAT, scale_out.shape);
  const TensorRef new_tracker = plan.Temporary(ACL_INT32, tracker_out.shape);
  AmpDesc desc;
  desc.scale = scale.buffer;
  desc.found_inf = found.buffer;
  desc.tracker = tracker.buffer;
  desc.new_scale = new_scale.buffer;
  desc.new_tracker = new_tracker.buffer;
  desc.scale_dtype = current_scale->dtype;
  desc.growth = static_cast<float>(growth_factor);
  desc.backoff = static_cast<float>(backoff_factor);
  desc.interval = static_cast<int32_t>(growth_interval);
  plan.AddStep(std::make_unique<AmpUpdateStep>(desc), {scale, found, tracker, new_tracker}, new_scale);
  plan.Copy(new_scale, scale_out);
  plan.Copy(new_tracker, tracker_out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AmpUpdateScale, PlanAmpUpdateScale,
                (OpTraits{.header = "aclnnop/aclnn_amp_update_scale.h",
                          .dtypes = kScaleDtypes,
                          .example = "f32[1]{1:4} i32[1]{0:3} f32[1]{0:1} 2 0.5 5 f32[1] i32[1]"}),
                (const aclTensor*, currentScale), (const aclTensor*, growthTracker), (const aclTensor*, foundInf),
                (double, growthFactor), (double, backoffFactor), (int64_t, growthInterval),
                (const aclTensor*, updatedScale), (const aclTensor*, updatedGrowthTracker))
