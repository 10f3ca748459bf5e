// aclnnRotaryPositionEmbedding against a float64 reference: the four modes,
// every dtype, each documented cos/sin broadcast pattern, ggml's call (a head
// view of x, [1,S,1,D] tables, contiguous out), in place, and the rejections.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "llm_test_support.h"
#include "rope_reference.h"

namespace canopy_test {
namespace {

struct RopeCase {
  aclDataType dtype;
  int64_t mode;
  Shape x;
  Shape cos;
  View x_view = View::kContiguous;
};

void PrintTo(const RopeCase& c, std::ostream* os) {
  *os << Name(c.dtype) << " mode " << c.mode << " x " << ShapeString(c.x) << " cos " << ShapeString(c.cos) << " "
      << ViewName(c.x_view);
}

std::vector<RopeCase> RopeCases() {
  std::vector<RopeCase> cases;
  const Shape x = {2, 3, 4, 16};
  for (aclDataType dtype : HalfAndSingle()) {
    for (int64_t mode : {0, 1, 2, 3}) {
      cases.push_back({dtype, mode, x, {1, 3, 1, 16}});  // ggml: BSND with [1, S, 1, D] tables
      cases.push_back({dtype, mode, x, {1, 1, 1, 16}});
      cases.push_back({dtype, mode, x, {1, 1, 4, 16}});
      cases.push_back({dtype, mode, x, {2, 1, 1, 16}});
      cases.push_back({dtype, mode, x, {1, 3, 1, 16}, View::kStepped});
      if (mode == 1) continue;  // interleave takes tables varying along one dim only
      cases.push_back({dtype, mode, x, {2, 3, 4, 16}});
      cases.push_back({dtype, mode, x, {2, 1, 4, 16}});
      cases.push_back({dtype, mode, x, {2, 3, 1, 16}});
    }
  }
  cases.push_back({ACL_FLOAT, 0, {1, 7, 8, 128}, {1, 7, 1, 128}});  // a typical head size
  return cases;
}

class RopeTest : public ::testing::TestWithParam<RopeCase> {};

TEST_P(RopeTest, MatchesReference) {
  const RopeCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.dtype, c.x, c.x_view);
  DeviceTensor cos(c.dtype, c.cos);
  DeviceTensor sin(c.dtype, c.cos);
  DeviceTensor out(c.dtype, c.x);
  const Values xv = x.FillRandom(rng, Range{-2, 2});
  const Values cv = cos.FillRandom(rng, Range{-1, 1});
  const Values sv = sin.FillRandom(rng, Range{-1, 1});
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(a.Tensor(x), a.Tensor(cos), a.Tensor(sin), c.mode,
                                                            a.Tensor(out), w, e);
      },
      aclnnRotaryPositionEmbedding);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(),
             RelativeTolerance(ReferenceRope(c.mode, xv, c.x, cv, sv, c.cos), c.dtype, 4, Magnitudes(xv, c.x)), "out");
}

INSTANTIATE_TEST_SUITE_P(Rope, RopeTest, ::testing::ValuesIn(RopeCases()),
                         [](const ::testing::TestParamInfo<RopeCase>& info) {
                           const RopeCase& c = info.param;
                           return SanitizeName(std::string(Name(c.dtype)) + "_mode" + std::to_string(c.mode) + "_x" +
                                               ShapeString(c.x) + "_cos" + ShapeString(c.cos) + "_" +
                                               ViewName(c.x_view));
                         });

// ggml rotates the first rope_dims of each head of an f32 tensor: x is a view
// of a wider head (ne00 > rope_dims), written into a contiguous temporary.
TEST(RopeGgml, HeadViewOfWiderTensor) {
  const int64_t s = 5, n = 4, full = 96, d = 64;
  for (int64_t mode : {0, 1}) {
    Layout view;
    view.shape = {1, s, n, d};
    view.strides = {s * n * full, n * full, full, 1};
    view.storageShape = {1, s, n, full};
    Rng rng = Rng::ForCurrentTest();
    DeviceTensor x(ACL_FLOAT, view);
    DeviceTensor cos(ACL_FLOAT, {1, s, 1, d});
    DeviceTensor sin(ACL_FLOAT, {1, s, 1, d});
    DeviceTensor out(ACL_FLOAT, {1, s, n, d});
    const Values xv = x.FillRandom(rng, Range{-3, 3});
    const Values cv = cos.FillRandom(rng, Range{-1, 1});
    const Values sv = sin.FillRandom(rng, Range{-1, 1});
    out.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnRotaryPositionEmbeddingGetWorkspaceSize(a.Tensor(x), a.Tensor(cos), a.Tensor(sin), mode,
                                                              a.Tensor(out), w, e);
        },
        aclnnRotaryPositionEmbedding);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectNear(out.ReadView(),
               RelativeTolerance(ReferenceRope(mode, xv, view.shape, cv, sv, {1, s, 1, d}), ACL_FLOAT, 4,
                                 Magnitudes(xv, view.shape)),
               "out");
  }
}

