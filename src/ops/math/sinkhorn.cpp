// aclnnSinkhorn (MoE expert routing by optimal transport): K = exp(cost) for
// a [R, C] cost; starting from d1 = 1, alternately d0 = 1 / (R * (K d1 +
// eps)) and d1 = 1 / (C * (K^T d0 + eps)) until the mean change of d1 is at
// most tol (0.0001 when tol is null); p = d0 K d1 (diagonal scalings). CANN
// iterates without bound; a CPU run stops after kMaxIterations, which only a
// tol below the dtype's reach would need. Computed in double.
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_sinkhorn.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSinkhornDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxColumns = 4096;
constexpr double kDefaultTolerance = 1e-4;
constexpr double kEps = 1e-8;
constexpr int64_t kMaxIterations = 100000;
constexpr int64_t kGrain = 64;

class SinkhornStep final : public Step {
 public:
  SinkhornStep(const TensorRef& cost, const TensorRef& p, double tol) : cost_(cost), p_(p), tol_(tol) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* cost = reinterpret_cast<const float*>(context.Resolve(cost_.buffer));
    auto* p = reinterpret_cast<float*>(context.Resolve(p_.buffer));
    const int64_t rows = cost_.shape[0], cols = cost_.shape[1];
    const int64_t count = rows * cols;
    std::vector<double> k(static_cast<size_t>(count)), d0(static_cast<size_t>(rows), 1.0);
    std::vector<double> d1(static_cast<size_t>(cols), 1.0), d1_old = d1;
    for (int64_t i = 0; i < count; ++i) k[static_cast<size_t>(i)] = std::exp(static_cast<double>(cost[i]));
    const auto r_count = static_cast<double>(rows), c_count = static_cast<double>(cols);
    for (int64_t iteration = 0; iteration < kMaxIterations; ++iteration) {
      kernels::ParallelFor(rows, kGrain, 1, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          double sum = 0;
          for (int64_t c = 0; c < cols; ++c) sum += d1[static_cast<size_t>(c)] * k[static_cast<size_t>(r * cols + c)];
          d0[static_cast<size_t>(r)] = 1.0 / (r_count * (sum + kEps));
        }
      });
      kernels::ParallelFor(cols, kGrain, 1, [&](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
          double sum = 0;
          for (int64_t r = 0; r < rows; ++r) sum += d0[static_cast<size_t>(r)] * k[static_cast<size_t>(r * cols + c)];
          d1[static_cast<size_t>(c)] = 1.0 / (c_count * (sum + kEps));
        }
      });
      double change = 0;
      for (int64_t c = 0; c < cols; ++c)
        change += std::abs(d1_old[static_cast<size_t>(c)] - d1[static_cast<size_t>(c)]);
      d1_old = d1;
      if (change / c_count <= tol_) break;
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const auto i = static_cast<size_t>(r * cols + c);
        p[i] = static_cast<float>(d1[static_cast<size_t>(c)] * k[i] * d0[static_cast<size_t>(r)]);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "sinkhorn " + ShapeToString(cost_.shape); }

 private:
  TensorRef cost_, p_;
  double tol_;
};

aclnnStatus PlanSinkhorn(Plan& plan, const aclTensor* cost, const aclScalar* tol, const aclTensor* p) {
  CANOPY_CHECK(plan.CheckDtype("cost", cost->dtype, kSinkhornDtypes));
  CANOPY_CHECK(plan.CheckDtype("p", p->dtype, kSinkhornDtypes));
  CANOPY_CHECK(plan.CheckRank("cost", cost, 2, 2));
  CANOPY_CHECK(plan.CheckShape("p", p, cost->view_shape));
  if (cost->view_shape[1] > kMaxColumns) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'cost' has %lld columns; at most %lld",
                       static_cast<long long>(cost->view_shape[1]), static_cast<long long>(kMaxColumns));
  }
  const double tolerance = tol != nullptr ? ValueOf(*tol).real : kDefaultTolerance;
  const TensorRef in = plan.Input(cost, "cost");
  const TensorRef dst = plan.Output(p, "p");
  if (in.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef values = plan.Contiguous(in, ACL_FLOAT);
  const TensorRef result = plan.Temporary(ACL_FLOAT, in.shape);
  plan.AddStep(std::make_unique<SinkhornStep>(values, result, tolerance), {values}, result);
  plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Sinkhorn, PlanSinkhorn,
                (OpTraits{.header = "aclnnop/aclnn_sinkhorn.h",
                          .dtypes = kSinkhornDtypes,
                          .example = "f32[3,2]{0:1} f32:0.0001 f32[3,2]"}),
                (const aclTensor*, cost), (const aclScalar*, tol, optional), (aclTensor*, p))
