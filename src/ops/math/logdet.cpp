// aclnnSlogdet and aclnnLogdet (torch.linalg.slogdet, torch.logdet): each
// square matrix of self's batch factored by LU with partial pivoting in
// double (complex double for the complex dtypes). Slogdet gives the
// determinant's sign (its phase for complex; 0 for a singular matrix) and
// log |det| (-inf when singular); Logdet gives log |det| + log(sign), so NaN
// for a negative real determinant. Results are cast into the outputs. A
// batch of 0 x 0 matrices gives sign 1 and log 0 (CANN writes nothing).
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_logdet.h"
#include "aclnnop/aclnn_slogdet.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDeterminantDtypes = {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};

// For `batch` contiguous n x n matrices of T: sign[b] and log_abs[b] (Logdet: log_abs[b] + log(sign[b]) into log_abs).
template <typename T>
class DeterminantStep final : public Step {
 public:
  DeterminantStep(const TensorRef& src, const std::optional<TensorRef>& sign, const TensorRef& log, int64_t batch,
                  int64_t n)
      : src_(src), sign_(sign), log_(log), batch_(batch), n_(n) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* src = reinterpret_cast<const T*>(context.Resolve(src_.buffer));
    auto* signs = sign_ ? reinterpret_cast<T*>(context.Resolve(sign_->buffer)) : nullptr;
    auto* logs = reinterpret_cast<T*>(context.Resolve(log_.buffer));
    const auto n = static_cast<size_t>(n_);
    std::vector<T> a(n * n);
    for (int64_t b = 0; b < batch_; ++b) {
      std::copy(src + static_cast<size_t>(b) * n * n, src + static_cast<size_t>(b + 1) * n * n, a.begin());
      T sign(1);
      double log_abs = 0;
      for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        for (size_t r = col + 1; r < n; ++r) {
          if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
        }
        if (a[pivot * n + col] == T(0)) {
          sign = T(0);
          log_abs = -std::numeric_limits<double>::infinity();
          break;
        }
        if (pivot != col) {
          for (size_t k = 0; k < n; ++k) std::swap(a[pivot * n + k], a[col * n + k]);
          sign = -sign;
        }
        const T p = a[col * n + col];
        const double magnitude = std::abs(p);
        if constexpr (std::is_floating_point_v<T>) {
          sign *= std::isnan(p) ? p : p < 0 ? T(-1) : T(1);  // sgn: an infinite pivot has a sign (inf / inf has none)
        } else {
          sign *= p / magnitude;
        }
        log_abs += std::log(magnitude);
        for (size_t r = col + 1; r < n; ++r) {
          const T factor = a[r * n + col] / p;
          for (size_t k = col; k < n; ++k) a[r * n + k] -= factor * a[col * n + k];
        }
      }
      if (signs != nullptr) {
        signs[b] = sign;
        logs[b] = T(log_abs);
      } else {
        logs[b] = T(log_abs) + std::log(sign);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "log-determinants of " + std::to_string(batch_) + " matrices of order " + std::to_string(n_);
  }

 private:
  TensorRef src_;
  std::optional<TensorRef> sign_;
  TensorRef log_;
  int64_t batch_;
  int64_t n_;
};

// The checks both ops share: self holds square matrices, each output is the batch shape and complex for complex self.
aclnnStatus CheckDeterminantArgs(Plan& plan, const aclTensor* self,
                                 const std::vector<std::pair<const aclTensor*, const char*>>& outs) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kDeterminantDtypes));
  for (const auto& [t, name] : outs) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kDeterminantDtypes));
  for (const auto& [t, name] : outs) {
    if (IsComplex(self->dtype) && !IsComplex(t->dtype)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' must be complex for a complex self, not %s", name,
                         DtypeName(t->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 8));
  const Shape& shape = self->view_shape;
  if (shape.back() != shape[shape.size() - 2]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' %s must hold square matrices", ShapeToString(shape).c_str());
  }
  const Shape batch(shape.begin(), shape.end() - 2);
  for (const auto& [t, name] : outs) CANOPY_CHECK(plan.CheckShape(name, t, batch));
  return ACLNN_SUCCESS;
}

// Plans the step into work-dtype temporaries and copies them into the outputs (sign_out null: Logdet).
void PlanDeterminants(Plan& plan, const TensorRef& in, const TensorRef* sign_out, const TensorRef& log_out) {
  const Shape batch(in.shape.begin(), in.shape.end() - 2);
  if (log_out.NumElements() == 0) return;
  const int64_t n = in.shape.back();
  if (n == 0) {  // the determinant of a 0 x 0 matrix is 1
    if (sign_out != nullptr) plan.Fill(*sign_out, ScalarValue::Integer(1));
    plan.Fill(log_out, ScalarValue::Integer(0));
    return;
  }
  const aclDataType work = IsComplex(in.dtype) ? ACL_COMPLEX128 : ACL_DOUBLE;
  const TensorRef matrices = plan.Contiguous(in, work);
  const TensorRef logs = plan.Temporary(work, batch);
  std::optional<TensorRef> signs;
  if (sign_out != nullptr) signs = plan.Temporary(work, batch);
  const int64_t count = log_out.NumElements();
  std::unique_ptr<Step> step;
  if (work == ACL_DOUBLE) {
    step = std::make_unique<DeterminantStep<double>>(matrices, signs, logs, count, n);
  } else {
    step = std::make_unique<DeterminantStep<std::complex<double>>>(matrices, signs, logs, count, n);
  }
  // Two outputs: the step is opaque to the framework, which then stages any overlap.
  plan.AddStep(std::move(step));
  if (signs) plan.Copy(*signs, *sign_out);
  plan.Copy(logs, log_out);
}

aclnnStatus PlanSlogdet(Plan& plan, const aclTensor* self, const aclTensor* sign_out, const aclTensor* log_out) {
  CANOPY_CHECK(CheckDeterminantArgs(plan, self, {{sign_out, "signOut"}, {log_out, "logOut"}}));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef sign = plan.Output(sign_out, "signOut");
  const TensorRef log = plan.Output(log_out, "logOut");
  PlanDeterminants(plan, in, &sign, log);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLogdet(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(CheckDeterminantArgs(plan, self, {{out, "out"}}));
  const TensorRef in = plan.Input(self, "self");
  PlanDeterminants(plan, in, nullptr, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Slogdet, PlanSlogdet,
                (OpTraits{.header = "aclnnop/aclnn_slogdet.h",
                          .dtypes = kDeterminantDtypes,
                          .example = "f32[2,3,3] f32[2] f32[2]"}),
                (const aclTensor*, self), (aclTensor*, signOut), (aclTensor*, logOut))
CANOPY_ACLNN_OP(Logdet, PlanLogdet,
                (OpTraits{
                    .header = "aclnnop/aclnn_logdet.h", .dtypes = kDeterminantDtypes, .example = "f32[2,3,3] f32[2]"}),
                (const aclTensor*, self), (aclTensor*, out))
