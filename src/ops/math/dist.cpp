// aclnnCdist (torch.cdist), aclnnPdist and aclnnPdistForward (torch.pdist):
// p-norm distances between rows, (sum |a - b|^p)^(1/p), with p = 0 counting
// the differing elements and p = inf taking the largest difference. Cdist
// pairs every row of x1 with every row of x2 under broadcast batch dims;
// Pdist pairs each row of self with each later row, in row-major order of
// the upper triangle. The rows are read as FLOAT (exact for every dtype
// here), the sums are taken in double and the results cast to out.
#include <cmath>
#include <limits>
#include <optional>

#include "aclnnop/aclnn_cdist.h"
#include "aclnnop/aclnn_pdist.h"
#include "aclnnop/aclnn_pdist_forward.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCdistDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kPdistDtypes = {ACL_FLOAT, ACL_FLOAT16};
// CANN's bound for "p is 2".
constexpr double kPIsTwo = 1e-6;
constexpr int64_t kDirectMode = 2;
constexpr int64_t kMaxDistanceRank = 8;

// The p-norm of the difference of two rows of `m` elements.
double Distance(const float* a, const float* b, int64_t m, double p) {
  double sum = 0;
  if (p == 0) {
    for (int64_t k = 0; k < m; ++k) sum += a[k] != b[k] ? 1 : 0;
    return sum;
  }
  if (std::isinf(p)) {
    // A NaN difference is skipped, as fmax would skip it; written as a compare
    // because aarch64 GCC 12 fails with an internal error vectorising fmax here.
    for (int64_t k = 0; k < m; ++k) {
      const double d = std::abs(double(a[k]) - double(b[k]));
      if (d > sum) sum = d;
    }
    return sum;
  }
  for (int64_t k = 0; k < m; ++k) {
    const double d = std::abs(double(a[k]) - double(b[k]));
    sum += p == 1 ? d : (p == 2 ? d * d : std::pow(d, p));
  }
  return p == 1 ? sum : (p == 2 ? std::sqrt(sum) : std::pow(sum, 1 / p));
}

