// The harness tested on itself: the pairwise covering covers what it claims,
// case generation is deterministic and honours the constraints, and a case
// fails when the op (here: a row deliberately made wrong) is wrong: a wrong
// result, a write outside the out view, a repeated call that misses the plan
// cache.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_zero.h"
#include "harness/covering.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test::harness {
namespace {

// ---- The covering -------------------------------------------------------------------------------

// Factors of 4, 3, 5 and 2 values; value 0 of factor 0 never meets value 1 of factor 2.
CoveringProblem SmallProblem() {
  CoveringProblem problem;
  problem.sizes = {4, 3, 5, 2};
  problem.valid = [](const std::vector<int>& a) { return !(a[0] == 0 && a[2] == 1); };
  return problem;
}

TEST(Covering, CoversEveryValidPairAndNoInvalidRow) {
  const CoveringProblem problem = SmallProblem();
  const std::vector<std::vector<int>> rows = CoverPairs(problem);
  std::set<std::vector<int>> pairs;  // {fa, a, fb, b}
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), problem.sizes.size());
    EXPECT_TRUE(problem.valid(row)) << "an invalid row was generated";
    for (int fa = 0; fa < 4; ++fa) {
      for (int fb = fa + 1; fb < 4; ++fb) pairs.insert({fa, row[fa], fb, row[fb]});
    }
  }
  for (int fa = 0; fa < 4; ++fa) {
    for (int fb = fa + 1; fb < 4; ++fb) {
      for (int a = 0; a < problem.sizes[fa]; ++a) {
        for (int b = 0; b < problem.sizes[fb]; ++b) {
          const bool possible = !(fa == 0 && fb == 2 && a == 0 && b == 1);
          EXPECT_EQ(pairs.count({fa, a, fb, b}) == 1, possible) << fa << "=" << a << ", " << fb << "=" << b;
        }
      }
    }
  }
  // Pairwise needs at least 4 x 5 rows here; the full product has 120.
  EXPECT_GE(rows.size(), 19u);
  EXPECT_LE(rows.size(), 30u);
  EXPECT_EQ(CoverPairs(problem), rows) << "the covering must be deterministic";
}

TEST(Covering, UnwantedPairsAreNotForced) {
  CoveringProblem problem = SmallProblem();
  problem.pairWanted = [](int fa, int, int, int) { return fa != 0; };  // factor 0 only needs each value once
  const auto rows = CoverPairs(problem);
  std::set<int> seen;
  for (const auto& row : rows) seen.insert(row[0]);
  EXPECT_EQ(seen.size(), 4u) << "every value still appears";
  EXPECT_LE(rows.size(), 20u);
}

// ---- Case generation ----------------------------------------------------------------------------

// The first case whose name starts with `prefix`.
CaseInfo FirstCaseNamed(const std::vector<CaseInfo>& cases, const std::string& prefix) {
  for (const CaseInfo& c : cases) {
    if (c.name.rfind(prefix, 0) == 0) return c;
  }
  ADD_FAILURE() << "no case named " << prefix << "...";
  return {};
}

OpRow AddRow() {
  OpRow row;
  row.name = "Add";
  row.inputs = {Arg{.name = "self"}, Arg{.name = "other"}};
  row.out = {[](Call& c) {
               return aclnnAddGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.ScalarAttr("alpha"), c.Out(),
                                               c.workspaceSize, c.executor);
             },
             aclnnAdd};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceAddGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.ScalarAttr("alpha"),
                                                          c.workspaceSize, c.executor);
                 },
                 aclnnInplaceAdd};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_INT32});
  row.attrs = {{"", {{"alpha", ScalarAttr{ACL_FLOAT, 1.0}}}, [](const DtypeCase& dc) { return IsFloating(dc.out); }},
               {"alpha_int", {{"alpha", ScalarAttr{ACL_INT32, 2.0}}}}};
  row.reference = Pointwise(
      [](const std::vector<Value>& x, const AttrSet& attrs) { return x[0] + attrs.Scalar("alpha").value * x[1]; });
  return row;
}

