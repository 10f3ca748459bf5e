// aclnnLinalgQr and aclnnQr (torch.linalg.qr, torch.qr): self = Q R for each
// m x n matrix of the batch, by Householder reflections in double (complex
// double for the complex dtypes), as LAPACK's geqrf makes them (and so
// torch's and CANN's documented results): R's diagonal is real, -sign(Re x0)
// |x| of each reflected column, and a column with nothing below its
// diagonal (a square matrix's last) is left as it is; norms are scaled, so
// f64 values near the ends of the range factor too. Reduced: Q [m, k], R
// [k, n] with k = min(m, n); complete: Q [m, m], R [m, n]; LinalgQr's mode 2
// gives R alone. Results are cast into Q and R.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "aclnnop/aclnn_linalg_qr.h"
#include "aclnnop/aclnn_qr.h"
#include "ops/framework/aclnn_op.h"
#include "ops/math/scaled_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kQrDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr int64_t kReduced = 0;
constexpr int64_t kComplete = 1;
constexpr int64_t kROnly = 2;

double Conj(double x) { return x; }
std::complex<double> Conj(std::complex<double> x) { return std::conj(x); }
// One elementary reflector H = I - tau v v^H (v[0] = 1) with H^H [alpha; x] = [beta; 0], beta real, as
// LAPACK's dlarfg / zlarfg make it: no reflection (tau = 0) where x is 0 and alpha real, so R keeps that
// diagonal's sign; beta = -sign(Re alpha) |(alpha, x)|; tiny betas rescaled on the way, as LAPACK does.
template <typename T>
struct Reflector {
  std::vector<T> v;
  T tau = T(0);
};

template <typename T>
double MakeReflector(T* column, size_t rows, size_t stride, Reflector<T>& h) {
  h.v.assign(rows, T(0));
  h.tau = T(0);
  T alpha = column[0];
  double x_norm = ScaledNorm(column + stride, rows - 1, stride);
  if (x_norm == 0 && ImagPart(alpha) == 0) return RealPart(alpha);
  double beta = -std::copysign(ScaledNorm({RealPart(alpha), ImagPart(alpha), x_norm}), RealPart(alpha));
  constexpr double kSafeMin = std::numeric_limits<double>::min() / std::numeric_limits<double>::epsilon();
  std::vector<T> x(rows - 1);
  for (size_t i = 1; i < rows; ++i) x[i - 1] = column[i * stride];
  int rescaled = 0;
  while (std::fabs(beta) < kSafeMin && rescaled < 20) {
    for (T& e : x) e /= kSafeMin;
    beta /= kSafeMin;
    alpha /= kSafeMin;
    ++rescaled;
  }
  if (rescaled > 0) {
    x_norm = ScaledNorm(x.data(), x.size(), 1);
    beta = -std::copysign(ScaledNorm({RealPart(alpha), ImagPart(alpha), x_norm}), RealPart(alpha));
  }
  if constexpr (std::is_same_v<T, double>) {
    h.tau = (beta - alpha) / beta;
  } else {
    h.tau = T((beta - RealPart(alpha)) / beta, -ImagPart(alpha) / beta);
  }
  const T scale = T(1) / (alpha - beta);
  h.v[0] = T(1);
  for (size_t i = 1; i < rows; ++i) h.v[i] = x[i - 1] * scale;
  for (int i = 0; i < rescaled; ++i) beta *= kSafeMin;
  return beta;
}

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
    std::vector<Reflector<T>> reflectors(k);
    for (int64_t b = 0; b < batch_; ++b) {
      std::copy(src + static_cast<size_t>(b) * m * n, src + static_cast<size_t>(b + 1) * m * n, a.begin());
      for (size_t j = 0; j < k; ++j) {
        Reflector<T>& h = reflectors[j];
        const double beta = MakeReflector(&a[j * n + j], m - j, n, h);
        // A := H^H A on the columns right of j; column j becomes [beta; 0].
        Apply(h, Conj(h.tau), a.data(), j, m, n, n, j + 1);
        a[j * n + j] = T(beta);
        for (size_t i = j + 1; i < m; ++i) a[i * n + j] = T(0);
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
      // Q = H_0 H_1 ... H_(k-1), applied to the identity's columns from the last reflector.
      for (size_t j = k; j-- > 0;) Apply(reflectors[j], reflectors[j].tau, q, j, m, q_cols, q_cols, 0);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "QR of " + std::to_string(batch_) + " " + std::to_string(m_) + "x" + std::to_string(n_) + " matrices";
  }

 private:
  // rows first.. of x (columns from `from` to `cols`, row stride `stride`) -= tau v (v^H x).
  static void Apply(const Reflector<T>& h, T tau, T* x, size_t first, size_t rows, size_t cols, size_t stride,
                    size_t from) {
    if (tau == T(0)) return;
    for (size_t c = from; c < cols; ++c) {
      T dot(0);
      for (size_t i = first; i < rows; ++i) dot += Conj(h.v[i - first]) * x[i * stride + c];
      if (dot == T(0)) continue;
      const T factor = tau * dot;
      for (size_t i = first; i < rows; ++i) x[i * stride + c] -= h.v[i - first] * factor;
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
