// AffineGrid through the public API against a float64 reference of
// torch.nn.functional.affine_grid: 2-D and 3-D, both alignCorners, extents
// of 1, strided theta and out views, every A2 dtype, and the rejections.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_affine_grid.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

double Coordinate(int64_t i, int64_t extent, bool align) {
  if (extent <= 1) return 0;
  return align ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(extent - 1)
               : (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(extent) - 1.0;
}

Expected Reference(const Values& theta, const std::vector<int64_t>& size, bool align, aclDataType dtype) {
  const auto r = static_cast<int64_t>(size.size()) - 2;
  const int64_t depth = r == 3 ? size[2] : 1, height = size[r == 3 ? 3 : 2], width = size[r == 3 ? 4 : 3];
  Expected e;
  for (int64_t n = 0; n < size[0]; ++n) {
    for (int64_t d = 0; d < depth; ++d) {
      for (int64_t h = 0; h < height; ++h) {
        for (int64_t w = 0; w < width; ++w) {
          const double point[4] = {Coordinate(w, width, align), Coordinate(h, height, align),
                                   r == 3 ? Coordinate(d, depth, align) : 1.0, 1.0};
          for (int64_t k = 0; k < r; ++k) {
            double sum = 0, magnitude = 0;
            for (int64_t j = 0; j <= r; ++j) {
              const double term = theta[static_cast<size_t>((n * r + k) * (r + 1) + j)].real() * point[j];
              sum += term;
              magnitude += std::abs(term);
            }
            e.values.emplace_back(sum);
            // Computed in FLOAT, then rounded once to out's dtype.
            e.tolerance.push_back(8 * UnitRoundoff(ACL_FLOAT) * magnitude + UnitRoundoff(dtype) * std::abs(sum));
          }
        }
      }
    }
  }
  return e;
}

TEST(AffineGrid, MatchesReference) {
  const std::vector<std::vector<int64_t>> sizes = {
      {2, 3, 4, 5}, {1, 1, 1, 7}, {3, 2, 6, 1}, {2, 1, 3, 4, 5}, {1, 2, 1, 2, 1}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const auto& size : sizes) {
      for (bool align : {false, true}) {
        for (View view : {View::kContiguous, View::kTransposed, View::kStepped}) {
          SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(size) + (align ? " align" : "") + " " +
                       ViewName(view));
          Rng rng = Rng::ForCurrentTest();
          const auto r = static_cast<int64_t>(size.size()) - 2;
          DeviceTensor theta(dtype, {size[0], r, r + 1}, view);
          const Values matrices = theta.FillRandom(rng, Range{-2, 2});
          Shape grid = {size[0]};
          grid.insert(grid.end(), size.begin() + 2, size.end());
          grid.push_back(r);
          DeviceTensor out(dtype, grid, view);
          out.Poison();
          ExpectRuns(
              [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                return aclnnAffineGridGetWorkspaceSize(a.Tensor(theta), a.IntArray(size), align, a.Tensor(out), w, e);
              },
              aclnnAffineGrid);
          ExpectNear(out.ReadView(), Reference(matrices, size, align, dtype), "AffineGrid");
        }
      }
    }
  }
}

// The identity transform gives the base grid itself.
TEST(AffineGrid, IdentityIsTheBaseGrid) {
  const auto theta = Upload(ACL_FLOAT, {1, 2, 3}, {1, 0, 0, 0, 1, 0});
  DeviceTensor out(ACL_FLOAT, {1, 2, 3, 2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAffineGridGetWorkspaceSize(a.Tensor(*theta), a.IntArray({1, 1, 2, 3}), true, a.Tensor(out), w, e);
      },
      aclnnAffineGrid);
  ExpectExact(out.ReadView(), {-1, -1, 0, -1, 1, -1, -1, 1, 0, 1, 1, 1}, "identity, corners aligned");
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape theta, std::vector<int64_t> size, aclDataType outDtype, Shape out) {
    return [=](A& a, W w, E e) {
      return aclnnAffineGridGetWorkspaceSize(a.NewTensor(dtype, theta), a.IntArray(size), false,
                                             a.NewTensor(outDtype, out), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  return {
      {"double", call(ACL_DOUBLE, {1, 2, 3}, {1, 1, 2, 2}, ACL_DOUBLE, {1, 2, 2, 2}), aclnnAffineGrid, "'theta'"},
      {"out_dtype", call(f, {1, 2, 3}, {1, 1, 2, 2}, ACL_FLOAT16, {1, 2, 2, 2}), aclnnAffineGrid, "'out'"},
      {"empty_theta", call(f, {0, 2, 3}, {0, 1, 2, 2}, f, {0, 2, 2, 2}), aclnnAffineGrid, "empty"},
      {"size_3", call(f, {1, 2, 3}, {1, 2, 2}, f, {1, 2, 2, 2}), aclnnAffineGrid, "'size'"},
      {"theta_3d_for_2d", call(f, {1, 3, 4}, {1, 1, 2, 2}, f, {1, 2, 2, 2}), aclnnAffineGrid, "'theta'"},
      {"theta_batch", call(f, {2, 2, 3}, {1, 1, 2, 2}, f, {1, 2, 2, 2}), aclnnAffineGrid, "'theta'"},
      {"zero_height", call(f, {1, 2, 3}, {1, 1, 0, 2}, f, {1, 0, 2, 2}), aclnnAffineGrid, "'size'"},
      {"out_shape", call(f, {1, 2, 3}, {1, 1, 2, 2}, f, {1, 2, 2, 3}), aclnnAffineGrid, "'out'"},
      {"out_shape_3d", call(f, {1, 3, 4}, {1, 1, 2, 2, 2}, f, {1, 2, 2, 2, 2}), aclnnAffineGrid, "'out'"},
  };
}

class AffineGridRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(AffineGridRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AffineGridRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
