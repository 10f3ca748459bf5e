// RmsNorm, AddRmsNorm, FusedAddRmsNorm, LayerNorm (and its implMode / fast forms), AddLayerNorm, DeepNorm, GroupNorm
// and BatchNorm through the public C API against a float64 reference: every documented dtype combination, strided
// inputs and outputs, optional inputs and outputs null and given, empty tensors, rows long enough to split across
// chunks, a large mean (LayerNorm's two-pass variance), ggml's exact call patterns, and the rejections with their
// codes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_deep_norm.h"
#include "aclnnop/aclnn_fused_add_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

enum class Op { kRms, kAddRms, kFusedAddRms, kLayer, kLayerImpl, kFastLayer, kGroup, kAddLayer, kDeep };

struct NormCase {
  std::string name;
  Op op = Op::kRms;
  aclDataType dtype = ACL_FLOAT;
  aclDataType gammaDtype = ACL_FLOAT;
  Shape shape;
  Shape gammaShape;  // the normalised dims (LayerNorm's normalizedShape); GroupNorm: [C]
  Shape statShape;   // rstd (and mean) shape
  bool gamma = true, beta = false, mean = false, rstd = true, xOut = true;
  View view = View::kContiguous;
  View outView = View::kContiguous;
  int64_t group = 1;
  double eps = 1e-5;
  double offset = 0;  // added to every x (a large mean)
  // AddLayerNorm: biasOptional given (of gamma's shape, or x's with biasFull), x2's dtype when not x's.
  bool bias = false, biasFull = false;
  aclDataType x2Dtype = ACL_DT_UNDEFINED;
  double alpha = 1;  // DeepNorm: x' = alpha * x + gx; FusedAddRmsNorm: x1 * alpha + x2
};

// The second addend's dtype, and the dtype of y, xOut and bias (FLOAT when x1 and x2 differ: CANN's table).
aclDataType X2Dtype(const NormCase& c) { return c.x2Dtype == ACL_DT_UNDEFINED ? c.dtype : c.x2Dtype; }
aclDataType DataDtype(const NormCase& c) { return X2Dtype(c) == c.dtype ? c.dtype : ACL_FLOAT; }
bool Adds(Op op) { return op == Op::kAddRms || op == Op::kFusedAddRms || op == Op::kAddLayer || op == Op::kDeep; }

void PrintTo(const NormCase& c, std::ostream* os) { *os << c.name; }

bool IsRms(Op op) { return op == Op::kRms || op == Op::kAddRms || op == Op::kFusedAddRms; }

// The float64 reference of one normalisation.
struct Reference {
  std::vector<double> y, sum, mean, rstd, scale;  // scale: |x - mean| * rstd * |gamma| + |beta|, for tolerances
};

Reference Compute(const NormCase& c, const Values& x, const Values* x2, const Values* gamma, const Values* beta) {
  const int64_t total = NumElements(c.shape);
  int64_t rows, length, groups = 1, repeat = 1;
  if (c.op == Op::kGroup) {
    const int64_t n = c.shape[0], channels = c.shape[1];
    repeat = total / std::max<int64_t>(n * channels, 1);
    rows = n * c.group;
    length = channels / c.group * repeat;
    groups = c.group;
  } else {
    length = NumElements(c.gammaShape);
    rows = length == 0 ? 0 : total / length;
  }
  Reference ref;
  ref.y.resize(static_cast<size_t>(total));
  ref.sum.resize(static_cast<size_t>(total));
  ref.scale.resize(static_cast<size_t>(total));
  for (int64_t r = 0; r < rows; ++r) {
    double m = 0, sq = 0;
    for (int64_t j = 0; j < length; ++j) {
      const size_t i = static_cast<size_t>(r * length + j);
      const double v = x[i].real() + (x2 != nullptr ? (*x2)[i].real() : 0.0);
      ref.sum[i] = v;
      m += v;
      sq += v * v;
    }
    m /= static_cast<double>(length);
    double var = 0;
    for (int64_t j = 0; j < length; ++j) {
      const double dev = ref.sum[static_cast<size_t>(r * length + j)] - m;
      var += dev * dev;
    }
    var /= static_cast<double>(length);
    const double rstd =
        IsRms(c.op) ? 1 / std::sqrt(sq / static_cast<double>(length) + c.eps) : 1 / std::sqrt(var + c.eps);
    const double center = IsRms(c.op) ? 0 : m;
    for (int64_t j = 0; j < length; ++j) {
      const size_t i = static_cast<size_t>(r * length + j);
      const size_t channel = static_cast<size_t>((r % groups) * (length / repeat) + j / repeat);
      const double g = gamma != nullptr ? (*gamma)[channel].real() : 1.0;
      const double b = beta != nullptr ? (*beta)[channel].real() : 0.0;
      ref.y[i] = (ref.sum[i] - center) * rstd * g + b;
      ref.scale[i] = std::abs(ref.sum[i] - center) * rstd * std::abs(g) + std::abs(b) + std::abs(ref.sum[i]) * rstd;
    }
    ref.mean.push_back(m);
    ref.rstd.push_back(rstd);
  }
  return ref;
}

Expected Near(const std::vector<double>& values, const std::vector<double>& scale, aclDataType dtype, double ulps) {
  Expected want;
  const double u = std::max(UnitRoundoff(dtype), 0x1p-24);
  for (size_t i = 0; i < values.size(); ++i) {
    want.values.push_back(ConvertValue(values[i], dtype));
    want.tolerance.push_back(ulps * u * (std::abs(values[i]) + (scale.empty() ? 0 : scale[i])) + u * 1e-3);
  }
  return want;
}

// Output tensors with poisoned storage and a record of it.
struct OutTensor {
  std::optional<DeviceTensor> t;
  std::vector<uint8_t> before;
  void Make(aclDataType dtype, const Shape& shape, View view) {
    t.emplace(dtype, shape, view);
    t->Poison();
    before = t->DownloadBytes();
  }
};

aclTensor* Or(OpArgs& args, const std::optional<DeviceTensor>& t) { return t ? args.Tensor(*t) : nullptr; }

OpRun RunNorm(const NormCase& c, const DeviceTensor& x, const std::optional<DeviceTensor>& x2,
              const std::optional<DeviceTensor>& gamma, const std::optional<DeviceTensor>& beta, const OutTensor& y,
              const OutTensor& mean, const OutTensor& rstd, const OutTensor& xOut,
              const std::optional<DeviceTensor>& bias = std::nullopt) {
  switch (c.op) {
    case Op::kDeep:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnDeepNormGetWorkspaceSize(a.Tensor(x), Or(a, x2), Or(a, beta), Or(a, gamma), c.alpha, c.eps,
                                                 Or(a, mean.t), Or(a, rstd.t), Or(a, y.t), ws, e);
          },
          aclnnDeepNorm);
    case Op::kAddLayer:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnAddLayerNormGetWorkspaceSize(a.Tensor(x), Or(a, x2), Or(a, gamma), Or(a, beta), Or(a, bias),
                                                     c.eps, true, Or(a, y.t), Or(a, mean.t), Or(a, rstd.t),
                                                     Or(a, xOut.t), ws, e);
          },
          aclnnAddLayerNorm);
    case Op::kRms:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnRmsNormGetWorkspaceSize(a.Tensor(x), Or(a, gamma), c.eps, Or(a, y.t), Or(a, rstd.t), ws, e);
          },
          aclnnRmsNorm);
    case Op::kAddRms:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnAddRmsNormGetWorkspaceSize(a.Tensor(x), Or(a, x2), Or(a, gamma), c.eps, Or(a, y.t),
                                                   Or(a, rstd.t), Or(a, xOut.t), ws, e);
          },
          aclnnAddRmsNorm);
    case Op::kFusedAddRms:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnFusedAddRmsNormGetWorkspaceSize(a.Tensor(x), Or(a, x2), Or(a, gamma), c.eps, c.alpha,
                                                        Or(a, y.t), Or(a, rstd.t), Or(a, xOut.t), ws, e);
          },
          aclnnFusedAddRmsNorm);
    case Op::kLayer:
    case Op::kLayerImpl:
    case Op::kFastLayer: {
      const Phase2 phase2 = c.op == Op::kLayer       ? aclnnLayerNorm
                            : c.op == Op::kLayerImpl ? aclnnLayerNormWithImplMode
                                                     : aclnnFastLayerNorm;
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            aclIntArray* dims = a.IntArray(c.gammaShape);
            if (c.op == Op::kLayerImpl) {
              return aclnnLayerNormWithImplModeGetWorkspaceSize(a.Tensor(x), dims, Or(a, gamma), Or(a, beta), c.eps,
                                                                Or(a, y.t), Or(a, mean.t), Or(a, rstd.t), 0, ws, e);
            }
            const auto phase1 =
                c.op == Op::kLayer ? aclnnLayerNormGetWorkspaceSize : aclnnFastLayerNormGetWorkspaceSize;
            return phase1(a.Tensor(x), dims, Or(a, gamma), Or(a, beta), c.eps, Or(a, y.t), Or(a, mean.t), Or(a, rstd.t),
                          ws, e);
          },
          phase2);
    }
    case Op::kGroup:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            const int64_t hxw = NumElements(Shape(c.shape.begin() + 2, c.shape.end()));
            return aclnnGroupNormGetWorkspaceSize(a.Tensor(x), Or(a, gamma), Or(a, beta), c.shape[0], c.shape[1], hxw,
                                                  c.group, c.eps, Or(a, y.t), Or(a, mean.t), Or(a, rstd.t), ws, e);
          },
          aclnnGroupNorm);
  }
  return {};
}

