// AvgPool2d, AvgPool3d, AdaptiveAvgPool3d, MaxPool, UpsampleNearest1d/1dV2/2d/2dV2/3d
// and UpsampleNearestExact1d/2d/3d against float64 window loops and PyTorch's index rule: every dtype, ceil mode (its
// last-window rule included), count-include-pad with windows past the padding, divisor override, 3-D and 4-D inputs,
// asymmetric pads, strided views, NHWC, ggml's POOL_2D and UPSCALE calls, and every rejection with its code.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_upsample_nearest_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d_v2.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "aclnnop/aclnn_upsample_nearest_3d.h"
#include "aclnnop/aclnn_upsample_nearest_exact1d.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d.h"
#include "aclnnop/aclnn_upsample_nearest_exact3d.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// One pooling problem over the last two dims of `input`.
struct PoolCase {
  std::string name;
  Shape input;
  std::vector<int64_t> kernel, strides, pads;  // the op's own array forms
  bool ceilMode = false;
  bool countIncludePad = true;  // AvgPool2d
  int64_t divisorOverride = 0;  // AvgPool2d
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const PoolCase& c, std::ostream* os) { *os << c.name; }

PoolCase Pool(std::string name, Shape input, std::vector<int64_t> kernel, std::vector<int64_t> strides,
              std::vector<int64_t> pads, bool ceilMode = false) {
  PoolCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.kernel = std::move(kernel);
  c.strides = std::move(strides);
  c.pads = std::move(pads);
  c.ceilMode = ceilMode;
  return c;
}

struct Axis {
  int64_t in, kernel, stride, front, back;
};

// Axis d (0: H, 1: W) of a case. MaxPool's four pads are {top, left, bottom, right}.
Axis AxisOf(const PoolCase& c, size_t d, bool stridesDefaultToKernel) {
  auto pick = [d](const std::vector<int64_t>& v, int64_t fallback) {
    return v.empty() ? fallback : v.size() == 1 ? v[0] : v[d];
  };
  Axis a;
  a.in = c.input[c.input.size() - 2 + d];
  a.kernel = pick(c.kernel, 1);
  a.stride = pick(c.strides, stridesDefaultToKernel ? a.kernel : 1);
  a.front = pick(c.pads, 0);
  a.back = c.pads.size() == 4 ? c.pads[2 + d] : a.front;
  return a;
}

// PyTorch's pooling_output_shape, with CANN's two-sided pads.
int64_t OutExtent(const Axis& a, bool ceilMode) {
  const int64_t span = a.in + a.front + a.back - a.kernel;
  int64_t out = (ceilMode ? (span + a.stride - 1) / a.stride : span / a.stride) + 1;
  if (ceilMode && (out - 1) * a.stride >= a.in + a.front) --out;
  return out;
}

enum class PoolOp { kAvg, kMax };

// The window loop, in float64 (avg_pool2d's divisor rules; max over the input part of the window).
Values ReferencePool(PoolOp op, const PoolCase& c, const Values& x, const Shape& outShape) {
  const Axis h = AxisOf(c, 0, op == PoolOp::kAvg), w = AxisOf(c, 1, op == PoolOp::kAvg);
  const int64_t planes = NumElements(Shape(c.input.begin(), c.input.end() - 2));
  const int64_t oh = outShape[outShape.size() - 2], ow = outShape.back();
  Values out;
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t i = 0; i < oh; ++i) {
      for (int64_t j = 0; j < ow; ++j) {
        int64_t h0 = i * h.stride - h.front, w0 = j * w.stride - w.front;
        int64_t h1 = std::min(h0 + h.kernel, h.in + h.back), w1 = std::min(w0 + w.kernel, w.in + w.back);
        const int64_t windowArea = (h1 - h0) * (w1 - w0);
        h0 = std::max<int64_t>(h0, 0);
        w0 = std::max<int64_t>(w0, 0);
        h1 = std::min(h1, h.in);
        w1 = std::min(w1, w.in);
        double sum = 0, best = -std::numeric_limits<double>::infinity();
        for (int64_t y = h0; y < h1; ++y) {
          for (int64_t z = w0; z < w1; ++z) {
            const double v = x[static_cast<size_t>((p * h.in + y) * w.in + z)].real();
            sum += v;
            best = std::isnan(v) || v > best ? v : best;  // NaN wins, as in PyTorch
          }
        }
        const double divisor = c.divisorOverride != 0 ? static_cast<double>(c.divisorOverride)
                               : c.countIncludePad    ? static_cast<double>(windowArea)
                                                      : static_cast<double>((h1 - h0) * (w1 - w0));
        out.emplace_back(op == PoolOp::kMax ? best : sum / divisor);
      }
    }
  }
  return out;
}

Shape PoolOutShape(PoolOp op, const PoolCase& c) {
  Shape out(c.input.begin(), c.input.end() - 2);
  for (size_t d = 0; d < 2; ++d) out.push_back(OutExtent(AxisOf(c, d, op == PoolOp::kAvg), c.ceilMode));
  return out;
}

aclFormat AvgFormat(const Shape& shape) { return shape.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL; }

aclnnStatus CallPool(PoolOp op, OpArgs& a, const PoolCase& c, aclTensor* self, aclTensor* out, uint64_t* ws,
                     aclOpExecutor** ex, int8_t cubeMathType = 0) {
  if (op == PoolOp::kAvg) {
    return aclnnAvgPool2dGetWorkspaceSize(self, a.IntArray(c.kernel), a.IntArray(c.strides), a.IntArray(c.pads),
                                          c.ceilMode, c.countIncludePad, c.divisorOverride, cubeMathType, out, ws, ex);
  }
  return aclnnMaxPoolGetWorkspaceSize(self, a.IntArray(c.kernel), a.IntArray(c.strides), 0, a.IntArray(c.pads),
                                      a.IntArray({1, 1}), c.ceilMode ? 1 : 0, out, ws, ex);
}

