// aclnnMoeComputeExpertTokens against a direct count: for random ascending
// expert lists (some experts without rows, some with many), out[e] is the
// number of rows whose expert is at most e; strided views of both tensors, an
// empty list, the doc's example and every rejection.
#include <gtest/gtest.h>

#include <algorithm>

#include "aclnnop/aclnn_moe_compute_expert_tokens.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  int64_t rows = 12, experts = 4;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

OpRun RunTokens(const DeviceTensor& sorted, int64_t experts, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeComputeExpertTokensGetWorkspaceSize(a.Tensor(sorted), experts, a.Tensor(out), w, e);
      },
      aclnnMoeComputeExpertTokens);
}

class MoeComputeExpertTokensTest : public ::testing::TestWithParam<Case> {};

TEST_P(MoeComputeExpertTokensTest, MatchesCount) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Values experts = RandomValues(rng, ACL_INT32, c.rows, Range{0, double(c.experts - 1), 0, 0, true});
  std::sort(experts.begin(), experts.end(), [](const Value& a, const Value& b) { return a.real() < b.real(); });
  DeviceTensor sorted(ACL_INT32, {c.rows}, c.view), out(ACL_INT32, {c.experts}, c.view);
  sorted.WriteView(experts);
  out.Poison();
  const OpRun run = RunTokens(sorted, c.experts, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int64_t e = 0; e < c.experts; ++e) {
    want.push_back(static_cast<double>(
        std::count_if(experts.begin(), experts.end(), [&](const Value& v) { return v.real() <= double(e); })));
  }
  ExpectNear(out.ReadView(), Expected{want, std::vector<double>(want.size(), 0.0)}, "out");
}

INSTANTIATE_TEST_SUITE_P(
    All, MoeComputeExpertTokensTest,
    ::testing::Values(Case{12, 4, View::kContiguous, "small"}, Case{6, 16, View::kContiguous, "more_experts_than_rows"},
                      Case{5000, 256, View::kContiguous, "many_rows"},
                      Case{37, 2048, View::kContiguous, "most_experts"}, Case{40, 8, View::kStepped, "stepped_views"},
                      Case{40, 8, View::kReversed, "reversed_views"}, Case{0, 5, View::kContiguous, "no_rows"}),
    [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

TEST(MoeComputeExpertTokens, DocExample) {
  DeviceTensor sorted(ACL_INT32, {6}), out(ACL_INT32, {3});
  sorted.WriteView({0, 0, 1, 1, 2, 2});
  const OpRun run = RunTokens(sorted, 3, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), Expected{{2, 4, 6}, {0, 0, 0}}, "out");
}

OpRun RunCall(aclDataType sorted_dtype, const Shape& sorted_shape, int64_t experts, aclDataType out_dtype,
              const Shape& out_shape) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeComputeExpertTokensGetWorkspaceSize(a.NewTensor(sorted_dtype, sorted_shape), experts,
                                                           a.NewTensor(out_dtype, out_shape), w, e);
      },
      aclnnMoeComputeExpertTokens);
}

TEST(MoeComputeExpertTokensRejects, EachCase) {
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCall(ACL_INT32, {6}, 3, ACL_INT32, {3}).ok());
  ExpectRejectedWith(RunCall(ACL_INT64, {6}, 3, ACL_INT32, {3}), ACLNN_ERR_PARAM_INVALID, {"'sortedExperts'"});
  ExpectRejectedWith(RunCall(ACL_INT32, {6}, 3, ACL_INT64, {3}), ACLNN_ERR_PARAM_INVALID, {"'out'"});
  ExpectRejectedWith(RunCall(ACL_INT32, {2, 3}, 3, ACL_INT32, {3}), kTiling, {"'sortedExperts'", "rank"});
  ExpectRejectedWith(RunCall(ACL_INT32, {6}, 0, ACL_INT32, {0}), kTiling, {"'numExperts'"});
  ExpectRejectedWith(RunCall(ACL_INT32, {6}, -2, ACL_INT32, {3}), kTiling, {"'numExperts'"});
  ExpectRejectedWith(RunCall(ACL_INT32, {6}, 2049, ACL_INT32, {2049}), kTiling, {"'numExperts'", "2048"});
  EXPECT_TRUE(RunCall(ACL_INT32, {6}, 2048, ACL_INT32, {2048}).ok());
  ExpectRejectedWith(RunCall(ACL_INT32, {(int64_t{1} << 24) + 1}, 3, ACL_INT32, {3}), kTiling,
                     {"'sortedExperts'", "2^24"});
  ExpectRejectedWith(RunCall(ACL_INT32, {6}, 3, ACL_INT32, {4}), kTiling, {"'out'"});
  ExpectRejectedWith(RunCall(ACL_INT32, {6}, 3, ACL_INT32, {1, 3}), kTiling, {"'out'"});
}

}  // namespace
}  // namespace canopy_test
