// MultilabelMarginLoss through the public API against a float64 reference of
// torch.nn.MultiLabelMarginLoss: every reduction, 2-D, 1-D and 0-D self,
// target lists ending at -1 (or filling the row), repeated classes, every A2
// dtype, both target dtypes, strided views, a class out of range (a stream
// error), CANN's example's first row and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_multilabel_margin_loss.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

void Reference(const Values& x, const std::vector<int64_t>& y, int64_t n, int64_t c, int64_t reduction, Values& loss,
               Values& marks) {
  double total = 0;
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int> is(static_cast<size_t>(c), 0);
    std::vector<int64_t> classes;
    for (int64_t k = 0; k < c && y[static_cast<size_t>(r * c + k)] >= 0; ++k) {
      classes.push_back(y[static_cast<size_t>(r * c + k)]);
      is[static_cast<size_t>(classes.back())] = 1;
    }
    double sum = 0;
    for (int64_t j : classes) {
      for (int64_t i = 0; i < c; ++i) {
        if (is[static_cast<size_t>(i)] == 0) {
          sum +=
              std::max(0.0, 1 - (x[static_cast<size_t>(r * c + j)].real() - x[static_cast<size_t>(r * c + i)].real()));
        }
      }
    }
    sum /= static_cast<double>(c);
    if (reduction == 0) loss.emplace_back(sum);
    total += sum;
    for (int v : is) marks.emplace_back(v);
  }
  if (reduction != 0) loss.emplace_back(reduction == 1 ? total / static_cast<double>(n) : total);
}

TEST(MultilabelMarginLoss, MatchesReference) {
  struct Case {
    Shape self;
    int64_t reduction;
  };
  const std::vector<Case> cases = {{{4, 5}, 0}, {{4, 5}, 1}, {{3, 6}, 2}, {{7}, 0}, {{7}, 1}, {{}, 0}, {{6, 1}, 5}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType targetDtype : {ACL_INT64, ACL_INT32}) {
      for (const Case& c : cases) {
        SCOPED_TRACE(std::string(Name(dtype)) + " " + Name(targetDtype) + " " + ShapeString(c.self) + " reduction " +
                     std::to_string(c.reduction));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor self(dtype, c.self, View::kTransposed);
        const Values x = self.FillRandom(rng, Range{-2, 2});
        const int64_t classes = c.self.empty() ? 1 : c.self.back();
        const int64_t rows = c.self.size() == 2 ? c.self[0] : 1;
        std::vector<int64_t> y;
        for (int64_t r = 0; r < rows; ++r) {
          const auto listed = static_cast<int64_t>(rng.Uniform(0, static_cast<double>(classes) + 0.99));
          for (int64_t k = 0; k < classes; ++k) {
            // A target list of `listed` classes (repeats allowed), -1, then anything.
            y.push_back(k < listed    ? static_cast<int64_t>(rng.Uniform(0, static_cast<double>(classes) - 0.01))
                        : k == listed ? -1
                                      : static_cast<int64_t>(rng.Uniform(-1, static_cast<double>(classes) - 0.01)));
          }
        }
        Values yv;
        for (int64_t v : y) yv.emplace_back(static_cast<double>(v));
        const auto target = Upload(targetDtype, c.self, yv);
        const Shape outShape = c.reduction == 0 && c.self.size() == 2 ? Shape{rows} : Shape{};
        DeviceTensor out(dtype, outShape), isTarget(dtype, c.self, View::kStepped);
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnMultilabelMarginLossGetWorkspaceSize(a.Tensor(self), a.Tensor(*target), c.reduction,
                                                               a.Tensor(out), a.Tensor(isTarget), w, e);
            },
            aclnnMultilabelMarginLoss);
        Values loss, marks;
        Reference(x, y, rows, classes, c.reduction, loss, marks);
        Expected want{loss, {}};
        for (const Value& v : loss)
          want.tolerance.push_back(4 * UnitRoundoff(dtype) * std::max(std::abs(v.real()), 1.0));
        ExpectNear(out.ReadView(), want, "out");
        ExpectExact(isTarget.ReadView(), marks, "isTarget");
      }
    }
  }
}

