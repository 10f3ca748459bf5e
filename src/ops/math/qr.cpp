// aclnnLinalgQr and aclnnQr (torch.linalg.qr, torch.qr): self = Q R for each
// m x n matrix of the batch, by Householder reflections in double (complex
// double for the complex dtypes), with LAPACK's sign convention (R's
// diagonal is -sign(x0) |x| of each reflected column). Reduced: Q [m, k], R
// [k, n] with k = min(m, n); complete: Q [m, m], R [m, n]; LinalgQr's mode 2
// gives R alone. Results are cast into Q and R.
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <optional>
#include <vector>

#include "aclnnop/aclnn_linalg_qr.h"
#include "aclnnop/aclnn_qr.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kQrDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr int64_t kReduced = 0;
constexpr int64_t kComplete = 1;
constexpr int64_t kROnly = 2;

double Conj(double x) { return x; }
std::complex<double> Conj(std::complex<double> x) { return std::conj(x); }
// x / |x|, 1 for 0.
double Phase(double x) { return x < 0 ? -1.0 : 1.0; }
std::complex<double> Phase(std::complex<double> x) { return std::abs(x) == 0 ? 1.0 : x / std::abs(x); }

// q[b] (m x q_cols, absent for R alone) and r[b] (r_rows x n) of `batch` contiguous m x n matrices of T.
template <typename T>
class QrStep final : public Step {
 public:
  QrStep(const TensorRef& src, const std::optional<TensorRef>& q, const TensorRef& r, int64_t batch, int64_t m,
         int64_t n, bool complete)
      : src_(src), q_(q), r_(r), batch_(batch), m_(m), n_(n), complete_(complete) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* src = reinterpret_cast<const T*>(context.Resolve(src_.buffer));
    auto* q_out = q_ ? reinterpret_cast<T*>(context.Resolve(q_->buffer)) : nullptr;
    auto* r_out = reinterpret_cast<T*>(context.Resolve(r_.buffer));
    const auto m = static_cast<size_t>(m_), n = static_cast<size_t>(n_);
    const size_t k = std::min(m, n);
    const size_t q_cols = complete_ ? m : k, r_rows = complete_ ? m : k;
    std::vector<T> a(m * n);
    std::vector<std::vector<T>> reflectors(k);
    for (int64_t b = 0; b < batch_; ++b) {
      std::copy(src + static_cast<size_t>(b) * m * n, src + static_cast<size_t>(b + 1) * m * n, a.begin());
      for (size_t j = 0; j < k; ++j) {
        std::vector<T>& v = reflectors[j];
        v.assign(m - j, T(0));
        double norm = 0;
        for (size_t i = j; i < m; ++i) norm += std::norm(a[i * n + j]);
        norm = std::sqrt(norm);
        if (norm == 0) continue;  // nothing to reflect: v stays 0
        const T alpha = -Phase(a[j * n + j]) * norm;
        for (size_t i = j; i < m; ++i) v[i - j] = a[i * n + j];
        v[0] -= alpha;
        double v_norm = 0;
        for (const T& x : v) v_norm += std::norm(x);
        v_norm = std::sqrt(v_norm);
        for (T& x : v) x /= v_norm;
        Reflect(v, a.data(), j, m, n, n, j);
      }
      T* r = r_out + static_cast<size_t>(b) * r_rows * n;
      for (size_t i = 0; i < r_rows; ++i) {
        for (size_t c = 0; c < n; ++c) r[i * n + c] = i < m && c >= i ? a[i * n + c] : T(0);
      }
      if (q_out == nullptr) continue;
      T* q = q_out + static_cast<size_t>(b) * m * q_cols;
      for (size_t i = 0; i < m; ++i) {
        for (size_t c = 0; c < q_cols; ++c) q[i * q_cols + c] = i == c ? T(1) : T(0);
      }
      for (size_t j = k; j-- > 0;) Reflect(reflectors[j], q, j, m, q_cols, q_cols, 0);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "QR of " + std::to_string(batch_) + " " + std::to_string(m_) + "x" + std::to_string(n_) + " matrices";
  }

