// aclnnMultilabelMarginLoss (torch.nn.MultiLabelMarginLoss): each row of
// self [N, C] (a 1-D self is one row, a 0-D one a row of one class) has the
// target classes target[n, 0 .. ] up to the first -1; its loss is
// sum over target classes j and non-target classes i of max(0, 1 - (x[j] -
// x[i])) / C, and isTarget[n, k] is 1 for a target class k, else 0.
// reduction 0 keeps [N], 1 the mean, any other the sum. A class outside
// [-1, C) fails the run before anything is written. In double per row.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_multilabel_margin_loss.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/gather.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kScoreDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// x [N, C] FLOAT and target [N, C] INT64, dense; writes loss ([N] or [1]) and is_target [N, C] FLOAT.
class MultilabelMarginStep final : public Step {
 public:
  MultilabelMarginStep(const TensorRef& x, const TensorRef& target, const TensorRef& loss, const TensorRef& is_target,
                       int64_t reduction)
      : x_(x), target_(target), loss_(loss), is_target_(is_target), reduction_(reduction) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x = reinterpret_cast<const float*>(context.Resolve(x_.buffer));
    const auto* y = reinterpret_cast<const int64_t*>(context.Resolve(target_.buffer));
    const int64_t n = x_.shape[0], c = x_.shape[1];
    for (int64_t k = 0; k < n * c; ++k) {
      if (y[k] < -1 || y[k] >= c) {
        SetErrorMessage("aclnnMultilabelMarginLoss: target element %lld is %lld, outside [-1, %lld)",
                        static_cast<long long>(k), static_cast<long long>(y[k]), static_cast<long long>(c));
        return kIndexOutOfRangeStatus;
      }
    }
    auto* loss = reinterpret_cast<float*>(context.Resolve(loss_.buffer));
    auto* is_target = reinterpret_cast<float*>(context.Resolve(is_target_.buffer));
    double total = 0;
    for (int64_t r = 0; r < n; ++r) {
      const float* row = x + r * c;
      const int64_t* classes = y + r * c;
      float* marks = is_target + r * c;
      std::fill(marks, marks + c, 0.0F);
      int64_t count = 0;
      while (count < c && classes[count] >= 0) marks[classes[count++]] = 1.0F;
      double sum = 0;
      for (int64_t t = 0; t < count; ++t) {
        const double xj = row[classes[t]];
        for (int64_t i = 0; i < c; ++i) {
          if (marks[i] == 0.0F) sum += std::max(0.0, 1.0 - (xj - static_cast<double>(row[i])));
        }
      }
      sum /= static_cast<double>(c);
      if (reduction_ == 0) loss[r] = static_cast<float>(sum);
      total += sum;
    }
    if (reduction_ != 0) loss[0] = static_cast<float>(reduction_ == 1 ? total / static_cast<double>(n) : total);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "multilabel margin loss " + ShapeToString(x_.shape); }

 private:
  TensorRef x_, target_, loss_, is_target_;
  int64_t reduction_;
};

aclnnStatus PlanMultilabelMarginLoss(Plan& plan, const aclTensor* self, const aclTensor* target, int64_t reduction,
                                     const aclTensor* out, const aclTensor* isTarget) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kScoreDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(CheckSameDtype(plan, "isTarget", isTarget, "self", self));
  const int64_t rank = self->rank();
  const Shape& s = self->view_shape;
  if (rank > 2 || (rank >= 1 && s.back() == 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has shape %s; it must be [N, C], [C] or a scalar, C not 0",
                       ShapeToString(s).c_str());
  }
  const bool one_row = rank <= 1;
  const int64_t n = one_row ? 1 : s[0], c = rank == 0 ? 1 : s.back();
  const Shape& t = target->view_shape;
  if ((one_row && (target->rank() > 1 || target->NumElements() != c)) || (!one_row && t != s)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'target' has shape %s; self %s needs %s", ShapeToString(t).c_str(),
                       ShapeToString(s).c_str(), one_row ? "as many classes" : "its own shape");
  }
  if (reduction == 0 && !one_row) {
    CANOPY_CHECK(plan.CheckShape("out", out, {n}));
  } else if (out->rank() > 1 || out->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has shape %s; it must hold one value",
                       ShapeToString(out->view_shape).c_str());
  }
  if (!one_row && n == 0) {
    if (isTarget->rank() > 2 || isTarget->NumElements() != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'isTarget' has shape %s; it must be empty",
                         ShapeToString(isTarget->view_shape).c_str());
    }
  } else {
    CANOPY_CHECK(plan.CheckShape("isTarget", isTarget, t));
  }
  const TensorRef scores = plan.Input(self, "self");
  const TensorRef classes = plan.Input(target, "target");
  const TensorRef loss = plan.Output(out, "out");
  const TensorRef marks = plan.Output(isTarget, "isTarget");
  if (scores.NumElements() == 0) return ACLNN_SUCCESS;  // as CANN: nothing written
  const TensorRef x = *Reshape(plan.Contiguous(scores, ACL_FLOAT), {n, c});
  const TensorRef y = *Reshape(plan.Contiguous(classes, ACL_INT64), {n, c});
  const TensorRef loss_values = plan.Temporary(ACL_FLOAT, loss.shape);
  const TensorRef mark_values = plan.Temporary(ACL_FLOAT, {n, c});
  plan.AddStep(std::make_unique<MultilabelMarginStep>(x, y, loss_values, mark_values, reduction), {x, y}, mark_values);
  plan.Copy(loss_values, loss);
  plan.Copy(*Reshape(mark_values, marks.shape), marks);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MultilabelMarginLoss, PlanMultilabelMarginLoss,
                (OpTraits{.header = "aclnnop/aclnn_multilabel_margin_loss.h",
                          .dtypes = kScoreDtypes | kIndexDtypes,
                          .example = "f32[2,3] i64[2,3]{-1:2} 0 f32[2] f32[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, target), (int64_t, reduction), (aclTensor*, out),
                (aclTensor*, isTarget))
