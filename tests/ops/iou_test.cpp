// Iou through the public API against a float64 reference: iou and iof, every
// pair and aligned pairs, eps 0 and positive, disjoint, touching, nested and
// identical boxes, every A2 dtype, strided views, empty box sets and the
// rejections (161002 for what CANN's document checks, 561103 for an overlap
// its final copy cannot take).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_iou.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

Values RandomBoxes(Rng& rng, int64_t count, aclDataType dtype) {
  Values boxes;
  for (int64_t i = 0; i < count; ++i) {
    const double x0 = rng.Uniform(0, 8), y0 = rng.Uniform(0, 8);
    const double x1 = x0 + rng.Uniform(0.25, 6), y1 = y0 + rng.Uniform(0.25, 6);
    for (double v : {x0, y0, x1, y1}) boxes.push_back(ConvertValue(v, dtype));
  }
  return boxes;
}

double Overlap(const Value* p, const Value* q, bool iof, double eps) {
  const double w = std::max(std::min(p[2].real(), q[2].real()) - std::max(p[0].real(), q[0].real()) + eps, 0.0);
  const double h = std::max(std::min(p[3].real(), q[3].real()) - std::max(p[1].real(), q[1].real()) + eps, 0.0);
  const double inter = w * h;
  const double ab = (p[2].real() - p[0].real() + eps) * (p[3].real() - p[1].real() + eps);
  const double ag = (q[2].real() - q[0].real() + eps) * (q[3].real() - q[1].real() + eps);
  return inter / (iof ? ag : ab + ag - inter);
}

TEST(Iou, MatchesReference) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const char* mode : {"iou", "iof"}) {
      for (const bool aligned : {false, true}) {
        for (const double eps : {0.0, 0.5}) {
          SCOPED_TRACE(std::string(Name(dtype)) + " " + mode + (aligned ? " aligned" : "") + " eps " +
                       std::to_string(eps));
          Rng rng = Rng::ForCurrentTest();
          const int64_t m = 9, n = aligned ? 9 : 6;
          Values b = RandomBoxes(rng, m, dtype), g = RandomBoxes(rng, n, dtype);
          // Identical, nested and touching pairs.
          std::copy(b.begin(), b.begin() + 4, g.begin());
          g[4] = b[4] - 1.0;
          g[5] = b[5] - 1.0;
          g[6] = b[6] + 1.0;
          g[7] = b[7] + 1.0;
          g[8] = b[14];
          g[9] = b[13];
          g[10] = b[14] + 2.0;
          g[11] = b[13] + 2.0;
          for (Value& v : g) v = ConvertValue(v, dtype);
          DeviceTensor boxes(dtype, {m, 4}, View::kTransposed), truths(dtype, {n, 4}, View::kStepped);
          boxes.WriteView(b);
          truths.WriteView(g);
          const Shape outShape = aligned ? Shape{m, 1} : Shape{m, n};
          DeviceTensor overlap(dtype, outShape, aligned ? View::kContiguous : View::kTransposed);
          ExpectRuns(
              [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                return aclnnIouGetWorkspaceSize(a.Tensor(boxes), a.Tensor(truths), mode, static_cast<float>(eps),
                                                aligned, a.Tensor(overlap), w, e);
              },
              aclnnIou);
          Expected want;
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = aligned ? i : 0; j < (aligned ? i + 1 : n); ++j) {
              const double v = Overlap(&b[static_cast<size_t>(4 * i)], &g[static_cast<size_t>(4 * j)],
                                       std::string(mode) == "iof", eps);
              want.values.emplace_back(v);
              want.tolerance.push_back(64 * UnitRoundoff(ACL_FLOAT) * std::max(v, 1.0) + UnitRoundoff(dtype) * v);
            }
          }
          ExpectNear(overlap.ReadView(), want, "overlap");
        }
      }
    }
  }
}

TEST(Iou, EmptyBoxSetsWriteNothing) {
  DeviceTensor overlap(ACL_FLOAT, {0, 3});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIouGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {0, 4}), a.NewTensor(ACL_FLOAT, {3, 4}), "iou", 0.0F,
                                        false, a.Tensor(overlap), w, e);
      },
      aclnnIou);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType b, Shape bs, aclDataType g, Shape gs, const char* mode, float eps, bool aligned,
                 aclDataType o, Shape os) {
    return [=](A& a, W w, E e) {
      return aclnnIouGetWorkspaceSize(a.NewTensor(b, bs), a.NewTensor(g, gs), mode, eps, aligned, a.NewTensor(o, os), w,
                                      e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  return {
      {"dtypes_differ", call(f, {3, 4}, ACL_FLOAT16, {2, 4}, "iou", 0, false, f, {3, 2}), aclnnIou, "'gtBoxes'"},
      {"double", call(ACL_DOUBLE, {3, 4}, ACL_DOUBLE, {2, 4}, "iou", 0, false, ACL_DOUBLE, {3, 2}), aclnnIou,
       "'bBoxes'"},
      {"mode", call(f, {3, 4}, f, {2, 4}, "giou", 0, false, f, {3, 2}), aclnnIou, "'mode'"},
      {"eps", call(f, {3, 4}, f, {2, 4}, "iou", -1, false, f, {3, 2}), aclnnIou, "'eps'"},
      {"rank", call(f, {3, 4, 1}, f, {2, 4}, "iou", 0, false, f, {3, 2}), aclnnIou, "'bBoxes'"},
      {"four", call(f, {3, 5}, f, {2, 4}, "iou", 0, false, f, {3, 2}), aclnnIou, "[m, 4]"},
      {"aligned_counts", call(f, {3, 4}, f, {2, 4}, "iou", 0, true, f, {3, 1}), aclnnIou, "aligned"},
      {"aligned_overlap", call(f, {3, 4}, f, {3, 4}, "iou", 0, true, f, {3, 3}), aclnnIou, "aligned"},
      {"overlap_shape", call(f, {3, 4}, f, {2, 4}, "iou", 0, false, f, {2, 3}), aclnnIou, "'overlap'",
       ACLNN_ERR_INNER_NULLPTR},
  };
}

class IouRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(IouRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, IouRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