// `edit` (when given) changes the random input before the run (special values).
void RunPool(PoolOp op, const PoolCase& c, const Range& range = Range{-2, 2},
             const std::function<void(Values&)>& edit = nullptr) {
  Rng rng = Rng::ForCurrentTest();
  const Shape outShape = PoolOutShape(op, c);
  const aclFormat format = AvgFormat(c.input);  // MaxPool takes any plain format; ggml passes NCHW
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  Values x = in.FillRandom(rng, range);
  if (edit) {
    edit(x);
    in.WriteView(x);
  }
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run =
      RunOp([&](OpArgs& a, uint64_t* ws,
                aclOpExecutor** ex) { return CallPool(op, a, c, a.Tensor(in, format), a.Tensor(out, format), ws, ex); },
            op == PoolOp::kAvg ? aclnnAvgPool2d : aclnnMaxPool);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want{ReferencePool(op, c, x, outShape), {}};
  for (const Value& v : want.values) {
    // A max is exact; an average of exact inputs is one f32 sum plus the out rounding.
    want.tolerance.push_back(op == PoolOp::kMax ? 0.0 : 2.0 * UnitRoundoff(c.dtype) * std::abs(v.real()) + 1e-5);
  }
  ExpectNear(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

// ---- AvgPool2d ----------------------------------------------------------------------------------

std::vector<PoolCase> AvgCases() {
  std::vector<PoolCase> shapes = {
      Pool("k2s2", {2, 3, 8, 8}, {2}, {}, {0}),
      Pool("k3s1p1", {1, 4, 7, 9}, {3, 3}, {1}, {1}),
      Pool("k3x2_s2x1_p1x0", {2, 2, 9, 6}, {3, 2}, {2, 1}, {1, 0}),
      Pool("ceil_past_padding", {1, 2, 6, 7}, {3}, {2}, {1}, true),
      Pool("ceil_no_overflow", {1, 2, 7, 7}, {3}, {2}, {1}, true),
      Pool("ceil_k2s3", {1, 3, 8, 10}, {2}, {3}, {0}, true),
      Pool("ncl_3d", {3, 9, 8}, {3, 2}, {2}, {1, 1}),
      Pool("batch5_global", {5, 2, 4, 4}, {4}, {1}, {0}),
  };
  std::vector<PoolCase> cases;
  for (const PoolCase& s : shapes) {
    for (const bool include : {true, false}) {
      for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        PoolCase c = s;
        c.countIncludePad = include;
        c.dtype = dtype;
        c.name = s.name + (include ? "_include" : "_exclude") + "_" + Name(dtype);
        cases.push_back(c);
      }
    }
    PoolCase c = s;
    c.divisorOverride = 5;
    c.name = s.name + "_divisor5";
    cases.push_back(c);
  }
  PoolCase c = shapes[2];
  c.name = "views";
  c.inView = View::kStepped;
  c.outView = View::kReversed;
  cases.push_back(c);
  c = shapes[3];
  c.name = "views_ceil_past_padding_bf16";
  c.inView = View::kTransposed;
  c.outView = View::kStepped;
  c.dtype = ACL_BF16;
  cases.push_back(c);
  // ggml's POOL_2D (avg): {k1, k0}, {s1, s0}, {p1, p0}, no ceil, padding counted, no divisor.
  c = Pool("ggml_pool_avg", {1, 16, 33, 21}, {3, 5}, {2, 3}, {1, 2});
  cases.push_back(c);
  return cases;
}

class AvgPool2dTest : public ::testing::TestWithParam<PoolCase> {};
TEST_P(AvgPool2dTest, MatchesFloat64Reference) { RunPool(PoolOp::kAvg, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AvgPool2dTest, ::testing::ValuesIn(AvgCases()),
                         [](const ::testing::TestParamInfo<PoolCase>& info) { return SanitizeName(info.param.name); });

// ---- MaxPool ------------------------------------------------------------------------------------

std::vector<PoolCase> MaxCases() {
  std::vector<PoolCase> shapes = {
      Pool("k2s2", {2, 3, 8, 8}, {2}, {2}, {}),
      Pool("k3_default_stride_pad1", {1, 4, 7, 9}, {3, 3}, {}, {1}),
      Pool("pads4_asymmetric", {2, 2, 9, 6}, {3, 2}, {2, 1}, {2, 0, 1, 1}),
      Pool("pads2", {1, 2, 6, 7}, {3, 3}, {2, 2}, {1, 0}),
      Pool("ceil", {1, 2, 6, 7}, {3}, {2}, {1}, true),
      Pool("ceil_k2s3", {1, 3, 8, 10}, {2}, {3}, {}, true),
      Pool("rank3", {3, 9, 8}, {3, 2}, {2}, {}),
  };
  std::vector<PoolCase> cases;
  for (const PoolCase& s : shapes) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
      PoolCase c = s;
      c.dtype = dtype;
      c.name = s.name + "_" + Name(dtype);
      cases.push_back(c);
    }
  }
  PoolCase c = shapes[2];
  c.name = "views";
  c.inView = View::kStepped;
  c.outView = View::kReversed;
  cases.push_back(c);
  // ggml's POOL_2D (max): the input padded with -FLT_MAX first, then pads 0,
  // dilations {1, 1}, no ceil; p <= k / 2 (supports_op).
  c = Pool("ggml_pool_max_prepadded", {1, 8, 35, 25}, {3, 5}, {2, 3}, {0, 0, 0, 0});
  cases.push_back(c);
  // Rows wider than a vector (a masked tail), strides 1, 2 (pairs of vectors)
  // and 3 (gathered), a window of padding only (a top pad equal to the kernel),
  // and pads past the vector path's buffer (the portable windows).
  for (const PoolCase& wide :
       {Pool("wide_k3s2p1", {2, 3, 13, 37}, {3}, {2}, {1}), Pool("wide_k3s1p1", {1, 2, 5, 40}, {3}, {1}, {1}),
        Pool("wide_k4s3_ceil", {1, 2, 7, 50}, {4}, {3}, {1}, true),
        Pool("padding_only_row", {1, 2, 5, 33}, {2}, {2}, {2, 0, 0, 0}),
        Pool("pads_past_buffer", {1, 1, 3, 20}, {1, 600}, {1, 1}, {0, 300})}) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
      c = wide;
      c.dtype = dtype;
      c.name = wide.name + "_" + Name(dtype);
      cases.push_back(c);
    }
  }
  c = Pool("wide_views", {1, 3, 9, 35}, {3}, {2}, {1});
  c.inView = View::kTransposed;
  c.outView = View::kStepped;
  cases.push_back(c);
  return cases;
}

class MaxPoolTest : public ::testing::TestWithParam<PoolCase> {};
TEST_P(MaxPoolTest, MatchesFloat64Reference) { RunPool(PoolOp::kMax, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MaxPoolTest, ::testing::ValuesIn(MaxCases()),
                         [](const ::testing::TestParamInfo<PoolCase>& info) { return SanitizeName(info.param.name); });

// NaN anywhere in a window wins, a window of -inf gives -inf (oneDNN's pooling,
// which MaxPool ran on, gave 4 for {1, NaN, 3, 4} and -FLT_MAX for -inf), as
// PyTorch's max pool does: every 7th element NaN, every 5th -inf, and one
// block of -inf rows, over the vector and portable paths' shapes.
TEST(MaxPoolSpecialValues, NanWinsAndMinusInfinityStays) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const PoolCase& shape :
       {Pool("k3s2p1", {1, 3, 9, 37}, {3}, {2}, {1}), Pool("k2s3_ceil", {1, 2, 8, 40}, {2}, {3}, {1}, true),
        Pool("padding_only_row", {1, 2, 5, 33}, {2}, {2}, {2, 0, 0, 0})}) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
      PoolCase c = shape;
      c.dtype = dtype;
      c.name = shape.name + "_" + Name(dtype);
      SCOPED_TRACE(c.name);
      RunPool(PoolOp::kMax, c, Range{-2, 2}, [&](Values& x) {
        const int64_t w = c.input.back();
        for (size_t i = 0; i < x.size(); ++i) {
          if (i % 7 == 3) x[i] = nan;
          if (i % 5 == 1 || i / static_cast<size_t>(w) % 9 == 4) x[i] = -inf;
        }
      });
    }
  }
}

// Values far below the data (ggml's -FLT_MAX padding) never win a window that holds data.
TEST(MaxPoolGgml, NegativeFloatMaxPaddingNeverWins) {
  RunPool(PoolOp::kMax, Pool("huge_negative", {1, 2, 9, 9}, {3}, {3}, {}),
          Range{-std::numeric_limits<float>::max(), -1e30});
}

// ---- UpsampleNearest2d --------------------------------------------------------------------------

struct UpsampleCase {
  std::string name;
  Shape input;  // in the tensor's own order (NCHW or NHWC)
  int64_t outH, outW;
  aclFormat format = ACL_FORMAT_NCHW;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const UpsampleCase& c, std::ostream* os) { *os << c.name; }

UpsampleCase Up(std::string name, Shape input, int64_t outH, int64_t outW, aclFormat format = ACL_FORMAT_NCHW,
                aclDataType dtype = ACL_FLOAT, View inView = View::kContiguous, View outView = View::kContiguous) {
  UpsampleCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.outH = outH;
  c.outW = outW;
  c.format = format;
  c.dtype = dtype;
  c.inView = inView;
  c.outView = outView;
  return c;
}

// PyTorch's nearest index: floor(dst * (in / out)) with the scale in float, capped at in - 1.
int64_t NearestSource(int64_t dst, int64_t in, int64_t out) {
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  return std::min(static_cast<int64_t>(std::floor(static_cast<float>(dst) * scale)), in - 1);
}

