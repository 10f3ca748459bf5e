// The fused normalisations on the row-norm engine: AdaLayerNorm, AdaLayerNormV2 (mean and rstd,
// FLOAT weight and bias), AdaLayerNormQuant (per-row dynamic INT8 quantisation) and AddRmsNormCast
// (FLOAT and 16-bit results), and the quantising AddRmsNorm forms (RmsNormQuant, AddRmsNormDynamicQuant
// and V2, RmsNormDynamicQuant); each against a float64 reference on random data in every dtype the
// A2 column lists, with strided and broadcast views, null optional arguments, and CANN's rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_ada_layer_norm.h"
#include "aclnnop/aclnn_ada_layer_norm_quant.h"
#include "aclnnop/aclnn_ada_layer_norm_v2.h"
#include "aclnnop/aclnn_add_rms_norm_cast.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h"
#include "aclnnop/aclnn_rms_norm_dynamic_quant.h"
#include "aclnnop/aclnn_rms_norm_quant.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kEps = 1e-5;

// ---- AdaLayerNorm, V2 and Quant -------------------------------------------------------------------

enum class Ada { kV1, kV2, kQuant };

struct AdaCase {
  std::string name;
  Ada form = Ada::kV1;
  aclDataType dtype = ACL_FLOAT;
  aclDataType affine = ACL_DT_UNDEFINED;  // weight / bias dtype (undefined: x's)
  Shape x;
  bool scaleWithOne = false;  // scale and shift [B..., 1, H] instead of [B..., H]
  bool weight = true, bias = true, smooth = true, stats = true;
  View xView = View::kContiguous, scaleView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const AdaCase& c, std::ostream* os) { *os << c.name; }

struct AdaReference {
  std::vector<double> out, mean, rstd;
};

// LayerNorm of each row of H, times weight plus bias, then * (1 + scale) + shift of the row's batch.
AdaReference AdaRef(const Shape& x_shape, const std::vector<double>& x, const std::vector<double>& scale,
                    const std::vector<double>& shift, const std::vector<double>* weight,
                    const std::vector<double>* bias) {
  const int64_t h = x_shape.back(), s = x_shape[x_shape.size() - 2];
  const int64_t rows = static_cast<int64_t>(x.size()) / h;
  AdaReference ref;
  ref.out.resize(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = &x[static_cast<size_t>(r * h)];
    double mean = 0, var = 0;
    for (int64_t j = 0; j < h; ++j) mean += row[j];
    mean /= static_cast<double>(h);
    for (int64_t j = 0; j < h; ++j) var += (row[j] - mean) * (row[j] - mean);
    const double rstd = 1 / std::sqrt(var / static_cast<double>(h) + kEps);
    ref.mean.push_back(mean);
    ref.rstd.push_back(rstd);
    const int64_t batch = r / s;
    for (int64_t j = 0; j < h; ++j) {
      double v = (row[j] - mean) * rstd;
      if (weight != nullptr) v *= (*weight)[static_cast<size_t>(j)];
      if (bias != nullptr) v += (*bias)[static_cast<size_t>(j)];
      const auto k = static_cast<size_t>(batch * h + j);
      ref.out[static_cast<size_t>(r * h + j)] = v * (1 + scale[k]) + shift[k];
    }
  }
  return ref;
}

// Per row of `y` ([rows, length] values): times `smooth` where given, scale = max|row| / 127 and
// out = row / scale rounded half to even, as DynamicQuant does. The kernel's f32 result may sit on
// the other side of a rounding boundary: one unit there.
void ExpectRowQuant(const std::vector<double>& y, int64_t length, const std::vector<double>* smooth,
                    const DeviceTensor& out, const DeviceTensor& scale, const std::string& what) {
  Expected want_q, want_scale;
  for (size_t r = 0; r < y.size() / static_cast<size_t>(length); ++r) {
    std::vector<double> row(y.begin() + static_cast<std::ptrdiff_t>(r * length),
                            y.begin() + static_cast<std::ptrdiff_t>((r + 1) * length));
    double max = 0;
    for (size_t j = 0; j < row.size(); ++j) {
      if (smooth != nullptr) row[j] *= (*smooth)[j];
      max = std::max(max, std::abs(row[j]));
    }
    const double s = max / 127;
    want_scale.values.emplace_back(s);
    want_scale.tolerance.push_back(1e-5 * s);
    for (const double v : row) {
      const double q = v / s;
      want_q.values.emplace_back(std::nearbyint(q));
      const double frac = std::abs(q - std::trunc(q));
      want_q.tolerance.push_back(std::abs(frac - 0.5) < 1e-3 ? 1 : 0);
    }
  }
  ExpectNear(scale.ReadView(), want_scale, what + " scale");
  ExpectNear(out.ReadView(), want_q, what + " out");
}

class AdaLayerNormTest : public ::testing::TestWithParam<AdaCase> {};