class NormTest : public ::testing::TestWithParam<NormCase> {};

TEST_P(NormTest, MatchesFloat64Reference) {
  const NormCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const Range range{-2, 2, 0.05};
  DeviceTensor x(c.dtype, c.shape, c.view);
  Values xValues = x.FillRandom(rng, range);
  if (c.offset != 0) {
    for (Value& v : xValues) v = ConvertValue(v + c.offset, c.dtype);
    x.WriteView(xValues);
  }
  std::optional<DeviceTensor> x2, gamma, beta, bias;
  Values x2Values, gammaValues, betaValues;
  if (Adds(c.op)) {
    x2.emplace(X2Dtype(c), c.shape, c.view);
    x2Values = x2->FillRandom(rng, range);
  }
  if (c.bias) {
    // The reference adds the bias into x2's values (the kernel adds them in f32 first).
    bias.emplace(DataDtype(c), c.biasFull ? c.shape : c.gammaShape);
    const Values biasValues = bias->FillRandom(rng, range);
    for (size_t i = 0; i < x2Values.size(); ++i) x2Values[i] += biasValues[i % biasValues.size()];
  }
  const Shape channelShape = c.op == Op::kGroup ? Shape{c.shape[1]} : c.gammaShape;
  if (c.gamma) {
    gamma.emplace(c.gammaDtype, channelShape);
    gammaValues = gamma->FillRandom(rng, Range{0.5, 1.5});
  }
  if (c.beta) {
    beta.emplace(c.gammaDtype, channelShape);
    betaValues = beta->FillRandom(rng, Range{-1, 1});
  }
  const aclDataType statDtype = IsRms(c.op) || c.op == Op::kAddLayer || c.op == Op::kDeep ? ACL_FLOAT : c.dtype;
  const aclDataType data = DataDtype(c);
  OutTensor y, mean, rstd, xOut;
  y.Make(data, c.shape, c.outView);
  if (c.mean) mean.Make(statDtype, c.statShape, c.outView);
  if (c.rstd) rstd.Make(statDtype, c.statShape, c.outView);
  if (Adds(c.op) && c.op != Op::kDeep && c.xOut) xOut.Make(data, c.shape, c.outView);

  const OpRun run = RunNorm(c, x, x2, gamma, beta, y, mean, rstd, xOut, bias);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values scaled = xValues;  // DeepNorm's alpha * x (x itself must not change)
  for (Value& v : scaled) v *= c.alpha;
  Reference ref =
      Compute(c, scaled, x2 ? &x2Values : nullptr, c.gamma ? &gammaValues : nullptr, c.beta ? &betaValues : nullptr);
  // The kernel adds in f32 (x2 + bias, then x1): errors scale with the addends, not with their sum.
  // FusedAddRmsNorm's f16 kernel rounds x1 * scale to f16 before it adds x2.
  std::vector<double> addends;
  if (c.op == Op::kAddLayer || c.op == Op::kDeep || c.op == Op::kFusedAddRms) {
    const size_t length = static_cast<size_t>(NumElements(c.gammaShape));
    for (size_t i = 0; i < xValues.size(); ++i) {
      const double magnitude = std::abs(scaled[i]) + std::abs(x2Values[i]) + (c.bias ? 2.0 : 0.0);
      addends.push_back(magnitude);
      ref.scale[i] += 2 * magnitude * ref.rstd[i / length];
    }
  }
  ExpectNear(y.t->ReadView(), Near(ref.y, ref.scale, data, 8), c.name + " y");
  ExpectOutsideViewUnchanged(*y.t, y.before, "y storage");
  if (c.rstd) {
    ExpectNear(rstd.t->ReadView(), Near(ref.rstd, {}, statDtype, 4), c.name + " rstd");
    ExpectOutsideViewUnchanged(*rstd.t, rstd.before, "rstd storage");
  }
  if (c.mean) {
    std::vector<double> scale;
    for (size_t r = 0; r < ref.mean.size(); ++r) scale.push_back(std::abs(ref.mean[r]) + 1 / ref.rstd[r]);
    ExpectNear(mean.t->ReadView(), Near(ref.mean, scale, statDtype, 4), c.name + " mean");
  }
  if (xOut.t) {
    // With a bias, x2 + bias rounds once in f32 before x1 is added.
    ExpectNear(xOut.t->ReadView(), Near(ref.sum, addends, data, 1), c.name + " xOut");
    ExpectOutsideViewUnchanged(*xOut.t, xOut.before, "xOut storage");
  }
  ExpectExact(x.ReadView(), xValues, "x must not change");
}

// The scaled-add norms (DeepNorm, FusedAddRmsNorm): `x` as given, then with alpha 2.5 over two normalised
// dims in stepped views, transposed in and reversed out, and rows of `longRow` elements.
void PushScaledAddCases(std::vector<NormCase>& cases, NormCase x, const std::string& n, int64_t longRow) {
  cases.push_back(x);
  x.name = n + "two_dims_stepped";
  x.shape = {4, 3, 12};
  x.gammaShape = {3, 12};
  x.statShape = {4, 1, 1};
  x.view = x.outView = View::kStepped;
  x.alpha = 2.5;
  cases.push_back(x);
  x.name = n + "transposed";
  x.shape = {6, 7};
  x.gammaShape = {7};
  x.statShape = {6, 1};
  x.view = View::kTransposed;
  x.outView = View::kReversed;
  cases.push_back(x);
  x.name = n + "long_rows";
  x.shape = {2, longRow};
  x.gammaShape = {longRow};
  x.statShape = {2, 1};
  x.view = x.outView = View::kContiguous;
  cases.push_back(x);
}