void RunUpsample(const UpsampleCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const bool nhwc = c.format == ACL_FORMAT_NHWC;
  const size_t hDim = nhwc ? 1 : 2, wDim = nhwc ? 2 : 3;
  Shape outShape = c.input;
  outShape[hDim] = c.outH;
  outShape[wDim] = c.outW;
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-100, 100});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnUpsampleNearest2dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray({c.outH, c.outW}),
                                                      a.Tensor(out, c.format), ws, ex);
      },
      aclnnUpsampleNearest2d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    index[hDim] = NearestSource(index[hDim], c.input[hDim], c.outH);
    index[wDim] = NearestSource(index[wDim], c.input[wDim], c.outW);
    want.push_back(x[static_cast<size_t>(Ravel(index, c.input))]);
  }
  ExpectExact(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<UpsampleCase> UpsampleCases() {
  std::vector<UpsampleCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE, ACL_UINT8}) {
    cases.push_back(Up(std::string("x2_") + Name(dtype), {2, 3, 4, 5}, 8, 10, ACL_FORMAT_NCHW, dtype));
  }
  cases.push_back(Up("non_integer_ratio", {1, 2, 14, 7}, 20, 10));
  cases.push_back(Up("downsample", {1, 2, 9, 10}, 4, 3));
  cases.push_back(Up("nhwc", {2, 5, 3, 4}, 7, 9, ACL_FORMAT_NHWC));
  cases.push_back(Up("views", {2, 3, 4, 5}, 9, 6, ACL_FORMAT_NCHW, ACL_FLOAT16, View::kStepped, View::kReversed));
  // ggml's UPSCALE (nearest): NCHW, outputSize {ne1, ne0}, N and C unchanged.
  cases.push_back(Up("ggml_upscale", {1, 4, 7, 9}, 21, 18));
  return cases;
}