// Cdist (x2 given): out[b, i, j] = d(x1[b, i], x2[b, j]); Pdist (x2 absent): out[k] = d(x1[i], x1[j]) for i < j.
// Every operand is contiguous FLOAT: x1 [batch, rows, m], x2 [batch, other_rows, m].
class DistanceStep final : public Step {
 public:
  DistanceStep(const TensorRef& x1, const std::optional<TensorRef>& x2, const TensorRef& out, int64_t batch,
               int64_t rows, int64_t other_rows, int64_t m, double p)
      : x1_(x1), x2_(x2), out_(out), batch_(batch), rows_(rows), other_rows_(other_rows), m_(m), p_(p) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x1 = reinterpret_cast<const float*>(context.Resolve(x1_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    if (!x2_) {
      int64_t k = 0;
      for (int64_t i = 0; i < rows_; ++i) {
        for (int64_t j = i + 1; j < rows_; ++j)
          out[k++] = static_cast<float>(Distance(x1 + i * m_, x1 + j * m_, m_, p_));
      }
      return ACLNN_SUCCESS;
    }
    const auto* x2 = reinterpret_cast<const float*>(context.Resolve(x2_->buffer));
    for (int64_t b = 0; b < batch_; ++b) {
      for (int64_t i = 0; i < rows_; ++i) {
        for (int64_t j = 0; j < other_rows_; ++j) {
          const float* a = x1 + (b * rows_ + i) * m_;
          const float* c = x2 + (b * other_rows_ + j) * m_;
          out[(b * rows_ + i) * other_rows_ + j] = static_cast<float>(Distance(a, c, m_, p_));
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "p-norm distances into " + ShapeToString(out_.shape); }

 private:
  TensorRef x1_;
  std::optional<TensorRef> x2_;
  TensorRef out_;
  int64_t batch_;
  int64_t rows_;
  int64_t other_rows_;
  int64_t m_;
  double p_;
};

aclnnStatus RejectP(Plan& plan, double p) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "p %g must be a non-negative number", p);
}

aclnnStatus PlanCdist(Plan& plan, const aclTensor* x1, const aclTensor* x2, float p, int64_t compute_mode,
                      const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kCdistDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kCdistDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kCdistDtypes));
  for (auto [t, name] : {std::pair{x1, "x1"}, std::pair{x2, "x2"}}) {
    if (t->dtype != out->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is %s; it must have out's dtype %s", name, DtypeName(t->dtype),
                         DtypeName(out->dtype));
    }
  }
  constexpr int64_t kMinRank = 2;
  CANOPY_CHECK(plan.CheckRank("x1", x1, kMinRank, kMaxDistanceRank));
  CANOPY_CHECK(plan.CheckRank("x2", x2, kMinRank, kMaxDistanceRank));
  CANOPY_CHECK(plan.CheckRank("out", out, kMinRank, kMaxDistanceRank));
  const Shape& s1 = x1->view_shape;
  const Shape& s2 = x2->view_shape;
  const int64_t m = s1.back();
  if (m != s2.back()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the rows of x1 (%ld) and x2 (%ld) must have one length",
                       static_cast<long>(m), static_cast<long>(s2.back()));
  }
  if (p < 0 || std::isnan(p)) return RejectP(plan, p);
  if (std::abs(double(p) - 2) < kPIsTwo && compute_mode != kDirectMode) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "compute_mode %ld is not supported; p = 2 takes only 2",
                       static_cast<long>(compute_mode));
  }
  Shape batch;
  CANOPY_CHECK(plan.CheckBroadcast("x1's batch dims", Shape(s1.begin(), s1.end() - 2), "x2's batch dims",
                                   Shape(s2.begin(), s2.end() - 2), batch));
  const int64_t rows = s1[s1.size() - 2], other_rows = s2[s2.size() - 2];
  Shape out_shape = batch;
  out_shape.push_back(rows);
  out_shape.push_back(other_rows);
  CANOPY_CHECK(plan.CheckShape("out", out, out_shape));

  TensorRef a = plan.Input(x1, "x1");
  TensorRef b = plan.Input(x2, "x2");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  if (m == 0) {
    plan.Fill(dst, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  int64_t batch_count = 1;
  for (int64_t extent : batch) batch_count *= extent;
  Shape a_shape = batch, b_shape = batch;
  a_shape.insert(a_shape.end(), {rows, m});
  b_shape.insert(b_shape.end(), {other_rows, m});
  a = plan.Contiguous(*Expand(a, a_shape), ACL_FLOAT);
  b = plan.Contiguous(*Expand(b, b_shape), ACL_FLOAT);
  const TensorRef distances = plan.Temporary(ACL_FLOAT, out_shape);
  plan.AddStep(std::make_unique<DistanceStep>(a, b, distances, batch_count, rows, other_rows, m, p), {a, b}, distances);
  plan.Copy(distances, dst);
  return ACLNN_SUCCESS;
}

// Pdist's and PdistForward's work: nothing for fewer than two rows, zeros for empty rows.
aclnnStatus PlanPdistCommon(Plan& plan, const aclTensor* self, double p, const aclTensor* out) {
  const Shape& shape = self->view_shape;
  const int64_t n = shape[0], m = shape[1];
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (n <= 1) return ACLNN_SUCCESS;
  if (m == 0) {
    plan.Fill(dst, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  const TensorRef rows = plan.Contiguous(in, ACL_FLOAT);
  const TensorRef distances = plan.Temporary(ACL_FLOAT, dst.shape);
  plan.AddStep(std::make_unique<DistanceStep>(rows, std::nullopt, distances, 1, n, n, m, p), {rows}, distances);
  plan.Copy(distances, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus CheckPdistOperands(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kPdistDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kPdistDtypes));
  if (self->dtype != out->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' is %s; it must have out's dtype %s", DtypeName(self->dtype),
                       DtypeName(out->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 2));
  CANOPY_CHECK(plan.CheckRank("out", out, 1, 1));
  const int64_t n = self->view_shape[0];
  return plan.CheckShape("out", out, {n * (n - 1) / 2});
}

aclnnStatus PlanPdist(Plan& plan, const aclTensor* self, float p, const aclTensor* out) {
  CANOPY_CHECK(CheckPdistOperands(plan, self, out));
  if (p < 0 || std::isnan(p)) return RejectP(plan, p);
  return PlanPdistCommon(plan, self, p, out);
}

aclnnStatus PlanPdistForward(Plan& plan, const aclTensor* self, const aclScalar* p_scalar, const aclTensor* out) {
  CANOPY_CHECK(CheckPdistOperands(plan, self, out));
  const auto p = static_cast<float>(ValueOf(*p_scalar).real);
  if (p < 0) return RejectP(plan, p);
  return PlanPdistCommon(plan, self, p, out);
}

}  // namespace

CANOPY_ACLNN_OP(Cdist, PlanCdist,
                (OpTraits{.header = "aclnnop/aclnn_cdist.h",
                          .dtypes = kCdistDtypes,
                          .example = "f32[2,3,4] f32[2,5,4] 2 2 f32[2,3,5]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (float, p), (int64_t, compute_mode), (aclTensor*, out))
CANOPY_ACLNN_OP(Pdist, PlanPdist,
                (OpTraits{.header = "aclnnop/aclnn_pdist.h", .dtypes = kPdistDtypes, .example = "f32[4,3] 2 f32[6]"}),
                (const aclTensor*, self), (float, p), (aclTensor*, out))
CANOPY_ACLNN_OP(
    PdistForward, PlanPdistForward,
    (OpTraits{.header = "aclnnop/aclnn_pdist_forward.h", .dtypes = kPdistDtypes, .example = "f32[4,3] f32:2 f32[6]"}),
    (const aclTensor*, self), (const aclScalar*, pScalar), (aclTensor*, out))
