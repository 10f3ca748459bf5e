// aclnnLinalgCholesky (torch.linalg.cholesky): L with self = L L^T for each
// matrix of the batch (upper: U = L^T), the other triangle zero; computed in
// double from self's lower triangle and cast to out. A matrix that is not
// positive definite gives NaN from its first failing pivot on.
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_linalg_cholesky.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCholeskyDtypes = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16};
constexpr int64_t kMaxOrder = 8192;

// dst[b] = cholesky(src[b]) for `batch` contiguous n x n DOUBLE matrices.
class CholeskyStep final : public Step {
 public:
  CholeskyStep(const TensorRef& src, const TensorRef& dst, int64_t batch, int64_t n, bool upper)
      : src_(src), dst_(dst), batch_(batch), n_(n), upper_(upper) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* src = reinterpret_cast<const double*>(context.Resolve(src_.buffer));
    auto* dst = reinterpret_cast<double*>(context.Resolve(dst_.buffer));
    const auto n = static_cast<size_t>(n_);
    std::vector<double> l(n * n);
    for (int64_t b = 0; b < batch_; ++b) {
      const double* a = src + static_cast<size_t>(b) * n * n;
      std::fill(l.begin(), l.end(), 0.0);
      for (size_t j = 0; j < n; ++j) {
        double diagonal = a[j * n + j];
        for (size_t k = 0; k < j; ++k) diagonal -= l[j * n + k] * l[j * n + k];
        l[j * n + j] = std::sqrt(diagonal);  // NaN where not positive definite
        for (size_t i = j + 1; i < n; ++i) {
          double sum = a[i * n + j];
          for (size_t k = 0; k < j; ++k) sum -= l[i * n + k] * l[j * n + k];
          l[i * n + j] = sum / l[j * n + j];
        }
      }
      double* out = dst + static_cast<size_t>(b) * n * n;
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) out[i * n + j] = upper_ ? l[j * n + i] : l[i * n + j];
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "cholesky of " + std::to_string(batch_) + " matrices of order " + std::to_string(n_);
  }

 private:
  TensorRef src_;
  TensorRef dst_;
  int64_t batch_;
  int64_t n_;
  bool upper_;
};

aclnnStatus PlanCholesky(Plan& plan, const aclTensor* self, bool upper, const aclTensor* out) {
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' is %s; it must have self's dtype %s", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kCholeskyDtypes));
  if (self->format != out->format) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' must have self's format");
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 8));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const Shape& shape = self->view_shape;
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (count == 0) return ACLNN_SUCCESS;
  const int64_t n = shape.back();
  if (n != shape[shape.size() - 2]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' %s must hold square matrices", ShapeToString(shape).c_str());
  }
  if (n > kMaxOrder) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the matrices' order %ld exceeds %ld", static_cast<long>(n),
                       static_cast<long>(kMaxOrder));
  }
  const TensorRef matrices = plan.Contiguous(in, ACL_DOUBLE);
  const TensorRef factors = plan.Temporary(ACL_DOUBLE, shape);
  plan.AddStep(std::make_unique<CholeskyStep>(matrices, factors, count / (n * n), n, upper), {matrices}, factors);
  plan.Copy(factors, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(LinalgCholesky, PlanCholesky,
                (OpTraits{.header = "aclnnop/aclnn_linalg_cholesky.h",
                          .dtypes = kCholeskyDtypes,
                          .example = "f32[2,3,3] false f32[2,3,3]"}),
                (const aclTensor*, self), (bool, upper), (aclTensor*, out))
