// aclnnIou (mmcv's bbox_overlaps on the NPU): boxes [x0, y0, x1, y1]; with
// eps added to every width and height (the boxes' and the intersection's),
// overlap[i, j] = inter / (area(b_i) + area(g_j) - inter) ("iou") or inter /
// area(g_j) ("iof"), for every pair ([m, n]) or, aligned, for b_i and g_i
// ([m, 1]). The intersection's width and height are at least 0. Computed in
// FLOAT. CANN checks overlap's shape only where its document says so; a
// shape its final copy cannot take is its inner error 561103.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "aclnnop/aclnn_iou.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBoxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

class IouStep final : public Step {
 public:
  IouStep(const TensorRef& boxes, const TensorRef& truths, const TensorRef& overlap, bool iof, float eps, bool aligned)
      : boxes_(boxes), truths_(truths), overlap_(overlap), iof_(iof), eps_(eps), aligned_(aligned) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* b = reinterpret_cast<const float*>(context.Resolve(boxes_.buffer));
    const auto* g = reinterpret_cast<const float*>(context.Resolve(truths_.buffer));
    auto* out = reinterpret_cast<float*>(context.Resolve(overlap_.buffer));
    const int64_t m = boxes_.shape[0], n = truths_.shape[0];
    for (int64_t i = 0; i < m; ++i) {
      const float* p = b + 4 * i;
      for (int64_t j = aligned_ ? i : 0; j < (aligned_ ? i + 1 : n); ++j) {
        const float* q = g + 4 * j;
        const float w = std::max(std::min(p[2], q[2]) - std::max(p[0], q[0]) + eps_, 0.0F);
        const float h = std::max(std::min(p[3], q[3]) - std::max(p[1], q[1]) + eps_, 0.0F);
        const float inter = w * h;
        const float area_b = (p[2] - p[0] + eps_) * (p[3] - p[1] + eps_);
        const float area_g = (q[2] - q[0] + eps_) * (q[3] - q[1] + eps_);
        *out++ = inter / (iof_ ? area_g : area_b + area_g - inter);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string(iof_ ? "iof " : "iou ") + ShapeToString(boxes_.shape) + " x " + ShapeToString(truths_.shape);
  }

 private:
  TensorRef boxes_, truths_, overlap_;
  bool iof_;
  float eps_;
  bool aligned_;
};

aclnnStatus PlanIou(Plan& plan, const aclTensor* bBoxes, const aclTensor* gtBoxes, const char* mode, float eps,
                    bool aligned, const aclTensor* overlap) {
  for (const auto& [name, t] : {std::pair{"gtBoxes", gtBoxes}, std::pair{"overlap", overlap}}) {
    if (t->dtype != bBoxes->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be bBoxes' (%s)", name,
                         DtypeName(t->dtype), DtypeName(bBoxes->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("bBoxes", bBoxes->dtype, kBoxDtypes));
  if (std::strcmp(mode, "iou") != 0 && std::strcmp(mode, "iof") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'mode' is \"%s\"; it must be \"iou\" or \"iof\"", mode);
  }
  if (!(eps >= 0)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'eps' (%g) must not be negative", eps);
  for (const auto& [name, t] :
       {std::pair{"bBoxes", bBoxes}, std::pair{"gtBoxes", gtBoxes}, std::pair{"overlap", overlap}}) {
    CANOPY_CHECK(plan.CheckRank(name, t, 2, 2));
  }
  const int64_t m = bBoxes->view_shape[0], n = gtBoxes->view_shape[0];
  if (bBoxes->view_shape[1] != 4 || gtBoxes->view_shape[1] != 4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "bBoxes %s and gtBoxes %s must be [m, 4] and [n, 4]",
                       ShapeToString(bBoxes->view_shape).c_str(), ShapeToString(gtBoxes->view_shape).c_str());
  }
  if (aligned && (m != n || overlap->view_shape[1] != 1)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "aligned boxes need bBoxes and gtBoxes of one count (%lld, %lld) and "
                       "an overlap [m, 1], not %s",
                       static_cast<long long>(m), static_cast<long long>(n),
                       ShapeToString(overlap->view_shape).c_str());
  }
  const TensorRef boxes = plan.Input(bBoxes, "bBoxes");
  const TensorRef truths = plan.Input(gtBoxes, "gtBoxes");
  const TensorRef dst = plan.Output(overlap, "overlap");
  if (m == 0 || n == 0) return ACLNN_SUCCESS;  // as CANN: nothing written
  const Shape expected = aligned ? Shape{m, 1} : Shape{m, n};
  if (dst.shape != expected) {
    return plan.Reject(ACLNN_ERR_INNER_NULLPTR, "'overlap' has shape %s; the result is %s",
                       ShapeToString(dst.shape).c_str(), ShapeToString(expected).c_str());
  }
  const TensorRef b = plan.Contiguous(boxes, ACL_FLOAT);
  const TensorRef g = plan.Contiguous(truths, ACL_FLOAT);
  const TensorRef result = plan.Temporary(ACL_FLOAT, expected);
  plan.AddStep(std::make_unique<IouStep>(b, g, result, std::strcmp(mode, "iof") == 0, eps, aligned), {b, g}, result);
  plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Iou, PlanIou,
                (OpTraits{.header = "aclnnop/aclnn_iou.h",
                          .dtypes = kBoxDtypes,
                          .example = "f32[3,4] f32[2,4] 'iou' 0.0 false f32[3,2]"}),
                (const aclTensor*, bBoxes), (const aclTensor*, gtBoxes), (const char*, mode), (float, eps),
                (bool, aligned), (aclTensor*, overlap))
