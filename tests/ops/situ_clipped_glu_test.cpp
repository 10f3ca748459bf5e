// SituGlu and ClippedSwiglu through the public API against float64
// references: every A2 dtype, each dim (rows grouping the extents before it),
// both halves' orders, interleaved and split halves, limits that clip,
// groupIndex counts that cover some rows (the rest of out untouched), strided
// views, empty tensors, CANN's examples and the rejections (561002 for what
// CANN's tiling checks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_clipped_swiglu.h"
#include "aclnnop/aclnn_situ_glu.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct Rows {
  int64_t rows = 1, cut = 1;
};

Rows RowsOf(const Shape& shape, int64_t dim) {
  const auto rank = static_cast<int64_t>(shape.size());
  if (dim < 0) dim += rank;
  Rows r;
  for (int64_t d = 0; d < rank; ++d) (d < dim ? r.rows : r.cut) *= shape[static_cast<size_t>(d)];
  return r;
}

Shape Halved(Shape shape, int64_t dim) {
  if (dim < 0) dim += static_cast<int64_t>(shape.size());
  shape[static_cast<size_t>(dim)] /= 2;
  return shape;
}

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// Computed in FLOAT, rounded once into a 16-bit out.
double Tolerance(aclDataType dtype, double value) {
  return 16 * UnitRoundoff(ACL_FLOAT) * std::max(std::abs(value), 1.0) + UnitRoundoff(dtype) * std::abs(value);
}

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

TEST(SituGlu, MatchesReference) {
  struct Case {
    Shape shape;
    int64_t dim;
    double beta, linearBeta;
    bool left;
  };
  const std::vector<Case> cases = {{{3, 8}, -1, 1.0, 0.0, true},
                                   {{2, 4, 6}, 1, 0.5, 2.0, false},
                                   {{6, 3, 2}, 0, 2.0, -1.0, true},
                                   {{10}, 0, 1.5, 0.7, true},
                                   {{0, 4}, -1, 1.0, 0.0, true}};
  for (aclDataType dtype : kDtypes) {
    for (const Case& c : cases) {
      for (View view : {View::kContiguous, View::kTransposed, View::kStepped}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(c.shape) + " dim " + std::to_string(c.dim) + " " +
                     ViewName(view));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor x(dtype, c.shape, view);
        const Values values = x.FillRandom(rng, Range{-4, 4});
        DeviceTensor out(dtype, Halved(c.shape, c.dim), view);
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnSituGluGetWorkspaceSize(a.Tensor(x), c.dim, c.beta, c.linearBeta, c.left, a.Tensor(out), w,
                                                  e);
            },
            aclnnSituGlu);
        const Rows r = RowsOf(c.shape, c.dim);
        const int64_t half = r.cut / 2;
        Expected want;
        for (int64_t row = 0; row < r.rows; ++row) {
          for (int64_t i = 0; i < half; ++i) {
            const double first = values[static_cast<size_t>(row * r.cut + i)].real();
            const double second = values[static_cast<size_t>(row * r.cut + half + i)].real();
            const double gate = c.left ? first : second, up = c.left ? second : first;
            const double u = c.linearBeta > 0 ? c.linearBeta * std::tanh(up / c.linearBeta) : up;
            const double y = c.beta * std::tanh(gate / c.beta) * Sigmoid(gate) * u;
            want.values.emplace_back(y);
            want.tolerance.push_back(Tolerance(dtype, y));
          }
        }
        ExpectNear(out.ReadView(), want, "SituGlu");
      }
    }
  }
}

struct ClippedCase {
  Shape shape;
  int64_t dim;
  bool interleaved;
  std::vector<int64_t> groups;  // empty: no groupIndex
};

TEST(ClippedSwiglu, MatchesReference) {
  const std::vector<ClippedCase> cases = {{{4, 8}, -1, true, {}},        {{4, 8}, -1, false, {1, 2}},
                                          {{2, 4, 3}, 1, true, {5, 9}},  {{6, 2, 2}, 0, false, {}},
                                          {{5, 6}, -1, true, {0, 2, 0}}, {{3, 4}, -1, true, {-2, 1}}};
  const double alpha = 1.702, limit = 3.0, bias = 1.0;
  for (aclDataType dtype : kDtypes) {
    for (const ClippedCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(c.shape) + " dim " + std::to_string(c.dim) +
                   (c.interleaved ? " interleaved" : "") + " groups " + std::to_string(c.groups.size()));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor x(dtype, c.shape, View::kStepped);
      const Values values = x.FillRandom(rng, Range{-6, 6});
      DeviceTensor out(dtype, Halved(c.shape, c.dim), View::kTransposed);
      const Values before = out.FillRandom(rng, Range{-1, 1});
      Values groupValues;
      for (int64_t v : c.groups) groupValues.emplace_back(static_cast<double>(v));
      const auto groups =
          c.groups.empty() ? nullptr : Upload(ACL_INT64, {static_cast<int64_t>(c.groups.size())}, groupValues);
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnClippedSwigluGetWorkspaceSize(a.Tensor(x), groups ? a.Tensor(*groups) : nullptr, c.dim, alpha,
                                                      limit, bias, c.interleaved, a.Tensor(out), w, e);
          },
          aclnnClippedSwiglu);
      const Rows r = RowsOf(c.shape, c.dim);
      const int64_t half = r.cut / 2;
      int64_t computed = r.rows;
      if (!c.groups.empty()) {
        int64_t total = 0;
        for (int64_t v : c.groups) total += std::max<int64_t>(v, 0);
        computed = std::min(computed, total);
      }
      Expected want;
      for (int64_t row = 0; row < r.rows; ++row) {
        for (int64_t i = 0; i < half; ++i) {
          if (row >= computed) {
            want.values.push_back(before[static_cast<size_t>(row * half + i)]);
            want.tolerance.push_back(0);
            continue;
          }
          const size_t base = static_cast<size_t>(row * r.cut);
          const double av = values[base + static_cast<size_t>(c.interleaved ? 2 * i : i)].real();
          const double bv = values[base + static_cast<size_t>(c.interleaved ? 2 * i + 1 : half + i)].real();
          const double A = std::min(av, limit), B = std::clamp(bv, -limit, limit);
          const double y = A * Sigmoid(alpha * A) * (B + bias);
          want.values.emplace_back(y);
          want.tolerance.push_back(Tolerance(dtype, y));
        }
      }
      ExpectNear(out.ReadView(), want, "ClippedSwiglu");
    }
  }
}

