// aclnnArange: out = start, start + step, ... below end (above it for a
// negative step). aclnnRange (torch.range): the same up to end included, the
// count floor((end - start) / step) + 1, into an out of rank 1 or more. The element count is PyTorch's: for integer
// outputs (end - start + step - sign(step)) / step on the values truncated to int64; for floating ones ceil((end -
// start) / step), in f32 for f32/fp16/bf16 outputs (CANN sizes those in float) and in f64 for f64. `out` must hold that
// many elements (CANN documents it 1-D, and its kernel fills out as one flat sequence: row-major order here). The
// values are computed in int64 or f64 and copied into out (cast, strides).
#include <cmath>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_range.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kArangeScalarDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8,
                                          ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kArangeOutDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_BF16};
// Counts beyond this cannot describe a tensor anyway.
constexpr double kMaxCount = 4611686018427387904.0;  // 2^62

// values[i] = start + i * step, in int64 or f64.
class ArangeStep final : public Step {
 public:
  ArangeStep(ScalarValue start, ScalarValue step, const TensorRef& values)
      : start_(start), step_(step), values_(values) {}

  aclnnStatus Run(const RunContext& context) const override {
    char* base = context.Resolve(values_.buffer);
    const int64_t count = values_.shape[0];
    if (values_.dtype == ACL_INT64) {
      auto* values = reinterpret_cast<int64_t*>(base);
      // In uint64 arithmetic (two's complement wraps): i * step alone may not
      // fit int64 where every start + i * step does (from INT64_MIN by 2^62).
      const auto start = static_cast<uint64_t>(start_.integer), step = static_cast<uint64_t>(step_.integer);
      for (int64_t i = 0; i < count; ++i) values[i] = static_cast<int64_t>(start + static_cast<uint64_t>(i) * step);
    } else {
      auto* values = reinterpret_cast<double*>(base);
      for (int64_t i = 0; i < count; ++i) values[i] = start_.real + static_cast<double>(i) * step_.real;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "arange " + std::to_string(values_.shape[0]) + " values"; }

 private:
  ScalarValue start_;
  ScalarValue step_;
  TensorRef values_;
};

// The element count of [start, end) (closed: [start, end]) by step in T (float or double), or -1 after a rejection.
template <typename T>
int64_t FloatingCount(Plan& plan, double start, double end, double step, bool closed) {
  const T a = static_cast<T>(start), b = static_cast<T>(end), s = static_cast<T>(step);
  if (!std::isfinite(a) || !std::isfinite(b)) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "start %g and end %g must be finite", start, end);
    return -1;
  }
  if (!(s > 0 || s < 0)) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'step' must be nonzero");
    return -1;
  }
  if ((s > 0 && a > b) || (s < 0 && a < b)) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "start %g, end %g and step %g: the bounds disagree with step's sign", start,
                end, step);
    return -1;
  }
  const T count = closed ? std::floor((b - a) / s) + T(1) : std::ceil((b - a) / s);
  if (!(count <= static_cast<T>(kMaxCount))) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "start %g, end %g and step %g give too many elements", start, end, step);
    return -1;
  }
  return static_cast<int64_t>(count);
}

int64_t IntegerCount(Plan& plan, int64_t start, int64_t end, int64_t step, bool closed) {
  if (step == 0) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'step' must be nonzero");
    return -1;
  }
  if ((step > 0 && start > end) || (step < 0 && start < end)) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "start %lld, end %lld and step %lld: the bounds disagree with step's sign",
                static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(step));
    return -1;
  }
  const __int128 sign = step > 0 ? 1 : -1;
  const __int128 count = closed ? (static_cast<__int128>(end) - start) / step + 1
                                : (static_cast<__int128>(end) - start + step - sign) / step;
  if (count > static_cast<__int128>(kMaxCount)) {
    plan.Reject(ACLNN_ERR_PARAM_INVALID, "start %lld, end %lld and step %lld give too many elements",
                static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(step));
    return -1;
  }
  return static_cast<int64_t>(count);
}

// Arange ([start, end)) and Range (closed: [start, end], out of rank 1 or more).
aclnnStatus PlanSequence(Plan& plan, const aclScalar* start, const aclScalar* end, const aclScalar* step,
                         const aclTensor* out, bool closed) {
  CANOPY_CHECK(plan.CheckDtype("start", start->dtype, kArangeScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("end", end->dtype, kArangeScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("step", step->dtype, kArangeScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kArangeOutDtypes));
  if (closed && out->rank() == 0)
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has rank 0; it must be 1-D");
  const bool integral = out->dtype == ACL_INT32 || out->dtype == ACL_INT64;
  const ScalarValue a = ValueOf(*start), b = ValueOf(*end), s = ValueOf(*step);
  ScalarValue first, increment;
  int64_t count;
  if (integral) {
    first = ScalarValue::Integer(a.As<int64_t>());
    increment = ScalarValue::Integer(s.As<int64_t>());
    count = IntegerCount(plan, first.integer, b.As<int64_t>(), increment.integer, closed);
  } else {
    first = ScalarValue::Real(a.As<double>());
    increment = ScalarValue::Real(s.As<double>());
    count = out->dtype == ACL_DOUBLE ? FloatingCount<double>(plan, first.real, b.As<double>(), increment.real, closed)
                                     : FloatingCount<float>(plan, first.real, b.As<double>(), increment.real, closed);
  }
  if (count < 0) return ACLNN_ERR_PARAM_INVALID;  // the count's check set the message
  if (out->NumElements() != count) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has shape %s; the range has %lld elements",
                       ShapeToString(out->view_shape).c_str(), static_cast<long long>(count));
  }
  const TensorRef dst = plan.Output(out, "out");
  if (count == 0) return ACLNN_SUCCESS;
  const TensorRef values = plan.Temporary(integral ? ACL_INT64 : ACL_DOUBLE, {count});
  plan.AddStep(std::make_unique<ArangeStep>(first, increment, values), {}, values);
  plan.Copy(*Reshape(values, dst.shape), dst);  // a dense tensor takes any shape of its count
  return ACLNN_SUCCESS;
}

aclnnStatus PlanArange(Plan& plan, const aclScalar* start, const aclScalar* end, const aclScalar* step,
                       const aclTensor* out) {
  return PlanSequence(plan, start, end, step, out, false);
}
aclnnStatus PlanRange(Plan& plan, const aclScalar* start, const aclScalar* end, const aclScalar* step,
                      const aclTensor* out) {
  return PlanSequence(plan, start, end, step, out, true);
}

}  // namespace

CANOPY_ACLNN_OP(
    Range, PlanRange,
    (OpTraits{.header = "aclnnop/aclnn_range.h", .dtypes = kArangeOutDtypes, .example = "f32:0 f32:4 f32:1 f32[5]"}),
    (const aclScalar*, start), (const aclScalar*, end), (const aclScalar*, step), (aclTensor*, out))
CANOPY_ACLNN_OP(
    Arange, PlanArange,
    (OpTraits{.header = "aclnnop/aclnn_arange.h", .dtypes = kArangeOutDtypes, .example = "f32:0 f32:4 f32:1 f32[4]"}),
    (const aclScalar*, start), (const aclScalar*, end), (const aclScalar*, step), (aclTensor*, out))
