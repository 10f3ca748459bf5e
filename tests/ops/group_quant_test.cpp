// aclnnGroupQuant against a float64 reference: y = clamp(round-half-even(x[r]
// * scale[g(r)] + offset)) with g(r) the group whose cumulative end first
// passes row r; INT8, INT4 and INT32 (eight INT4) outputs, every float dtype,
// INT32 / INT64 ends with empty groups, offset [1], [] or none, strided
// views, empty x, the doc's example, ends that fail the run and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_group_quant.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType x = ACL_FLOAT, scale = ACL_FLOAT, y = ACL_INT8, group = ACL_INT32;
  int64_t rows = 7, columns = 16;
  std::vector<int64_t> ends = {2, 2, 7};  // group 1 empty
  Shape offset_shape = {1};               // or [] (rank 0)
  bool has_offset = true;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const auto groups = static_cast<int64_t>(c.ends.size());
  DeviceTensor x(c.x, {c.rows, c.columns}, c.view);
  const Values xv = x.FillRandom(rng, Range{-30, 30});
  DeviceTensor scale(c.scale, {groups, c.columns}), group(c.group, {groups});
  const Values sv = scale.FillRandom(rng, Range{0.25, 4});
  group.WriteView(Values(c.ends.begin(), c.ends.end()));
  const bool has_offset = c.has_offset;
  DeviceTensor offset(c.scale, c.offset_shape);
  const Values ov = offset.FillRandom(rng, Range{-3, 3});
  const Shape y_shape = {c.rows, c.y == ACL_INT32 ? c.columns / 8 : c.columns};
  DeviceTensor y(c.y, y_shape, c.y == ACL_INT8 ? c.view : View::kContiguous);
  y.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(group),
                                               has_offset ? a.Tensor(offset) : nullptr, c.y, a.Tensor(y), w, e);
      },
      aclnnGroupQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const bool int4 = c.y != ACL_INT8;
  const std::vector<int> got = QuantisedValues(y, c.y, c.rows * c.columns);
  int mismatches = 0;
  for (int64_t r = 0; r < c.rows; ++r) {
    const auto g = static_cast<int64_t>(std::upper_bound(c.ends.begin(), c.ends.end(), r) -
                                        c.ends.begin());  // the first end past r
    for (int64_t j = 0; j < c.columns; ++j) {
      const auto e = static_cast<size_t>(r * c.columns + j);
      const double exact =
          xv[e].real() * sv[static_cast<size_t>(g * c.columns + j)].real() + (has_offset ? ov[0].real() : 0.0);
      const double want = std::clamp(std::nearbyint(exact), int4 ? -8.0 : -128.0, int4 ? 7.0 : 127.0);
      // Within f32 rounding of a half-way point either neighbour is right.
      const bool near_half = std::abs(std::abs(exact - std::trunc(exact)) - 0.5) < 1e-4;
      if (got[e] != want && !(near_half && std::abs(got[e] - want) <= 1)) {
        if (++mismatches <= 5)
          ADD_FAILURE() << "y[" << r << "," << j << "] = " << got[e] << ", want " << want << " (" << exact << ")";
      }
    }
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType y : {ACL_INT8, ACL_INT4, ACL_INT32}) {
      Case c;
      c.x = x;
      c.scale = x == ACL_FLOAT ? ACL_BF16 : x;
      c.y = y;
      c.group = y == ACL_INT4 ? ACL_INT64 : ACL_INT32;
      c.name = std::string(Name(x)) + "_to_" + Name(y);
      cases.push_back(c);
    }
  }
  Case no_offset;
  no_offset.has_offset = false;
  no_offset.ends = {0, 3, 3, 5, 7};  // empty first and middle groups
  no_offset.name = "no_offset_empty_groups";
  cases.push_back(no_offset);
  Case scalar_offset;
  scalar_offset.offset_shape = {};
  scalar_offset.name = "scalar_offset_one_group";
  scalar_offset.ends = {7};
  scalar_offset.x = scalar_offset.scale = ACL_FLOAT16;
  cases.push_back(scalar_offset);
  Case stepped;
  stepped.view = View::kStepped;
  stepped.x = stepped.scale = ACL_BF16;
  stepped.name = "stepped_views";
  cases.push_back(stepped);
  Case transposed;
  transposed.view = View::kTransposed;
  transposed.name = "transposed_views";
  cases.push_back(transposed);
  return cases;
}

class GroupQuantTest : public ::testing::TestWithParam<Case> {};
TEST_P(GroupQuantTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, GroupQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

OpRun RunEnds(const Shape& x_shape, const Values& ends) {
  const auto groups = static_cast<int64_t>(ends.size());
  DeviceTensor x(ACL_FLOAT, x_shape), scale(ACL_FLOAT, {groups, x_shape[1]}), group(ACL_INT64, {groups}),
      y(ACL_INT8, x_shape);
  group.WriteView(ends);
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(group), nullptr, ACL_INT8,
                                               a.Tensor(y), w, e);
      },
      aclnnGroupQuant);
}

