// aclnnSvd (torch.linalg.svd): input = U diag(sigma) V^H for each m x n
// matrix of the batch, by one-sided Jacobi rotations in double (complex
// double for the complex dtypes) on the columns of the matrix or, when it is
// wide, of its conjugate transpose. sigma is descending; the columns of U
// (V) for zero singular values and the extra columns of the full matrices
// complete an orthonormal basis by Gram-Schmidt over the unit vectors.
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "aclnnop/aclnn_svd.h"
#include "ops/framework/aclnn_op.h"
#include "ops/math/scaled_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSvdDtypes = {ACL_DOUBLE, ACL_FLOAT, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr int kMaxSweeps = 80;
constexpr double kConverged = 1e-15;
// A column this small against the largest is numerically zero: its U column comes from the basis completion.
constexpr double kNumericallyZero = 1e-12;

double Conj(double x) { return x; }
std::complex<double> Conj(std::complex<double> x) { return std::conj(x); }
// x * 2^e, exact (std::ldexp) for every e.
double TimesPowerOfTwo(double x, int e) { return std::ldexp(x, e); }
std::complex<double> TimesPowerOfTwo(std::complex<double> x, int e) {
  return {std::ldexp(x.real(), e), std::ldexp(x.imag(), e)};
}

// A column-major matrix: rows x cols.
template <typename T>
struct Columns {
  size_t rows = 0, cols = 0;
  std::vector<T> data;
  T* Col(size_t j) { return data.data() + j * rows; }
};

// x^H y over n elements.
template <typename T>
T Dot(const T* x, const T* y, size_t n) {
  T sum(0);
  for (size_t i = 0; i < n; ++i) sum += Conj(x[i]) * y[i];
  return sum;
}

// Fills the columns of `q` from `first` on (zero columns from `first_zero` on marked by `missing`) so that
// all of them are orthonormal: Gram-Schmidt (twice) over the unit vectors.
template <typename T>
void CompleteBasis(Columns<T>& q, const std::vector<bool>& missing) {
  size_t next_unit = 0;
  for (size_t j = 0; j < q.cols; ++j) {
    if (!missing[j]) continue;
    for (; next_unit < q.rows; ++next_unit) {
      std::vector<T> candidate(q.rows, T(0));
      candidate[next_unit] = T(1);
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t c = 0; c < q.cols; ++c) {
          if (c == j || (missing[c] && c > j)) continue;
          const T d = Dot(q.Col(c), candidate.data(), q.rows);
          for (size_t i = 0; i < q.rows; ++i) candidate[i] -= d * q.Col(c)[i];
        }
      }
      const double norm = std::sqrt(std::abs(Dot(candidate.data(), candidate.data(), q.rows)));
      if (norm < 1e-8) continue;
      for (size_t i = 0; i < q.rows; ++i) q.Col(j)[i] = candidate[i] / norm;
      ++next_unit;
      break;
    }
  }
}

