// LinalgCross as a harness row against a float64 reference: every A2 dtype
// (integers wrap), the vector dim first, last and negative, broadcasts that
// shift dim, the views, empty tensors; then CANN's example and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_linalg_cross.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// The vector dim in out's dims, as CANN shifts it where self and other differ.
int64_t Axis(const Shape& self, const Shape& other, const Shape& out, int64_t dim) {
  const auto rank = static_cast<int64_t>(out.size()), selfRank = static_cast<int64_t>(self.size());
  if (self != other && dim >= 0) return dim + rank - selfRank;
  return dim < 0 ? dim + rank : dim;
}

OpRow CrossRow() {
  OpRow row;
  row.name = "LinalgCross";
  row.inputs = {Arg{.name = "self", .range = Range{-4, 4}}, Arg{.name = "other", .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               return aclnnLinalgCrossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("dim"), c.Out(),
                                                       c.workspaceSize, c.executor);
             },
             aclnnLinalgCross};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_COMPLEX64,
                          ACL_COMPLEX128, ACL_UINT8, ACL_BF16});
  row.shapes = {{"rows", {{4, 3}, {4, 3}}, true},
                {"large", {{700, 3}, {700, 3}}, true},
                {"columns", {{3, 5}, {3, 5}}},
                {"broadcast", {{2, 1, 3}, {4, 3}}},
                {"broadcast_self_lower_rank", {{5, 3}, {2, 5, 3}}},
                {"empty", {{0, 3}, {0, 3}}}};
  row.attrs = {{"dim_last", {{"dim", int64_t{-1}}}}, {"dim0", {{"dim", int64_t{0}}}}, {"dim1", {{"dim", int64_t{1}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    std::optional<Shape> out = BroadcastShapes(in[0], in[1]);
    const int64_t dim = a.Int("dim");
    const auto selfRank = static_cast<int64_t>(in[0].size());
    if (!out || dim >= selfRank || dim < -selfRank) return std::nullopt;
    if (NumElements(*out) != 0 && (*out)[static_cast<size_t>(Axis(in[0], in[1], *out, dim))] != 3) return std::nullopt;
    return out;
  };
  row.reference = [](const RefCall& call) {
    const Shape& out = call.outShape;
    const int64_t axis = Axis(call.inputs[0].shape, call.inputs[1].shape, out, call.attrs.Int("dim"));
    const Values x = BroadcastTo(call.inputs[0].values, call.inputs[0].shape, out);
    const Values y = BroadcastTo(call.inputs[1].values, call.inputs[1].shape, out);
    int64_t stride = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < out.size(); ++d) stride *= out[d];
    Expected e;
    const aclDataType dt = call.out;
    for (int64_t p = 0; p < NumElements(out); ++p) {
      const int64_t k = (p / stride) % 3, base = p - k * stride;
      auto at = [&](const Values& v, int64_t c) { return v[static_cast<size_t>(base + c * stride)]; };
      const int64_t i = (k + 1) % 3, j = (k + 2) % 3;
      const Value l = at(x, i) * at(y, j), r = at(x, j) * at(y, i);
      if (IsFloating(dt) || IsComplex(dt)) {
        e.values.push_back(ConvertValue(l - r, dt));
        e.tolerance.push_back(2 * UnitRoundoff(dt) * std::abs(l - r) + 4 * 0x1p-53 * (std::abs(l) + std::abs(r)));
      } else {
        e.values.push_back(Wrapped(static_cast<int64_t>(l.real()) - static_cast<int64_t>(r.real()), dt));
        e.tolerance.push_back(0);
      }
    }
    return e;
  };
  return row;
}

std::vector<OpRow> CrossRows() { return {CrossRow()}; }
CANOPY_HARNESS_ROWS(CrossRows);

OpRun RunCross(aclDataType s, const Shape& ss, aclDataType o, const Shape& os, int64_t dim, aclDataType out,
               const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgCrossGetWorkspaceSize(args.NewTensor(s, ss), args.NewTensor(o, os), dim,
                                                args.NewTensor(out, outShape), ws, ex);
      },
      aclnnLinalgCross);
}

TEST(LinalgCrossExample, CannValues) {
  // CANN's example: FLOAT [3, 3] rows 0..8 crossed with rows of 1, 2 and 3, dim 1.
  auto x = Upload(ACL_FLOAT, {3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  auto y = Upload(ACL_FLOAT, {3, 3}, {1, 1, 1, 2, 2, 2, 3, 3, 3});
  auto out = Poisoned(ACL_FLOAT, {3, 3});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgCrossGetWorkspaceSize(args.Tensor(*x), args.Tensor(*y), 1, args.Tensor(*out), ws, ex);
      },
      aclnnLinalgCross);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {-1, 2, -1, -2, 4, -2, -3, 6, -3}, "cross");
}

TEST(LinalgCrossRejects, WithCannCodes) {
  const auto f = ACL_FLOAT;
  EXPECT_TRUE(RunCross(f, {0, 4}, f, {0, 4}, 1, f, {0, 4}).ok());  // empty: no size-3 check
  EXPECT_EQ(RunCross(ACL_BOOL, {2, 3}, ACL_BOOL, {2, 3}, 1, ACL_BOOL, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(ACL_UINT16, {2, 3}, ACL_UINT16, {2, 3}, 1, ACL_UINT16, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, ACL_FLOAT16, {2, 3}, 1, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, f, {2, 3}, 1, ACL_DOUBLE, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, f, {4, 3}, 1, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, f, {2, 3}, 1, f, {3, 2}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, f, {2, 3}, 2, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, f, {2, 3}, -3, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCross(f, {2, 3}, f, {2, 3}, 0, f, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // extent 2, not 3
}

}  // namespace
}  // namespace canopy_test
