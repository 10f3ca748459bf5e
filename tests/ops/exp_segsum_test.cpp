// ExpSegsum through the public API against a float64 reference: 3-d and 4-d
// self, every A2 dtype, strided views, a length-1 last dim, CANN's example,
// empty tensors (accepted before any check, as CANN does) and the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_segsum.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

// out[..., i, j] = exp(sum of self[..., j + 1 .. i]) for i >= j, else 0.
Values Reference(const Values& self, int64_t length) {
  Values out;
  for (size_t start = 0; start < self.size(); start += static_cast<size_t>(length)) {
    for (int64_t i = 0; i < length; ++i) {
      for (int64_t j = 0; j < length; ++j) {
        double sum = 0;
        for (int64_t k = j + 1; k <= i; ++k) sum += self[start + static_cast<size_t>(k)].real();
        out.emplace_back(j > i ? 0.0 : std::exp(sum));
      }
    }
  }
  return out;
}

struct SegsumCase {
  Shape shape;
  View selfView, outView;
};

TEST(ExpSegsum, MatchesReference) {
  const std::vector<SegsumCase> cases = {
      {{2, 3, 8}, View::kContiguous, View::kContiguous},   {{2, 2, 3, 5}, View::kTransposed, View::kStepped},
      {{3, 2, 17}, View::kStepped, View::kTransposed},     {{1, 2, 2, 1}, View::kReversed, View::kOffset},
      {{2, 1, 2, 33}, View::kContiguous, View::kReversed},
  };
  for (aclDataType dtype : HalfAndSingle()) {
    for (const SegsumCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(c.shape));
      Shape outShape = c.shape;
      outShape.push_back(c.shape.back());
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, c.shape, c.selfView);
      DeviceTensor out(dtype, outShape, c.outView);
      const Values x = self.FillRandom(rng, Range{-1, 0.5});
      out.Poison();
      ExpectRuns([&](OpArgs& a, uint64_t* w,
                     aclOpExecutor** e) { return aclnnExpSegsumGetWorkspaceSize(a.Tensor(self), a.Tensor(out), w, e); },
                 aclnnExpSegsum);
      ExpectNear(out.ReadView(), RelativeTolerance(Reference(x, c.shape.back()), dtype, 2), "out");
    }
  }
}

// CANN's example shape, self [1, 1, 1, 4], here holding 1, 2, 3, 4.
TEST(ExpSegsum, CannExample) {
  const auto self = Upload(ACL_FLOAT, {1, 1, 1, 4}, {1, 2, 3, 4});
  DeviceTensor out(ACL_FLOAT, {1, 1, 1, 4, 4});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnExpSegsumGetWorkspaceSize(a.Tensor(*self), a.Tensor(out), w, e); },
             aclnnExpSegsum);
  const double e2 = std::exp(2.0), e3 = std::exp(3.0), e4 = std::exp(4.0);
  const Values want = {1, 0, 0, 0, e2, 1, 0, 0, std::exp(5.0), e3, 1, 0, std::exp(9.0), std::exp(7.0), e4, 1};
  ExpectNear(out.ReadView(), RelativeTolerance(want, ACL_FLOAT, 2), "out");
}

TEST(ExpSegsum, EmptySelfIsAcceptedAsIs) {
  // CANN returns before checking anything else when self is empty.
  for (const auto& shapes : {std::pair{Shape{2, 0, 4}, Shape{2, 0, 4, 4}}, std::pair{Shape{0, 3}, Shape{1}}}) {
    const Shape& self = shapes.first;
    const Shape& out = shapes.second;
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnExpSegsumGetWorkspaceSize(a.NewTensor(ACL_FLOAT16, self), a.NewTensor(ACL_INT32, out), w, e);
        },
        aclnnExpSegsum);
    EXPECT_TRUE(run.ok()) << ShapeString(self) << ": " << Describe(run);
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType sd, Shape s, aclDataType od, Shape o, aclFormat format = ACL_FORMAT_ND) {
    return [=](A& a, W w, E e) {
      return aclnnExpSegsumGetWorkspaceSize(a.NewTensor(sd, s, View::kContiguous, format), a.NewTensor(od, o), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  const Shape s = {2, 3, 4}, o = {2, 3, 4, 4};
  return {
      {"self_double", call(ACL_DOUBLE, s, ACL_DOUBLE, o), aclnnExpSegsum, "'self'"},
      {"out_dtype", call(f, s, ACL_FLOAT16, o), aclnnExpSegsum, "'out'"},
      {"self_2d", call(f, {3, 4}, f, {3, 4, 4}), aclnnExpSegsum, "'self'"},
      {"self_5d", call(f, {1, 2, 1, 3, 4}, f, {1, 2, 1, 3, 4, 4}), aclnnExpSegsum, "'self'"},
      {"out_rank", call(f, s, f, {2, 3, 16}), aclnnExpSegsum, "'out'"},
      {"out_lead", call(f, s, f, {2, 2, 4, 4}), aclnnExpSegsum, "'out'"},
      {"out_last", call(f, s, f, {2, 3, 4, 3}), aclnnExpSegsum, "'out'"},
      {"self_nchw", call(f, {2, 3, 4, 5}, f, {2, 3, 4, 5, 5}, ACL_FORMAT_NCHW), aclnnExpSegsum, "'self'"},
  };
}

class ExpSegsumRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ExpSegsumRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ExpSegsumRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
