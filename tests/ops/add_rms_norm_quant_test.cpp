// aclnnAddRmsNormQuant and V2: x1 + x2 (xOut), its RMS norm times gamma (V2: plus betaOptional, and
// the norm as rmsNormOut in the fused post-norm form), quantised to INT8 per column or per tensor with
// scales1 / zeroPoints1Optional (and scales2Optional / zeroPoints2Optional into y2Out), dividing or
// multiplying by the scale (divMode); against a float64 reference in every dtype CANN's host code
// takes, with strided views, gamma over two trailing dims, null optionals, empties and rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm_quant.h"
#include "aclnnop/aclnn_add_rms_norm_quant_v2.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kEpsilon = 1e-6;

struct QuantCase {
  std::string name;
  aclDataType dtype, scale, zeroPoint;  // zeroPoint ACL_DT_UNDEFINED: no zero points
  bool divMode = true, dual = true;
  Shape x, gamma;
  View x1View = View::kContiguous, x2View = View::kContiguous, yView = View::kContiguous, xOutView = View::kContiguous;
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

class AddRmsNormQuantTest : public ::testing::TestWithParam<QuantCase> {};

TEST_P(AddRmsNormQuantTest, MatchesFloat64Reference) {
  const QuantCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t length = NumElements(c.gamma);
  DeviceTensor x1(c.dtype, c.x, c.x1View), x2(c.dtype, c.x, c.x2View), gamma(c.dtype, c.gamma, View::kStepped),
      scales1(c.scale, c.gamma), y1(ACL_INT8, c.x, c.yView), y2(ACL_INT8, c.x), xOut(c.dtype, c.x, c.xOutView);
  std::optional<DeviceTensor> scales2, zp1, zp2;
  const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-2, 2}));
  // Scales that spread y over INT8's range and saturate a few values.
  const Range scaleRange = c.divMode ? Range{0.015, 0.04} : Range{25, 60};
  const std::vector<double> s1 = Reals(scales1.FillRandom(rng, scaleRange));
  std::vector<double> s2, z1, z2;
  if (c.dual) {
    scales2.emplace(c.scale, c.gamma, View::kOffset);
    s2 = Reals(scales2->FillRandom(rng, scaleRange));
  }
  if (c.zeroPoint != ACL_DT_UNDEFINED) {
    zp1.emplace(c.zeroPoint, c.gamma);
    z1 = Reals(zp1->FillRandom(rng, Range{-6, 6}));
    if (c.dual) {
      zp2.emplace(c.zeroPoint, c.gamma, View::kStepped);
      z2 = Reals(zp2->FillRandom(rng, Range{-6, 6}));
    }
  }
  for (DeviceTensor* t : {&y1, &y2, &xOut}) t->Poison();
  const std::vector<uint8_t> y2Before = y2.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddRmsNormQuantGetWorkspaceSize(args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma),
                                                    args.Tensor(scales1), Or(args, scales2), Or(args, zp1),
                                                    Or(args, zp2), -1, kEpsilon, c.divMode, args.Tensor(y1),
                                                    args.Tensor(y2), args.Tensor(xOut), w, e);
      },
      aclnnAddRmsNormQuant);
  std::vector<double> sum;
  const std::vector<double> y = AddRmsNormRef(a, b, g, nullptr, kEpsilon, sum);
  ExpectNear(xOut.ReadView(), Within(sum, 0.0, c.dtype, 1), c.name + " xOut");
  ExpectNear(y1.ReadView(), ColumnQuant(y, length, c.divMode, s1, zp1 ? &z1 : nullptr), c.name + " y1Out");
  if (c.dual) {
    ExpectNear(y2.ReadView(), ColumnQuant(y, length, c.divMode, s2, zp2 ? &z2 : nullptr), c.name + " y2Out");
  } else {
    EXPECT_EQ(y2.DownloadBytes(), y2Before) << c.name << ": y2Out is left alone without scales2Optional";
  }
}