class UpsampleNearest2dTest : public ::testing::TestWithParam<UpsampleCase> {};
TEST_P(UpsampleNearest2dTest, MatchesPyTorchIndexRule) { RunUpsample(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleNearest2dTest, ::testing::ValuesIn(UpsampleCases()),
                         [](const ::testing::TestParamInfo<UpsampleCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- Rejections ---------------------------------------------------------------------------------

struct Rejection {
  std::string name;
  std::function<aclnnStatus(OpArgs&, uint64_t*, aclOpExecutor**)> phase1;
  Phase2 phase2;
  aclnnStatus expected;
  std::string keyword;
};

void PrintTo(const Rejection& r, std::ostream* os) { *os << r.name; }

// An AvgPool2d call on [1, 2, 6, 6] NCHW with k3 s1 p1 (out [1, 2, 6, 6]), changed by `change`.
struct AvgCall {
  Shape self = {1, 2, 6, 6}, out = {1, 2, 6, 6};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
  std::vector<int64_t> kernel = {3}, strides = {1}, pads = {1};
  int8_t cubeMathType = 0;
};

struct MaxCall {
  Shape self = {1, 2, 6, 6}, out = {1, 2, 6, 6};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  std::vector<int64_t> kernel = {3}, strides = {1}, pads = {1}, dilations = {1, 1};
  int64_t autoPad = 0;
};

struct UpsampleCall {
  Shape self = {1, 2, 3, 3}, out = {1, 2, 6, 6};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
  std::vector<int64_t> outputSize = {6, 6};
};

std::vector<Rejection> Rejections() {
  std::vector<Rejection> r;
  auto avg = [&](std::string name, auto change, std::string keyword, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    AvgCall x;
    change(x);
    r.push_back({"AvgPool2d_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnAvgPool2dGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.selfFormat), a.IntArray(x.kernel),
                       a.IntArray(x.strides), a.IntArray(x.pads), false, true, 0, x.cubeMathType,
                       a.NewTensor(x.outDtype, x.out, View::kContiguous, x.outFormat), ws, ex);
                 },
                 aclnnAvgPool2d, code, keyword});
  };
  avg(
      "valid", [](AvgCall&) {}, "", ACLNN_SUCCESS);
  avg(
      "dtype_double", [](AvgCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  avg(
      "out_dtype", [](AvgCall& x) { x.outDtype = ACL_FLOAT16; }, "out");
  avg(
      "rank2",
      [](AvgCall& x) {
        x.self = x.out = {6, 6};
      },
      "self");
  avg(
      "format_nd", [](AvgCall& x) { x.selfFormat = ACL_FORMAT_ND; }, "format");
  avg(
      "out_format", [](AvgCall& x) { x.outFormat = ACL_FORMAT_NHWC; }, "format");
  avg(
      "empty",
      [](AvgCall& x) {
        x.self = {0, 2, 6, 6}, x.out = {0, 2, 6, 6};
      },
      "empty");
  avg(
      "kernel_empty", [](AvgCall& x) { x.kernel = {}; }, "kernelSize");
  avg(
      "kernel_0", [](AvgCall& x) { x.kernel = {0}; }, "kernelSize");
  avg(
      "kernel_length3",
      [](AvgCall& x) {
        x.kernel = {3, 3, 3};
      },
      "kernelSize");
  avg(
      "strides_0", [](AvgCall& x) { x.strides = {0}; }, "strides");
  avg(
      "strides_length3",
      [](AvgCall& x) {
        x.strides = {1, 1, 1};
      },
      "strides");
  avg(
      "pads_empty", [](AvgCall& x) { x.pads = {}; }, "paddings");
  avg(
      "pads_negative", [](AvgCall& x) { x.pads = {-1}; }, "paddings");
  avg(
      "pads_over_half_kernel", [](AvgCall& x) { x.pads = {2}; }, "paddings");
  avg(
      "out_shape",
      [](AvgCall& x) {
        x.out = {1, 2, 5, 6};
      },
      "out");
  avg(
      "kernel_larger_than_input",
      [](AvgCall& x) {
        x.kernel = {9};
        x.pads = {0};
      },
      "kernelSize");
  avg(
      "cube1_f32", [](AvgCall& x) { x.cubeMathType = 1; }, "cubeMathType");
  avg(
      "cube3", [](AvgCall& x) { x.cubeMathType = 3; }, "cubeMathType");
  avg(
      "cube2_bf16",
      [](AvgCall& x) {
        x.cubeMathType = 2;
        x.selfDtype = x.outDtype = ACL_BF16;
      },
      "cubeMathType");
  avg(
      "cube1_f16_accepted",
      [](AvgCall& x) {
        x.cubeMathType = 1;
        x.selfDtype = x.outDtype = ACL_FLOAT16;
      },
      "", ACLNN_SUCCESS);
  r.push_back({"AvgPool2d_null_kernel",
               [](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                 return aclnnAvgPool2dGetWorkspaceSize(
                     a.NewTensor(ACL_FLOAT, {1, 2, 6, 6}, View::kContiguous, ACL_FORMAT_NCHW), nullptr, a.IntArray({1}),
                     a.IntArray({0}), false, true, 0, 0,
                     a.NewTensor(ACL_FLOAT, {1, 2, 6, 6}, View::kContiguous, ACL_FORMAT_NCHW), ws, ex);
               },
               aclnnAvgPool2d, ACLNN_ERR_PARAM_NULLPTR, "kernelSize"});

  auto max = [&](std::string name, auto change, std::string keyword, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    MaxCall x;
    change(x);
    r.push_back({"MaxPool_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnMaxPoolGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self), a.IntArray(x.kernel), a.IntArray(x.strides), x.autoPad,
                       a.IntArray(x.pads), a.IntArray(x.dilations), 0, a.NewTensor(x.outDtype, x.out), ws, ex);
                 },
                 aclnnMaxPool, code, keyword});
  };
  max(
      "valid", [](MaxCall&) {}, "", ACLNN_SUCCESS);
  max(
      "bf16", [](MaxCall& x) { x.selfDtype = x.outDtype = ACL_BF16; }, "self");
  max(
      "int32", [](MaxCall& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  max(
      "out_dtype", [](MaxCall& x) { x.outDtype = ACL_FLOAT16; }, "out");
  max(
      "rank5",
      [](MaxCall& x) {
        x.self = x.out = {1, 1, 2, 6, 6};
      },
      "self");
  max(
      "kernel_length3",
      [](MaxCall& x) {
        x.kernel = {3, 3, 3};
      },
      "kernelShape");
  max(
      "kernel_0",
      [](MaxCall& x) {
        x.kernel = {0, 3};
      },
      "kernelShape");
  max(
      "strides_length3",
      [](MaxCall& x) {
        x.strides = {1, 1, 1};
      },
      "strides");
  max(
      "strides_0", [](MaxCall& x) { x.strides = {0}; }, "strides");
  max(
      "autoPad_1", [](MaxCall& x) { x.autoPad = 1; }, "autoPad");
  max(
      "pads_length3",
      [](MaxCall& x) {
        x.pads = {1, 1, 1};
      },
      "pads");
  max(
      "pads_sum_over_kernel",
      [](MaxCall& x) {
        x.kernel = {2};
        x.pads = {2, 0, 1, 0};
      },
      "pads");
  max(
      "dilations_2",
      [](MaxCall& x) {
        x.dilations = {2, 1};
      },
      "dilations");
  max(
      "dilations_length3",
      [](MaxCall& x) {
        x.dilations = {1, 1, 1};
      },
      "dilations");
  max(
      "out_shape",
      [](MaxCall& x) {
        x.out = {1, 2, 6, 5};
      },
      "out");

  auto up = [&](std::string name, auto change, std::string keyword, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    UpsampleCall x;
    change(x);
    r.push_back({"UpsampleNearest2d_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnUpsampleNearest2dGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.selfFormat), a.IntArray(x.outputSize),
                       a.NewTensor(x.outDtype, x.out, View::kContiguous, x.outFormat), ws, ex);
                 },
                 aclnnUpsampleNearest2d, code, keyword});
  };
  up(
      "valid", [](UpsampleCall&) {}, "", ACLNN_SUCCESS);
  up(
      "int32", [](UpsampleCall& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  up(
      "out_dtype", [](UpsampleCall& x) { x.outDtype = ACL_FLOAT16; }, "out");
  up(
      "rank3",
      [](UpsampleCall& x) {
        x.self = {2, 3, 3}, x.out = {2, 6, 6};
      },
      "self");
  up(
      "format_nd", [](UpsampleCall& x) { x.selfFormat = x.outFormat = ACL_FORMAT_ND; }, "format");
  up(
      "out_format", [](UpsampleCall& x) { x.outFormat = ACL_FORMAT_NHWC; }, "format");
  up(
      "outputSize_length1", [](UpsampleCall& x) { x.outputSize = {6}; }, "outputSize");
  up(
      "outputSize_0",
      [](UpsampleCall& x) {
        x.outputSize = {0, 6};
      },
      "outputSize");
  up(
      "channels_differ",
      [](UpsampleCall& x) {
        x.out = {1, 3, 6, 6};
      },
      "out");
  up(
      "out_shape",
      [](UpsampleCall& x) {
        x.out = {1, 2, 6, 5};
      },
      "out");
  up(
      "empty",
      [](UpsampleCall& x) {
        x.self = {0, 2, 3, 3}, x.out = {0, 2, 6, 6};
      },
      "empty");
  return r;
}

class PoolRejectionTest : public ::testing::TestWithParam<Rejection> {};

TEST_P(PoolRejectionTest, IsRejectedWithItsStatus) {
  const Rejection& x = GetParam();
  const OpRun run = RunOp(x.phase1, x.phase2);
  EXPECT_EQ(run.phase1, x.expected) << Describe(run);
  if (x.expected == ACLNN_SUCCESS) {
    EXPECT_TRUE(run.ok()) << Describe(run);
  } else {
    EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, PoolRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return SanitizeName(info.param.name); });

// ---- AvgPool3d and AdaptiveAvgPool3d ------------------------------------------------------------
// float64 window loops over [N, C, D, H, W] (a 4-D input is one batch).

struct Pool3Case {
  std::string name;
  bool adaptive = false;
  Shape input;
  std::vector<int64_t> kernel, strides, pads;  // AvgPool3d; kernel is outputSize when adaptive
  bool ceilMode = false, countIncludePad = true;
  int64_t divisorOverride = 0;
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const Pool3Case& c, std::ostream* os) { *os << c.name; }

Pool3Case Pool3(std::string name, Shape input, std::vector<int64_t> kernel, std::vector<int64_t> strides,
                std::vector<int64_t> pads, bool ceilMode = false) {
  Pool3Case c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.kernel = std::move(kernel);
  c.strides = std::move(strides);
  c.pads = std::move(pads);
  c.ceilMode = ceilMode;
  return c;
}

Pool3Case Adaptive3(std::string name, Shape input, std::vector<int64_t> outputSize) {
  Pool3Case c = Pool3(std::move(name), std::move(input), std::move(outputSize), {}, {});
  c.adaptive = true;
  return c;
}

// One output's window on an axis: [begin, end) inside the input and its divisor length.
struct Span {
  int64_t begin, end, padded;
};

std::vector<Span> SpansOf(const Pool3Case& c, size_t d) {
  const int64_t in = c.input[c.input.size() - 3 + d];
  std::vector<Span> spans;
  if (c.adaptive) {
    const int64_t out = c.kernel[d];
    for (int64_t i = 0; i < out; ++i) {
      const int64_t b = i * in / out, e = ((i + 1) * in + out - 1) / out;
      spans.push_back({b, e, e - b});
    }
    return spans;
  }
  auto pick = [d](const std::vector<int64_t>& v, int64_t fallback) {
    return v.empty() ? fallback : v.size() == 1 ? v[0] : v[d];
  };
  const Axis a{in, pick(c.kernel, 1), pick(c.strides, pick(c.kernel, 1)), pick(c.pads, 0), pick(c.pads, 0)};
  const int64_t out = OutExtent(a, c.ceilMode);
  for (int64_t i = 0; i < out; ++i) {
    const int64_t b = i * a.stride - a.front, e = std::min(b + a.kernel, in + a.back);
    spans.push_back({std::max<int64_t>(b, 0), std::min(e, in), e - b});
  }
  return spans;
}

void RunPool3(const Pool3Case& c) {
  Rng rng = Rng::ForCurrentTest();
  std::array<std::vector<Span>, 3> spans;
  Shape outShape(c.input.begin(), c.input.end() - 3);
  for (size_t d = 0; d < 3; ++d) {
    spans[d] = SpansOf(c, d);
    outShape.push_back(static_cast<int64_t>(spans[d].size()));
  }
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-2, 2});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run =
      c.adaptive ? RunOp(
                       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                         return aclnnAdaptiveAvgPool3dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray(c.kernel),
                                                                       a.Tensor(out, c.format), ws, ex);
                       },
                       aclnnAdaptiveAvgPool3d)
                 : RunOp(
                       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                         return aclnnAvgPool3dGetWorkspaceSize(
                             a.Tensor(in, c.format), a.IntArray(c.kernel), a.IntArray(c.strides), a.IntArray(c.pads),
                             c.ceilMode, c.countIncludePad, c.divisorOverride, a.Tensor(out, c.format), ws, ex);
                       },
                       aclnnAvgPool3d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const int64_t D = c.input[c.input.size() - 3], H = c.input[c.input.size() - 2], W = c.input.back();
  const int64_t planes = NumElements(Shape(c.input.begin(), c.input.end() - 3));
  Expected want;
  for (int64_t p = 0; p < planes; ++p) {
    for (const Span& a : spans[0]) {
      for (const Span& b : spans[1]) {
        for (const Span& e : spans[2]) {
          double sum = 0;
          for (int64_t z = a.begin; z < a.end; ++z) {
            for (int64_t y = b.begin; y < b.end; ++y) {
              for (int64_t w = e.begin; w < e.end; ++w) {
                sum += x[static_cast<size_t>(((p * D + z) * H + y) * W + w)].real();
              }
            }
          }
          const double inside = static_cast<double>((a.end - a.begin) * (b.end - b.begin) * (e.end - e.begin));
          const double divisor = c.divisorOverride != 0 ? static_cast<double>(c.divisorOverride)
                                 : c.adaptive || !c.countIncludePad
                                     ? inside
                                     : static_cast<double>(a.padded * b.padded * e.padded);
          want.values.emplace_back(sum / divisor);
          // One f32 sum of exact inputs (two passes when adaptive) plus the out rounding.
          want.tolerance.push_back(2.0 * UnitRoundoff(c.dtype) * std::abs(sum / divisor) + 1e-5);
        }
      }
    }
  }
  ExpectNear(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<Pool3Case> Pool3Cases() {
  std::vector<Pool3Case> cases;
  const std::vector<Pool3Case> shapes = {
      Pool3("k2s2", {2, 3, 4, 6, 6}, {2}, {}, {0}),
      Pool3("k3s1p1", {1, 2, 5, 6, 7}, {3}, {1}, {1}),
      Pool3("rect", {1, 2, 7, 6, 9}, {3, 2, 3}, {2, 1, 2}, {1, 0, 1}),
      Pool3("ceil_past_padding", {1, 2, 6, 6, 7}, {3}, {2}, {1}, true),
      Pool3("cdhw", {3, 5, 4, 6}, {2, 2, 3}, {1, 2, 2}, {1, 1, 0}),
  };
  for (const Pool3Case& s : shapes) {
    for (const bool include : {true, false}) {
      Pool3Case c = s;
      c.countIncludePad = include;
      c.name = s.name + (include ? "_include" : "_exclude");
      cases.push_back(c);
    }
    Pool3Case c = s;
    c.divisorOverride = 7;
    c.name = s.name + "_divisor7";
    cases.push_back(c);
  }
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    Pool3Case c = shapes[3];
    c.dtype = dtype;
    c.name = std::string("ceil_past_padding_") + Name(dtype);
    cases.push_back(c);
  }
  Pool3Case c = shapes[2];
  c.name = "views_ncdhw";
  c.format = ACL_FORMAT_NCDHW;
  c.inView = View::kStepped;
  c.outView = View::kReversed;
  cases.push_back(c);
  // The doc's example: [1, 16, 4, 4, 4] ND, kernel 4, stride 1, no padding, padding counted.
  cases.push_back(Pool3("doc_example", {1, 16, 4, 4, 4}, {4, 4, 4}, {1, 1, 1}, {0, 0, 0}));
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Pool3Case a = Adaptive3(std::string("adaptive_") + Name(dtype), {2, 3, 5, 7, 6}, {3, 4, 2});
    a.dtype = dtype;
    cases.push_back(a);
  }
  cases.push_back(Adaptive3("adaptive_doc_example", {2, 1, 2, 2, 4}, {2, 2, 2}));
  cases.push_back(Adaptive3("adaptive_upsizing_cdhw", {3, 2, 3, 4}, {3, 5, 6}));
  cases.push_back(Adaptive3("adaptive_empty_batch", {0, 3, 4, 4, 4}, {2, 2, 2}));
  Pool3Case a = Adaptive3("adaptive_views", {2, 3, 6, 5, 7}, {4, 3, 3});
  a.format = ACL_FORMAT_NCDHW;
  a.inView = View::kTransposed;
  a.outView = View::kStepped;
  cases.push_back(a);
  a.name = "adaptive_views_offset";
  a.inView = View::kReversed;
  a.outView = View::kOffset;
  cases.push_back(a);
  return cases;
}

