// SWhere (out = condition ? self : other) as a harness row: BOOL and UINT8
// conditions, every A2 dtype of self and other, promotions and casts into
// out, broadcasts of all three, the views, rank 0 and empty tensors; then
// the rejections with their codes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_s_where.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

OpRow SWhereRow() {
  OpRow row;
  row.name = "SWhere";
  row.inputs = {Arg{.name = "condition",
                    .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                      return dtype == ACL_UINT8 ? Range{0, 3, 0, 0, true} : Range{0, 1, 0, 0, true};
                    }),
                    .dtypes = {ACL_BOOL, ACL_UINT8}},
                Arg{.name = "self"}, Arg{.name = "other"}};
  row.out = {[](Call& c) {
               return aclnnSWhereGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Out(), c.workspaceSize,
                                                  c.executor);
             },
             aclnnSWhere};
  row.dtypes =
      Concat(EachDtype({ACL_FLOAT, ACL_INT32, ACL_UINT64, ACL_INT64, ACL_UINT32, ACL_FLOAT16, ACL_UINT16, ACL_INT16,
                        ACL_INT8, ACL_UINT8, ACL_DOUBLE, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16}),
             Singly({{{ACL_BOOL, ACL_FLOAT16, ACL_FLOAT}},
                     {{ACL_BOOL, ACL_INT8, ACL_UINT8}},
                     {{ACL_BOOL, ACL_BOOL, ACL_INT32}},
                     {{ACL_BOOL, ACL_FLOAT, ACL_COMPLEX64}},
                     {{ACL_BOOL, ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16},
                     {{ACL_BOOL, ACL_INT32, ACL_INT32}, ACL_INT64}}));
  row.outDtype = [](const std::vector<aclDataType>& in) { return Promote(in[1], in[2]); };
  row.shapes = {{"typical", {{4, 5}, {4, 5}, {4, 5}}, true}, {"large", {{67, 131}, {67, 131}, {67, 131}}, true},
                {"broadcast", {{4, 1}, {1, 5}, {5}}},        {"condition_rank3", {{2, 4, 5}, {4, 5}, {1}}},
                {"rank0", {Shape{}, {3, 4}, Shape{}}},       {"empty", {{0, 5}, {0, 5}, {5}}}};
  row.reference = Pointwise([](const std::vector<Value>& x, const AttrSet&) { return x[0] != 0.0 ? x[1] : x[2]; });
  return row;
}

std::vector<OpRow> SWhereRows() { return {SWhereRow()}; }
CANOPY_HARNESS_ROWS(SWhereRows);

OpRun RunSWhere(aclDataType c, const Shape& cs, aclDataType s, const Shape& ss, aclDataType o, const Shape& os,
                aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSWhereGetWorkspaceSize(args.NewTensor(c, cs), args.NewTensor(s, ss), args.NewTensor(o, os),
                                           args.NewTensor(out, outShape), ws, ex);
      },
      aclnnSWhere);
}

TEST(SWhereRejects, WithCannCodes) {
  const auto f = ACL_FLOAT, b = ACL_BOOL;
  EXPECT_TRUE(RunSWhere(b, {2, 3}, f, {2, 3}, ACL_INT32, {3}, ACL_INT8, {2, 3}).ok());  // cast into out unchecked
  EXPECT_EQ(RunSWhere(ACL_INT8, {2, 3}, f, {2, 3}, f, {2, 3}, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(ACL_FLOAT, {2, 3}, f, {2, 3}, f, {2, 3}, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {2, 3}, ACL_INT4, {2, 3}, f, {2, 3}, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {2, 3}, f, {2, 3}, ACL_HIFLOAT8, {2, 3}, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {2, 3}, f, {2, 3}, f, {2, 3}, ACL_INT4, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {2, 3}, f, {2, 3}, f, {4}, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {4}, f, {2, 3}, f, {2, 3}, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {2, 3}, f, {2, 3}, f, {2, 3}, f, {3, 2}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSWhere(b, {2, 1}, f, {1, 3}, f, {3}, f, {2, 1}).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