TEST_P(AdaLayerNormTest, MatchesFloat64Reference) {
  const AdaCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t h = c.x.back();
  Shape per_batch(c.x.begin(), c.x.end() - 2);
  if (c.scaleWithOne) per_batch.push_back(1);
  per_batch.push_back(h);
  Shape stat = c.x;
  stat.back() = 1;
  const Shape quant_scale(c.x.begin(), c.x.end() - 1);
  const aclDataType affine = c.affine == ACL_DT_UNDEFINED ? c.dtype : c.affine;
  const bool quant = c.form == Ada::kQuant;
  DeviceTensor x(c.dtype, c.x, c.xView), scale(c.dtype, per_batch, c.scaleView), shift(c.dtype, per_batch),
      out(quant ? ACL_INT8 : c.dtype, c.x, c.outView);
  std::optional<DeviceTensor> weight, bias, smooth, mean, rstd, qscale;
  if (c.weight) weight.emplace(affine, Shape{h});
  if (c.bias) bias.emplace(affine, Shape{h}, View::kStepped);
  if (quant && c.smooth) smooth.emplace(c.dtype, Shape{h});
  if (c.form == Ada::kV2 && c.stats) {
    mean.emplace(c.dtype, stat);
    rstd.emplace(c.dtype, stat, View::kStepped);
  }
  if (quant) qscale.emplace(ACL_FLOAT, quant_scale);
  const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-3, 3}));
  const std::vector<double> sv = Reals(scale.FillRandom(rng, Range{-1, 1}));
  const std::vector<double> hv = Reals(shift.FillRandom(rng, Range{-1, 1}));
  std::vector<double> wv, bv, mv;
  if (weight) wv = Reals(weight->FillRandom(rng, Range{-2, 2}));
  if (bias) bv = Reals(bias->FillRandom(rng, Range{-1, 1}));
  if (smooth) mv = Reals(smooth->FillRandom(rng, Range{0.5, 2}));
  out.Poison();
  for (auto* t : {&mean, &rstd, &qscale}) {
    if (*t) (*t)->Poison();
  }
  if (c.form == Ada::kV1) {
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAdaLayerNormGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(shift), Or(a, weight),
                                                   Or(a, bias), kEps, a.Tensor(out), w, e);
        },
        aclnnAdaLayerNorm);
  } else if (c.form == Ada::kV2) {
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAdaLayerNormV2GetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(shift), Or(a, weight),
                                                     Or(a, bias), kEps, a.Tensor(out), Or(a, mean), Or(a, rstd), w, e);
        },
        aclnnAdaLayerNormV2);
  } else {
    char mode[] = "dynamic";
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAdaLayerNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(shift), Or(a, weight),
                                                        Or(a, bias), Or(a, smooth), kEps, c.smooth ? mode : nullptr,
                                                        a.Tensor(out), a.Tensor(*qscale), nullptr, w, e);
        },
        aclnnAdaLayerNormQuant);
  }
  const AdaReference ref = AdaRef(c.x, xv, sv, hv, weight ? &wv : nullptr, bias ? &bv : nullptr);
  if (!quant) {
    ExpectNear(out.ReadView(), Within(ref.out, 8.0, c.dtype, 8), "out");
    if (mean) ExpectNear(mean->ReadView(), Within(ref.mean, 3.0, c.dtype, 4), "meanOutOptional");
    if (rstd) ExpectNear(rstd->ReadView(), Within(ref.rstd, 0.0, c.dtype, 8), "rstdOutOptional");
    return;
  }
  ExpectRowQuant(ref.out, h, smooth ? &mv : nullptr, out, *qscale, c.name);
}

std::vector<AdaCase> AdaCases() {
  std::vector<AdaCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({.name = "V1_" + d, .form = Ada::kV1, .dtype = dtype, .x = {2, 4, 8}});
    cases.push_back({.name = "V1_" + d + "_views_no_affine",
                     .form = Ada::kV1,
                     .dtype = dtype,
                     .x = {3, 5, 6},
                     .scaleWithOne = true,
                     .weight = false,
                     .bias = false,
                     .xView = View::kTransposed,
                     .scaleView = View::kStepped,
                     .outView = View::kStepped});
    cases.push_back({.name = "V2_" + d, .form = Ada::kV2, .dtype = dtype, .x = {2, 2, 3, 16}, .scaleWithOne = true});
    cases.push_back({.name = "V2_" + d + "_float_affine",
                     .form = Ada::kV2,
                     .dtype = dtype,
                     .affine = ACL_FLOAT,
                     .x = {4, 33},
                     .xView = View::kReversed,
                     .outView = View::kTransposed});
    cases.push_back({.name = "V2_" + d + "_no_stats_weight_only",
                     .form = Ada::kV2,
                     .dtype = dtype,
                     .x = {2, 3, 8},
                     .bias = false,
                     .stats = false});
    if (dtype == ACL_FLOAT) continue;
    cases.push_back({.name = "Quant_" + d, .form = Ada::kQuant, .dtype = dtype, .x = {2, 4, 8}});
    cases.push_back({.name = "Quant_" + d + "_views_no_optionals",
                     .form = Ada::kQuant,
                     .dtype = dtype,
                     .x = {2, 3, 5, 40},
                     .scaleWithOne = true,
                     .weight = false,
                     .bias = false,
                     .smooth = false,
                     .xView = View::kTransposed,
                     .scaleView = View::kStepped,
                     .outView = View::kStepped});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, AdaLayerNormTest, ::testing::ValuesIn(AdaCases()),
                         [](const ::testing::TestParamInfo<AdaCase>& info) { return info.param.name; });

// CANN's example program (ops-nn norm/ada_layer_norm): x [2, 4, 8], scale and shift [2, 8].
TEST(AdaLayerNorm, CannExampleShapes) {
  DeviceTensor x(ACL_FLOAT, {2, 4, 8}), scale(ACL_FLOAT, {2, 8}), shift(ACL_FLOAT, {2, 8}), weight(ACL_FLOAT, {8}),
      bias(ACL_FLOAT, {8}), out(ACL_FLOAT, {2, 4, 8});
  Values ones(64, Value(1)), halves(16, Value(0.5)), zeros(16, Value(0));
  Values xs;
  for (int i = 0; i < 64; ++i) xs.emplace_back(i % 8);  // each row 0..7
  x.WriteView(xs);
  scale.WriteView(halves);
  shift.WriteView(zeros);
  weight.WriteView(Values(8, Value(1)));
  bias.WriteView(Values(8, Value(0)));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAdaLayerNormGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(shift), a.Tensor(weight),
                                                 a.Tensor(bias), kEps, a.Tensor(out), w, e);
      },
      aclnnAdaLayerNorm);
  const double rstd = 1 / std::sqrt(5.25 + kEps);  // variance of 0..7
  std::vector<double> want;
  for (int i = 0; i < 64; ++i) want.push_back((i % 8 - 3.5) * rstd * 1.5);
  ExpectNear(out.ReadView(), Within(want, 4.0, ACL_FLOAT, 8), "out");
}