class Pool3dTest : public ::testing::TestWithParam<Pool3Case> {};
TEST_P(Pool3dTest, MatchesFloat64Reference) { RunPool3(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, Pool3dTest, ::testing::ValuesIn(Pool3Cases()),
                         [](const ::testing::TestParamInfo<Pool3Case>& info) { return SanitizeName(info.param.name); });

struct Pool3Rejection {
  std::string name;
  bool adaptive = false;
  Shape self = {1, 2, 4, 6, 6}, out = {1, 2, 2, 3, 3};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  aclFormat selfFormat = ACL_FORMAT_ND, outFormat = ACL_FORMAT_ND;
  std::vector<int64_t> kernel = {2}, strides = {}, pads = {0};  // kernel: outputSize when adaptive
  std::string keyword;
};

void PrintTo(const Pool3Rejection& r, std::ostream* os) { *os << r.name; }

std::vector<Pool3Rejection> Pool3Rejections() {
  std::vector<Pool3Rejection> r;
  auto add = [&](std::string name, bool adaptive, auto change, std::string keyword) {
    Pool3Rejection x;
    x.name = std::move(name);
    x.adaptive = adaptive;
    if (adaptive) x.kernel = {2, 3, 3};
    change(x);
    x.keyword = std::move(keyword);
    r.push_back(x);
  };
  add(
      "avg_self_double", false, [](Pool3Rejection& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  add(
      "avg_out_dtype", false, [](Pool3Rejection& x) { x.outDtype = ACL_FLOAT16; }, "out");
  add(
      "avg_format_nchw", false, [](Pool3Rejection& x) { x.selfFormat = x.outFormat = ACL_FORMAT_NCHW; }, "format");
  add(
      "avg_format_differs", false, [](Pool3Rejection& x) { x.outFormat = ACL_FORMAT_NCDHW; }, "format");
  add(
      "avg_rank3", false,
      [](Pool3Rejection& x) {
        x.self = {4, 6, 6}, x.out = {2, 3, 3};
      },
      "self");
  add(
      "avg_kernel_length2", false,
      [](Pool3Rejection& x) {
        x.kernel = {2, 2};
      },
      "kernelSize");
  add(
      "avg_kernel_0", false, [](Pool3Rejection& x) { x.kernel = {0}; }, "kernelSize");
  add(
      "avg_kernel_over_input", false,
      [](Pool3Rejection& x) {
        x.kernel = {5, 2, 2};
      },
      "kernelSize");
  add(
      "avg_stride_length2", false,
      [](Pool3Rejection& x) {
        x.strides = {2, 2};
      },
      "stride");
  add(
      "avg_stride_0", false, [](Pool3Rejection& x) { x.strides = {0}; }, "stride");
  add(
      "avg_padding_empty", false, [](Pool3Rejection& x) { x.pads = {}; }, "padding");
  add(
      "avg_padding_over_half", false, [](Pool3Rejection& x) { x.pads = {2}; }, "padding");
  add(
      "avg_out_shape", false,
      [](Pool3Rejection& x) {
        x.out = {1, 2, 2, 3, 2};
      },
      "out");
  add(
      "adaptive_self_double", true, [](Pool3Rejection& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  add(
      "adaptive_format_nchw", true, [](Pool3Rejection& x) { x.selfFormat = ACL_FORMAT_NCHW; }, "format");
  add(
      "adaptive_out_dtype", true, [](Pool3Rejection& x) { x.outDtype = ACL_BF16; }, "out");
  add(
      "adaptive_rank3", true,
      [](Pool3Rejection& x) {
        x.self = {4, 6, 6}, x.out = {2, 3, 3};
      },
      "self");
  add(
      "adaptive_empty_depth", true,
      [](Pool3Rejection& x) {
        x.self = {1, 2, 0, 6, 6};
      },
      "empty");
  add(
      "adaptive_size_length", true,
      [](Pool3Rejection& x) {
        x.kernel = {2, 3};
      },
      "outputSize");
  add(
      "adaptive_out_shape", true,
      [](Pool3Rejection& x) {
        x.out = {1, 3, 2, 3, 3};
      },
      "out");
  return r;
}

class Pool3dRejectionTest : public ::testing::TestWithParam<Pool3Rejection> {};

TEST_P(Pool3dRejectionTest, IsRejectedWithItsStatus) {
  const Pool3Rejection& x = GetParam();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* self = a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.selfFormat);
        aclTensor* out = a.NewTensor(x.outDtype, x.out, View::kContiguous, x.outFormat);
        if (x.adaptive) return aclnnAdaptiveAvgPool3dGetWorkspaceSize(self, a.IntArray(x.kernel), out, ws, ex);
        return aclnnAvgPool3dGetWorkspaceSize(self, a.IntArray(x.kernel), a.IntArray(x.strides), a.IntArray(x.pads),
                                              false, true, 0, out, ws, ex);
      },
      x.adaptive ? aclnnAdaptiveAvgPool3d : aclnnAvgPool3d);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, Pool3dRejectionTest, ::testing::ValuesIn(Pool3Rejections()),
                         [](const ::testing::TestParamInfo<Pool3Rejection>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- UpsampleNearest1d, UpsampleNearestExact1d, UpsampleNearestExact2d --------------------------

enum class NearestOp { kNearest1d, kExact1d, kExact2d, kNearest3d, kExact3d, kNearest2dV2, kNearest1dV2 };

struct NearestCase {
  std::string name;
  NearestOp op = NearestOp::kNearest1d;
  Shape input;
  std::vector<int64_t> outputSize;
  double scalesD = 0, scalesH = 0, scalesW = 0;  // Exact1d takes scalesW as its `scales`
  aclFormat format = ACL_FORMAT_NCL;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const NearestCase& c, std::ostream* os) { *os << c.name; }

NearestCase Nearest(std::string name, NearestOp op, Shape input, std::vector<int64_t> outputSize, aclFormat format,
                    aclDataType dtype = ACL_FLOAT) {
  NearestCase c;
  c.name = std::move(name);
  c.op = op;
  c.input = std::move(input);
  c.outputSize = std::move(outputSize);
  c.format = format;
  c.dtype = dtype;
  return c;
}

// PyTorch's nearest / nearest-exact index, the scale in float: 1 / scales when given, else in / out.
int64_t NearestIndex(int64_t dst, int64_t in, int64_t out, bool exact, double scales) {
  const float scale = scales > 0 ? static_cast<float>(1.0 / scales) : static_cast<float>(in) / static_cast<float>(out);
  const float at = (static_cast<float>(dst) + (exact ? 0.5f : 0.0f)) * scale;
  return std::min(static_cast<int64_t>(std::floor(at)), in - 1);
}

void RunNearest(const NearestCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const bool nhwc = c.format == ACL_FORMAT_NHWC;
  const bool threeD = c.op == NearestOp::kNearest3d || c.op == NearestOp::kExact3d;
  std::vector<size_t> dims;  // the resampled dims
  std::vector<double> scales;
  if (threeD) {
    dims = c.format == ACL_FORMAT_NDHWC ? std::vector<size_t>{1, 2, 3} : std::vector<size_t>{2, 3, 4};
    // The scales count only when all three are given.
    const bool all = c.scalesD > 0 && c.scalesH > 0 && c.scalesW > 0;
    scales = all ? std::vector<double>{c.scalesD, c.scalesH, c.scalesW} : std::vector<double>{0, 0, 0};
  } else if (c.op == NearestOp::kExact2d || c.op == NearestOp::kNearest2dV2) {
    dims = nhwc ? std::vector<size_t>{1, 2} : std::vector<size_t>{2, 3};
    scales = {c.scalesH, c.scalesW};
  } else {
    dims = {2};
    scales = {c.scalesW};
  }
  const bool exact = c.op == NearestOp::kExact1d || c.op == NearestOp::kExact2d || c.op == NearestOp::kExact3d;
  Shape outShape = c.input;
  for (size_t k = 0; k < dims.size(); ++k) outShape[dims[k]] = c.outputSize[k];
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-100, 100});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const auto phase1 = [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
    aclTensor* self = a.Tensor(in, c.format);
    aclTensor* y = a.Tensor(out, c.format);
    const aclIntArray* size = a.IntArray(c.outputSize);
    switch (c.op) {
      case NearestOp::kNearest1d:
        return aclnnUpsampleNearest1dGetWorkspaceSize(self, size, y, ws, ex);
      case NearestOp::kExact1d:
        return aclnnUpsampleNearestExact1dGetWorkspaceSize(self, size, c.scalesW, y, ws, ex);
      case NearestOp::kNearest3d:
        return aclnnUpsampleNearest3dGetWorkspaceSize(self, size, c.scalesD, c.scalesH, c.scalesW, y, ws, ex);
      case NearestOp::kExact3d:
        return aclnnUpsampleNearestExact3dGetWorkspaceSize(self, size, c.scalesD, c.scalesH, c.scalesW, y, ws, ex);
      case NearestOp::kNearest2dV2:
        return aclnnUpsampleNearest2dV2GetWorkspaceSize(self, size, static_cast<float>(c.scalesH),
                                                        static_cast<float>(c.scalesW), y, ws, ex);
      case NearestOp::kNearest1dV2:
        return aclnnUpsampleNearest1dV2GetWorkspaceSize(self, size, static_cast<float>(c.scalesW), y, ws, ex);
      case NearestOp::kExact2d:
        break;
    }
    return aclnnUpsampleNearestExact2dGetWorkspaceSize(self, size, c.scalesH, c.scalesW, y, ws, ex);
  };
  const OpRun run = RunOp(phase1, c.op == NearestOp::kNearest1d     ? aclnnUpsampleNearest1d
                                  : c.op == NearestOp::kExact1d     ? aclnnUpsampleNearestExact1d
                                  : c.op == NearestOp::kNearest3d   ? aclnnUpsampleNearest3d
                                  : c.op == NearestOp::kExact3d     ? aclnnUpsampleNearestExact3d
                                  : c.op == NearestOp::kNearest2dV2 ? aclnnUpsampleNearest2dV2
                                  : c.op == NearestOp::kNearest1dV2 ? aclnnUpsampleNearest1dV2
                                                                    : aclnnUpsampleNearestExact2d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    for (size_t k = 0; k < dims.size(); ++k) {
      index[dims[k]] = NearestIndex(index[dims[k]], c.input[dims[k]], outShape[dims[k]], exact, scales[k]);
    }
    want.push_back(x[static_cast<size_t>(Ravel(index, c.input))]);
  }
  ExpectExact(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<NearestCase> NearestCases() {
  std::vector<NearestCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_UINT8}) {
    cases.push_back(Nearest(std::string("nearest1d_") + Name(dtype), NearestOp::kNearest1d, {2, 3, 7}, {17},
                            ACL_FORMAT_NCL, dtype));
  }
  cases.push_back(Nearest("nearest1d_doc_example", NearestOp::kNearest1d, {1, 3, 3}, {5}, ACL_FORMAT_NCL));
  cases.push_back(Nearest("nearest1d_downsample", NearestOp::kNearest1d, {2, 2, 11}, {4}, ACL_FORMAT_NCL));
  NearestCase v = Nearest("nearest1d_views", NearestOp::kNearest1d, {3, 4, 6}, {13}, ACL_FORMAT_NCL, ACL_BF16);
  v.inView = View::kTransposed;
  v.outView = View::kReversed;
  cases.push_back(v);
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(
        Nearest(std::string("exact1d_") + Name(dtype), NearestOp::kExact1d, {2, 3, 7}, {10}, ACL_FORMAT_NCL, dtype));
  }
  cases.push_back(Nearest("exact1d_doc_example", NearestOp::kExact1d, {1, 3, 3}, {5}, ACL_FORMAT_NCL));
  NearestCase s = Nearest("exact1d_scales", NearestOp::kExact1d, {2, 2, 6}, {15}, ACL_FORMAT_ND);
  s.scalesW = 2.5;
  cases.push_back(s);
  v = Nearest("exact1d_views", NearestOp::kExact1d, {3, 2, 9}, {4}, ACL_FORMAT_NCL, ACL_FLOAT16);
  v.inView = View::kStepped;
  v.outView = View::kOffset;
  cases.push_back(v);
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(Nearest(std::string("exact2d_") + Name(dtype), NearestOp::kExact2d, {2, 3, 5, 4}, {8, 11},
                            ACL_FORMAT_NCHW, dtype));
  }
  cases.push_back(Nearest("exact2d_doc_example", NearestOp::kExact2d, {1, 1, 4, 2}, {8, 4}, ACL_FORMAT_NCHW));
  cases.push_back(Nearest("exact2d_nhwc", NearestOp::kExact2d, {2, 5, 3, 4}, {7, 2}, ACL_FORMAT_NHWC));
  cases.push_back(Nearest("exact2d_nd", NearestOp::kExact2d, {1, 2, 9, 6}, {4, 13}, ACL_FORMAT_ND));
  s = Nearest("exact2d_scales", NearestOp::kExact2d, {1, 2, 5, 6}, {7, 18}, ACL_FORMAT_NCHW);
  s.scalesH = 1.5;
  s.scalesW = 3.0;
  cases.push_back(s);
  cases.push_back(Nearest("exact2d_empty_batch", NearestOp::kExact2d, {0, 2, 5, 6}, {3, 3}, ACL_FORMAT_NCHW));
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_UINT8}) {
    cases.push_back(Nearest(std::string("nearest1dv2_") + Name(dtype), NearestOp::kNearest1dV2, {2, 3, 7}, {17},
                            ACL_FORMAT_NCL, dtype));
  }
  cases.push_back(Nearest("nearest1dv2_doc_example", NearestOp::kNearest1dV2, {1, 3, 3}, {6}, ACL_FORMAT_NCL));
  s = Nearest("nearest1dv2_scale", NearestOp::kNearest1dV2, {2, 2, 6}, {15}, ACL_FORMAT_NCL);
  s.scalesW = 2.5;
  cases.push_back(s);
  for (const aclDataType dtype : {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_DOUBLE, ACL_UINT8}) {
    cases.push_back(Nearest(std::string("nearest2dv2_") + Name(dtype), NearestOp::kNearest2dV2, {2, 3, 5, 4}, {9, 11},
                            ACL_FORMAT_NCHW, dtype));
  }
  cases.push_back(Nearest("nearest2dv2_doc_example", NearestOp::kNearest2dV2, {1, 1, 4, 2}, {8, 4}, ACL_FORMAT_NCHW));
  cases.push_back(Nearest("nearest2dv2_nhwc", NearestOp::kNearest2dV2, {2, 5, 3, 4}, {7, 2}, ACL_FORMAT_NHWC));
  s = Nearest("nearest2dv2_scales", NearestOp::kNearest2dV2, {1, 2, 5, 6}, {7, 18}, ACL_FORMAT_NCHW);
  s.scalesH = 1.5;
  s.scalesW = 3.0;
  cases.push_back(s);
  cases.push_back(Nearest("nearest2dv2_empty_batch", NearestOp::kNearest2dV2, {0, 2, 5, 6}, {3, 3}, ACL_FORMAT_NCHW));
  v = Nearest("exact2d_views", NearestOp::kExact2d, {2, 3, 6, 5}, {9, 7}, ACL_FORMAT_NCHW, ACL_BF16);
  v.inView = View::kTransposed;
  v.outView = View::kStepped;
  cases.push_back(v);
  for (const NearestOp op : {NearestOp::kNearest3d, NearestOp::kExact3d}) {
    const std::string name = op == NearestOp::kNearest3d ? "nearest3d" : "exact3d";
    std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    if (op == NearestOp::kNearest3d) dtypes.push_back(ACL_DOUBLE);
    for (const aclDataType dtype : dtypes) {
      cases.push_back(Nearest(name + "_" + Name(dtype), op, {2, 2, 3, 4, 5}, {5, 7, 3}, ACL_FORMAT_NCDHW, dtype));
    }
    cases.push_back(Nearest(name + "_doc_example", op, {2, 2, 2, 2, 3}, {1, 1, 1}, ACL_FORMAT_NCDHW));
    cases.push_back(Nearest(name + "_ndhwc", op, {1, 3, 4, 2, 3}, {6, 5, 4}, ACL_FORMAT_NDHWC));
    NearestCase sc = Nearest(name + "_scales", op, {1, 2, 3, 4, 5}, {7, 6, 12}, ACL_FORMAT_ND);
    sc.scalesD = 2.5;
    sc.scalesH = 1.5;
    sc.scalesW = 2.5;
    cases.push_back(sc);
    sc.name = name + "_one_scale_missing";  // then none counts
    sc.scalesH = 0;
    cases.push_back(sc);
    NearestCase w = Nearest(name + "_views", op, {2, 3, 4, 3, 5}, {3, 7, 8}, ACL_FORMAT_NCDHW, ACL_FLOAT16);
    w.inView = View::kStepped;
    w.outView = View::kReversed;
    cases.push_back(w);
  }
  return cases;
}

