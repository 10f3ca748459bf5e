// aclnnDynamicBlockQuant and aclnnDynamicBlockQuantV2 against a float64 reference: per 1 x 128 block
// of each row, scale = max|block| / 127 (at most 1 / minScale when minScale > 0) and y =
// round-half-even(x / scale) saturated to INT8; f16 and bf16, ranks 2 and 3, rows of whole and
// partial blocks, strided views of x and of both outputs, a block of zeros, minScale caps, the docs'
// example and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "aclnnop/aclnn_dynamic_block_quant.h"
#include "aclnnop/aclnn_dynamic_block_quant_v2.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kBlock = 128;
constexpr char kRint[] = "rint";

struct Case {
  aclDataType x = ACL_FLOAT16;
  Shape shape = {4, 256};
  View x_view = View::kContiguous, out_view = View::kContiguous;
  double min_scale = 0;
  bool zero_block = false, v2 = false;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Shape ScaleShape(const Shape& x) {
  Shape grid = x;
  grid.back() = (grid.back() + kBlock - 1) / kBlock;
  return grid;
}

OpRun RunQuant(bool v2, const DeviceTensor& x, double min_scale, const DeviceTensor& y, const DeviceTensor& scale) {
  if (v2) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnDynamicBlockQuantV2GetWorkspaceSize(a.Tensor(x), min_scale, const_cast<char*>(kRint), 2, 1,
                                                          kBlock, 0.0, a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnDynamicBlockQuantV2);
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicBlockQuantGetWorkspaceSize(a.Tensor(x), min_scale, const_cast<char*>(kRint), 2, 1, kBlock,
                                                      a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDynamicBlockQuant);
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.x, c.shape, c.x_view);
  Values xv = x.FillRandom(rng, Range{-4, 4});
  const int64_t columns = c.shape.back();
  const int64_t rows = NumElements(c.shape) / columns;
  const int64_t blocks = (columns + kBlock - 1) / kBlock;
  if (c.zero_block) {  // row 1's second block (or its first) all zeros
    const int64_t first = blocks > 1 ? kBlock : 0;
    for (int64_t j = first; j < std::min(first + kBlock, columns); ++j) xv[static_cast<size_t>(columns + j)] = 0.0;
    x.WriteView(xv);
  }
  DeviceTensor y(ACL_INT8, c.shape, c.out_view), scale(ACL_FLOAT, ScaleShape(c.shape), c.out_view);
  y.Poison();
  scale.Poison();
  const OpRun run = RunQuant(c.v2, x, c.min_scale, y, scale);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const std::vector<int> got = QuantisedValues(y, ACL_INT8, NumElements(c.shape));
  Values want_scale;
  int mismatches = 0;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t first = b * kBlock, last = std::min(first + kBlock, columns);
      double max = 0;
      for (int64_t j = first; j < last; ++j)
        max = std::max(max, std::abs(xv[static_cast<size_t>(i * columns + j)].real()));
      double s = max / 127, q = max > 0 ? 127 / max : 0;
      if (c.min_scale > 0 && max > 0) {
        s = std::min(s, 1 / c.min_scale);
        q = std::max(q, c.min_scale);
      }
      want_scale.push_back(s);
      for (int64_t j = first; j < last; ++j) {
        const double exact = xv[static_cast<size_t>(i * columns + j)].real() * q;
        const double want = std::clamp(std::nearbyint(exact), -128.0, 127.0);
        const int g = got[static_cast<size_t>(i * columns + j)];
        // Within f32 rounding of a half-way point either neighbour is right.
        const bool near_half = std::abs(std::abs(exact - std::trunc(exact)) - 0.5) < 1e-4;
        if (g != want && !(near_half && std::abs(g - exact) <= 0.5 + 1e-4 && std::abs(exact) < 127.5)) {
          if (++mismatches <= 5)
            ADD_FAILURE() << "y[" << i << "," << j << "] = " << g << ", want " << want << " (" << exact << ")";
        }
      }
    }
  }
  ExpectNear(scale.ReadView(), RelativeTolerance(want_scale, ACL_FLOAT, 4), "scaleOut");
}

Case MakeCase(aclDataType x, Shape shape, std::string name) {
  Case c;
  c.x = x;
  c.shape = std::move(shape);
  c.name = std::string(Name(x)) + "_" + std::move(name);
  return c;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(MakeCase(x, {4, 256}, "whole_blocks"));
    Case tail = MakeCase(x, {3, 200}, "tail_block_zero_block");
    tail.zero_block = true;
    cases.push_back(tail);
    cases.push_back(MakeCase(x, {2, 3, 130}, "rank3"));
    cases.push_back(MakeCase(x, {5, 64}, "short_row"));
    Case transposed = MakeCase(x, {6, 300}, "transposed_views");
    transposed.x_view = transposed.out_view = View::kTransposed;
    cases.push_back(transposed);
    Case stepped = MakeCase(x, {2, 3, 140}, "stepped_views_v2");
    stepped.x_view = stepped.out_view = View::kStepped;
    stepped.v2 = true;
    cases.push_back(stepped);
    Case capped = MakeCase(x, {3, 160}, "min_scale_saturates");  // q = 40 > 127 / max: |y| beyond 127
    capped.min_scale = 40;
    cases.push_back(capped);
    Case loose = MakeCase(x, {2, 130}, "min_scale_inactive_v2");
    loose.min_scale = 0.5;
    loose.v2 = true;
    cases.push_back(loose);
  }
  return cases;
}

class DynamicBlockQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(DynamicBlockQuantTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, DynamicBlockQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The docs' example (V1 and V2): x = 1..8 as f16 [4, 2], minScale 0, "rint", INT8, blocks 1 x 128.
TEST(DynamicBlockQuant, DocExample) {
  for (const bool v2 : {false, true}) {
    DeviceTensor x(ACL_FLOAT16, {4, 2}), y(ACL_INT8, {4, 2}), scale(ACL_FLOAT, {4, 1});
    x.WriteView({1, 2, 3, 4, 5, 6, 7, 8});
    const OpRun run = RunQuant(v2, x, 0, y, scale);
    ASSERT_TRUE(run.ok()) << Describe(run);
    // Row r holds 2r + 1 and 2r + 2: the second maps to 127, the first to round(127 (2r + 1) / (2r + 2)).
    ExpectExact(y.ReadView(), {64, 127, 95, 127, 106, 127, 111, 127}, "yOut");
    ExpectNear(scale.ReadView(), RelativeTolerance({2 / 127.0, 4 / 127.0, 6 / 127.0, 8 / 127.0}, ACL_FLOAT, 4),
               "scaleOut");
  }
}

// A block holding NaN gets a NaN scale and zeros; one holding inf an infinite
// scale and zeros (inf times the block's 0 is NaN, whose conversion to int8 was
// undefined; NaN was dropped from the block's max).
TEST(DynamicBlockQuant, NanAndInfinityBlocks) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  DeviceTensor x(ACL_FLOAT16, {3, 2}), y(ACL_INT8, {3, 2}), scale(ACL_FLOAT, {3, 1});
  x.WriteView({nan, 1, -2, inf, 2, 4});
  const OpRun run = RunQuant(false, x, 0, y, scale);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values s = scale.ReadView();
  EXPECT_TRUE(std::isnan(s[0].real())) << s[0].real();
  EXPECT_EQ(s[1].real(), inf);
  ExpectExact(y.ReadView(), {0, 0, 0, 0, 64, 127}, "yOut");
}

struct Call {
  aclDataType x = ACL_FLOAT16, y = ACL_INT8, scale = ACL_FLOAT;
  Shape x_shape = {4, 256}, y_shape = {4, 256}, scale_shape = {4, 2};
  double min_scale = 0, dst_type_max = 0;
  int64_t dst_type = 2, row_block = 1, col_block = kBlock;
  bool x_null = false, scale_null = false;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicBlockQuantV2GetWorkspaceSize(
            c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape), c.min_scale, nullptr, c.dst_type, c.row_block,
            c.col_block, c.dst_type_max, a.NewTensor(c.y, c.y_shape),
            c.scale_null ? nullptr : a.NewTensor(c.scale, c.scale_shape), w, e);
      },
      aclnnDynamicBlockQuantV2);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

TEST(DynamicBlockQuantRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());  // roundModeOptional may be null
  EXPECT_TRUE(RunCall(With([](Call& c) { c.x = ACL_BF16; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.min_scale = 0.25; })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = ACL_FLOAT; })), kInvalid, {"'x'"});  // A2's op definition
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y = ACL_FLOAT8_E4M3FN; })), kInvalid, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.y_shape = {0, 256};
                       c.scale_shape = {0, 2};
                     })),
                     kInvalid, {"'x'", "empty"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.min_scale = -1; })), kTiling, {"'minScale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.dst_type = 35; })), kTiling, {"'dstType'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.dst_type_max = 15; })), kTiling, {"'dstTypeMax'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.row_block = 128; })), kTiling, {"'rowBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.col_block = 64; })), kTiling, {"'colBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.col_block = 1; })), kTiling, {"'colBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y_shape = {4, 128}; })), kTiling, {"'yOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.y_shape = {2, 2, 2, 256};
                       c.scale_shape = {2, 2, 2, 2};
                     })),
                     kTiling, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.y_shape = {256};
                       c.scale_shape = {2};
                     })),
                     kTiling, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {4, 1}; })), kTiling, {"'scaleOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {4, 2, 1}; })), kTiling, {"'scaleOut'"});
  // V1 shares V2's checks: its dstType too.
  DeviceTensor x(ACL_FLOAT16, {4, 256}), y(ACL_INT8, {4, 256}), scale(ACL_FLOAT, {4, 2});
  const OpRun v1 = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnDynamicBlockQuantGetWorkspaceSize(a.Tensor(x), 0, const_cast<char*>(kRint), 3, 1, kBlock,
                                                      a.Tensor(y), a.Tensor(scale), w, e);
      },
      aclnnDynamicBlockQuant);
  ExpectRejectedWith(v1, kTiling, {"'dstType'"});
}

}  // namespace
}  // namespace canopy_test