TEST(CaseGeneration, CoversDtypesViewsShapesAndFormsWithinTheConstraints) {
  std::vector<std::string> problems;
  const std::vector<CaseInfo> cases = GenerateCases(AddRow(), &problems);
  ASSERT_TRUE(problems.empty()) << problems.front();
  std::set<std::string> names, seen;
  for (const CaseInfo& c : cases) {
    EXPECT_TRUE(names.insert(c.name).second) << "repeated name " << c.name;
    if (c.inplace) {
      EXPECT_NE(c.views[0], View::kBroadcast) << c.name << ": a broadcast selfRef cannot be written";
      EXPECT_EQ(c.outShape, c.shapes[0]) << c.name;
      EXPECT_EQ(c.out, c.dtypes[0]) << c.name;
    }
    if (IsIntegral(c.out)) {
      EXPECT_EQ(c.attrs.name, "alpha_int") << c.name << ": the f32 alpha is for floats only";
    }
    // Every dtype meets every view of each input and of the out, and the typical and large shapes.
    const std::string dtype = Name(c.dtypes[0]);
    seen.insert(dtype + " self " + ViewName(c.views[0]));
    seen.insert(dtype + " other " + ViewName(c.views[1]));
    if (!c.inplace) seen.insert(dtype + " out " + ViewName(c.outView));
    seen.insert(dtype + " shape " + ShapeString(c.shapes[0]) + ShapeString(c.shapes[1]));
    seen.insert(std::string("form ") + (c.inplace ? "inplace" : "out"));
  }
  for (const char* dtype : {"f32", "f16", "s32"}) {
    for (View v : AllInputViews()) {
      EXPECT_TRUE(seen.count(std::string(dtype) + " self " + ViewName(v))) << dtype << " self " << ViewName(v);
      EXPECT_TRUE(seen.count(std::string(dtype) + " other " + ViewName(v))) << dtype << " other " << ViewName(v);
    }
    for (View v : AllOutputViews()) EXPECT_TRUE(seen.count(std::string(dtype) + " out " + ViewName(v)));
    EXPECT_TRUE(seen.count(std::string(dtype) + " shape [4,5][4,5]")) << dtype << " typical";
    EXPECT_TRUE(seen.count(std::string(dtype) + " shape [7,257][257]")) << dtype << " large";
  }
  EXPECT_TRUE(seen.count("form inplace"));
  // Rank 0, rank 8, empty and threaded shapes appear (with some dtype).
  for (const char* shape : {"[][]", "[2,1,2,1,1,2,1,3][1,1,2,1,1]", "[0,3][3]", "[130,257][257]"}) {
    bool found = false;
    for (const CaseInfo& c : cases) found = found || ShapeString(c.shapes[0]) + ShapeString(c.shapes[1]) == shape;
    EXPECT_TRUE(found) << shape;
  }
  // Far below the product (3 dtypes x 9 shapes x 6 x 6 views x 5 out views x 2 forms x 2 alphas).
  EXPECT_LT(cases.size(), 80u);
  std::vector<std::string> again;
  const std::vector<CaseInfo> repeat = GenerateCases(AddRow(), &again);
  ASSERT_EQ(repeat.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(repeat[i].name, cases[i].name) << "deterministic order";
}

TEST(CaseGeneration, ReportsABrokenRow) {
  OpRow row = AddRow();
  row.dtypes = {DtypeCase{{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}}};  // three dtypes for two inputs
  std::vector<std::string> problems;
  EXPECT_TRUE(GenerateCases(row, &problems).empty());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("3 dtypes for 2 inputs"), std::string::npos) << problems[0];
}