// ---- AddRmsNormCast ---------------------------------------------------------------------------------

struct CastCase {
  std::string name;
  aclDataType dtype;
  Shape x, gamma, rstd;
  View x1View = View::kContiguous, x2View = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const CastCase& c, std::ostream* os) { *os << c.name; }

class AddRmsNormCastTest : public ::testing::TestWithParam<CastCase> {};

TEST_P(AddRmsNormCastTest, MatchesFloat64Reference) {
  const CastCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x1(c.dtype, c.x, c.x1View), x2(c.dtype, c.x, c.x2View), gamma(c.dtype, c.gamma),
      y1(ACL_FLOAT, c.x, c.outView), y2(c.dtype, c.x), rstd(ACL_FLOAT, c.rstd, c.outView),
      xOut(c.dtype, c.x, c.outView);
  const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-1, 1}));
  for (DeviceTensor* t : {&y1, &y2, &rstd, &xOut}) t->Poison();
  ExpectRuns(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddRmsNormCastGetWorkspaceSize(args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma), 1e-6,
                                                   args.Tensor(y1), args.Tensor(y2), args.Tensor(rstd),
                                                   args.Tensor(xOut), w, e);
      },
      aclnnAddRmsNormCast);
  const auto length = static_cast<size_t>(NumElements(c.gamma));
  std::vector<double> sum(a.size()), y, rows;
  for (size_t i = 0; i < a.size(); ++i) sum[i] = a[i] + b[i];
  for (size_t r = 0; length > 0 && r < sum.size() / length; ++r) {
    double sq = 0;
    for (size_t j = 0; j < length; ++j) sq += sum[r * length + j] * sum[r * length + j];
    const double s = 1 / std::sqrt(sq / static_cast<double>(length) + 1e-6);
    rows.push_back(s);
    for (size_t j = 0; j < length; ++j) y.push_back(sum[r * length + j] * s * g[j]);
  }
  ExpectNear(y1.ReadView(), Within(y, 2.0, ACL_FLOAT, 8), "y1Out");
  ExpectNear(y2.ReadView(), Within(y, 2.0, c.dtype, 2), "y2Out");
  ExpectNear(rstd.ReadView(), Within(rows, 0.0, ACL_FLOAT, 8), "rstdOut");
  ExpectNear(xOut.ReadView(), Within(sum, 0.0, c.dtype, 1), "xOut");
}

std::vector<CastCase> CastCases() {
  std::vector<CastCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({"example_" + d, dtype, {2, 16}, {16}, {2, 1}});
    cases.push_back(
        {"two_dims_" + d, dtype, {3, 4, 9}, {4, 9}, {3, 1, 1}, View::kTransposed, View::kReversed, View::kStepped});
    cases.push_back({"long_rows_" + d, dtype, {2, 5000}, {5000}, {2, 1}, View::kStepped, View::kOffset});
    cases.push_back({"empty_" + d, dtype, {0, 8}, {8}, {0, 1}});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, AddRmsNormCastTest, ::testing::ValuesIn(CastCases()),
                         [](const ::testing::TestParamInfo<CastCase>& info) { return info.param.name; });

// ---- RmsNormQuant --------------------------------------------------------------------------------------

struct QuantCase {
  std::string name;
  aclDataType dtype, y;
  Shape x;
  bool gamma2d = false;
  View xView = View::kContiguous, yView = View::kContiguous;
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

class RmsNormQuantTest : public ::testing::TestWithParam<QuantCase> {};

TEST_P(RmsNormQuantTest, MatchesFloat64Reference) {
  const QuantCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t length = c.x.back(), rows = NumElements(c.x) / length;
  const Shape channel = c.gamma2d ? Shape{1, length} : Shape{length};
  Shape y_shape = c.x;
  if (c.y == ACL_INT32) y_shape.back() /= 8;
  const bool int4 = c.y != ACL_INT8;
  DeviceTensor x(c.dtype, c.x, c.xView), gamma(c.dtype, channel), beta(c.dtype, channel, View::kStepped),
      scale(c.dtype, {1}), offset(ACL_INT8, {1}), y(c.y, y_shape, c.yView);
  const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> gv = Reals(gamma.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> bv = Reals(beta.FillRandom(rng, Range{-1, 1}));
  // INT8: a scale that spreads the values over [-128, 127] and saturates some; INT4 one for [-8, 7].
  const double s = ConvertValue(int4 ? 0.4 : 0.025, c.dtype).real(), o = int4 ? -1 : 3;
  scale.WriteView({s});
  offset.WriteView({o});
  y.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRmsNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), a.Tensor(scale),
                                                 a.Tensor(offset), 1e-6, a.Tensor(y), w, e);
      },
      aclnnRmsNormQuant);
  const double lo = int4 ? -8 : -128, hi = int4 ? 7 : 127;
  std::vector<double> want;
  std::vector<bool> boundary;  // the kernel's f32 value may round the other way there
  for (int64_t r = 0; r < rows; ++r) {
    double sq = 0;
    for (int64_t j = 0; j < length; ++j)
      sq += xv[static_cast<size_t>(r * length + j)] * xv[static_cast<size_t>(r * length + j)];
    const double rstd = 1 / std::sqrt(sq / static_cast<double>(length) + 1e-6);
    for (int64_t j = 0; j < length; ++j) {
      const auto k = static_cast<size_t>(j);
      const double q = (xv[static_cast<size_t>(r * length + j)] * rstd * gv[k] + bv[k]) / s + o;
      want.push_back(std::clamp(std::nearbyint(q), lo, hi));
      boundary.push_back(std::abs(std::abs(q - std::trunc(q)) - 0.5) < 1e-3);
    }
  }
  if (!int4) {
    Expected expected;
    for (size_t i = 0; i < want.size(); ++i) {
      expected.values.emplace_back(want[i]);
      expected.tolerance.push_back(boundary[i] ? 1 : 0);
    }
    ExpectNear(y.ReadView(), expected, c.name);
    return;
  }
  // Two INT4 values a byte, the first in the low nibble (INT32: the same bytes, eight a word).
  const std::vector<uint8_t> bytes = y.DownloadBytes();
  for (size_t i = 0; i < want.size(); ++i) {
    if (boundary[i]) continue;
    const int stored = (bytes[i / 2] >> (i % 2 == 0 ? 0 : 4)) & 0xF;
    EXPECT_EQ(stored, static_cast<int>(want[i]) & 0xF) << c.name << " element " << i;
  }
}