std::vector<NormCase> NormCases() {
  std::vector<NormCase> cases;
  const View s = View::kStepped, t = View::kTransposed, r = View::kReversed, o = View::kOffset;
  // RmsNorm: CANN's dtype table (x, gamma): f32/f32, f16/f32, f16/f16, bf16/f32, bf16/bf16.
  const std::vector<std::pair<aclDataType, aclDataType>> rmsDtypes = {{ACL_FLOAT, ACL_FLOAT},
                                                                      {ACL_FLOAT16, ACL_FLOAT},
                                                                      {ACL_FLOAT16, ACL_FLOAT16},
                                                                      {ACL_BF16, ACL_FLOAT},
                                                                      {ACL_BF16, ACL_BF16}};
  for (const auto& [dtype, gammaDtype] : rmsDtypes) {
    const std::string n = std::string("rms_") + Name(dtype) + "_gamma_" + Name(gammaDtype) + "_";
    cases.push_back({n + "last_dim", Op::kRms, dtype, gammaDtype, {3, 5, 16}, {16}, {3, 5, 1}});
    cases.push_back({n + "two_dims", Op::kRms, dtype, gammaDtype, {2, 3, 4, 8}, {4, 8}, {2, 3, 1, 1}});
    cases.push_back({n + "stepped",
                     Op::kRms,
                     dtype,
                     gammaDtype,
                     {4, 6, 10},
                     {10},
                     {4, 6, 1},
                     true,
                     false,
                     false,
                     true,
                     true,
                     s,
                     s});
    cases.push_back(
        {n + "transposed", Op::kRms, dtype, gammaDtype, {6, 7}, {7}, {6, 1}, true, false, false, true, true, t, r});
    cases.push_back({n + "long_rows", Op::kRms, dtype, gammaDtype, {2, 70001}, {70001}, {2, 1}});
  }
  // ggml: x [ne3, ne2, ne1, ne0], gamma [ne0] (dtype of x), rstd [ne3, ne2, ne1] f32.
  cases.push_back({"rms_ggml_f32",
                   Op::kRms,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   {2, 3, 5, 64},
                   {64},
                   {2, 3, 5},
                   true,
                   false,
                   false,
                   true,
                   true,
                   View::kContiguous,
                   View::kContiguous,
                   1,
                   1e-6});
  cases.push_back({"rms_ggml_f16", Op::kRms, ACL_FLOAT16, ACL_FLOAT16, {1, 1, 7, 4096}, {4096}, {1, 1, 7}});
  cases.push_back({"rms_empty_rows", Op::kRms, ACL_FLOAT, ACL_FLOAT, {0, 8}, {8}, {0, 1}});
  cases.push_back({"rms_rank1", Op::kRms, ACL_FLOAT, ACL_FLOAT, {33}, {33}, {1}, true, false, false, true, true, o, o});

  // AddRmsNorm: with rstdOut and xOut (f32, f16, bf16), xOut only or neither (16-bit floats).
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string("addrms_") + Name(dtype) + "_";
    cases.push_back({n + "full", Op::kAddRms, dtype, dtype, {3, 5, 16}, {16}, {3, 5, 1}});
    cases.push_back({n + "stepped",
                     Op::kAddRms,
                     dtype,
                     dtype,
                     {4, 3, 12},
                     {3, 12},
                     {4, 1, 1},
                     true,
                     false,
                     false,
                     true,
                     true,
                     s,
                     s});
    cases.push_back({n + "long_rows", Op::kAddRms, dtype, dtype, {3, 40000}, {40000}, {3, 1}});
    // AddLayerNorm: gamma and beta of x's dtype and FLOAT, bias absent / gamma-shaped / x-shaped, views.
    const std::vector<aclDataType> gammaDtypes =
        dtype == ACL_FLOAT ? std::vector<aclDataType>{ACL_FLOAT} : std::vector<aclDataType>{dtype, ACL_FLOAT};
    for (aclDataType gammaDtype : gammaDtypes) {
      const std::string l = std::string("addlayer_") + Name(dtype) + "_gamma_" + Name(gammaDtype) + "_";
      NormCase x{l + "bias", Op::kAddLayer, dtype, gammaDtype, {3, 5, 16}, {16}, {3, 5, 1}};
      x.beta = x.mean = true;
      x.bias = true;
      cases.push_back(x);
      x.name = l + "no_bias_two_dims_stepped";
      x.bias = false;
      x.shape = {4, 3, 12};
      x.gammaShape = {3, 12};
      x.statShape = {4, 1, 1};
      x.view = x.outView = s;
      cases.push_back(x);
      x.name = l + "full_bias_transposed";
      x.bias = x.biasFull = true;
      x.shape = {6, 7};
      x.gammaShape = {7};
      x.statShape = {6, 1};
      x.view = t;
      x.outView = r;
      cases.push_back(x);
      x.name = l + "long_rows";
      x.bias = x.biasFull = false;
      x.shape = {2, 40000};
      x.gammaShape = {40000};
      x.statShape = {2, 1};
      x.view = x.outView = View::kContiguous;
      cases.push_back(x);
    }
    if (dtype == ACL_FLOAT) continue;
    cases.push_back({n + "x_out_only", Op::kAddRms, dtype, dtype, {4, 24}, {24}, {}, true, false, false, false});
    cases.push_back({n + "neither", Op::kAddRms, dtype, dtype, {4, 24}, {1, 24}, {}, true, false, false, false, false});
  }
  // ggml's fused add + rms_norm: rstd [ne3, ne2, ne1, 1].
  cases.push_back({"addrms_ggml_f32",
                   Op::kAddRms,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   {1, 2, 3, 128},
                   {128},
                   {1, 2, 3, 1},
                   true,
                   false,
                   false,
                   true,
                   true,
                   View::kContiguous,
                   View::kContiguous,
                   1,
                   1e-6});
  cases.push_back({"addrms_empty", Op::kAddRms, ACL_FLOAT16, ACL_FLOAT16, {0, 8}, {8}, {0, 1}});
  // FusedAddRmsNorm: every dtype (all of x1's), scale on x1, one and two normalised dims, views, the longest
  // row CANN's kernel takes (10240 FLOAT, 12288 16-bit elements), rank 1; rstdOut is x1's leading dims then 1s.
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string("fused_addrms_") + Name(dtype) + "_";
    NormCase x{n + "last_dim", Op::kFusedAddRms, dtype, dtype, {3, 5, 16}, {16}, {3, 5, 1}};
    x.alpha = -0.5;
    PushScaledAddCases(cases, x, n, dtype == ACL_FLOAT ? 10240 : 12288);
    x.name = n + "rank1_offset";
    x.shape = x.gammaShape = {33};
    x.statShape = {1};
    x.view = x.outView = o;
    cases.push_back(x);
  }
  // DeepNorm: every dtype (all of x's), alpha scaling x, one and two normalised dims, views, long rows, empty.
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string("deep_") + Name(dtype) + "_";
    NormCase x{n + "last_dim", Op::kDeep, dtype, dtype, {3, 5, 16}, {16}, {3, 5, 1}};
    x.beta = x.mean = true;
    x.alpha = 0.3;
    PushScaledAddCases(cases, x, n, 40000);
  }
  {
    NormCase x{"deep_f32_empty_rows", Op::kDeep, ACL_FLOAT, ACL_FLOAT, {0, 8}, {8}, {0, 1}};
    x.beta = x.mean = true;
    cases.push_back(x);
  }
  // AddLayerNorm with x1 and x2 of two dtypes, one FLOAT: every other tensor FLOAT (CANN's table).
  for (const auto& [x1Dtype, x2Dtype] : {std::pair{ACL_FLOAT16, ACL_FLOAT}, std::pair{ACL_FLOAT, ACL_BF16}}) {
    NormCase x{std::string("addlayer_mixed_") + Name(x1Dtype) + "_" + Name(x2Dtype),
               Op::kAddLayer,
               x1Dtype,
               ACL_FLOAT,
               {3, 5, 16},
               {16},
               {3, 5, 1}};
    x.beta = x.mean = x.bias = true;
    x.x2Dtype = x2Dtype;
    cases.push_back(x);
  }

  // LayerNorm: weight / bias null or given (input's dtype or f32), mean / rstd null or given.
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    // weight and bias in input's dtype, or FLOAT (the same for f32 input).
    const std::vector<aclDataType> affines =
        dtype == ACL_FLOAT ? std::vector<aclDataType>{ACL_FLOAT} : std::vector<aclDataType>{dtype, ACL_FLOAT};
    for (aclDataType affine : affines) {
      const std::string n = std::string("layer_") + Name(dtype) + "_affine_" + Name(affine) + "_";
      cases.push_back(
          {n + "all_outputs", Op::kLayer, dtype, affine, {3, 5, 16}, {16}, {3, 5, 1}, true, true, true, true});
      cases.push_back({n + "two_dims_stepped",
                       Op::kLayer,
                       dtype,
                       affine,
                       {4, 6, 10},
                       {6, 10},
                       {4, 1, 1},
                       true,
                       true,
                       true,
                       true,
                       true,
                       s,
                       s});
      cases.push_back({n + "weight_only_transposed",
                       Op::kLayer,
                       dtype,
                       affine,
                       {6, 9},
                       {9},
                       {6, 1},
                       true,
                       false,
                       false,
                       true,
                       true,
                       t,
                       r});
      cases.push_back({n + "bias_only", Op::kLayer, dtype, affine, {5, 12}, {12}, {5, 1}, false, true, true, false});
      if (affine == dtype) {
        cases.push_back(
            {n + "long_rows", Op::kLayer, dtype, affine, {2, 70001}, {70001}, {2, 1}, true, true, true, true});
      }
    }
  }
  // ggml: normalizedShape [ne0], no weight, bias, mean or rstd.
  cases.push_back(
      {"layer_ggml_f32", Op::kLayer, ACL_FLOAT, ACL_FLOAT, {2, 3, 4, 96}, {96}, {}, false, false, false, false});
  cases.push_back({"layer_large_mean_f32",
                   Op::kLayer,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   {4, 50000},
                   {50000},
                   {4, 1},
                   false,
                   false,
                   true,
                   true,
                   true,
                   View::kContiguous,
                   View::kContiguous,
                   1,
                   1e-5,
                   1000});
  cases.push_back(
      {"layer_impl_f16", Op::kLayerImpl, ACL_FLOAT16, ACL_FLOAT16, {3, 20}, {20}, {3, 1}, true, true, true, true});
  cases.push_back(
      {"fast_layer_bf16", Op::kFastLayer, ACL_BF16, ACL_BF16, {3, 20}, {20}, {3, 1}, true, true, true, true});
  cases.push_back({"layer_empty_rows", Op::kLayer, ACL_FLOAT, ACL_FLOAT, {0, 7}, {7}, {0, 1}, true, true, true, true});

  // GroupNorm: [N, C, ...] in groups; gamma / beta null or given.
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string("group_") + Name(dtype) + "_";
    cases.push_back({n + "affine",
                     Op::kGroup,
                     dtype,
                     dtype,
                     {2, 6, 4, 5},
                     {},
                     {2, 3},
                     true,
                     true,
                     true,
                     true,
                     true,
                     View::kContiguous,
                     View::kContiguous,
                     3});
    cases.push_back({n + "plain_stepped",
                     Op::kGroup,
                     dtype,
                     dtype,
                     {3, 4, 7},
                     {},
                     {3, 2},
                     false,
                     false,
                     true,
                     true,
                     true,
                     s,
                     s,
                     2});
    cases.push_back({n + "rank2",
                     Op::kGroup,
                     dtype,
                     dtype,
                     {5, 8},
                     {},
                     {5, 4},
                     true,
                     false,
                     true,
                     true,
                     true,
                     View::kContiguous,
                     View::kContiguous,
                     4});
    cases.push_back({n + "long_groups",
                     Op::kGroup,
                     dtype,
                     dtype,
                     {2, 4, 200, 100},
                     {},
                     {2, 2},
                     true,
                     true,
                     true,
                     true,
                     true,
                     View::kContiguous,
                     View::kContiguous,
                     2});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, NormTest, ::testing::ValuesIn(NormCases()),
                         [](const ::testing::TestParamInfo<NormCase>& info) { return SanitizeName(info.param.name); });

