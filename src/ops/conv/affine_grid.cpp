// aclnnAffineGrid (torch.nn.functional.affine_grid): for a batch of affine
// matrices theta [N, 2, 3] (or [N, 3, 4]) and an output size [N, C, H, W]
// (or [N, C, D, H, W]), out[n, (d,) h, w] = theta[n] @ (x, y, (z,) 1), where
// x, y, z are the normalised coordinates of column w, row h and slice d:
// -1 .. 1 through the corner pixels with alignCorners, else through the
// pixel centres ((2i + 1) / S - 1); an extent of 1 gives 0. Computed in
// FLOAT (DOUBLE is not an A2 dtype) and rounded once into out.
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_affine_grid.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAffineGridDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxExtent = 100000;  // CANN's documented bound on N, H and W

float Coordinate(int64_t i, int64_t extent, bool align_corners) {
  if (extent <= 1) return 0.0F;
  const auto s = static_cast<float>(extent);
  const auto x = static_cast<float>(i);
  return align_corners ? -1.0F + 2.0F * x / (s - 1.0F) : (2.0F * x + 1.0F) / s - 1.0F;
}

// grid [N, spatial..., r] = theta [N, r, r + 1] applied to each point's (x, y, (z,) 1); both contiguous FLOAT.
class AffineGridStep final : public Step {
 public:
  AffineGridStep(const TensorRef& theta, const TensorRef& grid, bool align_corners)
      : theta_(theta), grid_(grid), align_corners_(align_corners) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* theta = reinterpret_cast<const float*>(context.Resolve(theta_.buffer));
    auto* grid = reinterpret_cast<float*>(context.Resolve(grid_.buffer));
    const int64_t r = grid_.shape.back();  // 2 or 3 coordinates
    const int64_t depth = r == 3 ? grid_.shape[1] : 1;
    const int64_t height = grid_.shape[static_cast<size_t>(r == 3 ? 2 : 1)];
    const int64_t width = grid_.shape[static_cast<size_t>(r == 3 ? 3 : 2)];
    for (int64_t n = 0; n < grid_.shape[0]; ++n) {
      const float* m = theta + n * r * (r + 1);
      for (int64_t d = 0; d < depth; ++d) {
        const float z = Coordinate(d, depth, align_corners_);
        for (int64_t h = 0; h < height; ++h) {
          const float y = Coordinate(h, height, align_corners_);
          for (int64_t w = 0; w < width; ++w) {
            const float x = Coordinate(w, width, align_corners_);
            const float point[4] = {x, y, r == 3 ? z : 1.0F, 1.0F};
            for (int64_t k = 0; k < r; ++k) {
              float sum = 0.0F;
              for (int64_t j = 0; j <= r; ++j) sum += m[k * (r + 1) + j] * point[j];
              *grid++ = sum;
            }
          }
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "affine grid " + ShapeToString(grid_.shape) + (align_corners_ ? " align corners" : "");
  }

 private:
  TensorRef theta_, grid_;
  bool align_corners_;
};

aclnnStatus PlanAffineGrid(Plan& plan, const aclTensor* theta, const aclIntArray* size, bool alignCorners,
                           const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("theta", theta->dtype, kAffineGridDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "theta", theta));
  if (theta->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'theta' of shape %s is empty",
                       ShapeToString(theta->view_shape).c_str());
  }
  const std::vector<int64_t>& s = size->values;
  if (s.size() != 4 && s.size() != 5) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'size' holds %zu values; it must be [N, C, H, W] or "
                       "[N, C, D, H, W]",
                       s.size());
  }
  const int64_t r = static_cast<int64_t>(s.size()) - 2;  // coordinates per point
  const int64_t columns = r + 1;
  if (theta->view_shape != Shape{s[0], r, columns}) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'theta' has shape %s; size %s needs [%lld, %lld, %lld]",
                       ShapeToString(theta->view_shape).c_str(), ShapeToString(s).c_str(), static_cast<long long>(s[0]),
                       static_cast<long long>(r), static_cast<long long>(columns));
  }
  Shape grid = {s[0]};
  grid.insert(grid.end(), s.begin() + 2, s.end());
  for (int64_t extent : grid) {
    if (extent <= 0 || extent > kMaxExtent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'size' %s: N and the spatial extents must be in (0, %lld]",
                         ShapeToString(s).c_str(), static_cast<long long>(kMaxExtent));
    }
  }
  grid.push_back(r);
  CANOPY_CHECK(plan.CheckShape("out", out, grid));
  const TensorRef matrices = plan.Contiguous(plan.Input(theta, "theta"), ACL_FLOAT);
  const TensorRef dst = plan.Output(out, "out");
  const TensorRef result = dst.dtype == ACL_FLOAT && dst.IsContiguous() ? dst : plan.Temporary(ACL_FLOAT, grid);
  plan.AddStep(std::make_unique<AffineGridStep>(matrices, result, alignCorners), {matrices}, result);
  if (!SameView(result, dst)) plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AffineGrid, PlanAffineGrid,
                (OpTraits{.header = "aclnnop/aclnn_affine_grid.h",
                          .dtypes = kAffineGridDtypes,
                          .example = "f32[1,2,3] ints[1,1,2,3] false f32[1,2,3,2]"}),
                (const aclTensor*, theta), (const aclIntArray*, size), (bool, alignCorners), (aclTensor*, out))
