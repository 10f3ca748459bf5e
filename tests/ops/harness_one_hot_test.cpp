// OneHot as a harness row: INT32 / INT64 indices (some outside [0,
// numClasses), which give a run of offValue) in every view, each value dtype,
// the class dimension at each axis, rank 0 to 7 and empty inputs; then CANN's
// example and the rejections with their codes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_one_hot.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

int64_t ClassDim(const CaseInfo& c) {
  const int64_t axis = c.attrs.Int("axis");
  return axis < 0 ? static_cast<int64_t>(c.shapes[0].size()) : axis;
}

OpRow OneHotRow() {
  OpRow row;
  row.name = "OneHot";
  row.inputs = {Arg{.name = "self",
                    .range = RangeRule([](aclDataType, const CaseInfo& c) {
                      // One below and one above the classes as well.
                      return Range{-1, static_cast<double>(c.attrs.Int("numClasses")), 0, 0, true};
                    }),
                    .dtypes = {ACL_INT32, ACL_INT64}},
                Arg{.name = "onValue", .range = Range{1, 9}}, Arg{.name = "offValue", .range = Range{-9, -1}}};
  row.out = {[](Call& c) {
               return aclnnOneHotGetWorkspaceSize(c.Tensor(0), static_cast<int>(c.IntAttr("numClasses")), c.Tensor(1),
                                                  c.Tensor(2), c.IntAttr("axis"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnOneHot};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64});
  row.outDtype = SameAsInput(1);
  row.shapes = {{"typical", {{4, 5}, {1}, {1}}, true},
                {"large", {{67, 33}, {1}, {1}}, true},
                {"rank0", {{}, {1}, {1}}},
                {"rank7", {{2, 1, 2, 1, 3, 1, 2}, {2, 2}, {3}}},
                {"empty", {{0, 3}, {1}, {1}}}};
  row.attrs = {{"last", {{"numClasses", int64_t{6}}, {"axis", int64_t{-1}}}},
               {"axis0", {{"numClasses", int64_t{3}}, {"axis", int64_t{0}}}},
               {"axis1", {{"numClasses", int64_t{4}}, {"axis", int64_t{1}}}},
               {"no_classes", {{"numClasses", int64_t{0}}, {"axis", int64_t{-1}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    const int64_t axis = a.Int("axis");
    const auto rank = static_cast<int64_t>(in[0].size());
    if (axis > rank || (a.Int("numClasses") == 0 && NumElements(in[0]) == 0)) return std::nullopt;
    Shape out = in[0];
    out.insert(out.begin() + (axis < 0 ? rank : axis), a.Int("numClasses"));
    return out;
  };
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const int64_t classes = call.attrs.Int("numClasses");
    CaseInfo info;
    info.shapes = {self.shape};
    info.attrs = call.attrs;
    const int64_t dim = ClassDim(info);
    int64_t outer = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= self.shape[static_cast<size_t>(d)];
    const int64_t inner = NumElements(self.shape) / std::max<int64_t>(outer, 1);
    Expected e;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t c = 0; c < classes; ++c) {
        for (int64_t i = 0; i < inner; ++i) {
          const bool hit = self.values[static_cast<size_t>(o * inner + i)].real() == static_cast<double>(c);
          e.values.push_back(hit ? call.inputs[1].values[0] : call.inputs[2].values[0]);
        }
      }
    }
    return e;
  };
  return row;
}

std::vector<OpRow> OneHotRows() { return {OneHotRow()}; }
CANOPY_HARNESS_ROWS(OneHotRows);

// ---- CANN's example and the rejections ------------------------------------------------------------

struct OneHotArgs {
  aclDataType self = ACL_INT64, on = ACL_FLOAT, off = ACL_FLOAT, out = ACL_FLOAT;
  Shape selfShape = {2, 3}, onShape = {1};
  int numClasses = 4;
  int64_t axis = -1;
  Shape outShape = {2, 3, 4};
};

OpRun RunOneHot(const OneHotArgs& a) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnOneHotGetWorkspaceSize(args.NewTensorIn(Range{0, 3}, a.self, a.selfShape), a.numClasses,
                                           args.NewTensor(a.on, a.onShape), args.NewTensor(a.off, {1}), a.axis,
                                           args.NewTensor(a.out, a.outShape), ws, ex);
      },
      aclnnOneHot);
}

// CANN's example: INT32 self [4, 2], numClasses 4, INT32 values 1 and 0, axis -1.
TEST(OneHotExample, CannShapes) {
  auto self = Upload(ACL_INT32, {4, 2}, {0, 1, 2, 3, 3, 2, 1, 0});
  auto on = Upload(ACL_INT32, {1}, {1});
  auto off = Upload(ACL_INT32, {1}, {0});
  auto out = Poisoned(ACL_INT32, {4, 2, 4});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnOneHotGetWorkspaceSize(args.Tensor(*self), 4, args.Tensor(*on), args.Tensor(*off), -1,
                                           args.Tensor(*out), ws, ex);
      },
      aclnnOneHot);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int k : {0, 1, 2, 3, 3, 2, 1, 0}) {
    for (int c = 0; c < 4; ++c) want.push_back(c == k ? 1.0 : 0.0);
  }
  ExpectExact(out->ReadView(), want, "one hot");
}

TEST(OneHotEdges, EmptyAndNoClasses) {
  EXPECT_TRUE(RunOneHot({.numClasses = 0, .outShape = {2, 3, 0}}).ok());
  EXPECT_TRUE(RunOneHot({.selfShape = {0, 3}, .outShape = {0, 3, 4}}).ok());
}

TEST(OneHotRejects, WithCannCodes) {
  EXPECT_EQ(RunOneHot({.self = ACL_UINT8}).phase1, ACLNN_ERR_PARAM_INVALID);  // not on A2
  EXPECT_EQ(RunOneHot({.self = ACL_FLOAT}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.on = ACL_INT8, .off = ACL_INT8, .out = ACL_INT8}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.on = ACL_DOUBLE, .off = ACL_DOUBLE, .out = ACL_DOUBLE}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.on = ACL_FLOAT16}).phase1, ACLNN_ERR_PARAM_INVALID);  // onValue is not out's dtype
  EXPECT_EQ(RunOneHot({.off = ACL_INT32}).phase1, ACLNN_ERR_PARAM_INVALID);   // offValue is not out's dtype
  EXPECT_EQ(RunOneHot({.numClasses = -1}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.selfShape = {0, 3}, .numClasses = 0, .outShape = {0, 3, 0}}).phase1,
            ACLNN_ERR_PARAM_INVALID);  // an empty self needs classes
  EXPECT_EQ(RunOneHot({.axis = -2}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.axis = 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.outShape = {2, 3}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunOneHot({.outShape = {2, 4, 3}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunOneHot({.axis = 1, .outShape = {2, 4, 3}}).ok());
  EXPECT_EQ(RunOneHot({.onShape = {0}}).phase1, ACLNN_ERR_PARAM_INVALID);  // no first element
  const OpRun null_on = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnOneHotGetWorkspaceSize(args.NewTensor(ACL_INT64, {2}), 2, nullptr, args.NewTensor(ACL_FLOAT, {1}),
                                           -1, args.NewTensor(ACL_FLOAT, {2, 2}), ws, ex);
      },
      aclnnOneHot);
  EXPECT_EQ(null_on.phase1, ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(null_on.message.find("onValue"), std::string::npos) << null_on.message;
}

}  // namespace
}  // namespace canopy_test