// ggml's group_norm: gamma and beta null; meanOut and rstdOut [N, group] f32 whose
// buffers overlap (it books N * group bytes for each of the two f32 tensors).
TEST(GroupNorm, GgmlPatternWithOverlappingStatistics) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 2, c = 8, h = 3, w = 5, group = 4;
  DeviceTensor x(ACL_FLOAT, {n, c, h, w});
  const Values xValues = x.FillRandom(rng, Range{-2, 2});
  DeviceTensor y(ACL_FLOAT, x.shape());
  DeviceBuffer stats(static_cast<size_t>(n * group * 2 * 4));
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        const int64_t shape[] = {n, group};
        const int64_t strides[] = {group, 1};
        aclTensor* mean = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, stats.get());
        aclTensor* rstd = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2,
                                          static_cast<char*>(stats.get()) + n * group);
        const aclnnStatus status = aclnnGroupNormGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, n, c, h * w, group,
                                                                  1e-6, a.Tensor(y), mean, rstd, ws, e);
        aclDestroyTensor(mean);
        aclDestroyTensor(rstd);
        return status;
      },
      aclnnGroupNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  NormCase nc{"ggml", Op::kGroup, ACL_FLOAT, ACL_FLOAT, x.shape(), {}, {}, false, false};
  nc.group = group;
  nc.eps = 1e-6;
  const Reference ref = Compute(nc, xValues, nullptr, nullptr, nullptr);
  ExpectNear(y.ReadView(), Near(ref.y, ref.scale, ACL_FLOAT, 8), "y");
}

// An empty group (HxW 0): meanOut 0 and rstdOut NaN, as CANN fills them.
TEST(GroupNorm, EmptyGroupsFillStatistics) {
  DeviceTensor x(ACL_FLOAT, {2, 4, 0});
  DeviceTensor y(ACL_FLOAT, x.shape());
  DeviceTensor mean(ACL_FLOAT, {2, 2}), rstd(ACL_FLOAT, {2, 2});
  mean.Poison();
  rstd.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnGroupNormGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, 2, 4, 0, 2, 1e-5, a.Tensor(y),
                                              a.Tensor(mean), a.Tensor(rstd), ws, e);
      },
      aclnnGroupNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ExpectExact(mean.ReadView(), Values(4, 0.0), "mean");
  ExpectExact(rstd.ReadView(), Values(4, nan), "rstd");
}

// LayerNorm over an empty normalised dim: mean 0, rstd NaN.
TEST(LayerNorm, EmptyNormalisedDimFillsStatistics) {
  DeviceTensor x(ACL_FLOAT16, {3, 0});
  DeviceTensor y(ACL_FLOAT16, x.shape());
  DeviceTensor mean(ACL_FLOAT16, {3, 1}), rstd(ACL_FLOAT16, {3, 1});
  mean.Poison();
  rstd.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnLayerNormGetWorkspaceSize(a.Tensor(x), a.IntArray({0}), nullptr, nullptr, 1e-5, a.Tensor(y),
                                              a.Tensor(mean), a.Tensor(rstd), ws, e);
      },
      aclnnLayerNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(mean.ReadView(), Values(3, 0.0), "mean");
  ExpectExact(rstd.ReadView(), Values(3, std::numeric_limits<double>::quiet_NaN()), "rstd");
}

// RmsNorm in place (yOut is x): the result is computed from x's values before the op.
TEST(RmsNorm, InPlaceOutput) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_FLOAT, {4, 40});
  const Values xValues = x.FillRandom(rng, Range{-2, 2, 0.05});
  DeviceTensor gamma(ACL_FLOAT, {40});
  const Values gammaValues = gamma.FillRandom(rng, Range{0.5, 1.5});
  DeviceTensor rstd(ACL_FLOAT, {4, 1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), 1e-6, a.Tensor(x), a.Tensor(rstd), ws, e);
      },
      aclnnRmsNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  NormCase nc{"inplace", Op::kRms, ACL_FLOAT, ACL_FLOAT, {4, 40}, {40}, {4, 1}};
  nc.eps = 1e-6;
  const Reference ref = Compute(nc, xValues, nullptr, &gammaValues, nullptr);
  ExpectNear(x.ReadView(), Near(ref.y, ref.scale, ACL_FLOAT, 8), "y in x");
}

// ---- rejections -------------------------------------------------------------------------------

struct RmsBad {
  const char* name;
  aclDataType x, gamma, y, rstd;
  Shape xShape, gammaShape, yShape, rstdShape;
  aclnnStatus status;
  const char* keyword;
};

// CANN's example program (ops-nn norm/rms_norm): x [2, 16], gamma [16], rstd
// [2, 1] (x's leading dims, 1 for gamma's: one value per row, as Canopy
// requires and CANN's document states), epsilon 1e-6.
TEST(RmsNorm, CannExampleProgram) {
  DeviceTensor x(ACL_FLOAT, {2, 16}), gamma(ACL_FLOAT, {16}), y(ACL_FLOAT, {2, 16}), rstd(ACL_FLOAT, {2, 1});
  Values row;
  for (int i = 0; i < 16; ++i) row.push_back(i % 8);
  Values xs = row;
  xs.insert(xs.end(), row.begin(), row.end());
  x.WriteView(xs);
  gamma.WriteView(row);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), 1e-6, a.Tensor(y), a.Tensor(rstd), ws, e);
      },
      aclnnRmsNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double r = 1 / std::sqrt(140.0 / 8 + 1e-6);  // mean of squares of 0..7, twice
  Expected wantY, wantRstd{{r, r}, {4 * 0x1p-24 * r, 4 * 0x1p-24 * r}};
  for (const Value& v : xs) {
    const double want = v.real() * r * v.real();  // gamma holds the same values as each row
    wantY.values.push_back(want);
    wantY.tolerance.push_back(4 * 0x1p-24 * std::abs(want));
  }
  ExpectNear(y.ReadView(), wantY, "yOut");
  ExpectNear(rstd.ReadView(), wantRstd, "rstdOut");
}