class UpsampleNearestFamilyTest : public ::testing::TestWithParam<NearestCase> {};
TEST_P(UpsampleNearestFamilyTest, MatchesPyTorchIndexRule) { RunNearest(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleNearestFamilyTest, ::testing::ValuesIn(NearestCases()),
                         [](const ::testing::TestParamInfo<NearestCase>& info) {
                           return SanitizeName(info.param.name);
                         });

struct NearestRejection {
  std::string name;
  NearestCase call;
  std::string keyword;
};

void PrintTo(const NearestRejection& r, std::ostream* os) { *os << r.name; }

std::vector<NearestRejection> NearestRejections() {
  std::vector<NearestRejection> r;
  const NearestCase n1 = Nearest("", NearestOp::kNearest1d, {1, 2, 4}, {8}, ACL_FORMAT_NCL);
  const NearestCase e1 = Nearest("", NearestOp::kExact1d, {1, 2, 4}, {8}, ACL_FORMAT_NCL);
  const NearestCase e2 = Nearest("", NearestOp::kExact2d, {1, 2, 4, 4}, {8, 8}, ACL_FORMAT_NCHW);
  auto add = [&](std::string name, const NearestCase& base, auto change, std::string keyword) {
    NearestCase c = base;
    change(c);
    r.push_back({std::move(name), c, std::move(keyword)});
  };
  add(
      "n1_int32", n1, [](NearestCase& c) { c.dtype = ACL_INT32; }, "self");
  add(
      "n1_rank4", n1,
      [](NearestCase& c) {
        c.input = {1, 2, 4, 4}, c.format = ACL_FORMAT_NCHW;
      },
      "self");
  add(
      "n1_format_nd", n1, [](NearestCase& c) { c.format = ACL_FORMAT_ND; }, "format");
  add(
      "n1_size_0", n1, [](NearestCase& c) { c.outputSize = {0}; }, "outputSize");
  add(
      "n1_size_length2", n1,
      [](NearestCase& c) {
        c.outputSize = {8, 8};
      },
      "outputSize");
  add(
      "n1_empty", n1,
      [](NearestCase& c) {
        c.input = {0, 2, 4};
      },
      "empty");
  add(
      "e1_double", e1, [](NearestCase& c) { c.dtype = ACL_DOUBLE; }, "self");
  add(
      "e1_rank4", e1,
      [](NearestCase& c) {
        c.input = {1, 2, 4, 4}, c.format = ACL_FORMAT_ND;
      },
      "self");
  add(
      "e1_format_nchw", e1, [](NearestCase& c) { c.format = ACL_FORMAT_NCHW; }, "format");
  add(
      "e1_empty", e1,
      [](NearestCase& c) {
        c.input = {1, 0, 4};
      },
      "empty");
  add(
      "e2_double", e2, [](NearestCase& c) { c.dtype = ACL_DOUBLE; }, "self");  // UINT8 is in the A2 list
  add(
      "e2_rank3", e2,
      [](NearestCase& c) {
        c.input = {2, 4, 4}, c.format = ACL_FORMAT_ND;
      },
      "self");
  add(
      "e2_format_ncl", e2, [](NearestCase& c) { c.format = ACL_FORMAT_NCL; }, "format");
  add(
      "e2_size_length1", e2, [](NearestCase& c) { c.outputSize = {8}; }, "outputSize");
  add(
      "e2_negative_scale", e2, [](NearestCase& c) { c.scalesH = -1; }, "scalesH");
  const NearestCase v2 = Nearest("", NearestOp::kNearest2dV2, {1, 2, 4, 4}, {8, 8}, ACL_FORMAT_NCHW);
  add(
      "v2_int32", v2, [](NearestCase& c) { c.dtype = ACL_INT32; }, "self");
  add(
      "v2_format_nd", v2, [](NearestCase& c) { c.format = ACL_FORMAT_ND; }, "format");
  add(
      "v2_rank3", v2,
      [](NearestCase& c) {
        c.input = {2, 4, 4}, c.format = ACL_FORMAT_NCHW;
      },
      "self");
  add(
      "v2_size_0", v2,
      [](NearestCase& c) {
        c.outputSize = {0, 8};
      },
      "outputSize");
  const NearestCase v1 = Nearest("", NearestOp::kNearest1dV2, {1, 2, 4}, {8}, ACL_FORMAT_NCL);
  add(
      "v1_int32", v1, [](NearestCase& c) { c.dtype = ACL_INT32; }, "self");
  add(
      "v1_format_nd", v1, [](NearestCase& c) { c.format = ACL_FORMAT_ND; }, "format");
  add(
      "v1_empty", v1,
      [](NearestCase& c) {
        c.input = {0, 2, 4};
      },
      "empty");
  const NearestCase n3 = Nearest("", NearestOp::kNearest3d, {1, 2, 3, 4, 4}, {6, 8, 8}, ACL_FORMAT_NCDHW);
  NearestCase x3 = n3;
  x3.op = NearestOp::kExact3d;
  add(
      "n3_int32", n3, [](NearestCase& c) { c.dtype = ACL_INT32; }, "self");
  add(
      "n3_rank4", n3,
      [](NearestCase& c) {
        c.input = {2, 3, 4, 4}, c.format = ACL_FORMAT_ND;
      },
      "self");
  add(
      "n3_format_nchw", n3, [](NearestCase& c) { c.format = ACL_FORMAT_NCHW; }, "format");
  add(
      "n3_size_length2", n3,
      [](NearestCase& c) {
        c.outputSize = {6, 8};
      },
      "outputSize");
  add(
      "n3_size_0", n3,
      [](NearestCase& c) {
        c.outputSize = {0, 8, 8};
      },
      "outputSize");
  add(
      "n3_empty", n3,
      [](NearestCase& c) {
        c.input = {1, 0, 3, 4, 4};
      },
      "empty");
  add(
      "x3_double", x3, [](NearestCase& c) { c.dtype = ACL_DOUBLE; }, "self");
  add(
      "x3_empty", x3,
      [](NearestCase& c) {
        c.input = {0, 2, 3, 4, 4};
      },
      "empty");
  return r;
}

class UpsampleNearestFamilyRejectionTest : public ::testing::TestWithParam<NearestRejection> {};

TEST_P(UpsampleNearestFamilyRejectionTest, IsRejectedWithItsStatus) {
  const NearestRejection& x = GetParam();
  const NearestCase& c = x.call;
  // out: self's shape with the first resampled dim from outputSize (or 8), so only the case's change is wrong.
  Shape outShape = c.input;
  if ((c.op == NearestOp::kNearest3d || c.op == NearestOp::kExact3d) && outShape.size() == 5) {
    for (size_t k = 0; k < 3; ++k) outShape[2 + k] = k < c.outputSize.size() ? c.outputSize[k] : 8;
  } else if ((c.op == NearestOp::kExact2d || c.op == NearestOp::kNearest2dV2) && outShape.size() == 4) {
    outShape[2] = c.outputSize[0];
    outShape[3] = c.outputSize.size() > 1 ? c.outputSize[1] : 8;
  } else if (outShape.size() >= 3) {
    outShape[2] = c.outputSize[0];
  }
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* self = a.NewTensor(c.dtype, c.input, View::kContiguous, c.format);
        aclTensor* out = a.NewTensor(c.dtype, outShape, View::kContiguous, c.format);
        switch (c.op) {
          case NearestOp::kNearest1d:
            return aclnnUpsampleNearest1dGetWorkspaceSize(self, a.IntArray(c.outputSize), out, ws, ex);
          case NearestOp::kExact1d:
            return aclnnUpsampleNearestExact1dGetWorkspaceSize(self, a.IntArray(c.outputSize), c.scalesW, out, ws, ex);
          case NearestOp::kNearest3d:
            return aclnnUpsampleNearest3dGetWorkspaceSize(self, a.IntArray(c.outputSize), c.scalesD, c.scalesH,
                                                          c.scalesW, out, ws, ex);
          case NearestOp::kExact3d:
            return aclnnUpsampleNearestExact3dGetWorkspaceSize(self, a.IntArray(c.outputSize), c.scalesD, c.scalesH,
                                                               c.scalesW, out, ws, ex);
          case NearestOp::kNearest2dV2:
            return aclnnUpsampleNearest2dV2GetWorkspaceSize(self, a.IntArray(c.outputSize), 0.0f, 0.0f, out, ws, ex);
          case NearestOp::kNearest1dV2:
            return aclnnUpsampleNearest1dV2GetWorkspaceSize(self, a.IntArray(c.outputSize), 0.0f, out, ws, ex);
          case NearestOp::kExact2d:
            break;
        }
        return aclnnUpsampleNearestExact2dGetWorkspaceSize(self, a.IntArray(c.outputSize), c.scalesH, c.scalesW, out,
                                                           ws, ex);
      },
      c.op == NearestOp::kNearest1d     ? aclnnUpsampleNearest1d
      : c.op == NearestOp::kExact1d     ? aclnnUpsampleNearestExact1d
      : c.op == NearestOp::kNearest3d   ? aclnnUpsampleNearest3d
      : c.op == NearestOp::kExact3d     ? aclnnUpsampleNearestExact3d
      : c.op == NearestOp::kNearest2dV2 ? aclnnUpsampleNearest2dV2
      : c.op == NearestOp::kNearest1dV2 ? aclnnUpsampleNearest1dV2
                                        : aclnnUpsampleNearestExact2d);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, UpsampleNearestFamilyRejectionTest, ::testing::ValuesIn(NearestRejections()),
                         [](const ::testing::TestParamInfo<NearestRejection>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
