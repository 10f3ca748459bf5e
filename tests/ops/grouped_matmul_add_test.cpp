// aclnnGroupedMatmulAdd against a float64 reference: x [K, M] and weight
// [K, N] cut along K by groupList's cumulative ends, group i adding
// x[k_i]^T @ weight[k_i] to rows [i * M, (i + 1) * M) of yRef (f32, in place).
// Both input dtypes, strided views, empty groups, K 0, the flags CANN's kernel
// does not read, the doc's example shape, a bad list and every rejection.
#include <gtest/gtest.h>

#include <cmath>

#include "aclnnop/aclnn_grouped_matmul_add.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT16;
  int64_t k = 20, m = 6, n = 5;
  std::vector<int64_t> ends = {4, 4, 13, 20};
  bool transpose_x = true, transpose_weight = false;
  int64_t group_type = 2;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

struct Data {
  std::unique_ptr<DeviceTensor> x, weight, list, y;
  Values xv, wv, yv;
};

Data Make(const Case& c, Rng& rng) {
  Data d;
  const auto groups = static_cast<int64_t>(c.ends.size());
  d.x = std::make_unique<DeviceTensor>(c.dtype, Shape{c.k, c.m}, c.view);
  d.xv = d.x->FillRandom(rng, Range{-2, 2});
  d.weight = std::make_unique<DeviceTensor>(c.dtype, Shape{c.k, c.n}, c.view);
  d.wv = d.weight->FillRandom(rng, Range{-2, 2});
  d.list = std::make_unique<DeviceTensor>(ACL_INT64, Shape{groups});
  d.list->WriteView(Values(c.ends.begin(), c.ends.end()));
  d.y = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{groups * c.m, c.n}, c.view);
  d.yv = d.y->FillRandom(rng, Range{-4, 4});
  return d;
}

OpRun RunAdd(const Case& c, Data& d) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupedMatmulAddGetWorkspaceSize(a.Tensor(*d.x), a.Tensor(*d.weight), a.Tensor(*d.list),
                                                     a.Tensor(*d.y), c.transpose_x, c.transpose_weight, c.group_type, w,
                                                     e);
      },
      aclnnGroupedMatmulAdd);
}

void Check(const Case& c, const Data& d) {
  Values want;
  std::vector<double> scale;
  int64_t begin = 0;
  for (size_t g = 0; g < c.ends.size(); ++g) {
    const int64_t end = c.ends[g];
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        const double y = d.yv[static_cast<size_t>((static_cast<int64_t>(g) * c.m + i) * c.n + j)].real();
        double sum = y, magnitude = std::abs(y);
        for (int64_t kk = begin; kk < end; ++kk) {
          const double term =
              d.xv[static_cast<size_t>(kk * c.m + i)].real() * d.wv[static_cast<size_t>(kk * c.n + j)].real();
          sum += term;
          magnitude += std::abs(term);
        }
        want.push_back(sum);
        scale.push_back(magnitude);
      }
    }
    begin = end;
  }
  ExpectNear(d.y->ReadView(), RelativeTolerance(want, ACL_FLOAT, 2.0 * static_cast<double>(c.k + 1), scale), "yRef");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    Case c;
    c.dtype = dtype;
    c.name = Name(dtype);
    cases.push_back(c);
    c.view = View::kTransposed;
    c.name = std::string(Name(dtype)) + "_strided";
    cases.push_back(c);
  }
  Case flags;  // CANN's kernel reads x as [K, M] and weight as [K, N] whatever the flags say
  flags.transpose_x = false;
  flags.transpose_weight = true;
  flags.group_type = 0;
  flags.name = "flags_not_read";
  cases.push_back(flags);
  Case short_list;  // K past the last end adds nothing
  short_list.ends = {3, 9};
  short_list.name = "list_ends_before_k";
  cases.push_back(short_list);
  Case doc;  // the doc's example shape: K 512, M 256, N 256, ends 256 and 512 (smaller here)
  doc.k = 64;
  doc.m = 32;
  doc.n = 32;
  doc.ends = {32, 64};
  doc.name = "doc_example_shape";
  cases.push_back(doc);
  return cases;
}

class GroupedMatmulAddTest : public ::testing::TestWithParam<Case> {};
TEST_P(GroupedMatmulAddTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  const OpRun run = RunAdd(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Check(c, d);
}
INSTANTIATE_TEST_SUITE_P(All, GroupedMatmulAddTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

TEST(GroupedMatmulAdd, EmptyInputsLeaveYAlone) {
  Case no_k;
  no_k.k = 0;
  no_k.ends = {0, 0};
  Case no_groups;
  no_groups.ends = {};
  for (const Case& c : {no_k, no_groups}) {
    Rng rng = Rng::ForCurrentTest();
    Data d = Make(c, rng);
    ASSERT_TRUE(RunAdd(c, d).ok());
    ExpectExact(d.y->ReadView(), d.yv, "yRef");
  }
}

TEST(GroupedMatmulAdd, FallingListFailsTheRun) {
  Case c;
  c.ends = {8, 4, 13, 20};
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  const OpRun run = RunAdd(c, d);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_FALSE(run.ok()) << Describe(run);
}

TEST(GroupedMatmulAddRejects, EachCase) {
  const auto expect = [](const std::function<void(Data&)>& edit, aclnnStatus status, std::vector<std::string> words) {
    const Case c;
    Rng rng(3);
    Data d = Make(c, rng);
    edit(d);
    ExpectRejectedWith(RunAdd(c, d), status, words);
  };
  expect([](Data& d) { d.x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{20, 6}); }, kInvalid, {"'x'"});
  expect([](Data& d) { d.weight = std::make_unique<DeviceTensor>(ACL_BF16, Shape{20, 5}); }, kInvalid, {"'weight'"});
  expect([](Data& d) { d.list = std::make_unique<DeviceTensor>(ACL_INT32, Shape{4}); }, kInvalid, {"'groupList'"});
  expect([](Data& d) { d.y = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{24, 5}); }, kInvalid, {"'yRef'"});
  expect([](Data& d) { d.x = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{20, 6, 1}); }, kTiling, {"2-D"});
  expect([](Data& d) { d.list = std::make_unique<DeviceTensor>(ACL_INT64, Shape{4, 1}); }, kTiling, {"1-D"});
  expect([](Data& d) { d.weight = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{19, 5}); }, kTiling, {"same K"});
  expect([](Data& d) { d.y = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{6, 5}); }, kTiling, {"'yRef'"});
}

}  // namespace
}  // namespace canopy_test