TEST(RmsNorm, Rejections) {
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16;
  const RmsBad cases[] = {
      {"f64 x", ACL_DOUBLE, f32, ACL_DOUBLE, f32, {2, 4}, {4}, {2, 4}, {2, 1}, kInvalid, "x"},
      {"f16 gamma for f32 x", f32, f16, f32, f32, {2, 4}, {4}, {2, 4}, {2, 1}, kInvalid, "gamma"},
      {"bf16 gamma for f16 x", f16, bf16, f16, f32, {2, 4}, {4}, {2, 4}, {2, 1}, kInvalid, "gamma"},
      {"y dtype", f16, f16, f32, f32, {2, 4}, {4}, {2, 4}, {2, 1}, kInvalid, "yOut"},
      {"f16 rstd", f16, f16, f16, f16, {2, 4}, {4}, {2, 4}, {2, 1}, kInvalid, "rstdOut"},
      {"rank-0 x", f32, f32, f32, f32, {}, {1}, {}, {}, kTiling, "x"},
      {"gamma not trailing", f32, f32, f32, f32, {2, 4}, {2}, {2, 4}, {2, 1}, kTiling, "gamma"},
      {"gamma longer than x", f32, f32, f32, f32, {4}, {1, 4}, {4}, {1}, kTiling, "gamma"},
      {"empty gamma", f32, f32, f32, f32, {2, 0}, {0}, {2, 0}, {2, 1}, kTiling, "gamma"},
      {"y shape", f32, f32, f32, f32, {2, 4}, {4}, {4, 2}, {2, 1}, kTiling, "yOut"},
      {"rstd dim", f32, f32, f32, f32, {2, 4}, {4}, {2, 4}, {3, 1}, kTiling, "rstdOut"},
      {"rstd count", f32, f32, f32, f32, {2, 4}, {4}, {2, 4}, {1, 1}, kTiling, "rstdOut"},
      {"rstd rank", f32, f32, f32, f32, {2, 4}, {4}, {2, 4}, {2, 1, 1}, kTiling, "rstdOut"},
  };
  for (const RmsBad& bad : cases) {
    DeviceTensor x(bad.x, bad.xShape), gamma(bad.gamma, bad.gammaShape), y(bad.y, bad.yShape),
        rstd(bad.rstd, bad.rstdShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnRmsNormGetWorkspaceSize(a.Tensor(x), a.Tensor(gamma), 1e-6, a.Tensor(y), a.Tensor(rstd), ws, e);
        },
        aclnnRmsNorm);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(AddRmsNorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x1, x2, gamma, y;
    bool rstd, xOut;
    Shape x2Shape, gammaShape;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {"rstd without xOut", f16, f16, f16, f16, true, false, {2, 4}, {4}, ACLNN_ERR_PARAM_NULLPTR, "xOut"},
      {"f32 without rstd", f32, f32, f32, f32, false, true, {2, 4}, {4}, kInvalid, "x1"},
      {"s32 x1", ACL_INT32, ACL_INT32, ACL_INT32, ACL_INT32, true, true, {2, 4}, {4}, kInvalid, "x1"},
      {"x2 dtype", f16, f32, f16, f16, true, true, {2, 4}, {4}, kInvalid, "x2"},
      {"gamma dtype", f16, f16, f32, f16, true, true, {2, 4}, {4}, kInvalid, "gamma"},
      {"y dtype", f16, f16, f16, f32, true, true, {2, 4}, {4}, kInvalid, "yOut"},
      {"x2 shape", f16, f16, f16, f16, true, true, {4, 2}, {4}, kInvalid, "x2"},
      {"gamma shape", f16, f16, f16, f16, true, true, {2, 4}, {3}, kInvalid, "gamma"},
      {"gamma rank 3 without rstd", f16, f16, f16, f16, false, true, {2, 4}, {1, 1, 4}, kInvalid, "gamma"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x1, {2, 4}), x2(bad.x2, bad.x2Shape), gamma(bad.gamma, bad.gammaShape), y(bad.y, {2, 4}),
        rstd(ACL_FLOAT, {2, 1}), xOut(bad.x1, {2, 4});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnAddRmsNormGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), 1e-6, a.Tensor(y),
                                                 bad.rstd ? a.Tensor(rstd) : nullptr,
                                                 bad.xOut ? a.Tensor(xOut) : nullptr, ws, e);
        },
        aclnnAddRmsNorm);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

// CANN's example program (ops-nn experimental/norm/fused_add_rms_norm): x1 = x2 = gamma rows of 0..7 twice,
// scale 0.5, epsilon 1e-6, rstdOut [2, 1]: x = 1.5 x1, y = x / sqrt(mean(x^2) + eps) * gamma.
TEST(FusedAddRmsNorm, CannExampleProgram) {
  DeviceTensor x1(ACL_FLOAT, {2, 16}), x2(ACL_FLOAT, {2, 16}), gamma(ACL_FLOAT, {16}), y(ACL_FLOAT, {2, 16}),
      rstd(ACL_FLOAT, {2, 1}), x(ACL_FLOAT, {2, 16});
  Values row;
  for (int i = 0; i < 16; ++i) row.push_back(i % 8);
  Values xs = row;
  xs.insert(xs.end(), row.begin(), row.end());
  x1.WriteView(xs);
  x2.WriteView(xs);
  gamma.WriteView(row);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnFusedAddRmsNormGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), 1e-6, 0.5, a.Tensor(y),
                                                    a.Tensor(rstd), a.Tensor(x), ws, e);
      },
      aclnnFusedAddRmsNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double r = 1 / std::sqrt(1.5 * 1.5 * 140.0 / 8 + 1e-6);  // 1.5 times 0..7, twice
  Expected wantY, wantX, wantRstd{{r, r}, {4 * 0x1p-24 * r, 4 * 0x1p-24 * r}};
  for (const Value& v : xs) {
    const double want = 1.5 * v.real() * r * v.real();
    wantY.values.push_back(want);
    wantY.tolerance.push_back(4 * 0x1p-24 * std::abs(want));
    wantX.values.push_back(1.5 * v.real());
    wantX.tolerance.push_back(0);
  }
  ExpectNear(y.ReadView(), wantY, "yOut");
  ExpectNear(x.ReadView(), wantX, "xOut");
  ExpectNear(rstd.ReadView(), wantRstd, "rstdOut");
}

// CANN generates FusedAddRmsNorm's aclnn entry from its op definition: dtypes outside the table are
// 161002; its tiling rejects the shapes, an empty x1, a negative epsilon and rows longer than a UB tile.
TEST(FusedAddRmsNorm, Rejections) {
  struct Spec {
    aclDataType x1 = ACL_FLOAT, x2 = ACL_FLOAT, gamma = ACL_FLOAT, y = ACL_FLOAT, rstd = ACL_FLOAT, x = ACL_FLOAT;
    Shape x1Shape{2, 4}, x2Shape{2, 4}, gammaShape{4}, yShape{2, 4}, rstdShape{2, 1}, xShape{2, 4};
    double eps = 1e-6;
  };
  struct Bad {
    const char* name;
    std::function<void(Spec&)> change;
    aclnnStatus status;
    const char* keyword;
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const aclDataType f16 = ACL_FLOAT16;
  const std::vector<Bad> cases = {
      {"f64 x1", [](Spec& s) { s.x1 = s.x2 = s.gamma = s.y = s.x = ACL_DOUBLE; }, kInvalid, "x1"},
      {"s32 x1", [](Spec& s) { s.x1 = s.x2 = s.gamma = s.y = s.x = ACL_INT32; }, kInvalid, "x1"},
      {"x2 dtype", [&](Spec& s) { s.x2 = f16; }, kInvalid, "x2"},
      {"f32 gamma for f16", [&](Spec& s) { s.x1 = s.x2 = s.y = s.x = f16; }, kInvalid, "gamma"},
      {"y dtype", [&](Spec& s) { s.y = f16; }, kInvalid, "yOut"},
      {"f16 rstd", [&](Spec& s) { s.rstd = f16; }, kInvalid, "rstdOut"},
      {"xOut dtype", [](Spec& s) { s.x = ACL_BF16; }, kInvalid, "xOut"},
      {"rank-0 x1", [](Spec& s) { s.x1Shape = s.x2Shape = s.yShape = s.rstdShape = s.xShape = {}; }, kTiling, "x1"},
      {"y rank", [](Spec& s) { s.yShape = {8}; }, kTiling, "yOut"},
      {"x2 rank",
       [](Spec& s) {
         s.x2Shape = {1, 2, 4};
       },
       kTiling, "x2"},
      {"rstd rank", [](Spec& s) { s.rstdShape = {2}; }, kTiling, "rstdOut"},
      {"gamma rank above x1's",
       [](Spec& s) {
         s.gammaShape = {1, 2, 4};
       },
       kTiling, "gamma"},
      {"empty x1",
       [](Spec& s) {
         s.x1Shape = s.x2Shape = s.yShape = s.xShape = {0, 4};
         s.rstdShape = {0, 1};
       },
       kTiling, "x1"},
      {"x2 shape",
       [](Spec& s) {
         s.x2Shape = {4, 2};
       },
       kTiling, "x2"},
      {"xOut shape",
       [](Spec& s) {
         s.xShape = {2, 3};
       },
       kTiling, "xOut"},
      {"gamma not trailing", [](Spec& s) { s.gammaShape = {2}; }, kTiling, "gamma"},
      {"rstd broadcast leading dim",
       [](Spec& s) {
         s.rstdShape = {1, 1};
       },
       kTiling, "rstdOut"},
      {"rstd trailing dim",
       [](Spec& s) {
         s.rstdShape = {2, 4};
       },
       kTiling, "rstdOut"},
      {"negative epsilon", [](Spec& s) { s.eps = -1e-6; }, kTiling, "epsilon"},
      {"f32 row above 10240",
       [](Spec& s) {
         s.x1Shape = s.x2Shape = s.yShape = s.xShape = {1, 10241};
         s.gammaShape = {10241};
         s.rstdShape = {1, 1};
       },
       kTiling, "gamma"},
      {"f16 row above 12288",
       [&](Spec& s) {
         s.x1 = s.x2 = s.gamma = s.y = s.x = f16;
         s.x1Shape = s.x2Shape = s.yShape = s.xShape = {12289};
         s.gammaShape = {12289};
         s.rstdShape = {1};
       },
       kTiling, "gamma"},
  };
  for (const Bad& bad : cases) {
    Spec spec;
    bad.change(spec);
    DeviceTensor x1(spec.x1, spec.x1Shape), x2(spec.x2, spec.x2Shape), gamma(spec.gamma, spec.gammaShape),
        y(spec.y, spec.yShape), rstd(spec.rstd, spec.rstdShape), x(spec.x, spec.xShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnFusedAddRmsNormGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), spec.eps, 0.5,
                                                      a.Tensor(y), a.Tensor(rstd), a.Tensor(x), ws, e);
        },
        aclnnFusedAddRmsNorm);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