TEST(CaseGeneration, ReductionRowsTakeTheirOutShapeFromTheAttributes) {
  OpRow row;
  row.name = "ReduceSumLike";
  row.inputs = {Arg{.name = "self"}};
  row.out = {[](Call&) { return ACLNN_SUCCESS; }, aclnnAdd};  // generation only: never run
  row.dtypes = EachDtype({ACL_FLOAT});
  row.shapes = ReductionShapes();
  row.outShape = ReducedShape();
  row.attrs = {{"dim1", {{"dims", std::vector<int64_t>{1}}, {"keepDim", false}}},
               {"all_keepdim", {{"dims", std::vector<int64_t>{}}, {"keepDim", true}}}};
  row.reference = Reduction([](const Values& group, const AttrSet&) {
    Value sum = 0.0;
    for (Value v : group) sum += v;
    return sum;
  });
  std::vector<std::string> problems;
  const std::vector<CaseInfo> cases = GenerateCases(row, &problems);
  ASSERT_TRUE(problems.empty());
  std::set<std::string> seen;
  for (const CaseInfo& c : cases) {
    seen.insert(c.attrs.name + " " + ShapeString(c.shapes[0]) + "->" + ShapeString(c.outShape));
    EXPECT_FALSE(c.attrs.name == "dim1" && c.shapes[0].size() < 2) << "dim 1 of rank " << c.shapes[0].size();
  }
  EXPECT_TRUE(seen.count("dim1 [4,5,6]->[4,6]"));
  EXPECT_TRUE(seen.count("all_keepdim [4,5,6]->[1,1,1]"));
  EXPECT_TRUE(seen.count("all_keepdim []->[]"));
  EXPECT_TRUE(seen.count("dim1 [3,0,2]->[3,2]"));
  // The reference: sums over dim 1 of a [2,3] tensor, row-major.
  const std::vector<Operand> inputs = {{ACL_FLOAT, {2, 3}, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}}};
  const Shape outShape = {2};
  const Expected sums = row.reference(RefCall{inputs, row.attrs[0], ACL_FLOAT, outShape, false});
  EXPECT_EQ(sums.values, (Values{6.0, 15.0}));
}

TEST(CaseGeneration, UnaryRowsPromoteIntegersAndKeepThemOutOfPlace) {
  OpRow row;
  row.name = "ExpLike";
  row.inputs = {Arg{.name = "self", .range = Range{-4, 4}}};
  row.out = {[](Call&) { return ACLNN_SUCCESS; }, aclnnAdd};  // generation only: never run
  row.inplace = {[](Call&) { return ACLNN_SUCCESS; }, aclnnAdd};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BOOL});
  row.outDtype = IntegersToFloat();
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = Unary([](Value x) { return std::exp(x); });
  std::vector<std::string> problems;
  const std::vector<CaseInfo> cases = GenerateCases(row, &problems);
  ASSERT_TRUE(problems.empty());
  std::set<std::string> seen;
  for (const CaseInfo& c : cases) {
    EXPECT_EQ(c.out, IsFloating(c.dtypes[0]) ? c.dtypes[0] : ACL_FLOAT) << c.name;
    EXPECT_FALSE(c.inplace && !IsFloating(c.dtypes[0])) << c.name << ": an integer selfRef cannot hold exp";
    EXPECT_EQ(c.outShape, c.shapes[0]);
    seen.insert(std::string(Name(c.dtypes[0])) + (c.inplace ? " inplace" : " out"));
  }
  EXPECT_TRUE(seen.count("f16 inplace"));
  EXPECT_TRUE(seen.count("s32 out"));
  EXPECT_TRUE(seen.count("bool out"));
  const std::vector<Operand> inputs = {{ACL_INT32, {2}, {0.0, 1.0}}};
  const Shape outShape = {2};
  EXPECT_EQ(row.reference(RefCall{inputs, AttrSet{}, ACL_FLOAT, outShape, false}).values, (Values{1.0, std::exp(1.0)}));
}

