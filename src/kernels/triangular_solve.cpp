#include "triangular_solve.h"

#include <complex>
#include <sstream>

#include "common/dtype.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

// Columns of X solved together: each row update is a contiguous run of this
// many elements, which the compiler vectorises.
constexpr int64_t kColumnBlock = 256;
constexpr int64_t kParallelWork = 1 << 15;

template <typename T>
void SolveBlock(const TriangularSolveDesc& d, const T* a, T* x, int64_t k0, int64_t columns) {
  const int64_t n = d.n, k = d.k;
  // L[i][j] is A[i][j], or A[j][i] when solving with the transpose; the
  // triangle L occupies is A's, mirrored by the transpose.
  auto l = [&](int64_t i, int64_t j) { return d.transpose ? a[j * n + i] : a[i * n + j]; };
  const bool lower = d.upper == d.transpose;
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = lower ? step : n - 1 - step;
    T* row = x + i * k + k0;
    const int64_t j_begin = lower ? 0 : i + 1, j_end = lower ? i : n;
    for (int64_t j = j_begin; j < j_end; ++j) {
      const T factor = l(i, j);
      const T* solved = x + j * k + k0;
      for (int64_t c = 0; c < columns; ++c) row[c] -= factor * solved[c];
    }
    if (!d.unitriangular) {
      const T diagonal = l(i, i);
      for (int64_t c = 0; c < columns; ++c) row[c] /= diagonal;
    }
  }
}

template <typename T>
void SolveAll(const TriangularSolveDesc& d, const RunContext& context) {
  const auto* a = reinterpret_cast<const T*>(context.Resolve(d.a));
  auto* x = reinterpret_cast<T*>(context.Resolve(d.x));
  auto* m = reinterpret_cast<T*>(context.Resolve(d.m));
  ParallelFor(d.batch * d.n, std::max<int64_t>(1, kParallelWork / std::max<int64_t>(1, d.n)),
              [&](int64_t begin, int64_t end) {
                for (int64_t r = begin; r < end; ++r) {
                  const int64_t i = r % d.n;
                  const T* from = a + r * d.n;
                  T* to = m + r * d.n;
                  for (int64_t j = 0; j < d.n; ++j) to[j] = (d.upper ? j >= i : j <= i) ? from[j] : T{};
                }
              });
  const int64_t blocks = (d.k + kColumnBlock - 1) / kColumnBlock;
  const int64_t per_task = std::max<int64_t>(1, d.n * d.n * std::min(d.k, kColumnBlock) / 2);
  ParallelFor(d.batch * blocks, std::max<int64_t>(1, kParallelWork / per_task), [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / blocks, k0 = (task % blocks) * kColumnBlock;
      SolveBlock<T>(d, a + b * d.n * d.n, x + b * d.n * d.k, k0, std::min(kColumnBlock, d.k - k0));
    }
  });
}

class TriangularSolveStep final : public Step {
 public:
  explicit TriangularSolveStep(const TriangularSolveDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    switch (d_.dtype) {
      case ACL_DOUBLE:
        SolveAll<double>(d_, context);
        break;
      case ACL_COMPLEX64:
        SolveAll<std::complex<float>>(d_, context);
        break;
      case ACL_COMPLEX128:
        SolveAll<std::complex<double>>(d_, context);
        break;
      default:
        SolveAll<float>(d_, context);
        break;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "triangular solve " << d_.batch << " x [" << d_.n << "x" << d_.n << "] \\ [" << d_.n << "x" << d_.k << "] "
         << DtypeName(d_.dtype) << (d_.upper ? " upper" : " lower") << (d_.transpose ? " transposed" : "")
         << (d_.unitriangular ? " unit" : "");
    return text.str();
  }

 private:
  TriangularSolveDesc d_;
};

}  // namespace

bool TriangularSolveSupports(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_DOUBLE || dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128;
}

std::unique_ptr<Step> MakeTriangularSolveStep(const TriangularSolveDesc& desc) {
  return std::make_unique<TriangularSolveStep>(desc);
}

}  // namespace canopy::kernels