// CANN's example program (ops-nn norm/add_layer_norm): x1 [1, 2, 8] of 1 and 2, x2 of 4 and -3, gamma 2,
// beta 0.1, bias 0.5: constant rows, so y is beta, mean 5.5 and -0.5, rstd 1 / sqrt(eps).
TEST(AddLayerNorm, CannExampleProgram) {
  DeviceTensor x1(ACL_FLOAT, {1, 2, 8}), x2(ACL_FLOAT, {1, 2, 8}), gamma(ACL_FLOAT, {8}), beta(ACL_FLOAT, {8}),
      bias(ACL_FLOAT, {8}), y(ACL_FLOAT, {1, 2, 8}), mean(ACL_FLOAT, {1, 2, 1}), rstd(ACL_FLOAT, {1, 2, 1}),
      xOut(ACL_FLOAT, {1, 2, 8});
  x1.WriteView({1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2});
  x2.WriteView({4, 4, 4, 4, 4, 4, 4, 4, -3, -3, -3, -3, -3, -3, -3, -3});
  gamma.WriteView(Values(8, 2.0));
  beta.WriteView(Values(8, 0.1));
  bias.WriteView(Values(8, 0.5));
  const double eps = 1e-5;
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnAddLayerNormGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(beta),
                                                 a.Tensor(bias), eps, true, a.Tensor(y), a.Tensor(mean), a.Tensor(rstd),
                                                 a.Tensor(xOut), ws, e);
      },
      aclnnAddLayerNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Near(std::vector<double>(16, 0.1), {}, ACL_FLOAT, 4), "y");
  ExpectNear(mean.ReadView(), Near({5.5, -0.5}, {}, ACL_FLOAT, 2), "mean");
  ExpectNear(rstd.ReadView(), Near({1 / std::sqrt(eps), 1 / std::sqrt(eps)}, {}, ACL_FLOAT, 4), "rstd");
  std::vector<double> sum(8, 5.5);
  sum.resize(16, -0.5);
  ExpectNear(xOut.ReadView(), Near(sum, {}, ACL_FLOAT, 1), "xOut");
}

TEST(AddLayerNorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x1, x2, gamma, y, stat;
    Shape x2Shape, gammaShape, statShape, biasShape;
    bool nullMean;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Bad cases[] = {
      {"null meanOut", f32, f32, f32, f32, f32, {2, 4}, {4}, {2, 1}, {}, true, ACLNN_ERR_PARAM_NULLPTR, "meanOut"},
      {"f64 x1", ACL_DOUBLE, ACL_DOUBLE, f32, f32, f32, {2, 4}, {4}, {2, 1}, {}, false, kInvalid, "x1"},
      {"f16 and bf16", f16, bf16, f32, f32, f32, {2, 4}, {4}, {2, 1}, {}, false, kInvalid, "x2"},
      {"mixed with f16 gamma", f16, f32, f16, f32, f32, {2, 4}, {4}, {2, 1}, {}, false, kInvalid, "gamma"},
      {"bf16 gamma for f16", f16, f16, bf16, f16, f32, {2, 4}, {4}, {2, 1}, {}, false, kInvalid, "gamma"},
      {"y dtype", f16, f16, f16, f32, f32, {2, 4}, {4}, {2, 1}, {}, false, kInvalid, "yOut"},
      {"f16 mean", f16, f16, f16, f16, f16, {2, 4}, {4}, {2, 1}, {}, false, kInvalid, "meanOut"},
      {"x2 shape", f32, f32, f32, f32, f32, {4, 2}, {4}, {2, 1}, {}, false, kTiling, "x2"},
      {"gamma shape", f32, f32, f32, f32, f32, {2, 4}, {2}, {2, 1}, {}, false, kTiling, "gamma"},
      {"mean shape", f32, f32, f32, f32, f32, {2, 4}, {4}, {2}, {}, false, kTiling, "meanOut"},
      {"bias shape", f32, f32, f32, f32, f32, {2, 4}, {4}, {2, 1}, {2}, false, kInvalid, "biasOptional"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x1(bad.x1, {2, 4}), x2(bad.x2, bad.x2Shape), gamma(bad.gamma, bad.gammaShape),
        beta(bad.gamma, bad.gammaShape), y(bad.y, {2, 4}), mean(bad.stat, bad.statShape), rstd(bad.stat, bad.statShape),
        xOut(bad.y, {2, 4}), bias(bad.y, bad.biasShape.empty() ? Shape{4} : bad.biasShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnAddLayerNormGetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), a.Tensor(beta),
                                                   bad.biasShape.empty() ? nullptr : a.Tensor(bias), 1e-5, true,
                                                   a.Tensor(y), bad.nullMean ? nullptr : a.Tensor(mean), a.Tensor(rstd),
                                                   a.Tensor(xOut), ws, e);
        },
        aclnnAddLayerNorm);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // CANN takes no dim of extent 0 (its tiling check).
  DeviceTensor x1(ACL_FLOAT, {0, 4}), gamma(ACL_FLOAT, {4}), y(ACL_FLOAT, {0, 4}), stat(ACL_FLOAT, {0, 1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnAddLayerNormGetWorkspaceSize(a.Tensor(x1), a.Tensor(x1), a.Tensor(gamma), a.Tensor(gamma), nullptr,
                                                 1e-5, false, a.Tensor(y), a.Tensor(stat), a.Tensor(stat), a.Tensor(y),
                                                 ws, e);
      },
      aclnnAddLayerNorm);
  EXPECT_EQ(run.phase1, ACLNN_ERR_INNER_TILING_ERROR) << Describe(run);
  EXPECT_NE(run.message.find("extent 0"), std::string::npos) << run.message;
}

// ---- BatchNorm --------------------------------------------------------------------------------------

struct BatchCase {
  std::string name;
  aclDataType dtype;      // input and output
  aclDataType statDtype;  // weight, bias, running and saved statistics
  Shape shape;            // [N, C, ...]
  bool training = true;
  bool affine = true;   // weight and bias given
  bool running = true;  // runningMean and runningVar given
  View view = View::kContiguous;
  View outView = View::kContiguous;
  double momentum = 0.1;
};

void PrintTo(const BatchCase& c, std::ostream* os) { *os << c.name; }

class BatchNormTest : public ::testing::TestWithParam<BatchCase> {};

