// Scale (y = x * scale + bias, scale over x's dims from axis on) as a harness
// row against a float64 reference: each dtype, scale spans given by numAxes
// (scaleFromBlob) or by scale's rank, a single scale value, with and without
// bias, the views; then CANN's example and the rejections.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_scale.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// The first dim of x that scale spans and how many (0: a single value); nullopt where CANN rejects the call.
std::optional<std::pair<int64_t, int64_t>> Span(const Shape& x, const Shape& scale, const AttrSet& a) {
  const auto rank = static_cast<int64_t>(x.size());
  const int64_t axis = a.Int("axis") < 0 ? a.Int("axis") + rank : a.Int("axis");
  const int64_t numAxes = a.Int("numAxes");
  const bool blob = a.Bool("scaleFromBlob");
  if (axis < 0 || axis >= rank) return std::nullopt;
  if (blob && numAxes == 0) return NumElements(scale) == 1 ? std::optional(std::pair{axis, int64_t{0}}) : std::nullopt;
  const int64_t count = blob ? (numAxes == -1 ? rank - axis : numAxes) : static_cast<int64_t>(scale.size());
  if (count + axis > rank || (blob && count <= 0)) return std::nullopt;
  if (!blob && NumElements(scale) == 1 && count <= 1) return std::pair{axis, int64_t{0}};
  if (Shape(x.begin() + axis, x.begin() + axis + count) != scale) return std::nullopt;
  return std::pair{axis, count};
}

OpRow ScaleRow() {
  OpRow row;
  row.name = "Scale";
  row.inputs = {Arg{.name = "x"}, Arg{.name = "scale"}, Arg{.name = "bias"}};
  row.out = {[](Call& c) {
               return aclnnScaleGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.BoolAttr("bias") ? c.Tensor(2) : nullptr,
                                                 c.IntAttr("axis"), c.IntAttr("numAxes"), c.BoolAttr("scaleFromBlob"),
                                                 c.Out(), c.workspaceSize, c.executor);
             },
             aclnnScale};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
  row.shapes = {{"middle", {{4, 5, 3}, {5}, {5}}, true},
                {"tail", {{4, 5, 3}, {5, 3}, {5, 3}}, true},
                {"large", {{33, 70}, {70}, {70}}},
                {"single", {{4, 5, 3}, {1}, {1}}},
                {"empty", {{0, 5, 3}, {5}, {5}}}};
  row.attrs = {
      {"axis1_num1_blob", {{"axis", int64_t{1}}, {"numAxes", int64_t{1}}, {"scaleFromBlob", true}, {"bias", true}}},
      {"axis1_rest_blob", {{"axis", int64_t{1}}, {"numAxes", int64_t{-1}}, {"scaleFromBlob", true}, {"bias", false}}},
      {"axis_neg2_rank", {{"axis", int64_t{-2}}, {"numAxes", int64_t{5}}, {"scaleFromBlob", false}, {"bias", true}}},
      {"axis_last_rank", {{"axis", int64_t{-1}}, {"numAxes", int64_t{0}}, {"scaleFromBlob", false}, {"bias", false}}},
      {"single_blob", {{"axis", int64_t{0}}, {"numAxes", int64_t{0}}, {"scaleFromBlob", true}, {"bias", true}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    if (!Span(in[0], in[1], a)) return std::nullopt;
    return in[0];
  };
  row.reference = [](const RefCall& call) {
    const Operand& x = call.inputs[0];
    const auto [axis, count] = *Span(x.shape, call.inputs[1].shape, call.attrs);
    int64_t inner = 1, spanned = 1;
    for (size_t d = static_cast<size_t>(axis + count); d < x.shape.size(); ++d) inner *= x.shape[d];
    for (int64_t d = axis; d < axis + count; ++d) spanned *= x.shape[static_cast<size_t>(d)];
    Expected e;
    for (size_t i = 0; i < x.values.size(); ++i) {
      const auto k = count == 0 ? 0 : static_cast<size_t>((static_cast<int64_t>(i) / inner) % spanned);
      Value v = x.values[i] * call.inputs[1].values[k];
      if (call.attrs.Bool("bias")) v += call.inputs[2].values[k];
      e.values.push_back(v);
    }
    return e;
  };
  row.tolerance = {.ulps = 2, .minMagnitude = 4};  // a sum that cancels keeps its terms' roundoff
  return row;
}

std::vector<OpRow> ScaleRows() { return {ScaleRow()}; }
CANOPY_HARNESS_ROWS(ScaleRows);

TEST(ScaleExample, CannValues) {
  // CANN's example: x [4, 2] of 0..7, scale and bias [4] of 2, axis 0, numAxes 1.
  auto x = Upload(ACL_FLOAT, {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  auto scale = Upload(ACL_FLOAT, {4}, {2, 2, 2, 2});
  auto bias = Upload(ACL_FLOAT, {4}, {2, 2, 2, 2});
  auto y = Poisoned(ACL_FLOAT, {4, 2});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnScaleGetWorkspaceSize(args.Tensor(*x), args.Tensor(*scale), args.Tensor(*bias), 0, 1, true,
                                          args.Tensor(*y), ws, ex);
      },
      aclnnScale);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(y->ReadView(), {2, 4, 6, 8, 10, 12, 14, 16}, "scale");
}

OpRun RunScale(aclDataType dx, const Shape& xs, aclDataType ds, const Shape& ss, std::optional<aclDataType> db,
               const Shape& bs, int64_t axis, int64_t numAxes, bool blob, aclDataType dy, const Shape& ys) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnScaleGetWorkspaceSize(args.NewTensor(dx, xs), args.NewTensor(ds, ss),
                                          db ? args.NewTensor(*db, bs) : nullptr, axis, numAxes, blob,
                                          args.NewTensor(dy, ys), ws, ex);
      },
      aclnnScale);
}

TEST(ScaleRejects, WithCannCodes) {
  const auto f = ACL_FLOAT;
  const Shape x = {4, 5, 3};
  EXPECT_TRUE(RunScale(f, x, f, {5}, std::nullopt, {}, 1, 1, true, f, x).ok());
  EXPECT_EQ(RunScale(ACL_DOUBLE, x, ACL_DOUBLE, {5}, std::nullopt, {}, 1, 1, true, ACL_DOUBLE, x).phase1,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, ACL_FLOAT16, {5}, std::nullopt, {}, 1, 1, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, f, {5}, ACL_FLOAT16, {5}, 1, 1, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 1, 1, true, ACL_BF16, x).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 1, 1, true, f, {4, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, f, {5}, f, {3}, 1, 1, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 3, 1, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);  // axis
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, -4, 1, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 1, -2, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);  // numAxes
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 1, 0, true, f, x).phase1,
            ACLNN_ERR_PARAM_INVALID);  // not one value
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 1, 3, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);  // past x
  EXPECT_EQ(RunScale(f, x, f, {5}, std::nullopt, {}, 1, 2, true, f, x).phase1, ACLNN_ERR_PARAM_INVALID);  // [5, 3]
  EXPECT_EQ(RunScale(f, x, f, {3}, std::nullopt, {}, 1, 0, false, f, x).phase1,
            ACLNN_ERR_PARAM_INVALID);  // not x's dim
  EXPECT_EQ(RunScale(f, x, f, {5, 3, 1}, std::nullopt, {}, 1, 0, false, f, x).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