// ggml also rotates a contiguous tensor in place (x and out the same buffer):
// every mode and dtype, contiguous and stepped views, computed in place with
// no staging (each row's elements are read before the step writes them).
TEST(RopeGgml, InPlace) {
  const Shape xs = {1, 3, 2, 64}, ts = {1, 3, 1, 64};
  for (aclDataType dtype : HalfAndSingle()) {
    for (int64_t mode : {0, 1, 2}) {
      for (View view : {View::kContiguous, View::kStepped}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " mode " + std::to_string(mode) +
                     (view == View::kStepped ? " stepped" : ""));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor x(dtype, xs, view), cos(dtype, ts), sin(dtype, ts);
        const Values xv = x.FillRandom(rng, Range{-3, 3});
        const Values cv = cos.FillRandom(rng, Range{-1, 1});
        const Values sv = sin.FillRandom(rng, Range{-1, 1});
        const OpRun run = RunOp(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnRotaryPositionEmbeddingGetWorkspaceSize(a.Tensor(x), a.Tensor(cos), a.Tensor(sin), mode,
                                                                  a.Tensor(x), w, e);
            },
            aclnnRotaryPositionEmbedding);
        ASSERT_TRUE(run.ok()) << Describe(run);
        EXPECT_EQ(run.workspaceSize, 0u) << "in place, not staged";
        ExpectNear(x.ReadView(),
                   RelativeTolerance(ReferenceRope(mode, xv, xs, cv, sv, ts), dtype, 4, Magnitudes(xv, xs)),
                   "x (in place)");
      }
    }
  }
}

TEST(RopeEmpty, EmptyXNeedsNoMatchingTables) {
  DeviceTensor x(ACL_FLOAT, {0, 3, 4, 16});
  DeviceTensor cos(ACL_FLOAT, {1, 5, 1, 16});
  DeviceTensor out(ACL_FLOAT, {0, 3, 4, 16});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(a.Tensor(x), a.Tensor(cos), a.Tensor(cos), 0, a.Tensor(out),
                                                            w, e);
      },
      aclnnRotaryPositionEmbedding);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

OpRun Rope(aclDataType dtype, const Shape& xs, const Shape& cs, int64_t mode, aclDataType cos_dtype = ACL_DT_UNDEFINED,
           const Shape& sin_shape = {}, const Shape& out_shape = {}) {
  return RunOp(
      [=](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        const aclDataType cd = cos_dtype == ACL_DT_UNDEFINED ? dtype : cos_dtype;
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(
            a.NewTensor(dtype, xs), a.NewTensor(cd, cs), a.NewTensor(dtype, sin_shape.empty() ? cs : sin_shape), mode,
            a.NewTensor(dtype, out_shape.empty() ? xs : out_shape), w, e);
      },
      aclnnRotaryPositionEmbedding);
}

TEST(RopeRejects, DtypesAreInvalidParameters) {
  ExpectRejectedWith(Rope(ACL_INT32, {1, 2, 1, 4}, {1, 2, 1, 4}, 0), ACLNN_ERR_PARAM_INVALID,
                     {"aclnnRotaryPositionEmbedding", "'x'"});
  ExpectRejectedWith(Rope(ACL_DOUBLE, {1, 2, 1, 4}, {1, 2, 1, 4}, 0), ACLNN_ERR_PARAM_INVALID, {"'x'"});
  ExpectRejectedWith(Rope(ACL_FLOAT16, {1, 2, 1, 4}, {1, 2, 1, 4}, 0, ACL_FLOAT), ACLNN_ERR_PARAM_INVALID,
                     {"'cos'", "match"});
}

TEST(RopeRejects, ShapesAndModesAreTilingErrors) {
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 4}, {1, 2, 1, 4}, 4), kTiling, {"'mode'"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 4}, {1, 2, 1, 4}, -1), kTiling, {"'mode'"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 5}, {1, 2, 1, 5}, 0), kTiling, {"multiple of 2"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 6}, {1, 2, 1, 6}, 2), kTiling, {"multiple of 4"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 1, 1, 896}, {1, 1, 1, 896}, 0), kTiling, {"below 896"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 4}, {1, 2, 1, 2}, 0), kTiling, {"must match"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {2, 4}, {2, 4}, 0), kTiling, {"rank 2"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 4}, {1, 2, 1, 4}, 0, ACL_DT_UNDEFINED, {1, 1, 1, 4}), kTiling,
                     {"'sin'"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {1, 2, 1, 4}, {1, 2, 1, 4}, 0, ACL_DT_UNDEFINED, {}, {1, 2, 2, 4}), kTiling,
                     {"'out'"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {2, 3, 4, 8}, {3, 3, 4, 8}, 0), kTiling, {"first three dims"});
  ExpectRejectedWith(Rope(ACL_FLOAT, {2, 3, 4, 8}, {2, 3, 1, 8}, 1), kTiling, {"interleave"});
}

TEST(RopeRejects, NullTable) {
  const OpRun run = RunOp(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {1, 2, 1, 4}), nullptr,
                                                            a.NewTensor(ACL_FLOAT, {1, 2, 1, 4}), 0,
                                                            a.NewTensor(ACL_FLOAT, {1, 2, 1, 4}), w, e);
      },
      aclnnRotaryPositionEmbedding);
  ExpectRejectedWith(run, ACLNN_ERR_PARAM_NULLPTR, {"'cos'"});
}

}  // namespace
}  // namespace canopy_test
