// aclnnDynamicQuant against a float64 reference: per-row scale max|x * smooth|
// / q_max and y = round-half-even(x * smooth / scale), INT8, INT4 (two a byte)
// and INT32 (eight INT4 a word) outputs, f16 and bf16, ranks 2-4, strided
// views, zero rows, empty tensors, the doc's example and every rejection.
#include <gtest/gtest.h>

#include <cmath>

#include "aclnnop/aclnn_dynamic_quant.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType x = ACL_FLOAT16, y = ACL_INT8;
  Shape shape = {4, 32};
  bool smooth = false;
  View view = View::kContiguous;
  bool zero_row = false;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The quantised values of the output: INT8 elements, or the INT4 nibbles of its bytes (low nibble first).
std::vector<int> Quantised(const DeviceTensor& y, aclDataType dtype, int64_t count) {
  std::vector<int> q;
  if (dtype == ACL_INT8) {
    for (const Value& v : y.ReadView()) q.push_back(static_cast<int>(v.real()));
    return q;
  }
  const std::vector<uint8_t> bytes = y.DownloadBytes();
  for (int64_t i = 0; i < count; ++i) {
    const int nibble = (bytes[static_cast<size_t>(i / 2)] >> (i % 2 == 0 ? 0 : 4)) & 0xF;
    q.push_back(nibble >= 8 ? nibble - 16 : nibble);
  }
  return q;
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.x, c.shape, c.view);
  Values xv = x.FillRandom(rng, Range{-4, 4});
  const int64_t columns = c.shape.back();
  const int64_t rows = NumElements(c.shape) / columns;
  if (c.zero_row && rows > 1) {
    for (int64_t j = 0; j < columns; ++j) xv[static_cast<size_t>(columns + j)] = 0.0;
    x.WriteView(xv);
  }
  std::unique_ptr<DeviceTensor> smooth;
  Values sv(static_cast<size_t>(columns), 1.0);
  if (c.smooth) {
    smooth = std::make_unique<DeviceTensor>(c.x, Shape{columns});
    sv = smooth->FillRandom(rng, Range{0.5, 2});
  }
  Shape y_shape = c.shape;
  if (c.y == ACL_INT32) y_shape.back() /= 8;
  const View out_view = c.y == ACL_INT8 ? c.view : View::kContiguous;
  DeviceTensor y(c.y, y_shape, out_view);
  DeviceTensor scale(ACL_FLOAT, Shape(c.shape.begin(), c.shape.end() - 1), c.view);
  y.Poison();
  scale.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), smooth ? a.Tensor(*smooth) : nullptr, a.Tensor(y),
                                                 a.Tensor(scale), w, e);
      },
      aclnnDynamicQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double q_max = c.y == ACL_INT8 ? 127 : 7;
  Values want_scale;
  std::vector<int> got = Quantised(y, c.y, NumElements(c.shape));
  const Values got_scale = scale.ReadView();
  int mismatches = 0;
  for (int64_t i = 0; i < rows; ++i) {
    double max = 0;
    for (int64_t j = 0; j < columns; ++j) {
      max =
          std::max(max, std::abs(xv[static_cast<size_t>(i * columns + j)].real() * sv[static_cast<size_t>(j)].real()));
    }
    const double s = max / q_max;
    want_scale.push_back(s);
    for (int64_t j = 0; j < columns; ++j) {
      const double exact =
          s > 0 ? xv[static_cast<size_t>(i * columns + j)].real() * sv[static_cast<size_t>(j)].real() / s : 0;
      const double want = std::nearbyint(exact);
      const int g = got[static_cast<size_t>(i * columns + j)];
      // Within f32 rounding of a half-way point either neighbour is right.
      const bool near_half = std::abs(std::abs(exact - std::trunc(exact)) - 0.5) < 1e-4;
      if (g != want && !(near_half && std::abs(g - exact) <= 0.5 + 1e-4)) {
        if (++mismatches <= 5)
          ADD_FAILURE() << "y[" << i << "," << j << "] = " << g << ", want " << want << " (" << exact << ")";
      }
    }
  }
  ExpectNear(got_scale, RelativeTolerance(want_scale, ACL_FLOAT, 4), "scaleOut");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType y : {ACL_INT8, ACL_INT4, ACL_INT32}) {
      const std::string t = std::string(Name(x)) + "_" + (y == ACL_INT8 ? "int8" : y == ACL_INT4 ? "int4" : "int32");
      cases.push_back({x, y, {4, 32}, false, View::kContiguous, false, t + "_2d"});
      cases.push_back({x, y, {2, 3, 64}, true, View::kContiguous, true, t + "_3d_smooth_zero_row"});
      cases.push_back({x, y, {2, 2, 2, 16}, true, View::kContiguous, false, t + "_4d_smooth"});
    }
    const std::string t = Name(x);
    cases.push_back({x, ACL_INT8, {6, 40}, true, View::kTransposed, false, t + "_int8_transposed_views"});
    cases.push_back({x, ACL_INT8, {3, 4, 10}, false, View::kStepped, true, t + "_int8_stepped_views"});
    cases.push_back({x, ACL_INT4, {5, 18}, true, View::kTransposed, false, t + "_int4_strided_x"});
  }
  return cases;
}

class DynamicQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(DynamicQuantTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, DynamicQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

TEST(DynamicQuant, EmptyTensorsSucceed) {
  for (const Shape& shape : {Shape{0, 16}, Shape{3, 0}}) {
    DeviceTensor x(ACL_FLOAT16, shape), y(ACL_INT8, shape), scale(ACL_FLOAT, {shape[0]});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), nullptr, a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnDynamicQuant);
    EXPECT_TRUE(run.ok()) << Describe(run);
  }
}

// The doc's example: x[i, j] = 32 i + j, smooth[j] = 32 j + 1 (f16, 4 x 32), INT8.
TEST(DynamicQuant, DocExample) {
  DeviceTensor x(ACL_FLOAT16, {4, 32}), smooth(ACL_FLOAT16, {32}), y(ACL_INT8, {4, 32}), scale(ACL_FLOAT, {4});
  Values xv, sv;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 32; ++j) xv.push_back(static_cast<double>(i * 32 + j));
  }
  for (int j = 0; j < 32; ++j) sv.push_back(static_cast<double>(j * 32 + 1));
  x.WriteView(xv);
  smooth.WriteView(sv);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDynamicQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values got = y.ReadView();
  const Values got_scale = scale.ReadView();
  for (int i = 0; i < 4; ++i) {
    const double max = (i * 32 + 31) * (31 * 32 + 1.0);
    EXPECT_NEAR(got_scale[static_cast<size_t>(i)].real(), max / 127, max / 127 * 1e-6);
    EXPECT_EQ(got[static_cast<size_t>(i * 32 + 31)].real(), 127);  // the row maximum
    EXPECT_EQ(got[static_cast<size_t>(i * 32)].real(), std::nearbyint(i * 32 * 127 / max));
  }
}

struct Call {
  aclDataType x = ACL_FLOAT16, smooth = ACL_FLOAT16, y = ACL_INT8, scale = ACL_FLOAT;
  Shape x_shape = {4, 16}, smooth_shape, y_shape = {4, 16}, scale_shape = {4};
  bool x_null = false, y_null = false;
  View y_view = View::kContiguous;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicQuantGetWorkspaceSize(
            c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape),
            c.smooth_shape.empty() ? nullptr : a.NewTensor(c.smooth, c.smooth_shape),
            c.y_null ? nullptr : a.NewTensor(c.y, c.y_shape, c.y_view), a.NewTensor(c.scale, c.scale_shape), w, e);
      },
      aclnnDynamicQuant);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(DynamicQuantRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = ACL_FLOAT; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_FLOAT8_E4M3FN; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_UINT8; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.y_shape = {16};
                       c.scale_shape = {1};
                     })),
                     kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.smooth_shape = {16};
                       c.smooth = ACL_BF16;
                     })),
                     kInvalid, {"'smoothScalesOptional'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.smooth_shape = {4}; })), kInvalid, {"'smoothScalesOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y_shape = {4, 8}; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {4, 1}; })), kInvalid, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.y = ACL_INT4;
                       c.x_shape = c.y_shape = {4, 15};
                     })),
                     kInvalid, {"even"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.y = ACL_INT32;
                       c.x_shape = {4, 12};
                       c.y_shape = {4, 1};
                     })),
                     kInvalid, {"multiple of 8"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_INT32; })), kInvalid, {"'yOut'"});  // [4, 16]: needs [4, 2]
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.y = ACL_INT32;
                c.y_shape = {4, 2};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.y = ACL_INT4;
                       c.y_view = View::kTransposed;
                     })),
                     kInvalid, {"contiguous"});
}

}  // namespace
}  // namespace canopy_test
