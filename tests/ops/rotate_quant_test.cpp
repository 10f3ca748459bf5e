// aclnnRotateQuant (Atlas A2 path) through the public C API: x rotated in
// groups of k columns by a [k, k] rotation, quantised per row to INT8, INT4 or
// INT32 (eight INT4 a word) with scaleOut = max|row| / q_max, against a float64
// reference, FLOAT16 and BFLOAT16, every round mode, strided x and rotation,
// a stepped scaleOut; then the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rotate_quant.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct RqCase {
  std::string name;
  int64_t m = 6, n = 256, k = 64;
  aclDataType dtype = ACL_BF16;
  aclDataType out = ACL_INT8;
  const char* roundMode = "rint";
  View xView = View::kContiguous, rotView = View::kContiguous, scaleView = View::kContiguous;
};

void PrintTo(const RqCase& c, std::ostream* os) { *os << c.name; }

class RotateQuantTest : public ::testing::TestWithParam<RqCase> {};

TEST_P(RotateQuantTest, MatchesReference) {
  const RqCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor x(c.dtype, {c.m, c.n}, c.xView), rot(c.dtype, {c.k, c.k}, c.rotView);
  const Values vx = x.FillRandom(rng, Range{-2, 2}), vr = rot.FillRandom(rng, Range{-0.5, 0.5});
  DeviceTensor scale(ACL_FLOAT, {c.m}, c.scaleView);
  scale.Poison();
  // yOut over raw bytes: INT8 one a byte; INT4 and INT32 two values a byte.
  const bool packed = c.out != ACL_INT8;
  const Shape yShape = c.out == ACL_INT32 ? Shape{c.m, c.n / 8} : Shape{c.m, c.n};
  const size_t yBytes = static_cast<size_t>(packed ? c.m * c.n / 2 : c.m * c.n);
  DeviceBuffer y(yBytes);
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        const Shape strides = ContiguousStrides(yShape);
        aclTensor* yt = aclCreateTensor(yShape.data(), yShape.size(), c.out, strides.data(), 0, ACL_FORMAT_ND,
                                        yShape.data(), yShape.size(), y.get());
        std::vector<char> mode(c.roundMode, c.roundMode + std::strlen(c.roundMode) + 1);
        const aclnnStatus status =
            aclnnRotateQuantGetWorkspaceSize(args.Tensor(x), args.Tensor(rot), nullptr, -1, mode.data(), 0, 0.0, false,
                                             yt, args.Tensor(scale), workspaceSize, executor);
        aclDestroyTensor(yt);
        return status;
      },
      aclnnRotateQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  std::vector<int8_t> bytes(yBytes);
  ASSERT_EQ(aclrtMemcpy(bytes.data(), yBytes, y.get(), yBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  const double qMax = packed ? 7 : 127;
  const bool floorMode = std::string(c.roundMode) == "floor";
  Values gotY, gotScale = scale.ReadView();
  Expected wantY, wantScale;
  for (int64_t i = 0; i < c.m; ++i) {
    std::vector<double> row(static_cast<size_t>(c.n));
    double amax = 0;
    for (int64_t j = 0; j < c.n; ++j) {
      const int64_t group = j / c.k, col = j % c.k;
      double sum = 0;
      for (int64_t t = 0; t < c.k; ++t) {
        sum += std::real(vx[static_cast<size_t>(i * c.n + group * c.k + t)]) *
               std::real(vr[static_cast<size_t>(t * c.k + col)]);
      }
      row[static_cast<size_t>(j)] = sum;
      amax = std::max(amax, std::fabs(sum));
    }
    const double s = amax / qMax;
    wantScale.values.emplace_back(s);
    wantScale.tolerance.push_back(s * 1e-5);
    for (int64_t j = 0; j < c.n; ++j) {
      const double v = row[static_cast<size_t>(j)] / s;
      const double q = std::clamp(floorMode ? std::floor(v) : std::nearbyint(v), -qMax - 1, qMax);
      const double frac = v - std::floor(v);
      const bool nearEdge = floorMode ? (frac < 1e-4 || frac > 1 - 1e-4) : std::fabs(frac - 0.5) < 1e-4;
      wantY.values.emplace_back(q);
      wantY.tolerance.push_back(nearEdge ? 1.0 : 0.0);
      const int64_t at = i * c.n + j;
      if (packed) {
        const auto byte = static_cast<uint8_t>(bytes[static_cast<size_t>(at / 2)]);
        const int nibble = at % 2 == 0 ? byte & 0xF : byte >> 4;
        gotY.emplace_back(nibble >= 8 ? nibble - 16 : nibble);
      } else {
        gotY.emplace_back(bytes[static_cast<size_t>(at)]);
      }
    }
  }
  ExpectNear(gotScale, wantScale, "scaleOut");
  ExpectNear(gotY, wantY, "yOut");
}

std::vector<RqCase> Cases() {
  return {
      {.name = "bf16_int8"},
      {.name = "f16_int8", .dtype = ACL_FLOAT16},
      {.name = "bf16_int32", .out = ACL_INT32},
      {.name = "f16_int4", .m = 3, .n = 128, .k = 16, .dtype = ACL_FLOAT16, .out = ACL_INT4},
      {.name = "round_mode_round", .roundMode = "round"},
      {.name = "round_mode_floor", .dtype = ACL_FLOAT16, .roundMode = "floor"},
      {.name = "k_equals_n", .m = 4, .n = 128, .k = 128},
      {.name = "large", .m = 64, .n = 2048, .k = 128, .out = ACL_INT32},
      {.name = "views", .xView = View::kStepped, .rotView = View::kTransposed, .scaleView = View::kStepped},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, RotateQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<RqCase>& info) { return info.param.name; });

// ---- rejections --------------------------------------------------------------------------------

struct BadRq {
  std::string name;
  std::string keyword;
  Shape x = {4, 128}, rot = {16, 16}, y = {4, 128}, scale = {4};
  aclDataType xDtype = ACL_BF16, rotDtype = ACL_BF16, yDtype = ACL_INT8, scaleDtype = ACL_FLOAT;
  bool alpha = false;
  int64_t axis = -1;
  const char* roundMode = "rint";
  int64_t scaleAlg = 0;
  double dstTypeMax = 0.0;
  bool trans = false;
};

RejectionCase ToRejection(const BadRq& b) {
  return {b.name,
          [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            std::vector<char> mode(b.roundMode, b.roundMode + std::strlen(b.roundMode) + 1);
            return aclnnRotateQuantGetWorkspaceSize(
                args.NewTensor(b.xDtype, b.x), args.NewTensor(b.rotDtype, b.rot),
                b.alpha ? args.NewTensor(ACL_BF16, {1}) : nullptr, b.axis, mode.data(), b.scaleAlg, b.dstTypeMax,
                b.trans, args.NewTensor(b.yDtype, b.y), args.NewTensor(b.scaleDtype, b.scale), workspaceSize, executor);
          },
          aclnnRotateQuant, b.keyword};
}

std::vector<RejectionCase> RejectionCases() {
  const std::vector<BadRq> bad = {
      {.name = "x_f32", .keyword = "x", .xDtype = ACL_FLOAT, .rotDtype = ACL_FLOAT},
      {.name = "rotation_dtype", .keyword = "rotation", .rotDtype = ACL_FLOAT16},
      {.name = "alpha", .keyword = "alpha", .alpha = true},
      {.name = "y_f16", .keyword = "yOut", .yDtype = ACL_FLOAT16},
      {.name = "scale_f16", .keyword = "scaleOut", .scaleDtype = ACL_FLOAT16},
      {.name = "x_rank3", .keyword = "x", .x = {1, 4, 128}},
      {.name = "rotation_not_square", .keyword = "rotation", .rot = {16, 32}},
      {.name = "k_small", .keyword = "rotation", .rot = {8, 8}},
      {.name = "n_small", .keyword = "n must", .x = {4, 64}, .y = {4, 64}},
      {.name = "n_not_multiple_of_k", .keyword = "n must", .x = {4, 136}, .rot = {32, 32}, .y = {4, 136}},
      {.name = "y_shape", .keyword = "yOut", .y = {4, 64}},
      {.name = "y_int32_shape", .keyword = "yOut", .yDtype = ACL_INT32},
      {.name = "scale_shape", .keyword = "scaleOut", .scale = {4, 1}},
      {.name = "axis0", .keyword = "axis", .axis = 0},
      {.name = "round_mode_ceil", .keyword = "roundMode", .roundMode = "ceil"},
      {.name = "scale_alg", .keyword = "scaleAlg", .scaleAlg = 1},
      {.name = "dst_type_max", .keyword = "dstTypeMax", .dstTypeMax = 6.0},
      {.name = "trans", .keyword = "trans", .trans = true},
      {.name = "empty", .keyword = "empty", .x = {0, 128}, .y = {0, 128}, .scale = {0}},
  };
  std::vector<RejectionCase> cases;
  for (const BadRq& b : bad) cases.push_back(ToRejection(b));
  return cases;
}

class RotateQuantRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(RotateQuantRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, RotateQuantRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
