// aclnnLinspace: out = steps values evenly spaced from start to end, both
// included, in row-major order over out (which must hold steps elements). The
// values are computed in f64 with PyTorch's symmetric formula (the first half
// from start, the second from end, so end is exact) and converted into out
// (a float to an integer truncates, as Cast does).
#include <string>

#include "aclnnop/aclnn_linspace.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLinspaceScalarDtypes = {ACL_FLOAT16, ACL_BF16,  ACL_FLOAT, ACL_DOUBLE, ACL_UINT8,
                                            ACL_INT8,    ACL_INT16, ACL_INT32, ACL_INT64,  ACL_BOOL};
constexpr DtypeSet kLinspaceOutDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_DOUBLE,
                                         ACL_UINT8,   ACL_INT8, ACL_INT16, ACL_INT32};

// values[i] = start + i * step for the first half, end - (steps - 1 - i) * step for the rest (f64).
class LinspaceStep final : public Step {
 public:
  LinspaceStep(double start, double end, const TensorRef& values) : start_(start), end_(end), values_(values) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* values = reinterpret_cast<double*>(context.Resolve(values_.buffer));
    const int64_t steps = values_.NumElements();
    if (steps == 1) {
      values[0] = start_;
      return ACLNN_SUCCESS;
    }
    const double step = (end_ - start_) / static_cast<double>(steps - 1);
    const int64_t half = steps / 2;
    for (int64_t i = 0; i < steps; ++i) {
      values[i] = i < half ? start_ + static_cast<double>(i) * step : end_ - static_cast<double>(steps - 1 - i) * step;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "linspace " + std::to_string(values_.NumElements()) + " values"; }

 private:
  double start_;
  double end_;
  TensorRef values_;
};

aclnnStatus PlanLinspace(Plan& plan, const aclScalar* start, const aclScalar* end, int64_t steps,
                         const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("start", start->dtype, kLinspaceScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("end", end->dtype, kLinspaceScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kLinspaceOutDtypes));
  if (steps < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'steps' is %lld; it must not be negative",
                       static_cast<long long>(steps));
  }
  if (out->NumElements() != steps) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' of shape %s holds %lld elements; 'steps' is %lld",
                       ShapeToString(out->view_shape).c_str(), static_cast<long long>(out->NumElements()),
                       static_cast<long long>(steps));
  }
  const TensorRef dst = plan.Output(out, "out");
  if (steps == 0) return ACLNN_SUCCESS;
  const TensorRef values = plan.Temporary(ACL_DOUBLE, dst.shape);  // dense: row-major order over out's shape
  plan.AddStep(std::make_unique<LinspaceStep>(ValueOf(*start).As<double>(), ValueOf(*end).As<double>(), values), {},
               values);
  plan.Copy(values, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    Linspace, PlanLinspace,
    (OpTraits{.header = "aclnnop/aclnn_linspace.h", .dtypes = kLinspaceOutDtypes, .example = "f32:0 f32:1 8 f32[8]"}),
    (const aclScalar*, start), (const aclScalar*, end), (int64_t, steps), (aclTensor*, out))