// The SVD of the tall (rows >= cols) column-major matrix `a`: sigma (cols), u (rows x u_cols), v (cols x cols).
template <typename T>
void TallSvd(Columns<T> a, std::vector<double>& sigma, Columns<T>& u, Columns<T>& v, size_t u_cols) {
  const size_t m = a.rows, n = a.cols;
  v = {n, n, std::vector<T>(n * n, T(0))};
  for (size_t j = 0; j < n; ++j) v.Col(j)[j] = T(1);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (size_t p = 0; p + 1 < n; ++p) {
      for (size_t q = p + 1; q < n; ++q) {
        const double alpha = std::abs(Dot(a.Col(p), a.Col(p), m));
        const double beta = std::abs(Dot(a.Col(q), a.Col(q), m));
        const T gamma = Dot(a.Col(p), a.Col(q), m);
        const double g = std::abs(gamma);
        if (g == 0 || g <= kConverged * std::sqrt(alpha * beta)) continue;
        rotated = true;
        // Make gamma real (a phase on column q, kept in V), then a real rotation.
        const T phase = Conj(gamma) / g;
        for (size_t i = 0; i < m; ++i) a.Col(q)[i] *= phase;
        for (size_t i = 0; i < n; ++i) v.Col(q)[i] *= phase;
        const double zeta = (beta - alpha) / (2 * g);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (Columns<T>* x : {&a, &v}) {
          for (size_t i = 0; i < x->rows; ++i) {
            const T xp = x->Col(p)[i], xq = x->Col(q)[i];
            x->Col(p)[i] = c * xp - s * xq;
            x->Col(q)[i] = s * xp + c * xq;
          }
        }
      }
    }
    if (!rotated) break;
  }
  // Descending order of the column norms.
  std::vector<double> norms(n);
  for (size_t j = 0; j < n; ++j) norms[j] = ScaledNorm(a.Col(j), m);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return norms[x] > norms[y]; });
  const double largest = n > 0 ? norms[order[0]] : 0.0;
  sigma.resize(n);
  u = {m, u_cols, std::vector<T>(m * u_cols, T(0))};
  std::vector<bool> missing(u_cols, true);
  Columns<T> sorted_v = {n, n, std::vector<T>(n * n)};
  for (size_t j = 0; j < n; ++j) {
    const size_t from = order[j];
    sigma[j] = norms[from];
    std::copy(v.Col(from), v.Col(from) + n, sorted_v.Col(j));
    if (norms[from] > largest * kNumericallyZero) {
      for (size_t i = 0; i < m; ++i) u.Col(j)[i] = a.Col(from)[i] / norms[from];
      missing[j] = false;
    }
  }
  v = std::move(sorted_v);
  CompleteBasis(u, missing);
}

// For `batch` contiguous row-major m x n matrices of T: sigma [k], u [m, u_cols], v [n, v_cols] (row-major).
template <typename T>
class SvdStep final : public Step {
 public:
  SvdStep(const TensorRef& src, const TensorRef& sigma, const std::optional<TensorRef>& u,
          const std::optional<TensorRef>& v, int64_t batch, int64_t m, int64_t n, bool full)
      : src_(src), sigma_(sigma), u_(u), v_(v), batch_(batch), m_(m), n_(n), full_(full) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* src = reinterpret_cast<const T*>(context.Resolve(src_.buffer));
    auto* sigma_out = reinterpret_cast<T*>(context.Resolve(sigma_.buffer));
    T* u_out = u_ ? reinterpret_cast<T*>(context.Resolve(u_->buffer)) : nullptr;
    T* v_out = v_ ? reinterpret_cast<T*>(context.Resolve(v_->buffer)) : nullptr;
    const auto m = static_cast<size_t>(m_), n = static_cast<size_t>(n_);
    const size_t k = std::min(m, n);
    const size_t u_cols = full_ ? m : k, v_cols = full_ ? n : k;
    const bool wide = m < n;
    for (int64_t b = 0; b < batch_; ++b) {
      const T* a = src + static_cast<size_t>(b) * m * n;
      // The tall matrix: a itself, or a^H when wide, column-major.
      const size_t rows = wide ? n : m, cols = wide ? m : n;
      Columns<T> tall{rows, cols, std::vector<T>(rows * cols)};
      for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
          if (wide) {
            tall.Col(i)[j] = Conj(a[i * n + j]);
          } else {
            tall.Col(j)[i] = a[i * n + j];
          }
        }
      }
      // Scaled by a power of two (exact) so that the largest magnitude is near 1: the rotations' dot
      // products then neither overflow nor lose the matrix to underflow (f64 values near 1e+-300).
      double largest = 0;
      for (const T& x : tall.data) largest = std::max({largest, std::fabs(RealPart(x)), std::fabs(ImagPart(x))});
      int exponent = 0;
      if (largest > 0 && std::isfinite(largest)) {
        std::frexp(largest, &exponent);
        for (T& x : tall.data) x = TimesPowerOfTwo(x, -exponent);
      }
      std::vector<double> sigma;
      Columns<T> left, right;
      TallSvd(std::move(tall), sigma, left, right, wide ? v_cols : u_cols);
      for (size_t j = 0; j < k; ++j) sigma_out[static_cast<size_t>(b) * k + j] = T(std::ldexp(sigma[j], exponent));
      if (u_out == nullptr) continue;
      // a = U S V^H; for a^H = L S R^H, U = R and V = L. R is cols x cols: extend it when U must be wider.
      Columns<T>& u = wide ? right : left;
      Columns<T>& v = wide ? left : right;
      Store(u, u_out + static_cast<size_t>(b) * m * u_cols, m, u_cols);
      Store(v, v_out + static_cast<size_t>(b) * n * v_cols, n, v_cols);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "SVD of " + std::to_string(batch_) + " " + std::to_string(m_) + "x" + std::to_string(n_) + " matrices";
  }

 private:
  // dst (rows x cols, row-major) = the first cols columns of q.
  static void Store(const Columns<T>& q, T* dst, size_t rows, size_t cols) {
    for (size_t i = 0; i < rows; ++i) {
      for (size_t j = 0; j < cols; ++j) dst[i * cols + j] = q.data[j * q.rows + i];
    }
  }

  TensorRef src_;
  TensorRef sigma_;
  std::optional<TensorRef> u_;
  std::optional<TensorRef> v_;
  int64_t batch_;
  int64_t m_;
  int64_t n_;
  bool full_;
};