TEST(CaseGeneration, IndexRowsSweepIndexDtypesAndGetInvalidValueCases) {
  auto dimSize = [](const CaseInfo& c) { return c.shapes[0].at(static_cast<size_t>(c.attrs.Int("dim"))); };
  OpRow row;
  row.name = "IndexSelectLike";
  row.inputs = {Arg{.name = "self"},
                Arg{.name = "index",
                    .range = RangeRule([dimSize](aclDataType, const CaseInfo& c) {
                      return Range{0, static_cast<double>(dimSize(c) - 1), 0, 0, true};
                    }),
                    .dtypes = {ACL_INT32, ACL_INT64},
                    .views = {View::kContiguous, View::kStepped},
                    .invalidValues = [dimSize](const CaseInfo& c) {
                      return std::vector<Value>{static_cast<double>(dimSize(c)), -static_cast<double>(dimSize(c)) - 1};
                    }}};
  row.out = {[](Call&) { return ACLNN_SUCCESS; }, aclnnAdd};  // generation only: never run
  row.dtypes = EachDtype({ACL_FLOAT, ACL_INT32});
  row.shapes = {{"typical", {{4, 5}, {3}}, true}, {"rank3", {{2, 3, 4}, {5}}}, {"empty_index", {{4, 5}, {0}}}};
  row.attrs = {{"dim0", {{"dim", int64_t{0}}}}, {"dim2", {{"dim", int64_t{2}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    const auto dim = static_cast<size_t>(a.Int("dim"));
    if (dim >= in[0].size()) return std::nullopt;
    Shape out = in[0];
    out[dim] = in[1][0];
    return out;
  };
  row.reference = [](const RefCall&) { return Expected{}; };
  std::vector<std::string> problems;
  const std::vector<CaseInfo> cases = GenerateCases(row, &problems);
  ASSERT_TRUE(problems.empty());
  std::set<std::string> seen;
  int invalid = 0;
  for (const CaseInfo& c : cases) {
    EXPECT_FALSE(c.attrs.name == "dim2" && c.shapes[0].size() < 3) << c.name;
    EXPECT_EQ(c.views[1] == View::kBroadcast, false) << c.name << ": not one of index's views";
    seen.insert(std::string(Name(c.dtypes[0])) + " index " + Name(c.dtypes[1]));
    if (c.invalidInput == 1) {
      ++invalid;
      EXPECT_TRUE(c.invalidValue == Value(static_cast<double>(dimSize(c))) ||
                  c.invalidValue == Value(-static_cast<double>(dimSize(c)) - 1))
          << c.name;
      EXPECT_GT(NumElements(c.shapes[1]), 0) << c.name << ": an invalid value needs an element to sit in";
    }
  }
  for (const char* s : {"f32 index s32", "f32 index s64", "s32 index s32", "s32 index s64"}) {
    EXPECT_TRUE(seen.count(s)) << s;
  }
  EXPECT_EQ(invalid, 4) << "two invalid values for each index dtype";
  const CaseInfo typical = FirstCaseNamed(cases, "f32_s32_to_f32_typical");
  EXPECT_EQ(row.inputs[1].range.For(ACL_INT32, typical).hi, typical.attrs.name == "dim0" ? 3.0 : 4.0);
}

// ---- Honesty: a wrong op fails its cases -------------------------------------------------------

// The failures RunCase reports for `info` of `row`, intercepted.
std::vector<std::string> FailuresOf(const OpRow& row, const CaseInfo& info) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    RunCase(row, info);
  }
  std::vector<std::string> messages;
  for (int i = 0; i < results.size(); ++i) messages.emplace_back(results.GetTestPartResult(i).message());
  return messages;
}

bool AnyContains(const std::vector<std::string>& messages, const std::string& text) {
  for (const std::string& m : messages) {
    if (m.find(text) != std::string::npos) return true;
  }
  return false;
}

// The first generated case of `row` that `pick` accepts.
CaseInfo FirstCase(const OpRow& row, const std::function<bool(const CaseInfo&)>& pick) {
  std::vector<std::string> problems;
  for (const CaseInfo& c : GenerateCases(row, &problems)) {
    if (pick(c)) return c;
  }
  ADD_FAILURE() << "no such case";
  return {};
}

TEST(Honesty, TheRightRowPasses) {
  const OpRow row = AddRow();
  const CaseInfo info =
      FirstCase(row, [](const CaseInfo& c) { return c.views[0] == View::kStepped && c.out == ACL_FLOAT; });
  const std::vector<std::string> failures = FailuresOf(row, info);
  EXPECT_TRUE(failures.empty()) << info.name << ": " << failures.front();
}

TEST(Honesty, AWrongResultFails) {
  OpRow row = AddRow();
  row.reference = Pointwise([](const std::vector<Value>& x, const AttrSet& attrs) {
    return x[0] - attrs.Scalar("alpha").value * x[1];  // Sub's reference for Add
  });
  const CaseInfo info = FirstCase(row, [](const CaseInfo& c) { return c.out == ACL_INT32; });
  const std::vector<std::string> failures = FailuresOf(row, info);
  EXPECT_TRUE(AnyContains(failures, "first call: out")) << failures.size();
  EXPECT_TRUE(AnyContains(failures, "third call (new buffers): out"));
}

// InplaceZero handed a descriptor of the whole storage instead of the view.
TEST(Honesty, AWriteOutsideTheViewFails) {
  OpRow row;
  row.name = "InplaceZero";
  row.inputs = {Arg{.name = "selfRef"}};
  row.inplace = {[](Call& c) {
                   const DeviceTensor& buffer = *c.Buffer(0);
                   const Shape flat = {buffer.layout().StorageElements()};
                   const Shape strides = {1};
                   aclTensor* t = aclCreateTensor(flat.data(), 1, buffer.dtype(), strides.data(), 0, ACL_FORMAT_ND,
                                                  flat.data(), 1, buffer.data());
                   const aclnnStatus s = aclnnInplaceZeroGetWorkspaceSize(t, c.workspaceSize, c.executor);
                   aclDestroyTensor(t);
                   return s;
                 },
                 aclnnInplaceZero, /*overwrites=*/true};
  row.dtypes = EachDtype({ACL_FLOAT});
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    return Expected{Values(static_cast<size_t>(NumElements(call.outShape)), 0.0), {}};
  };
  const CaseInfo info = FirstCase(row, [](const CaseInfo& c) { return c.views[0] == View::kStepped; });
  const std::vector<std::string> failures = FailuresOf(row, info);
  EXPECT_TRUE(AnyContains(failures, "outside the view were written")) << failures.size();
}