TEST_P(BatchNormTest, MatchesFloat64Reference) {
  const BatchCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const int64_t channels = c.shape[1], total = NumElements(c.shape);
  const int64_t spatial = total / (c.shape[0] * channels);
  const double eps = 1e-5;
  DeviceTensor x(c.dtype, c.shape, c.view);
  const Values xValues = x.FillRandom(rng, Range{-2, 2});
  std::optional<DeviceTensor> weight, bias, runningMean, runningVar;
  Values w(static_cast<size_t>(channels), 1.0), b(static_cast<size_t>(channels), 0.0),
      rm(static_cast<size_t>(channels), 0.0), rv(static_cast<size_t>(channels), 1.0);
  if (c.affine) {
    weight.emplace(c.statDtype, Shape{channels});
    w = weight->FillRandom(rng, Range{0.5, 1.5});
    bias.emplace(c.statDtype, Shape{channels});
    b = bias->FillRandom(rng, Range{-1, 1});
  }
  if (c.running) {
    runningMean.emplace(c.statDtype, Shape{channels});
    rm = runningMean->FillRandom(rng, Range{-1, 1});
    runningVar.emplace(c.statDtype, Shape{channels});
    rv = runningVar->FillRandom(rng, Range{0.5, 2});
  }
  OutTensor y, saveMean, saveVar;
  y.Make(c.dtype, c.shape, c.outView);
  saveMean.Make(c.statDtype, {channels}, View::kContiguous);
  saveVar.Make(c.statDtype, {channels}, View::kContiguous);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnBatchNormGetWorkspaceSize(a.Tensor(x), Or(a, weight), Or(a, bias), Or(a, runningMean),
                                              Or(a, runningVar), c.training, c.momentum, eps, Or(a, y.t),
                                              Or(a, saveMean.t), Or(a, saveVar.t), ws, e);
      },
      aclnnBatchNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // x row-major: element (n, ch, s) at (n * C + ch) * S + s.
  std::vector<double> mean(static_cast<size_t>(channels)), var(static_cast<size_t>(channels)), yWant, scale;
  const auto count = static_cast<double>(c.shape[0] * spatial);  // the elements of each channel
  for (int64_t ch = 0; ch < channels; ++ch) {
    const auto at = [&](int64_t n, int64_t s) {
      return xValues[static_cast<size_t>((n * channels + ch) * spatial + s)].real();
    };
    double sum = 0, squares = 0;
    for (int64_t n = 0; n < c.shape[0]; ++n) {
      for (int64_t s = 0; s < spatial; ++s) sum += at(n, s);
    }
    const double m = sum / count;
    for (int64_t n = 0; n < c.shape[0]; ++n) {
      for (int64_t s = 0; s < spatial; ++s) squares += (at(n, s) - m) * (at(n, s) - m);
    }
    mean[static_cast<size_t>(ch)] = c.training ? m : rm[static_cast<size_t>(ch)].real();
    var[static_cast<size_t>(ch)] = c.training ? squares / count : rv[static_cast<size_t>(ch)].real();
  }
  for (int64_t i = 0; i < total; ++i) {
    const auto ch = static_cast<size_t>((i / spatial) % channels);
    const double rstd = 1 / std::sqrt(var[ch] + eps);
    const double dev = xValues[static_cast<size_t>(i)].real() - mean[ch];
    yWant.push_back(dev * rstd * w[ch].real() + b[ch].real());
    scale.push_back((std::abs(dev) + std::abs(mean[ch])) * rstd * std::abs(w[ch].real()) + std::abs(b[ch].real()));
  }
  ExpectNear(y.t->ReadView(), Near(yWant, scale, c.dtype, 8), c.name + " output");
  ExpectOutsideViewUnchanged(*y.t, y.before, "output storage");
  if (!c.training) {
    EXPECT_EQ(saveMean.t->DownloadBytes(), saveMean.before) << "saveMean is written only in training";
  } else {
    ExpectNear(saveMean.t->ReadView(), Near(mean, std::vector<double>(mean.size(), 2.0), c.statDtype, 4), "saveMean");
    ExpectNear(saveVar.t->ReadView(), Near(var, std::vector<double>(var.size(), 4.0), c.statDtype, 4),
               "saveInvstd (the variance)");
  }
  if (c.running) {
    std::vector<double> rmWant, rvWant;
    for (int64_t ch = 0; ch < channels; ++ch) {
      const auto k = static_cast<size_t>(ch);
      rmWant.push_back(c.training ? (1 - c.momentum) * rm[k].real() + c.momentum * mean[k] : rm[k].real());
      rvWant.push_back(c.training ? (1 - c.momentum) * rv[k].real() + c.momentum * var[k] * count / (count - 1)
                                  : rv[k].real());
    }
    ExpectNear(runningMean->ReadView(), Near(rmWant, std::vector<double>(rmWant.size(), 2.0), c.statDtype, 4),
               "runningMean");
    ExpectNear(runningVar->ReadView(), Near(rvWant, std::vector<double>(rvWant.size(), 4.0), c.statDtype, 4),
               "runningVar");
  }
}

std::vector<BatchCase> BatchCases() {
  std::vector<BatchCase> cases;
  const View s = View::kStepped, t = View::kTransposed, r = View::kReversed;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string("batch_") + Name(dtype) + "_";
    cases.push_back({n + "train_nchw", dtype, dtype, {4, 3, 5, 6}});
    cases.push_back({n + "train_f32_stats_stepped", dtype, ACL_FLOAT, {3, 5, 7}, true, true, true, s, s, 0.3});
    cases.push_back({n + "infer_nchw", dtype, dtype, {2, 4, 3, 3}, false});
    cases.push_back({n + "infer_transposed", dtype, ACL_FLOAT, {6, 5}, false, true, true, t, r});
  }
  cases.push_back({"batch_f32_train_nc", ACL_FLOAT, ACL_FLOAT, {16, 7}});
  cases.push_back({"batch_f32_train_no_affine_no_running", ACL_FLOAT, ACL_FLOAT, {3, 4, 10}, true, false, false});
  cases.push_back({"batch_f32_infer_no_affine", ACL_FLOAT, ACL_FLOAT, {3, 4, 10}, false, false, true});
  cases.push_back({"batch_f32_train_rank8", ACL_FLOAT, ACL_FLOAT, {2, 3, 2, 1, 2, 1, 2, 3}});
  cases.push_back({"batch_f32_train_large", ACL_FLOAT, ACL_FLOAT, {8, 16, 64, 64}});
  cases.push_back({"batch_f16_input_f32_stats_infer", ACL_FLOAT16, ACL_FLOAT, {2, 3, 8}, false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, BatchNormTest, ::testing::ValuesIn(BatchCases()),
                         [](const ::testing::TestParamInfo<BatchCase>& info) { return SanitizeName(info.param.name); });

// An empty input: saveMean 0, saveInvstd NaN (CANN's fill), nothing else checked or written.
TEST(BatchNorm, EmptyInputFillsSavedStatistics) {
  DeviceTensor x(ACL_FLOAT, {0, 3, 4}), y(ACL_FLOAT, {0, 3, 4}), mean(ACL_FLOAT, {3}), var(ACL_FLOAT, {3});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnBatchNormGetWorkspaceSize(a.Tensor(x), nullptr, nullptr, nullptr, nullptr, true, 0.1, 1e-5,
                                              a.Tensor(y), a.Tensor(mean), a.Tensor(var), ws, e);
      },
      aclnnBatchNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(mean.ReadView(), {0, 0, 0}, "saveMean");
  for (const Value& v : var.ReadView()) EXPECT_TRUE(std::isnan(v.real()));
}