// The doc's example: x [4, 2] = 0..7 f32, scale [3, 2] = rows [1, 2], ends {1, 2, 4}, offset 2, INT8.
TEST(GroupQuant, DocExampleEmptyAndBadEnds) {
  DeviceTensor x(ACL_FLOAT, {4, 2}), scale(ACL_FLOAT, {3, 2}), group(ACL_INT32, {3}), offset(ACL_FLOAT, {1}),
      y(ACL_INT8, {4, 2});
  x.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  scale.WriteView({1, 2, 1, 2, 1, 2});
  group.WriteView({1, 2, 4});
  offset.WriteView({2});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(group), a.Tensor(offset), 2,
                                               a.Tensor(y), w, e);
      },
      aclnnGroupQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Expected{{2, 4, 4, 8, 6, 12, 8, 16}, std::vector<double>(8, 0.0)}, "y");
  const OpRun empty = RunEnds({0, 4}, {0, 0});
  EXPECT_TRUE(empty.ok()) << Describe(empty);
  EXPECT_EQ(empty.workspaceSize, 0U);
  // Ends that fall, pass x's rows, go negative or stop short: CANN's kernel traps, so the run fails.
  for (const Values& bad : {Values{3, 2, 5}, Values{2, 6, 6}, Values{-1, 2, 5}, Values{1, 2, 4}}) {
    const OpRun failed = RunEnds({5, 4}, bad);
    EXPECT_EQ(failed.phase1, ACLNN_SUCCESS) << Describe(failed);
    EXPECT_NE(failed.sync, ACL_SUCCESS) << Describe(failed);
  }
}

struct Call {
  aclDataType x = ACL_FLOAT16, scale = ACL_FLOAT16, group = ACL_INT32, offset = ACL_FLOAT16, y = ACL_INT8;
  Shape x_shape = {4, 16}, scale_shape = {2, 16}, group_shape = {2}, offset_shape = {1}, y_shape = {4, 16};
  int32_t dst = 2;
  bool has_offset = true;
};

// The phase 1 of Call{} after `edit`.
template <typename Edit>
aclnnStatus Phase1(Edit edit, const std::vector<std::string>& message = {}) {
  Call c;
  edit(c);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGroupQuantGetWorkspaceSize(
            a.NewTensor(c.x, c.x_shape), a.NewTensor(c.scale, c.scale_shape), a.NewTensor(c.group, c.group_shape),
            c.has_offset ? a.NewTensor(c.offset, c.offset_shape) : nullptr, c.dst, a.NewTensor(c.y, c.y_shape), w, e);
      },
      aclnnGroupQuant);
  if (run.phase1 != ACLNN_SUCCESS) ExpectRejectedWith(run, run.phase1, message);
  return run.phase1;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(GroupQuantRejects, EachCase) {
  EXPECT_EQ(Phase1([](Call&) {}), ACLNN_SUCCESS);
  EXPECT_EQ(Phase1([](Call& c) { c.has_offset = false; }), ACLNN_SUCCESS);
  EXPECT_EQ(Phase1([](Call& c) { c.offset_shape = {}; }), ACLNN_SUCCESS);
  EXPECT_EQ(Phase1([](Call& c) { c.x = ACL_INT8; }, {"'x'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.scale = c.offset = ACL_DOUBLE; }, {"'scale'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.group = ACL_FLOAT; }, {"'groupIndex'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.y = ACL_UINT8; }, {"'y'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.offset = ACL_FLOAT; }, {"'offsetOptional'", "match"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.dst = 29; }, {"'dstType'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.offset_shape = {2}; }, {"'offsetOptional'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.x_shape = c.y_shape = {2, 2, 16}; }, {"'x'", "rank"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.scale_shape = {32}; }, {"'scale'", "rank"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.group_shape = {2, 1}; }, {"'groupIndex'", "rank"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.scale_shape = {2, 8}; }, {"'scale'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.group_shape = {3}; }, {"'groupIndex'"}), kInvalid);
  EXPECT_EQ(Phase1([](Call& c) { c.y_shape = {4, 8}; }, {"'y'"}), kInvalid);
  EXPECT_EQ(Phase1(
                [](Call& c) {
                  c.y = ACL_INT32;
                  c.dst = 3;
                },
                {"'y'"}),
            kInvalid);
  EXPECT_EQ(Phase1([](Call& c) {
              c.y = ACL_INT32;
              c.dst = 3;
              c.y_shape = {4, 2};
            }),
            ACLNN_SUCCESS);
  EXPECT_EQ(Phase1(
                [](Call& c) {
                  c.y = ACL_INT4;
                  c.dst = 29;
                  c.x_shape = c.y_shape = {4, 15};
                  c.scale_shape = {2, 15};
                },
                {"even"}),
            kInvalid);
  // A scale of no rows: CANN's tiling (561002).
  EXPECT_EQ(Phase1(
                [](Call& c) {
                  c.scale_shape = {0, 16};
                  c.group_shape = {0};
                },
                {"'scale'"}),
            ACLNN_ERR_INNER_TILING_ERROR);
}

}  // namespace
}  // namespace canopy_test
