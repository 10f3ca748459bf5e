// aclnnInverse (torch.inverse): each n x n matrix of self's batch inverted
// by Gauss-Jordan elimination with partial pivoting, in double (complex
// double for the complex dtypes), then cast to out. A singular matrix gives
// infinities and NaNs, as a division by its zero pivot does.
#include <complex>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_inverse.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The host code's list; the doc's A2 column leaves out DOUBLE and the complex dtypes, which the code takes.
constexpr DtypeSet kInverseDtypes = {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_FLOAT16};

// dst[b] = inverse(src[b]) for `batch` contiguous n x n matrices of T (double or complex double).
template <typename T>
class InverseStep final : public Step {
 public:
  InverseStep(const TensorRef& src, const TensorRef& dst, int64_t batch, int64_t n)
      : src_(src), dst_(dst), batch_(batch), n_(n) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* src = reinterpret_cast<const T*>(context.Resolve(src_.buffer));
    auto* dst = reinterpret_cast<T*>(context.Resolve(dst_.buffer));
    const auto n = static_cast<size_t>(n_);
    std::vector<T> a(n * n);
    for (int64_t b = 0; b < batch_; ++b) {
      const size_t base = static_cast<size_t>(b) * n * n;
      std::copy(src + base, src + base + n * n, a.begin());
      T* inv = dst + base;
      for (size_t i = 0; i < n * n; ++i) inv[i] = i % (n + 1) == 0 ? T(1) : T(0);
      for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        for (size_t r = col + 1; r < n; ++r) {
          if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
        }
        if (pivot != col) {
          for (size_t k = 0; k < n; ++k) {
            std::swap(a[pivot * n + k], a[col * n + k]);
            std::swap(inv[pivot * n + k], inv[col * n + k]);
          }
        }
        const T scale = T(1) / a[col * n + col];
        for (size_t k = 0; k < n; ++k) {
          a[col * n + k] *= scale;
          inv[col * n + k] *= scale;
        }
        for (size_t r = 0; r < n; ++r) {
          const T factor = a[r * n + col];
          if (r == col || factor == T(0)) continue;
          for (size_t k = 0; k < n; ++k) {
            a[r * n + k] -= factor * a[col * n + k];
            inv[r * n + k] -= factor * inv[col * n + k];
          }
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "inverse of " + std::to_string(batch_) + " " + std::to_string(n_) + "x" + std::to_string(n_) + " matrices";
  }

 private:
  TensorRef src_;
  TensorRef dst_;
  int64_t batch_;
  int64_t n_;
};

aclnnStatus PlanInverse(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kInverseDtypes));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const Shape& shape = self->view_shape;
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  if (count != 0) {
    CANOPY_CHECK(plan.CheckRank("self", self, 2, 8));
    if (shape.back() != shape[shape.size() - 2]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' %s must hold square matrices", ShapeToString(shape).c_str());
    }
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (count == 0) return ACLNN_SUCCESS;
  const int64_t n = shape.back();
  const int64_t batch = count / (n * n);
  const aclDataType work = IsComplex(self->dtype) ? ACL_COMPLEX128 : ACL_DOUBLE;
  const TensorRef matrices = plan.Contiguous(in, work);
  const TensorRef inverses = plan.Temporary(work, shape);
  if (work == ACL_DOUBLE) {
    plan.AddStep(std::make_unique<InverseStep<double>>(matrices, inverses, batch, n), {matrices}, inverses);
  } else {
    plan.AddStep(std::make_unique<InverseStep<std::complex<double>>>(matrices, inverses, batch, n), {matrices},
                 inverses);
  }
  plan.Copy(inverses, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Inverse, PlanInverse,
                (OpTraits{
                    .header = "aclnnop/aclnn_inverse.h", .dtypes = kInverseDtypes, .example = "f32[2,3,3] f32[2,3,3]"}),
                (const aclTensor*, self), (aclTensor*, out))