std::vector<QuantCase> QuantCases() {
  std::vector<QuantCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({"example_" + d, dtype, ACL_INT8, {3, 5}, true});
    cases.push_back({"views_" + d, dtype, ACL_INT8, {4, 3, 24}, false, View::kTransposed, View::kStepped});
    cases.push_back({"int4_" + d, dtype, ACL_INT4, {2, 3, 16}, true, View::kReversed});
    cases.push_back({"int32_" + d, dtype, ACL_INT32, {5, 32}, false, View::kStepped});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, RmsNormQuantTest, ::testing::ValuesIn(QuantCases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return info.param.name; });

// ---- AddRmsNormDynamicQuant --------------------------------------------------------------------------

TEST(AddRmsNormDynamicQuant, MatchesFloat64Reference) {
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (int smooths = 0; smooths <= 2; ++smooths) {
      const std::string what = std::string(Name(dtype)) + " smooths " + std::to_string(smooths);
      Rng rng = Rng::ForCurrentTest();
      const Shape shape = {3, 4, 40};
      const int64_t length = 40, rows = 12;
      const Shape y2Shape = smooths == 2 ? shape : Shape{1};
      const Shape scale2Shape = smooths == 2 ? Shape{3, 4} : Shape{1};
      DeviceTensor x1(dtype, shape, View::kTransposed), x2(dtype, shape, View::kStepped), gamma(dtype, {length}),
          y1(ACL_INT8, {rows, length}, View::kStepped), y2(ACL_INT8, y2Shape), xOut(dtype, shape, View::kReversed),
          scale1(ACL_FLOAT, {rows}), scale2(ACL_FLOAT, scale2Shape);
      std::optional<DeviceTensor> smooth1, smooth2;
      const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
      const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
      const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-1, 1}));
      std::vector<double> s1, s2;
      if (smooths >= 1) {
        smooth1.emplace(dtype, Shape{length});
        s1 = Reals(smooth1->FillRandom(rng, Range{0.5, 2}));
      }
      if (smooths == 2) {
        smooth2.emplace(dtype, Shape{length}, View::kOffset);
        s2 = Reals(smooth2->FillRandom(rng, Range{0.5, 2}));
      }
      for (DeviceTensor* t : {&y1, &y2, &xOut, &scale1, &scale2}) t->Poison();
      const std::vector<uint8_t> y2Before = y2.DownloadBytes();
      ExpectRuns(
          [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
            return aclnnAddRmsNormDynamicQuantGetWorkspaceSize(
                args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma), Or(args, smooth1), Or(args, smooth2), 1e-6,
                args.Tensor(y1), args.Tensor(y2), args.Tensor(xOut), args.Tensor(scale1), args.Tensor(scale2), w, e);
          },
          aclnnAddRmsNormDynamicQuant);
      std::vector<double> sum;
      const std::vector<double> y = AddRmsNormRef(a, b, g, nullptr, 1e-6, sum);
      ExpectNear(xOut.ReadView(), Within(sum, 0.0, dtype, 1), what + " xOut");
      ExpectRowQuant(y, length, smooths >= 1 ? &s1 : nullptr, y1, scale1, what + " 1");
      if (smooths == 2) {
        ExpectRowQuant(y, length, &s2, y2, scale2, what + " 2");
      } else {
        EXPECT_EQ(y2.DownloadBytes(), y2Before) << what << ": y2Out is left alone without smoothScale2Optional";
      }
    }
  }
}

TEST(AddRmsNormDynamicQuant, RejectionsAndEmpty) {
  struct Bad {
    const char* name;
    aclDataType x2, y1, scale1;
    Shape x2Shape, gammaShape, y1Shape;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, s8 = ACL_INT8, f32 = ACL_FLOAT;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {"f32 x2", f32, s8, f32, {2, 8}, {8}, {2, 8}, kInvalid, "x2"},
      {"f16 y1Out", f16, f16, f32, {2, 8}, {8}, {2, 8}, kInvalid, "y1Out"},
      {"f16 scale1Out", f16, s8, f16, {2, 8}, {8}, {2, 8}, kInvalid, "scale1Out"},
      {"x2 shape", f16, s8, f32, {8, 2}, {8}, {2, 8}, kTiling, "x2"},
      {"gamma [1, 8]", f16, s8, f32, {2, 8}, {1, 8}, {2, 8}, kTiling, "gamma"},
      {"gamma length", f16, s8, f32, {2, 8}, {4}, {2, 8}, kTiling, "gamma"},
      {"y1Out count", f16, s8, f32, {2, 8}, {8}, {2, 4}, kInvalid, "y1Out"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(f16, {2, 8}), x2(bad.x2, bad.x2Shape), gamma(f16, bad.gammaShape), y1(bad.y1, bad.y1Shape),
        y2(s8, {1}), xOut(f16, {2, 8}), scale1(bad.scale1, {2}), scale2(f32, {1});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormDynamicQuantGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), nullptr,
                                                             nullptr, 1e-6, a.Tensor(y1), a.Tensor(y2), a.Tensor(xOut),
                                                             a.Tensor(scale1), a.Tensor(scale2), w, e);
        },
        aclnnAddRmsNormDynamicQuant);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // An empty x1 computes nothing.
  DeviceTensor x1(f16, {0, 8}), x2(f16, {0, 8}), gamma(f16, {8}), y1(s8, {0, 8}), y2(s8, {0, 8}), xOut(f16, {0, 8}),
      scale1(f32, {0}), scale2(f32, {0});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddRmsNormDynamicQuantGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), nullptr,
                                                           nullptr, 1e-6, a.Tensor(y1), a.Tensor(y2), a.Tensor(xOut),
                                                           a.Tensor(scale1), a.Tensor(scale2), w, e);
      },
      aclnnAddRmsNormDynamicQuant);
}