// CANN's example's first row: every class a target, so the loss is 0 and isTarget all 1.
TEST(MultilabelMarginLoss, CannExampleFirstRow) {
  const auto self = Upload(ACL_FLOAT, {1, 3}, {0, 1, 2});
  const auto target = Upload(ACL_INT32, {1, 3}, {0, 1, 2});
  DeviceTensor out(ACL_FLOAT, {1}), isTarget(ACL_FLOAT, {1, 3});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMultilabelMarginLossGetWorkspaceSize(a.Tensor(*self), a.Tensor(*target), 0, a.Tensor(out),
                                                         a.Tensor(isTarget), w, e);
      },
      aclnnMultilabelMarginLoss);
  ExpectExact(out.ReadView(), {0}, "loss");
  ExpectExact(isTarget.ReadView(), {1, 1, 1}, "isTarget");
}

TEST(MultilabelMarginLoss, ClassOutOfRangeIsAStreamError) {
  const auto self = Upload(ACL_FLOAT, {2, 3}, {0, 1, 2, 3, 4, 5});
  const auto target = Upload(ACL_INT64, {2, 3}, {0, -1, 0, 3, 4, 5});
  DeviceTensor out(ACL_FLOAT, {2}), isTarget(ACL_FLOAT, {2, 3});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMultilabelMarginLossGetWorkspaceSize(a.Tensor(*self), a.Tensor(*target), 0, a.Tensor(out),
                                                         a.Tensor(isTarget), w, e);
      },
      aclnnMultilabelMarginLoss);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("target element 3"), std::string::npos) << run.message;
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape self, aclDataType targetDtype, Shape target, int64_t reduction,
                 aclDataType outDtype, Shape out, Shape isTarget) {
    return [=](A& a, W w, E e) {
      return aclnnMultilabelMarginLossGetWorkspaceSize(a.NewTensor(dtype, self),
                                                       a.NewTensorIn(Range{0, 1}, targetDtype, target), reduction,
                                                       a.NewTensor(outDtype, out), a.NewTensor(dtype, isTarget), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  const Shape m = {2, 3};
  return {
      {"double", call(ACL_DOUBLE, m, l, m, 0, ACL_DOUBLE, {2}, m), aclnnMultilabelMarginLoss, "'self'"},
      {"target_int16", call(f, m, ACL_INT16, m, 0, f, {2}, m), aclnnMultilabelMarginLoss, "'target'"},
      {"out_dtype", call(f, m, l, m, 0, ACL_FLOAT16, {2}, m), aclnnMultilabelMarginLoss, "'out'"},
      {"self_3d", call(f, {2, 3, 1}, l, {2, 3, 1}, 0, f, {2}, {2, 3, 1}), aclnnMultilabelMarginLoss, "'self'"},
      {"no_classes", call(f, {2, 0}, l, {2, 0}, 0, f, {2}, {2, 0}), aclnnMultilabelMarginLoss, "'self'"},
      {"target_shape", call(f, m, l, {3, 2}, 0, f, {2}, m), aclnnMultilabelMarginLoss, "'target'"},
      {"out_none", call(f, m, l, m, 0, f, {1}, m), aclnnMultilabelMarginLoss, "'out'"},
      {"out_mean", call(f, m, l, m, 1, f, {2}, m), aclnnMultilabelMarginLoss, "'out'"},
      {"is_target_shape", call(f, m, l, m, 1, f, {}, {3, 2}), aclnnMultilabelMarginLoss, "'isTarget'"},
  };
}

class MultilabelMarginLossRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(MultilabelMarginLossRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MultilabelMarginLossRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