 private:
  // rows first.. of x (columns from `from` to `cols`, row stride `stride`) -= 2 v (v^H x).
  static void Reflect(const std::vector<T>& v, T* x, size_t first, size_t rows, size_t cols, size_t stride,
                      size_t from) {
    for (size_t c = from; c < cols; ++c) {
      T dot(0);
      for (size_t i = first; i < rows; ++i) dot += Conj(v[i - first]) * x[i * stride + c];
      if (dot == T(0)) continue;
      for (size_t i = first; i < rows; ++i) x[i * stride + c] -= T(2) * v[i - first] * dot;
    }
  }

  TensorRef src_;
  std::optional<TensorRef> q_;
  TensorRef r_;
  int64_t batch_;
  int64_t m_;
  int64_t n_;
  bool complete_;
};

aclnnStatus PlanQrCommon(Plan& plan, const aclTensor* self, int64_t mode, const aclTensor* q, const aclTensor* r) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kQrDtypes));
  CANOPY_CHECK(plan.CheckDtype("Q", q->dtype, kQrDtypes));
  CANOPY_CHECK(plan.CheckDtype("R", r->dtype, kQrDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 8));
  const Shape& shape = self->view_shape;
  const size_t rank = shape.size();
  const int64_t m = shape[rank - 2], n = shape[rank - 1], k = std::min(m, n);
  Shape q_shape = shape, r_shape = shape;
  if (mode == kROnly) {
    q_shape = {0};
    r_shape[rank - 2] = k;
  } else if (mode == kComplete) {
    q_shape[rank - 1] = m;
  } else {
    q_shape[rank - 1] = k;
    r_shape[rank - 2] = k;
  }
  CANOPY_CHECK(plan.CheckShape("Q", q, q_shape));
  CANOPY_CHECK(plan.CheckShape("R", r, r_shape));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef q_dst = plan.Output(q, "Q");
  const TensorRef r_dst = plan.Output(r, "R");
  if (in.NumElements() == 0 && q_dst.NumElements() == 0) return ACLNN_SUCCESS;
  const aclDataType work = IsComplex(self->dtype) ? ACL_COMPLEX128 : ACL_DOUBLE;
  const TensorRef matrices = plan.Contiguous(in, work);
  const TensorRef r_work = plan.Temporary(work, r_shape);
  std::optional<TensorRef> q_work;
  if (mode != kROnly) q_work = plan.Temporary(work, q_shape);
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < rank; ++d) batch *= shape[d];
  const bool complete = mode == kComplete;
  std::unique_ptr<Step> step;
  if (work == ACL_DOUBLE) {
    step = std::make_unique<QrStep<double>>(matrices, q_work, r_work, batch, m, n, complete);
  } else {
    step = std::make_unique<QrStep<std::complex<double>>>(matrices, q_work, r_work, batch, m, n, complete);
  }
  plan.AddStep(std::move(step));
  if (q_work) plan.Copy(*q_work, q_dst);
  plan.Copy(r_work, r_dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLinalgQr(Plan& plan, const aclTensor* self, int64_t mode, const aclTensor* q, const aclTensor* r) {
  // CANN takes any other mode as reduced.
  return PlanQrCommon(plan, self, mode == kComplete || mode == kROnly ? mode : kReduced, q, r);
}

aclnnStatus PlanQr(Plan& plan, const aclTensor* self, bool some, const aclTensor* q, const aclTensor* r) {
  return PlanQrCommon(plan, self, some ? kReduced : kComplete, q, r);
}

}  // namespace

CANOPY_ACLNN_OP(LinalgQr, PlanLinalgQr,
                (OpTraits{.header = "aclnnop/aclnn_linalg_qr.h",
                          .dtypes = kQrDtypes,
                          .example = "f32[2,4,3] 0 f32[2,4,3] f32[2,3,3]"}),
                (const aclTensor*, self), (int64_t, mode), (aclTensor*, Q), (aclTensor*, R))
CANOPY_ACLNN_OP(Qr, PlanQr,
                (OpTraits{
                    .header = "aclnnop/aclnn_qr.h", .dtypes = kQrDtypes, .example = "f32[4,3] true f32[4,3] f32[3,3]"}),
                (const aclTensor*, self), (bool, some), (aclTensor*, Q), (aclTensor*, R))