std::vector<QuantCase> QuantCases() {
  const aclDataType f16 = ACL_FLOAT16, bf16 = ACL_BF16, f32 = ACL_FLOAT, s32 = ACL_INT32, none = ACL_DT_UNDEFINED;
  return {
      // The doc's two A2 rows, then what CANN's host code takes besides.
      {"f16_f32_s32",
       f16,
       f32,
       s32,
       true,
       true,
       {3, 40},
       {40},
       View::kTransposed,
       View::kStepped,
       View::kStepped,
       View::kReversed},
      {"bf16_bf16_bf16",
       bf16,
       bf16,
       bf16,
       true,
       true,
       {2, 3, 24},
       {24},
       View::kStepped,
       View::kReversed,
       View::kReversed,
       View::kTransposed},
      {"f32_f32_f32", f32, f32, f32, true, true, {4, 16}, {16}},
      {"f16_f16_f16", f16, f16, f16, true, true, {5, 8}, {8}},
      {"f16_single_no_zero_point", f16, f32, none, true, false, {3, 32}, {32}, View::kOffset},
      {"bf16_multiply", bf16, bf16, bf16, false, true, {4, 24}, {24}},
      {"f16_multiply_single", f16, f32, s32, false, false, {2, 16}, {16}},
      {"f16_gamma_2d", f16, f32, s32, true, true, {2, 3, 4, 8}, {4, 8}, View::kContiguous, View::kTransposed},
  };
}
INSTANTIATE_TEST_SUITE_P(Cases, AddRmsNormQuantTest, ::testing::ValuesIn(QuantCases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return info.param.name; });

TEST(AddRmsNormQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x1, scale, zeroPoint, y1, y2;
    Shape x2, gamma, zeroPointShape, y1Shape;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, f32 = ACL_FLOAT, s8 = ACL_INT8, s32 = ACL_INT32;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {"s32 x1", s32, f32, s32, s8, s8, {2, 8}, {8}, {8}, {2, 8}, kInvalid, "x1"},
      {"s8 scales1", f16, s8, s32, s8, s8, {2, 8}, {8}, {8}, {2, 8}, kInvalid, "scales1"},
      {"s8 zeroPoints1", f16, f32, s8, s8, s8, {2, 8}, {8}, {8}, {2, 8}, kInvalid, "zeroPoints1Optional"},
      {"s32 y1Out", f16, f32, s32, s32, s32, {2, 8}, {8}, {8}, {2, 8}, kInvalid, "y1Out"},
      {"y2Out dtype", f16, f32, s32, s8, ACL_UINT8, {2, 8}, {8}, {8}, {2, 8}, kInvalid, "y2Out"},
      {"rank-0 gamma", f16, f32, s32, s8, s8, {2, 8}, {}, {8}, {2, 8}, kInvalid, "gamma"},
      {"x2 shape", f16, f32, s32, s8, s8, {8, 2}, {8}, {8}, {2, 8}, kTiling, "x2"},
      {"gamma length", f16, f32, s32, s8, s8, {2, 8}, {4}, {4}, {2, 8}, kTiling, "gamma"},
      {"zeroPoints shape", f16, f32, s32, s8, s8, {2, 8}, {8}, {1, 8}, {2, 8}, kTiling, "zeroPoints1Optional"},
      {"y1Out shape", f16, f32, s32, s8, s8, {2, 8}, {8}, {8}, {16}, kTiling, "y1Out"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x1, {2, 8}), x2(bad.x1, bad.x2), gamma(bad.x1, bad.gamma), scales1(bad.scale, bad.gamma),
        zp1(bad.zeroPoint, bad.zeroPointShape), y1(bad.y1, bad.y1Shape), y2(bad.y2, {2, 8}), xOut(bad.x1, {2, 8});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormQuantGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(scales1),
                                                      nullptr, a.Tensor(zp1), nullptr, -1, kEpsilon, true, a.Tensor(y1),
                                                      a.Tensor(y2), a.Tensor(xOut), w, e);
        },
        aclnnAddRmsNormQuant);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(AddRmsNormQuant, EmptyComputesNothing) {
  // An empty x1, and an empty y2Out (CANN's host code returns at once for either).
  for (const Shape& x : {Shape{0, 8}, Shape{2, 8}}) {
    const Shape y2Shape = x[0] == 0 ? x : Shape{0};
    DeviceTensor x1(ACL_FLOAT16, x), x2(ACL_FLOAT16, x), gamma(ACL_FLOAT16, {8}), scales1(ACL_FLOAT, {8}),
        y1(ACL_INT8, x), y2(ACL_INT8, y2Shape), xOut(ACL_FLOAT16, x);
    Rng rng = Rng::ForCurrentTest();
    x1.FillRandom(rng, Range{-2, 2});
    x2.FillRandom(rng, Range{-2, 2});
    scales1.FillRandom(rng, Range{0.5, 1});
    xOut.Poison();
    const std::vector<uint8_t> before = xOut.DownloadBytes();
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormQuantGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(scales1),
                                                      nullptr, nullptr, nullptr, -1, kEpsilon, true, a.Tensor(y1),
                                                      a.Tensor(y2), a.Tensor(xOut), w, e);
        },
        aclnnAddRmsNormQuant);
    EXPECT_EQ(xOut.DownloadBytes(), before);
  }
}