// ---- AddRmsNormDynamicQuantV2 ------------------------------------------------------------------------

struct DynamicV2Case {
  std::string name;
  aclDataType dtype;
  bool smooth1, smooth2, beta;
  std::vector<int> mask;  // empty: no outputMaskOptional
};
void PrintTo(const DynamicV2Case& c, std::ostream* os) { *os << c.name; }

class AddRmsNormDynamicQuantV2Test : public ::testing::TestWithParam<DynamicV2Case> {};

TEST_P(AddRmsNormDynamicQuantV2Test, MatchesFloat64Reference) {
  const DynamicV2Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {2, 5, 24};
  const int64_t length = 24, rows = 10;
  const bool out1 = c.mask.empty() || c.mask[0] != 0;
  const bool out2 = c.mask.empty() ? c.smooth1 && c.smooth2 : c.mask[1] != 0;
  DeviceTensor x1(c.dtype, shape, View::kStepped), x2(c.dtype, shape, View::kTransposed),
      gamma(c.dtype, {length}, View::kReversed), xOut(c.dtype, shape, View::kStepped);
  std::optional<DeviceTensor> smooth1, smooth2, beta, y1, y2, scale1, scale2;
  const std::vector<double> a = Reals(x1.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> b = Reals(x2.FillRandom(rng, Range{-2, 2}));
  const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-1, 1}));
  std::vector<double> s1, s2, bv;
  if (c.smooth1) {
    smooth1.emplace(c.dtype, Shape{length});
    s1 = Reals(smooth1->FillRandom(rng, Range{0.5, 2}));
  }
  if (c.smooth2) {
    smooth2.emplace(c.dtype, Shape{length}, View::kOffset);
    s2 = Reals(smooth2->FillRandom(rng, Range{0.5, 2}));
  }
  if (c.beta) {
    beta.emplace(c.dtype, Shape{length});
    bv = Reals(beta->FillRandom(rng, Range{-1, 1}));
  }
  if (out1) {
    y1.emplace(ACL_INT8, shape, View::kReversed);
    scale1.emplace(ACL_FLOAT, Shape{2, 5});
  }
  if (out2 || c.mask.empty()) {  // without a mask CANN reads y2Out's shape: give one
    y2.emplace(ACL_INT8, shape);
    scale2.emplace(ACL_FLOAT, Shape{rows}, View::kStepped);
  }
  for (auto* t : {&y1, &y2, &scale1, &scale2}) {
    if (*t) (*t)->Poison();
  }
  xOut.Poison();
  const std::vector<uint8_t> y2Before = y2 ? y2->DownloadBytes() : std::vector<uint8_t>{};
  ExpectRuns(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        const aclBoolArray* m = c.mask.empty() ? nullptr : args.BoolArray({c.mask[0] != 0, c.mask[1] != 0});
        return aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
            args.Tensor(x1), args.Tensor(x2), args.Tensor(gamma), Or(args, smooth1), Or(args, smooth2), Or(args, beta),
            1e-6, m, Or(args, y1), Or(args, y2), args.Tensor(xOut), Or(args, scale1), Or(args, scale2), w, e);
      },
      aclnnAddRmsNormDynamicQuantV2);
  std::vector<double> sum;
  const std::vector<double> y = AddRmsNormRef(a, b, g, c.beta ? &bv : nullptr, 1e-6, sum);
  ExpectNear(xOut.ReadView(), Within(sum, 0.0, c.dtype, 1), c.name + " xOut");
  if (out1) ExpectRowQuant(y, length, c.smooth1 ? &s1 : nullptr, *y1, *scale1, c.name + " 1");
  if (out2) {
    ExpectRowQuant(y, length, c.smooth2 ? &s2 : nullptr, *y2, *scale2, c.name + " 2");
  } else if (y2) {
    EXPECT_EQ(y2->DownloadBytes(), y2Before) << c.name << ": y2Out is left alone";
  }
}

std::vector<DynamicV2Case> DynamicV2Cases() {
  std::vector<DynamicV2Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string d = Name(dtype);
    cases.push_back({"no_mask_two_smooths_beta_" + d, dtype, true, true, true, {}});
    cases.push_back({"no_mask_plain_" + d, dtype, false, false, false, {}});
    cases.push_back({"mask_first_smooth1_beta_" + d, dtype, true, false, true, {1, 0}});
    cases.push_back({"mask_second_smooth2_" + d, dtype, false, true, false, {0, 1}});
    cases.push_back({"mask_both_no_smooth_beta_" + d, dtype, false, false, true, {1, 1}});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, AddRmsNormDynamicQuantV2Test, ::testing::ValuesIn(DynamicV2Cases()),
                         [](const ::testing::TestParamInfo<DynamicV2Case>& info) { return info.param.name; });