aclnnStatus PlanSvd(Plan& plan, const aclTensor* input, bool full_matrices, bool compute_uv, const aclTensor* sigma,
                    const aclTensor* u, const aclTensor* v) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kSvdDtypes));
  for (auto [t, name] : {std::pair{sigma, "sigma"}, std::pair{u, "u"}, std::pair{v, "v"}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kSvdDtypes));
  }
  for (auto [t, name] : {std::pair{sigma, "sigma"}, std::pair{u, "u"}, std::pair{v, "v"}}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is %s; it must have input's dtype %s", name,
                         DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 2, 8));
  const Shape& shape = input->view_shape;
  const size_t rank = shape.size();
  const int64_t m = shape[rank - 2], n = shape[rank - 1], k = std::min(m, n);
  const Shape batch(shape.begin(), shape.end() - 2);
  Shape sigma_shape = batch, u_shape = batch, v_shape = batch;
  sigma_shape.push_back(k);
  u_shape.insert(u_shape.end(), {m, full_matrices ? m : k});
  v_shape.insert(v_shape.end(), {n, full_matrices ? n : k});
  // CANN's host code checks u and v's shapes whether or not computeUV asks for them.
  CANOPY_CHECK(plan.CheckShape("u", u, u_shape));
  CANOPY_CHECK(plan.CheckShape("sigma", sigma, sigma_shape));
  CANOPY_CHECK(plan.CheckShape("v", v, v_shape));
  const TensorRef in = plan.Input(input, "input");
  const TensorRef sigma_dst = plan.Output(sigma, "sigma");
  const TensorRef u_dst = plan.Output(u, "u");
  const TensorRef v_dst = plan.Output(v, "v");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  const aclDataType work = IsComplex(input->dtype) ? ACL_COMPLEX128 : ACL_DOUBLE;
  const TensorRef matrices = plan.Contiguous(in, work);
  const TensorRef sigma_work = plan.Temporary(work, sigma_shape);
  std::optional<TensorRef> u_work, v_work;
  if (compute_uv) {
    u_work = plan.Temporary(work, u_shape);
    v_work = plan.Temporary(work, v_shape);
  }
  int64_t count = 1;
  for (int64_t extent : batch) count *= extent;
  std::unique_ptr<Step> step;
  if (work == ACL_DOUBLE) {
    step = std::make_unique<SvdStep<double>>(matrices, sigma_work, u_work, v_work, count, m, n, full_matrices);
  } else {
    step = std::make_unique<SvdStep<std::complex<double>>>(matrices, sigma_work, u_work, v_work, count, m, n,
                                                           full_matrices);
  }
  plan.AddStep(std::move(step));
  plan.Copy(sigma_work, sigma_dst);
  if (compute_uv) {
    plan.Copy(*u_work, u_dst);
    plan.Copy(*v_work, v_dst);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Svd, PlanSvd,
                (OpTraits{.header = "aclnnop/aclnn_svd.h",
                          .dtypes = kSvdDtypes,
                          .example = "f32[4,3] false true f32[3] f32[4,3] f32[3,3]"}),
                (const aclTensor*, input), (const bool, fullMatrices), (const bool, computeUV), (aclTensor*, sigma),
                (aclTensor*, u), (aclTensor*, v))