// ---- AddRmsNormQuantV2 --------------------------------------------------------------------------------

enum class Form { kUnfused, kPre, kPost };  // AddRmsNormQuant's kernel; the fused V2 kernel's two forms

struct V2Case {
  std::string name;
  Form form;
  aclDataType dtype, scale, zeroPoint;
  bool beta = true, dual = false, divMode = true;
  View x1View = View::kContiguous, yView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const V2Case& c, std::ostream* os) { *os << c.name; }

class AddRmsNormQuantV2Test : public ::testing::TestWithParam<V2Case> {};

TEST_P(AddRmsNormQuantV2Test, MatchesFloat64Reference) {
  const V2Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Shape x = {3, 5, 32};
  const int64_t length = 32;
  const Shape param = c.form == Form::kUnfused ? Shape{length} : Shape{1};
  DeviceTensor x1(c.dtype, x, c.x1View), x2(c.dtype, x, View::kStepped), gamma(c.dtype, {length}),
      scales1(c.scale, param), y1(ACL_INT8, x, c.yView), y2(ACL_INT8, x);
  std::optional<DeviceTensor> scales2, zp1, zp2, beta, xOut, rmsNormOut;
  const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-2, 2}));
  const Range scaleRange = c.divMode ? Range{0.015, 0.04} : Range{25, 60};
  const std::vector<double> s1 = Reals(scales1.FillRandom(rng, scaleRange));
  std::vector<double> s2, z1, z2, bv;
  if (c.dual) {
    scales2.emplace(c.scale, param);
    s2 = Reals(scales2->FillRandom(rng, scaleRange));
  }
  if (c.zeroPoint != ACL_DT_UNDEFINED) {
    zp1.emplace(c.zeroPoint, param, View::kStepped);
    z1 = Reals(zp1->FillRandom(rng, Range{-6, 6}));
    if (c.dual) {
      zp2.emplace(c.zeroPoint, param);
      z2 = Reals(zp2->FillRandom(rng, Range{-6, 6}));
    }
  }
  if (c.beta) {
    beta.emplace(c.dtype, Shape{length}, View::kOffset);
    bv = Reals(beta->FillRandom(rng, Range{-1, 1}));
  }
  if (c.form == Form::kPost) {
    rmsNormOut.emplace(c.dtype, x, c.outView);
    rmsNormOut->Poison();
  } else {
    xOut.emplace(c.dtype, x, c.outView);
    xOut->Poison();
  }
  y1.Poison();
  y2.Poison();
  const std::vector<uint8_t> y2Before = y2.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddRmsNormQuantV2GetWorkspaceSize(
            args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma), args.Tensor(scales1), Or(args, scales2),
            Or(args, zp1), Or(args, zp2), Or(args, beta), -1, kEpsilon, c.divMode, args.Tensor(y1), args.Tensor(y2),
            Or(args, xOut), Or(args, rmsNormOut), w, e);
      },
      aclnnAddRmsNormQuantV2);
  std::vector<double> sum;
  const std::vector<double> y = AddRmsNormRef(a, b, g, c.beta ? &bv : nullptr, kEpsilon, sum);
  if (xOut) ExpectNear(xOut->ReadView(), Within(sum, 0.0, c.dtype, 1), c.name + " xOut");
  if (rmsNormOut) ExpectNear(rmsNormOut->ReadView(), Within(y, 1.0, c.dtype, 2), c.name + " rmsNormOut");
  ExpectNear(y1.ReadView(), ColumnQuant(y, length, c.divMode, s1, zp1 ? &z1 : nullptr), c.name + " y1Out");
  if (c.dual) {
    ExpectNear(y2.ReadView(), ColumnQuant(y, length, c.divMode, s2, zp2 ? &z2 : nullptr), c.name + " y2Out");
  } else {
    EXPECT_EQ(y2.DownloadBytes(), y2Before) << c.name << ": y2Out is left alone without scales2Optional";
  }
}