// CANN's example: x = 0..63 as [2, 32], one group of one row, limit 7, bias 1.702, alpha 1.
TEST(ClippedSwiglu, CannExample) {
  Values xs;
  for (int i = 0; i < 64; ++i) xs.emplace_back(i);
  const auto x = Upload(ACL_FLOAT, {2, 32}, xs);
  const auto groups = Upload(ACL_INT64, {1}, {Value(1)});
  const auto out = Upload(ACL_FLOAT, {2, 16}, Values(32, Value(0)));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnClippedSwigluGetWorkspaceSize(a.Tensor(*x), a.Tensor(*groups), -1, 1.0, 7.0, 1.702, true,
                                                  a.Tensor(*out), w, e);
      },
      aclnnClippedSwiglu);
  const Values got = out->ReadView();
  const std::vector<double> row0 = {0, 8.2830, 26.3258, 52.0829};
  for (size_t i = 0; i < 16; ++i) {
    EXPECT_NEAR(got[i].real(), i < row0.size() ? row0[i] : 60.8585, 1e-3) << i;
    EXPECT_EQ(got[16 + i].real(), 0) << "row 1 is past the group's one row";
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto situ = [](aclDataType dtype, Shape x, int64_t dim, aclDataType outDtype, Shape out) {
    return [=](A& a, W w, E e) {
      return aclnnSituGluGetWorkspaceSize(a.NewTensor(dtype, x), dim, 1.0, 0.0, true, a.NewTensor(outDtype, out), w, e);
    };
  };
  auto clipped = [](aclDataType dtype, Shape x, int64_t dim, Shape out, aclDataType groupDtype, Shape groups,
                    double limit) {
    return [=](A& a, W w, E e) {
      return aclnnClippedSwigluGetWorkspaceSize(a.NewTensor(dtype, x), a.NewTensorIn(Range{0, 2}, groupDtype, groups),
                                                dim, 1.0, limit, 1.0, true, a.NewTensor(dtype, out), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  return {
      {"SituGlu_double", situ(ACL_DOUBLE, {2, 4}, -1, ACL_DOUBLE, {2, 2}), aclnnSituGlu, "'x'"},
      {"SituGlu_dim", situ(f, {2, 4}, 2, f, {2, 2}), aclnnSituGlu, "'dim'", tiling},
      {"SituGlu_odd", situ(f, {2, 5}, -1, f, {2, 2}), aclnnSituGlu, "odd", tiling},
      {"SituGlu_out_shape", situ(f, {2, 4}, -1, f, {2, 4}), aclnnSituGlu, "'out'", tiling},
      {"SituGlu_out_dtype", situ(f, {2, 4}, -1, ACL_FLOAT16, {2, 2}), aclnnSituGlu, "'out'", tiling},
      {"ClippedSwiglu_double", clipped(ACL_DOUBLE, {2, 4}, -1, {2, 2}, l, {1}, 7), aclnnClippedSwiglu, "'x'"},
      {"ClippedSwiglu_groups_int32", clipped(f, {2, 4}, -1, {2, 2}, ACL_INT32, {1}, 7), aclnnClippedSwiglu,
       "'groupIndexOptional'"},
      {"ClippedSwiglu_groups_2d", clipped(f, {2, 4}, -1, {2, 2}, l, {1, 1}, 7), aclnnClippedSwiglu,
       "'groupIndexOptional'", tiling},
      {"ClippedSwiglu_dim", clipped(f, {2, 4}, -3, {2, 2}, l, {1}, 7), aclnnClippedSwiglu, "'dim'", tiling},
      {"ClippedSwiglu_odd", clipped(f, {2, 3}, -1, {2, 1}, l, {1}, 7), aclnnClippedSwiglu, "odd", tiling},
      {"ClippedSwiglu_out_shape", clipped(f, {2, 4}, -1, {2, 3}, l, {1}, 7), aclnnClippedSwiglu, "'out'", tiling},
      {"ClippedSwiglu_limit", clipped(f, {2, 4}, -1, {2, 2}, l, {1}, 0), aclnnClippedSwiglu, "'limit'", tiling},
  };
}

class SituClippedGluRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(SituClippedGluRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, SituClippedGluRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
