// aclnnHistc (torch.histc): counts of self's elements in bins equal-width
// bins over [min, max]; an element equal to max falls in the last bin,
// elements outside and NaNs are not counted. Where min and max coincide (as
// integers for an integer self; within 1e-6, or the same infinity, as floats)
// the data's own minimum and maximum are the range, widened by 1 each way if
// those coincide too (an infinity or NaN among the data then fails the run:
// the range is not finite). The counts are cast to out's dtype.
#include <cmath>
#include <limits>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_histc.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHistcDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
// CANN's bound for "min and max coincide" in float.
constexpr float kSameRange = 1e-6F;

// counts[b] (INT64) = the elements of values (DOUBLE, contiguous) in bin b of [lo, hi], or of the data's range.
class HistcStep final : public Step {
 public:
  HistcStep(const TensorRef& values, const TensorRef& counts, double lo, double hi, bool data_range)
      : values_(values), counts_(counts), lo_(lo), hi_(hi), data_range_(data_range) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* values = reinterpret_cast<const double*>(context.Resolve(values_.buffer));
    auto* counts = reinterpret_cast<int64_t*>(context.Resolve(counts_.buffer));
    const int64_t n = values_.NumElements();
    const int64_t bins = counts_.NumElements();
    double lo = lo_, hi = hi_;
    if (data_range_) {
      lo = std::numeric_limits<double>::infinity();
      hi = -lo;
      bool nan = false;
      for (int64_t i = 0; i < n; ++i) {
        lo = std::fmin(lo, values[i]);
        hi = std::fmax(hi, values[i]);
        nan = nan || std::isnan(values[i]);
      }
      // The data's range must be finite (PyTorch: "range of [lo, hi] is not
      // finite"): an infinity or NaN among the values fails the run, as an
      // error only the data reveals does on the NPU.
      if (nan || (n > 0 && (std::isinf(lo) || std::isinf(hi)))) {
        SetErrorMessage(
            "aclnnHistc: min and max coincide, so the data's range is the bins' range, and it is not "
            "finite: [%g, %g]%s",
            lo, hi, nan ? " with NaN among the values" : "");
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
      if (lo == hi) {
        lo -= 1;
        hi += 1;
      }
    }
    for (int64_t b = 0; b < bins; ++b) counts[b] = 0;
    const double width = hi - lo;
    for (int64_t i = 0; i < n; ++i) {
      const double x = values[i];
      if (!(x >= lo && x <= hi)) continue;  // outside, or NaN
      // (x - lo) * bins before the division: exact bin edges for integer data.
      auto bin = static_cast<int64_t>((x - lo) * static_cast<double>(bins) / width);
      if (bin >= bins) bin = bins - 1;
      ++counts[bin];
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "histogram of " + ShapeToString(values_.shape) + " in " + std::to_string(counts_.NumElements()) + " bins";
  }

 private:
  TensorRef values_;
  TensorRef counts_;
  double lo_;
  double hi_;
  bool data_range_;
};

bool SameInfinity(float a, float b) { return std::isinf(a) && a == b; }

aclnnStatus PlanHistc(Plan& plan, const aclTensor* self, int64_t bins, const aclScalar* min, const aclScalar* max,
                      const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kHistcDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kHistcDtypes));
  const auto min_float = static_cast<float>(ValueOf(*min).real);
  const auto max_float = static_cast<float>(ValueOf(*max).real);
  if (!SameInfinity(min_float, max_float) && !(std::isfinite(min_float) && std::isfinite(max_float))) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the range [%g, %g] of 'min' and 'max' is not finite",
                       static_cast<double>(min_float), static_cast<double>(max_float));
  }
  if (bins <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "bins %ld must be positive", static_cast<long>(bins));
  }
  const bool integral = IsIntegral(self->dtype);
  // An integer self takes min and max as integers (truncated).
  const double lo = integral ? std::trunc(ValueOf(*min).real) : min_float;
  const double hi = integral ? std::trunc(ValueOf(*max).real) : max_float;
  if (lo > hi) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'min' %g is greater than 'max' %g", lo, hi);
  CANOPY_CHECK(plan.CheckCastable(out->dtype, "self", self->dtype));
  CANOPY_CHECK(plan.CheckRank("out", out, 1, 1));
  CANOPY_CHECK(plan.CheckShape("out", out, {bins}));

  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (in.NumElements() == 0) {
    plan.Fill(dst, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  const bool data_range =
      integral ? lo == hi : (SameInfinity(min_float, max_float) || std::abs(max_float - min_float) < kSameRange);
  const TensorRef values = plan.Contiguous(in, ACL_DOUBLE);
  const TensorRef counts = plan.Temporary(ACL_INT64, {bins});
  plan.AddStep(std::make_unique<HistcStep>(values, counts, lo, hi, data_range), {values}, counts);
  plan.Copy(counts, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    Histc, PlanHistc,
    (OpTraits{.header = "aclnnop/aclnn_histc.h", .dtypes = kHistcDtypes, .example = "f32[2,3] 4 f32:0 f32:1 f32[4]"}),
    (const aclTensor*, self), (int64_t, bins), (const aclScalar*, min), (const aclScalar*, max), (aclTensor*, out))