TEST(AddRmsNormDynamicQuantV2, RejectionsAndEmpty) {
  struct Bad {
    const char* name;
    aclDataType x, y;
    Shape yShape;
    std::vector<bool> mask;  // empty: none
    bool smooth2, nullY1;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, s8 = ACL_INT8;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {"mask of three", f16, s8, {2, 8}, {true, true, true}, false, false, kInvalid, "outputMaskOptional"},
      {"mask asks for nothing", f16, s8, {2, 8}, {false, false}, false, false, kInvalid, "outputMaskOptional"},
      {"smooth2 masked off", f16, s8, {2, 8}, {true, false}, true, false, kInvalid, "outputMaskOptional"},
      {"smooth2 alone without mask", f16, s8, {2, 8}, {}, true, false, kInvalid, "smoothScale2Optional"},
      {"null y1Out asked for", f16, s8, {2, 8}, {true, false}, false, true, ACLNN_ERR_PARAM_NULLPTR, "y1Out"},
      {"f32 x1", ACL_FLOAT, s8, {2, 8}, {}, false, false, kInvalid, "x1"},
      {"f16 y1Out", f16, f16, {2, 8}, {}, false, false, kInvalid, "y1Out"},
      {"INT32 y1Out last dim", f16, ACL_INT32, {2, 2}, {}, false, false, kInvalid, "y1Out"},
      {"y1Out shape", f16, s8, {8, 2}, {}, false, false, ACLNN_ERR_INNER_TILING_ERROR, "y1Out"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x, {2, 8}), x2(bad.x, {2, 8}), gamma(bad.x, {8}), smooth2(bad.x, {8}), y1(bad.y, bad.yShape),
        y2(bad.y, bad.yShape), xOut(bad.x, {2, 8}), scale1(ACL_FLOAT, {2}), scale2(ACL_FLOAT, {2});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
              a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), nullptr, bad.smooth2 ? a.Tensor(smooth2) : nullptr, nullptr,
              1e-6, bad.mask.empty() ? nullptr : a.BoolArray(bad.mask), bad.nullY1 ? nullptr : a.Tensor(y1),
              a.Tensor(y2), a.Tensor(xOut), a.Tensor(scale1), a.Tensor(scale2), w, e);
        },
        aclnnAddRmsNormDynamicQuantV2);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // An INT32 (packed INT4) y1Out of x1's last dim / 8 is taken; an empty x1 computes nothing.
  for (const Shape& x : {Shape{2, 16}, Shape{0, 16}}) {
    Shape packed = x;
    packed.back() /= 8;
    DeviceTensor x1(f16, x), x2(f16, x), gamma(f16, {16}), y1(ACL_INT32, packed), y2(ACL_INT32, packed), xOut(f16, x),
        scale1(ACL_FLOAT, {x[0]}), scale2(ACL_FLOAT, {x[0]});
    Rng rng = Rng::ForCurrentTest();
    x1.FillRandom(rng, Range{-2, 2});
    x2.FillRandom(rng, Range{-2, 2});
    gamma.FillRandom(rng, Range{-1, 1});
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(
              a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), nullptr, nullptr, nullptr, 1e-6, nullptr, a.Tensor(y1),
              a.Tensor(y2), a.Tensor(xOut), a.Tensor(scale1), a.Tensor(scale2), w, e);
        },
        aclnnAddRmsNormDynamicQuantV2);
  }
}

// ---- RmsNormDynamicQuant -------------------------------------------------------------------------------

TEST(RmsNormDynamicQuant, MatchesFloat64Reference) {
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (const bool optionals : {true, false}) {
      const std::string what = std::string(Name(dtype)) + (optionals ? " smooth and beta" : " plain");
      Rng rng = Rng::ForCurrentTest();
      const Shape shape = {2, 3, 48};
      const int64_t length = 48;
      DeviceTensor x(dtype, shape, View::kTransposed), gamma(dtype, {length}, View::kStepped),
          y(ACL_INT8, shape, View::kReversed), scale(ACL_FLOAT, {2, 3});
      std::optional<DeviceTensor> smooth, beta;
      const std::vector<double> xv = Reals(x.FillRandom(rng, Range{-2, 2}));
      const std::vector<double> g = Reals(gamma.FillRandom(rng, Range{-1, 1}));
      std::vector<double> sv, bv(static_cast<size_t>(length), 0);
      if (optionals) {
        smooth.emplace(dtype, Shape{length});
        beta.emplace(dtype, Shape{length}, View::kOffset);
        sv = Reals(smooth->FillRandom(rng, Range{0.5, 2}));
        bv = Reals(beta->FillRandom(rng, Range{-1, 1}));
      }
      y.Poison();
      scale.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnRmsNormDynamicQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), Or(a, smooth), Or(a, beta),
                                                            1e-6, 2, a.Tensor(y), a.Tensor(scale), w, e);
          },
          aclnnRmsNormDynamicQuant);
      std::vector<double> want;
      for (size_t r = 0; r < xv.size() / static_cast<size_t>(length); ++r) {
        double sq = 0;
        for (size_t j = 0; j < static_cast<size_t>(length); ++j) sq += xv[r * length + j] * xv[r * length + j];
        const double rstd = 1 / std::sqrt(sq / static_cast<double>(length) + 1e-6);
        for (size_t j = 0; j < static_cast<size_t>(length); ++j)
          want.push_back(xv[r * length + j] * rstd * g[j] + bv[j]);
      }
      ExpectRowQuant(want, length, optionals ? &sv : nullptr, y, scale, what);
    }
  }
}