TEST(BatchNorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x, y, stat;
    Shape shape, yShape, statShape;
    bool training;
    bool nullSave;
    aclnnStatus status;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT;
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  const Bad cases[] = {
      {"training without saveMean",
       f32,
       f32,
       f32,
       {2, 3, 4},
       {2, 3, 4},
       {3},
       true,
       true,
       ACLNN_ERR_PARAM_NULLPTR,
       "saveMean"},
      {"f64 input", ACL_DOUBLE, f32, f32, {2, 3, 4}, {2, 3, 4}, {3}, true, false, kInvalid, "input"},
      {"s32 output", f32, ACL_INT32, f32, {2, 3, 4}, {2, 3, 4}, {3}, true, false, kInvalid, "output"},
      {"f64 statistics", f32, f32, ACL_DOUBLE, {2, 3, 4}, {2, 3, 4}, {3}, true, false, kInvalid, "saveMean"},
      {"rank 1", f32, f32, f32, {6}, {6}, {6}, true, false, kInvalid, "input"},
      {"output shape", f32, f32, f32, {2, 3, 4}, {2, 4, 3}, {3}, true, false, kInvalid, "output"},
      {"channel vectors", f32, f32, f32, {2, 3, 4}, {2, 3, 4}, {4}, false, false, kInvalid, "weight"},
      {"5 dims in ND", f32, f32, f32, {2, 3, 2, 2, 2}, {2, 3, 2, 2, 2}, {3}, false, false, kInvalid, "NCDHW"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, bad.shape), y(bad.y, bad.yShape), w(bad.stat, bad.statShape), bb(bad.stat, bad.statShape),
        rm(bad.stat, bad.statShape), rv(bad.stat, bad.statShape), sm(bad.stat, bad.statShape),
        sv(bad.stat, bad.statShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnBatchNormGetWorkspaceSize(a.Tensor(x), a.Tensor(w), a.Tensor(bb), a.Tensor(rm), a.Tensor(rv),
                                                bad.training, 0.1, 1e-5, a.Tensor(y),
                                                bad.nullSave ? nullptr : a.Tensor(sm), a.Tensor(sv), ws, e);
        },
        aclnnBatchNorm);
    EXPECT_EQ(run.phase1, bad.status) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(DeepNorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType x, gx, gamma, stat;
    Shape xShape, gxShape, gammaShape, betaShape, statShape;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16;
  const Bad cases[] = {
      {"f64 x", ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, f32, {2, 4}, {2, 4}, {4}, {4}, {2, 1}, "x"},
      {"gx dtype", f16, f32, f16, f32, {2, 4}, {2, 4}, {4}, {4}, {2, 1}, "gx"},
      {"f32 gamma for f16", f16, f16, f32, f32, {2, 4}, {2, 4}, {4}, {4}, {2, 1}, "beta"},
      {"f16 mean", f16, f16, f16, f16, {2, 4}, {2, 4}, {4}, {4}, {2, 1}, "meanOut"},
      {"rank 1 x", f32, f32, f32, f32, {4}, {4}, {4}, {4}, {1}, "x"},
      {"gx shape", f32, f32, f32, f32, {2, 4}, {4, 2}, {4}, {4}, {2, 1}, "gx"},
      {"gamma shape", f32, f32, f32, f32, {2, 4}, {2, 4}, {2}, {2}, {2, 1}, "gamma"},
      {"beta shape", f32, f32, f32, f32, {2, 4}, {2, 4}, {4}, {1, 4}, {2, 1}, "beta"},
      {"rstd shape", f32, f32, f32, f32, {2, 4}, {2, 4}, {4}, {4}, {2}, "meanOut"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor x(bad.x, bad.xShape), gx(bad.gx, bad.gxShape), gamma(bad.gamma, bad.gammaShape),
        beta(bad.gamma, bad.betaShape), mean(bad.stat, bad.statShape), rstd(bad.stat, bad.statShape),
        y(bad.x, bad.xShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnDeepNormGetWorkspaceSize(a.Tensor(x), a.Tensor(gx), a.Tensor(beta), a.Tensor(gamma), 0.3, 1e-6,
                                               a.Tensor(mean), a.Tensor(rstd), a.Tensor(y), ws, e);
        },
        aclnnDeepNorm);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

// CANN's example programs (ops-nn norm/layer_norm_v4) for LayerNorm,
// LayerNormWithImplMode (implMode 0) and FastLayerNorm: input [1, 2, 32] of
// 2.0, normalizedShape [32], weight 1, bias 0, mean and rstd [1, 2, 1] (the
// shape rule CANN's document states for every platform), eps 1e-5.
TEST(LayerNorm, CannExamplePrograms) {
  for (int form = 0; form < 3; ++form) {
    DeviceTensor input(ACL_FLOAT, {1, 2, 32}), weight(ACL_FLOAT, {32}), bias(ACL_FLOAT, {32}),
        out(ACL_FLOAT, {1, 2, 32}), mean(ACL_FLOAT, {1, 2, 1}), rstd(ACL_FLOAT, {1, 2, 1});
    input.WriteView(Values(64, 2.0));
    weight.WriteView(Values(32, 1.0));
    bias.WriteView(Values(32, 0.0));
    const Phase2 phase2 = form == 0 ? aclnnLayerNorm : form == 1 ? aclnnLayerNormWithImplMode : aclnnFastLayerNorm;
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          aclIntArray* shape = a.IntArray({32});
          if (form == 1) {
            return aclnnLayerNormWithImplModeGetWorkspaceSize(a.Tensor(input), shape, a.Tensor(weight), a.Tensor(bias),
                                                              1e-5, a.Tensor(out), a.Tensor(mean), a.Tensor(rstd), 0,
                                                              ws, e);
          }
          return (form == 0 ? aclnnLayerNormGetWorkspaceSize : aclnnFastLayerNormGetWorkspaceSize)(
              a.Tensor(input), shape, a.Tensor(weight), a.Tensor(bias), 1e-5, a.Tensor(out), a.Tensor(mean),
              a.Tensor(rstd), ws, e);
        },
        phase2);
    ASSERT_TRUE(run.ok()) << "form " << form << ": " << Describe(run);
    const double r = 1 / std::sqrt(1e-5);
    ExpectExact(out.ReadView(), Values(64, 0.0), "out");
    ExpectExact(mean.ReadView(), {2.0, 2.0}, "meanOut");
    ExpectNear(rstd.ReadView(), Expected{{r, r}, {4 * 0x1p-24 * r, 4 * 0x1p-24 * r}}, "rstdOut");
  }
}

TEST(LayerNorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType input, weight, bias, out;
    Shape shape, normalized, weightShape, outShape, meanShape;
    int32_t implMode;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16;
  const Bad cases[] = {
      {"f64 input", ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, {2, 4}, {4}, {4}, {2, 4}, {2, 1}, 0, "input"},
      {"bf16 weight for f16", f16, bf16, bf16, f16, {2, 4}, {4}, {4}, {2, 4}, {2, 1}, 0, "weightOptional"},
      {"weight and bias differ", f16, f32, f16, f16, {2, 4}, {4}, {4}, {2, 4}, {2, 1}, 0, "biasOptional"},
      {"s32 out", f32, f32, f32, ACL_INT32, {2, 4}, {4}, {4}, {2, 4}, {2, 1}, 0, "out"},
      {"empty normalizedShape", f32, f32, f32, f32, {2, 4}, {}, {4}, {2, 4}, {2, 1}, 0, "normalizedShape"},
      {"normalizedShape too long", f32, f32, f32, f32, {4}, {1, 4}, {1, 4}, {4}, {1, 1}, 0, "normalizedShape"},
      {"normalizedShape mismatch", f32, f32, f32, f32, {2, 4}, {2}, {2}, {2, 4}, {2, 1}, 0, "normalizedShape"},
      {"weight shape", f32, f32, f32, f32, {2, 4}, {4}, {2, 2}, {2, 4}, {2, 1}, 0, "weightOptional"},
      {"out shape", f32, f32, f32, f32, {2, 4}, {4}, {4}, {2, 5}, {2, 1}, 0, "out"},
      {"mean shape", f32, f32, f32, f32, {2, 4}, {4}, {4}, {2, 4}, {2, 4}, 0, "meanOutOptional"},
      {"implMode 3", f32, f32, f32, f32, {2, 4}, {4}, {4}, {2, 4}, {2, 1}, 3, "implMode"},
      {"implMode 2 with f32", f32, f32, f32, f32, {2, 4}, {4}, {4}, {2, 4}, {2, 1}, 2, "implMode"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor input(bad.input, bad.shape), weight(bad.weight, bad.weightShape), bias(bad.bias, bad.weightShape),
        out(bad.out, bad.outShape), mean(bad.input, bad.meanShape), rstd(bad.input, bad.meanShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnLayerNormWithImplModeGetWorkspaceSize(a.Tensor(input), a.IntArray(bad.normalized),
                                                            a.Tensor(weight), a.Tensor(bias), 1e-5, a.Tensor(out),
                                                            a.Tensor(mean), a.Tensor(rstd), bad.implMode, ws, e);
        },
        aclnnLayerNormWithImplMode);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

TEST(GroupNorm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType self, gamma, mean;
    Shape shape, gammaShape, statShape;
    int64_t n, c, hxw, group;
    double eps;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16;
  const Bad cases[] = {
      {"f64 self", ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, {2, 4, 3}, {4}, {2, 2}, 2, 4, 3, 2, 1e-5, "self"},
      {"gamma dtype", f16, f32, f16, {2, 4, 3}, {4}, {2, 2}, 2, 4, 3, 2, 1e-5, "gamma"},
      {"mean dtype", f16, f16, f32, {2, 4, 3}, {4}, {2, 2}, 2, 4, 3, 2, 1e-5, "meanOut"},
      {"group 0", f32, f32, f32, {2, 4, 3}, {4}, {2, 0}, 2, 4, 3, 0, 1e-5, "group"},
      {"C not divisible", f32, f32, f32, {2, 4, 3}, {4}, {2, 3}, 2, 4, 3, 3, 1e-5, "divisible"},
      {"eps 0", f32, f32, f32, {2, 4, 3}, {4}, {2, 2}, 2, 4, 3, 2, 0, "eps"},
      {"rank 1", f32, f32, f32, {4}, {4}, {1, 2}, 1, 4, 1, 2, 1e-5, "self"},
      {"mean shape", f32, f32, f32, {2, 4, 3}, {4}, {2, 4}, 2, 4, 3, 2, 1e-5, "meanOut"},
      {"N mismatch", f32, f32, f32, {2, 4, 3}, {4}, {3, 2}, 3, 4, 3, 2, 1e-5, "N="},
      {"HxW mismatch", f32, f32, f32, {2, 4, 3}, {4}, {2, 2}, 2, 4, 4, 2, 1e-5, "HxW"},
      {"gamma shape", f32, f32, f32, {2, 4, 3}, {2, 2}, {2, 2}, 2, 4, 3, 2, 1e-5, "gamma"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor self(bad.self, bad.shape), gamma(bad.gamma, bad.gammaShape), out(bad.self, bad.shape),
        mean(bad.mean, bad.statShape), rstd(bad.self, bad.statShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return aclnnGroupNormGetWorkspaceSize(a.Tensor(self), a.Tensor(gamma), nullptr, bad.n, bad.c, bad.hxw,
                                                bad.group, bad.eps, a.Tensor(out), a.Tensor(mean), a.Tensor(rstd), ws,
                                                e);
        },
        aclnnGroupNorm);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
