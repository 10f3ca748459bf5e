// ExpandIntoJaggedPermute through the public API against fbgemm's
// definition: random tables of random lengths permuted, empty segments,
// strided inputs, CANN's doc example, values that do not fit (stream errors,
// nothing written) and the rejections (561002 for shapes, as CANN's tiling).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_expand_into_jagged_permute.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

Values AsValues(const std::vector<int64_t>& v) {
  Values out;
  for (int64_t x : v) out.emplace_back(static_cast<double>(x));
  return out;
}

OpRun RunPermute(const DeviceTensor& permute, const DeviceTensor& in, const DeviceTensor& out, int64_t size,
                 const DeviceTensor& result) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnExpandIntoJaggedPermuteGetWorkspaceSize(a.Tensor(permute), a.Tensor(in), a.Tensor(out), size,
                                                            a.Tensor(result), w, e);
      },
      aclnnExpandIntoJaggedPermute);
}

TEST(ExpandIntoJaggedPermute, MatchesFbgemmsDefinition) {
  for (const int64_t tables : {1, 5, 17}) {
    SCOPED_TRACE(std::to_string(tables) + " tables");
    Rng rng = Rng::ForCurrentTest();
    std::vector<int64_t> lengths, perm(static_cast<size_t>(tables));
    for (int64_t i = 0; i < tables; ++i) lengths.push_back(static_cast<int64_t>(rng.Uniform(0, 6.99)));
    std::iota(perm.begin(), perm.end(), 0);
    for (int64_t i = tables - 1; i > 0; --i) {
      std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(rng.Uniform(0, static_cast<double>(i) + 0.99))]);
    }
    // Input offsets of the tables' own lengths; output segments of the permuted tables' lengths.
    std::vector<int64_t> in = {0}, out = {0};
    for (int64_t i = 0; i < tables; ++i) in.push_back(in.back() + lengths[static_cast<size_t>(i)]);
    for (int64_t i = 0; i < tables; ++i)
      out.push_back(out.back() + lengths[static_cast<size_t>(perm[static_cast<size_t>(i)])]);
    const int64_t size = out.back();
    DeviceTensor permute(ACL_INT32, {tables}, View::kStepped), inOffsets(ACL_INT32, {tables + 1}, View::kOffset);
    DeviceTensor outOffsets(ACL_INT32, {tables + 1});
    permute.WriteView(AsValues(perm));
    inOffsets.WriteView(AsValues(in));
    outOffsets.WriteView(AsValues(out));
    DeviceTensor result(ACL_INT32, {size}, View::kStepped);
    const OpRun run = RunPermute(permute, inOffsets, outOffsets, size, result);
    ASSERT_TRUE(run.ok()) << Describe(run);
    std::vector<int64_t> want;
    for (int64_t i = 0; i < tables; ++i) {
      const int64_t start = in[static_cast<size_t>(perm[static_cast<size_t>(i)])];
      for (int64_t j = out[static_cast<size_t>(i)]; j < out[static_cast<size_t>(i + 1)]; ++j) {
        want.push_back(start + j - out[static_cast<size_t>(i)]);
      }
    }
    ExpectExact(result.ReadView(), AsValues(want), "outputPermuteOut");
  }
}

TEST(ExpandIntoJaggedPermute, ValuesThatDoNotFitFailTheRun) {
  struct Case {
    std::vector<int64_t> permute, in, out;
    std::string keyword;
  };
  const std::vector<Case> cases = {{{0, 2}, {0, 1, 3}, {0, 1, 3}, "permute[1]"},
                                   {{1, 0}, {0, 1, 3}, {0, 2, 1}, "outputOffset[1"},
                                   {{1, 0}, {0, 1, 3}, {0, 2, 5}, "outputOffset[1"}};
  for (const Case& c : cases) {
    const auto permute = Upload(ACL_INT32, {2}, AsValues(c.permute));
    const auto in = Upload(ACL_INT32, {3}, AsValues(c.in)), out = Upload(ACL_INT32, {3}, AsValues(c.out));
    DeviceTensor result(ACL_INT32, {3});
    result.Poison();
    const std::vector<uint8_t> before = result.DownloadBytes();
    const OpRun run = RunPermute(*permute, *in, *out, 3, result);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find(c.keyword), std::string::npos) << run.message;
    EXPECT_EQ(result.DownloadBytes(), before);
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape permute, Shape in, Shape out, int64_t size, Shape result) {
    return [=](A& a, W w, E e) {
      return aclnnExpandIntoJaggedPermuteGetWorkspaceSize(
          a.NewTensorIn(Range{0, 0}, dtype, permute), a.NewTensorIn(Range{0, 0}, dtype, in),
          a.NewTensorIn(Range{0, 0}, dtype, out), size, a.NewTensor(dtype, result), w, e);
    };
  };
  const aclDataType i = ACL_INT32;
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  return {
      {"int64", call(ACL_INT64, {2}, {3}, {3}, 4, {4}), aclnnExpandIntoJaggedPermute, "'permute'"},
      {"permute_2d", call(i, {2, 1}, {3}, {3}, 4, {4}), aclnnExpandIntoJaggedPermute, "'permute'", tiling},
      {"offsets_length", call(i, {2}, {2}, {3}, 4, {4}), aclnnExpandIntoJaggedPermute, "inputOffset", tiling},
      {"result_shape", call(i, {2}, {3}, {3}, 4, {5}), aclnnExpandIntoJaggedPermute, "'outputPermuteOut'", tiling},
  };
}

class ExpandIntoJaggedPermuteRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ExpandIntoJaggedPermuteRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ExpandIntoJaggedPermuteRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