TEST(RmsNormDynamicQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType gamma, y;
    Shape xShape, gammaShape, scaleShape;
    int64_t dstType;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, s8 = ACL_INT8;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {"bf16 gamma", ACL_BF16, s8, {2, 8}, {8}, {2}, 2, kInvalid, "gamma"},
      {"s32 yOut", f16, ACL_INT32, {2, 8}, {8}, {2}, 2, kInvalid, "yOut"},
      {"dstType 3", f16, s8, {2, 8}, {8}, {2}, 3, kTiling, "dstType"},
      {"rank 1 x", f16, s8, {8}, {8}, {}, 2, kTiling, "x"},
      {"gamma length", f16, s8, {2, 8}, {4}, {2}, 2, kTiling, "gamma"},
      {"scaleOut shape", f16, s8, {2, 8}, {8}, {2, 1}, 2, kTiling, "scaleOut"},
      {"empty x", f16, s8, {0, 8}, {8}, {0}, 2, kTiling, "x"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(f16, bad.xShape), gamma(bad.gamma, bad.gammaShape), y(bad.y, bad.xShape),
        scale(ACL_FLOAT, bad.scaleShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnRmsNormDynamicQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), nullptr, nullptr, 1e-6,
                                                          bad.dstType, a.Tensor(y), a.Tensor(scale), w, e);
        },
        aclnnRmsNormDynamicQuant);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(RmsNormQuant, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x, gamma, scale, offset, y;
    Shape gammaShape, scaleShape, yShape;
    const char* keyword;
  };
  const aclDataType f16 = ACL_FLOAT16, s8 = ACL_INT8;
  const Bad cases[] = {
      {"f32 x (A2)", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, s8, s8, {8}, {1}, {2, 8}, "x"},
      {"gamma dtype", f16, ACL_BF16, f16, s8, s8, {8}, {1}, {2, 8}, "gamma"},
      {"f16 y", f16, f16, f16, s8, f16, {8}, {1}, {2, 8}, "y"},
      {"f32 scale", f16, f16, ACL_FLOAT, s8, s8, {8}, {1}, {2, 8}, "scale"},
      {"f16 offset (A2)", f16, f16, f16, f16, s8, {8}, {1}, {2, 8}, "offset"},
      {"gamma last dim", f16, f16, f16, s8, s8, {4}, {1}, {2, 8}, "gamma"},
      {"gamma [2, D]", f16, f16, f16, s8, s8, {2, 8}, {1}, {2, 8}, "gamma"},
      {"gamma rank 3", f16, f16, f16, s8, s8, {1, 1, 8}, {1}, {2, 8}, "gamma"},
      {"y shape", f16, f16, f16, s8, s8, {8}, {1}, {2, 4}, "y"},
      {"INT32 y shape", f16, f16, f16, s8, ACL_INT32, {8}, {1}, {2, 8}, "y"},
      {"scale of 2", f16, f16, f16, s8, s8, {8}, {2}, {2, 8}, "scale"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, {2, 8}), gamma(bad.gamma, bad.gammaShape), beta(bad.gamma, bad.gammaShape),
        scale(bad.scale, bad.scaleShape), offset(bad.offset, bad.scaleShape), y(bad.y, bad.yShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnRmsNormQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), a.Tensor(beta), a.Tensor(scale),
                                                   a.Tensor(offset), 1e-6, a.Tensor(y), w, e);
        },
        aclnnRmsNormQuant);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

// ---- Rejections ---------------------------------------------------------------------------------------

struct AdaBad {
  const char* name;
  Ada form;
  aclDataType x = ACL_FLOAT16, scale = ACL_FLOAT16, weight = ACL_FLOAT16, out = ACL_FLOAT16, stat = ACL_FLOAT16;
  Shape xShape = {2, 4, 8}, scaleShape = {2, 8}, weightShape = {8}, outShape = {2, 4, 8}, statShape = {2, 4, 1};
  const char* mode = "dynamic";
  bool offset = false;
  const char* keyword = "";
  aclnnStatus status = ACLNN_ERR_PARAM_INVALID;
};

