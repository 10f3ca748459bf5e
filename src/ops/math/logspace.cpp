// aclnnLogSpace (torch.logspace): result[i] = base ^ (start + i * (end -
// start) / (steps - 1)), as CANN computes it: a linspace of start and end in
// result's dtype (FLOAT where start and end are one FLOAT16 and one
// BFLOAT16), then base (as a float, in that dtype) raised to it, then cast to
// result. result holds steps elements, filled in row-major order.
#include <cmath>

#include "aclnnop/aclnn_logspace.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogSpaceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// `x` rounded to `dtype` (FLOAT, FLOAT16 or BFLOAT16).
double RoundTo(aclDataType dtype, double x) {
  double rounded = x;
  kernels::VisitStorage(dtype, [&](auto tag) {
    using Storage = decltype(tag);
    rounded = kernels::Convert<double>(kernels::Convert<Storage>(x));
  });
  return rounded;
}

// values[i] (FLOAT) = base ^ linspace(start, end)[i], each stage rounded to `compute`.
class LogSpaceStep final : public Step {
 public:
  LogSpaceStep(aclDataType compute, double start, double end, double base, const TensorRef& values)
      : compute_(compute), start_(start), end_(end), base_(base), values_(values) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* values = reinterpret_cast<float*>(context.Resolve(values_.buffer));
    const int64_t steps = values_.shape[0];
    const double step = steps > 1 ? (end_ - start_) / static_cast<double>(steps - 1) : 0.0;
    for (int64_t i = 0; i < steps; ++i) {
      // The second half counts back from end, so that both ends are exact.
      const double x =
          2 * i < steps ? start_ + step * static_cast<double>(i) : end_ - step * static_cast<double>(steps - 1 - i);
      values[i] = static_cast<float>(RoundTo(compute_, std::pow(base_, RoundTo(compute_, x))));
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "logspace of " + std::to_string(values_.shape[0]) + " values"; }

 private:
  aclDataType compute_;
  double start_;
  double end_;
  double base_;
  TensorRef values_;
};

aclnnStatus PlanLogSpace(Plan& plan, const aclScalar* start, const aclScalar* end, int64_t steps, double base,
                         const aclTensor* result) {
  CANOPY_CHECK(plan.CheckDtype("result", result->dtype, kLogSpaceDtypes));
  if (steps < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "steps %ld must not be negative", static_cast<long>(steps));
  }
  // CANN's host code refuses a base of 0 or less (a NaN base passes its `base <= 0`, as here).
  if (base <= 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "base %g must be greater than 0", base);
  const TensorRef dst = plan.Output(result, "result");
  if (steps == 0) return ACLNN_SUCCESS;
  if (dst.NumElements() != steps) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "result %s must hold steps (%ld) elements",
                       ShapeToString(dst.shape).c_str(), static_cast<long>(steps));
  }
  const bool mixed_halves = (start->dtype == ACL_FLOAT16 && end->dtype == ACL_BF16) ||
                            (start->dtype == ACL_BF16 && end->dtype == ACL_FLOAT16);
  const aclDataType compute = mixed_halves ? ACL_FLOAT : result->dtype;
  const double first = RoundTo(compute, ValueOf(*start).real);
  const double last = RoundTo(compute, ValueOf(*end).real);
  const double base_in = RoundTo(compute, static_cast<float>(base));
  const TensorRef values = plan.Temporary(ACL_FLOAT, {steps});
  plan.AddStep(std::make_unique<LogSpaceStep>(compute, first, last, base_in, values), {}, values);
  plan.Copy(*Reshape(values, dst.shape), dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    LogSpace, PlanLogSpace,
    (OpTraits{.header = "aclnnop/aclnn_logspace.h", .dtypes = kLogSpaceDtypes, .example = "f32:1 f32:3 5 10 f32[5]"}),
    (const aclScalar*, start), (const aclScalar*, end), (int64_t, steps), (double, base), (const aclTensor*, result))