// A repeated call whose alpha changes dtype (same value, another key) misses the cache.
TEST(Honesty, ARepeatedCallThatMissesTheCacheFails) {
  if (const char* cache = std::getenv("CANOPY_PLAN_CACHE"); cache != nullptr && std::string(cache) == "0") {
    GTEST_SKIP() << "CANOPY_PLAN_CACHE=0: no call can hit, and the harness does not expect hits";
  }
  OpRow row = AddRow();
  auto calls = std::make_shared<int>(0);
  row.out.phase1 = [calls](Call& c) {
    const aclDataType dtypes[] = {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16};
    aclScalar* alpha = c.args().Scalar(dtypes[(*calls)++ % 3], 1.0);
    return aclnnAddGetWorkspaceSize(c.Tensor(0), c.Tensor(1), alpha, c.Out(), c.workspaceSize, c.executor);
  };
  const CaseInfo info = FirstCase(row, [](const CaseInfo& c) { return !c.inplace && c.out == ACL_FLOAT; });
  const std::vector<std::string> failures = FailuresOf(row, info);
  EXPECT_TRUE(AnyContains(failures, "second call (same buffers): phase 1 with the same")) << failures.size();
  EXPECT_TRUE(AnyContains(failures, "third call (new buffers): phase 1 with the same"));
  EXPECT_FALSE(AnyContains(failures, ": out: ")) << "the values are still right";
}

}  // namespace
}  // namespace canopy_test::harness