std::vector<V2Case> V2Cases() {
  const aclDataType f16 = ACL_FLOAT16, bf16 = ACL_BF16, f32 = ACL_FLOAT, s32 = ACL_INT32, s8 = ACL_INT8;
  return {
      {"unfused_f16_dual", Form::kUnfused, f16, f32, s32, true, true, true, View::kTransposed, View::kStepped,
       View::kReversed},
      {"unfused_bf16_multiply", Form::kUnfused, bf16, bf16, bf16, true, true, false},
      {"unfused_f16_no_beta_f16_scale", Form::kUnfused, f16, f16, s8, false, false, true, View::kOffset},
      {"unfused_bf16_no_zero_point", Form::kUnfused, bf16, f32, ACL_DT_UNDEFINED, true, false},
      {"pre_f16", Form::kPre, f16, f32, s32, true, false, true, View::kStepped, View::kContiguous, View::kTransposed},
      {"pre_bf16", Form::kPre, bf16, bf16, bf16, true},
      {"post_f16", Form::kPost, f16, f32, s32, false, false, true, View::kContiguous, View::kReversed, View::kStepped},
      {"post_bf16_s8_zero_point", Form::kPost, bf16, f16, s8, false},
  };
}
INSTANTIATE_TEST_SUITE_P(Cases, AddRmsNormQuantV2Test, ::testing::ValuesIn(V2Cases()),
                         [](const ::testing::TestParamInfo<V2Case>& info) { return info.param.name; });

TEST(AddRmsNormQuantV2, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x1, scale;
    Shape param, y2;
    bool xOut, rmsNormOut;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, f32 = ACL_FLOAT;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kNull = ACLNN_ERR_PARAM_NULLPTR;
  const Bad cases[] = {
      {"f32 x1 and gamma (gamma checked first)", f32, f32, {8}, {2, 8}, true, false, kInvalid, "gamma"},
      {"f32 x1 fused", f32, f32, {1}, {2, 8}, false, true, kInvalid, "x1"},
      {"s32 scales1", f16, ACL_INT32, {8}, {2, 8}, true, false, kInvalid, "scales1"},
      {"y2Out shape", f16, f32, {8}, {4, 4}, true, false, kInvalid, "y2Out"},
      {"scales1 shape", f16, f32, {1}, {2, 8}, true, false, kInvalid, "scales1"},
      {"rmsNormOut unfused", f16, f32, {8}, {2, 8}, true, true, kNull, "rmsNormOut"},
      {"no xOut unfused", f16, f32, {8}, {2, 8}, false, true, kNull, "xOut"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x1, {2, 8}), x2(bad.x1, {2, 8}), gamma(bad.x1, {8}), scales1(bad.scale, bad.param),
        zp1(ACL_INT32, bad.param), y1(ACL_INT8, {2, 8}), y2(ACL_INT8, bad.y2), xOut(bad.x1, {2, 8}),
        rmsNormOut(bad.x1, {2, 8});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormQuantV2GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(scales1),
                                                        nullptr, a.Tensor(zp1), nullptr, nullptr, -1, kEpsilon, true,
                                                        a.Tensor(y1), a.Tensor(y2), bad.xOut ? a.Tensor(xOut) : nullptr,
                                                        bad.rmsNormOut ? a.Tensor(rmsNormOut) : nullptr, w, e);
        },
        aclnnAddRmsNormQuantV2);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // An empty x1 returns before the dtype checks, as CANN's host code does.
  DeviceTensor x1(f32, {0, 8}), x2(f32, {0, 8}), gamma(f32, {8}), scales1(f32, {8}), y1(ACL_INT8, {0, 8}),
      y2(ACL_INT8, {0, 8}), xOut(f32, {0, 8});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddRmsNormQuantV2GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(scales1),
                                                      nullptr, nullptr, nullptr, nullptr, -1, kEpsilon, true,
                                                      a.Tensor(y1), a.Tensor(y2), a.Tensor(xOut), nullptr, w, e);
      },
      aclnnAddRmsNormQuantV2);
}

}  // namespace
}  // namespace canopy_test