TEST(AdaLayerNorm, Rejections) {
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16, s8 = ACL_INT8;
  const AdaBad cases[] = {
      {.name = "f64 x", .form = Ada::kV1, .x = ACL_DOUBLE, .keyword = "x"},
      {.name = "scale dtype", .form = Ada::kV1, .scale = bf16, .keyword = "scale"},
      {.name = "f32 weight in V1", .form = Ada::kV1, .weight = f32, .keyword = "weightOptional"},
      {.name = "out dtype", .form = Ada::kV1, .out = f32, .keyword = "out"},
      {.name = "rank 1 x", .form = Ada::kV1, .xShape = {8}, .outShape = {8}, .keyword = "x"},
      {.name = "empty x", .form = Ada::kV1, .xShape = {2, 0, 8}, .outShape = {2, 0, 8}, .keyword = "x"},
      {.name = "scale batch", .form = Ada::kV1, .scaleShape = {1, 8}, .keyword = "scale"},
      {.name = "scale across S", .form = Ada::kV1, .scaleShape = {2, 4, 8}, .keyword = "scale"},
      {.name = "weight shape", .form = Ada::kV1, .weightShape = {4}, .keyword = "weightOptional"},
      {.name = "out shape", .form = Ada::kV1, .outShape = {2, 8, 4}, .keyword = "out"},
      {.name = "f32 weight with f16 bias in V2", .form = Ada::kV2, .weight = f32, .keyword = "biasOptional"},
      {.name = "bf16 weight for f16 x in V2", .form = Ada::kV2, .weight = bf16, .keyword = "weightOptional"},
      {.name = "f32 mean in V2", .form = Ada::kV2, .stat = f32, .keyword = "meanOutOptional"},
      {.name = "mean shape in V2", .form = Ada::kV2, .statShape = {2, 4}, .keyword = "meanOutOptional"},
      {.name = "f32 x in Quant",
       .form = Ada::kQuant,
       .x = f32,
       .scale = f32,
       .weight = f32,
       .out = s8,
       .stat = f32,
       .statShape = {2, 4},
       .keyword = "x"},
      {.name = "f16 out in Quant", .form = Ada::kQuant, .out = f16, .stat = f32, .statShape = {2, 4}, .keyword = "out"},
      {.name = "f16 quantScale", .form = Ada::kQuant, .out = s8, .statShape = {2, 4}, .keyword = "quantScale"},
      {.name = "quantOffset given",
       .form = Ada::kQuant,
       .out = s8,
       .stat = f32,
       .statShape = {2, 4},
       .offset = true,
       .keyword = "quantOffsetOptional"},
      {.name = "quantScale shape", .form = Ada::kQuant, .out = s8, .stat = f32, .keyword = "quantScale"},
      {.name = "static quantMode",
       .form = Ada::kQuant,
       .out = s8,
       .stat = f32,
       .statShape = {2, 4},
       .mode = "static",
       .keyword = "quantMode"},
  };
  for (const AdaBad& bad : cases) {
    const Shape& qshape = bad.statShape;
    DeviceTensor x(bad.x, bad.xShape), scale(bad.scale, bad.scaleShape), shift(bad.x, bad.scaleShape),
        weight(bad.weight, bad.weightShape), bias(bad.form == Ada::kV1 ? bad.weight : bad.x, bad.weightShape),
        out(bad.out, bad.outShape), stat(bad.stat, qshape), offset(ACL_FLOAT, qshape);
    std::string mode = bad.mode;
    OpRun run;
    if (bad.form == Ada::kV1) {
      run = RunOp(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnAdaLayerNormGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(shift), a.Tensor(weight),
                                                     a.Tensor(bias), kEps, a.Tensor(out), w, e);
          },
          aclnnAdaLayerNorm);
    } else if (bad.form == Ada::kV2) {
      run = RunOp(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnAdaLayerNormV2GetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(shift), a.Tensor(weight),
                                                       a.Tensor(bias), kEps, a.Tensor(out), a.Tensor(stat), nullptr, w,
                                                       e);
          },
          aclnnAdaLayerNormV2);
    } else {
      run = RunOp(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnAdaLayerNormQuantGetWorkspaceSize(
                a.Tensor(x), a.Tensor(scale), a.Tensor(shift), a.Tensor(weight), nullptr, nullptr, kEps, mode.data(),
                a.Tensor(out), a.Tensor(stat), bad.offset ? a.Tensor(offset) : nullptr, w, e);
          },
          aclnnAdaLayerNormQuant);
    }
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(AddRmsNormCast, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x1, x2, gamma, y1, y2, rstd;
    Shape x2Shape, gammaShape, rstdShape;
    double eps;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {"f32 x1", f32, f32, f32, f32, f32, f32, {2, 8}, {8}, {2, 1}, 1e-6, kInvalid, "x1"},
      {"x2 dtype", f16, bf16, f16, f32, f16, f32, {2, 8}, {8}, {2, 1}, 1e-6, kInvalid, "x2"},
      {"gamma dtype", f16, f16, f32, f32, f16, f32, {2, 8}, {8}, {2, 1}, 1e-6, kInvalid, "gamma"},
      {"f16 y1Out", f16, f16, f16, f16, f16, f32, {2, 8}, {8}, {2, 1}, 1e-6, kInvalid, "y1Out"},
      {"f32 y2Out", f16, f16, f16, f32, f32, f32, {2, 8}, {8}, {2, 1}, 1e-6, kInvalid, "y2Out"},
      {"f16 rstdOut", f16, f16, f16, f32, f16, f16, {2, 8}, {8}, {2, 1}, 1e-6, kInvalid, "rstdOut"},
      {"x2 shape", f16, f16, f16, f32, f16, f32, {8, 2}, {8}, {2, 1}, 1e-6, kTiling, "x2"},
      {"gamma not trailing", f16, f16, f16, f32, f16, f32, {2, 8}, {2}, {2, 1}, 1e-6, kTiling, "gamma"},
      {"rstd shape", f16, f16, f16, f32, f16, f32, {2, 8}, {8}, {3, 1}, 1e-6, kTiling, "rstdOut"},
      {"negative epsilon", f16, f16, f16, f32, f16, f32, {2, 8}, {8}, {2, 1}, -1, kTiling, "epsilon"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x1, {2, 8}), x2(bad.x2, bad.x2Shape), gamma(bad.gamma, bad.gammaShape), y1(bad.y1, {2, 8}),
        y2(bad.y2, {2, 8}), rstd(bad.rstd, bad.rstdShape), xOut(bad.x1, {2, 8});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnAddRmsNormCastGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), bad.eps, a.Tensor(y1),
                                                     a.Tensor(y2), a.Tensor(rstd), a.Tensor(xOut), w, e);
        },
        aclnnAddRmsNormCast);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // An empty x1 needs an empty rstdOut.
  DeviceTensor x1(f16, {0, 8}), x2(f16, {0, 8}), gamma(f16, {8}), y1(f32, {0, 8}), y2(f16, {0, 8}), rstd(f32, {1, 1}),
      xOut(f16, {0, 8});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddRmsNormCastGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), 1e-6, a.Tensor(y1),
                                                   a.Tensor(y2), a.Tensor(rstd), a.Tensor(xOut), w, e);
      },
      aclnnAddRmsNormCast);
  EXPECT_EQ(run.phase1, kTiling) << Describe(run);
  EXPECT_NE(run.message.find("rstdOut"), std::string::npos) << run.message;
}

}  // namespace
}  // namespace canopy_test
