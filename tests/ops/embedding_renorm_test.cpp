// EmbeddingRenorm: the named rows of the table (each once, whatever the repeats) scaled to maxNorm
// where their p-norm exceeds it, every other row untouched; against a float64 reference on random
// data in every A2 dtype, strided tables, INT32 / INT64 indices of several ranks, each norm order,
// NaN maxNorm and empty tensors, an out-of-range index failing the run, and CANN's rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding_renorm.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

double PNorm(const std::vector<double>& row, double p) {
  double acc = 0;
  if (std::isinf(p)) {
    for (const double v : row) acc = std::max(acc, std::abs(v));
    return acc;
  }
  if (p == 0) {
    for (const double v : row) acc += v != 0 ? 1 : 0;
    return acc;
  }
  for (const double v : row) acc += std::pow(std::abs(v), p);
  return std::pow(acc, 1 / p);
}

struct Case {
  aclDataType dtype;
  aclDataType indexDtype;
  View view;
  Shape indexShape;
  double p;
  double maxNorm;
};

void RunCase(const Case& c) {
  const std::string what = std::string(Name(c.dtype)) + " " + Name(c.indexDtype) + " " + ViewName(c.view) + " p " +
                           std::to_string(c.p) + " maxNorm " + std::to_string(c.maxNorm);
  Rng rng = Rng::ForCurrentTest();
  const int64_t rows = 10, columns = 6;
  DeviceTensor table(c.dtype, {rows, columns}, c.view), indices(c.indexDtype, c.indexShape);
  const std::vector<double> before = Reals(table.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> idx =
      Reals(indices.FillRandom(rng, Range{0, static_cast<double>(rows - 1), 0, 0, /*allowAllZero=*/true}));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnEmbeddingRenormGetWorkspaceSize(a.Tensor(table), a.Tensor(indices), c.maxNorm, c.p, w, e);
      },
      aclnnEmbeddingRenorm);
  const std::set<int64_t> named(idx.begin(), idx.end());
  std::vector<double> want = before, tolerance(before.size(), 0);
  const double u = std::max(UnitRoundoff(c.dtype), 0x1p-24);
  for (const int64_t r : named) {
    const auto first = before.begin() + r * columns;
    const double norm = PNorm(std::vector<double>(first, first + columns), c.p);
    if (!(norm > c.maxNorm)) continue;
    const double factor = c.maxNorm / (norm + 1e-7);
    for (int64_t j = 0; j < columns; ++j) {
      const auto k = static_cast<size_t>(r * columns + j);
      want[k] = ConvertValue(before[k] * factor, c.dtype).real();
      tolerance[k] = 4 * u * std::abs(before[k] * factor) + 1e-6;
    }
  }
  Expected expected{Values(want.begin(), want.end()), tolerance};
  ExpectNear(table.ReadView(), expected, what);
}

TEST(EmbeddingRenorm, MatchesFloat64Reference) {
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    RunCase({dtype, ACL_INT64, View::kContiguous, {5}, 2, 2.5});
    RunCase({dtype, ACL_INT32, View::kTransposed, {2, 3}, 1, 4});
    RunCase({dtype, ACL_INT64, View::kStepped, {3, 2, 2}, 3.5, 1.5});
    RunCase({dtype, ACL_INT32, View::kReversed, {4}, kInf, 1.2});
    RunCase({dtype, ACL_INT64, View::kOffset, {}, 2, 0.5});
    RunCase({dtype, ACL_INT32, View::kContiguous, {6}, 0, 3});
  }
}

// A NaN maxNorm scales nothing; empty indices or an empty table change nothing.
TEST(EmbeddingRenorm, NanMaxNormAndEmptyTensorsKeepTheTable) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor table(ACL_FLOAT, {4, 3}), indices(ACL_INT64, {3}), none(ACL_INT64, {0}), empty(ACL_FLOAT, {0, 3});
  const Values before = table.FillRandom(rng, Range{-5, 5});
  indices.WriteView({0, 1, 3});
  for (int form = 0; form < 3; ++form) {
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          if (form == 2) return aclnnEmbeddingRenormGetWorkspaceSize(a.Tensor(empty), a.Tensor(none), 1.0, 2, w, e);
          return aclnnEmbeddingRenormGetWorkspaceSize(a.Tensor(table), a.Tensor(form == 0 ? indices : none),
                                                      form == 0 ? std::nan("") : 0.1, 2, w, e);
        },
        aclnnEmbeddingRenorm);
    ExpectExact(table.ReadView(), before, "form " + std::to_string(form));
  }
}

TEST(EmbeddingRenorm, IndexOutOfRangeFailsTheRun) {
  DeviceTensor table(ACL_FLOAT, {4, 3}), indices(ACL_INT32, {2});
  Rng rng = Rng::ForCurrentTest();
  const Values before = table.FillRandom(rng, Range{-5, 5});
  for (const double bad : {4.0, -1.0}) {
    indices.WriteView({0, bad});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnEmbeddingRenormGetWorkspaceSize(a.Tensor(table), a.Tensor(indices), 0.1, 2, w, e);
        },
        aclnnEmbeddingRenorm);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_FALSE(run.ok()) << "index " << bad << ": " << Describe(run);
    ExpectExact(table.ReadView(), before, "nothing written");
  }
}

TEST(EmbeddingRenorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType self, index;
    Shape shape;
    const char* keyword;
  };
  const Bad cases[] = {
      {"s32 selfRef", ACL_INT32, ACL_INT64, {4, 3}, "selfRef"},
      {"f64 selfRef", ACL_DOUBLE, ACL_INT64, {4, 3}, "selfRef"},
      {"f32 indices", ACL_FLOAT, ACL_FLOAT, {4, 3}, "indices"},
      {"rank 3 selfRef", ACL_FLOAT, ACL_INT64, {2, 4, 3}, "selfRef"},
      {"rank 1 selfRef", ACL_FLOAT, ACL_INT64, {4}, "selfRef"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor table(bad.self, bad.shape), indices(bad.index, {2});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnEmbeddingRenormGetWorkspaceSize(a.Tensor(table), a.Tensor(indices), 1.0, 2, w, e);
        },
        aclnnEmbeddingRenorm);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
