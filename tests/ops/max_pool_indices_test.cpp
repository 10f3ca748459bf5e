// MaxPool2dWithIndices, AdaptiveMaxPool2d/3d and MaxPool3dWithArgmax against
// float64 window loops with PyTorch's rules: maxima and their flat indices
// h * W + w, (d * H + h) * W + w in 3-D (ties: the first in
// row-major order; NaN wins), every dtype and both index dtypes, ceil mode's
// last-window rule, padding, 3-D and 4-D inputs, strided views, an empty
// batch, the doc's example call, and every rejection with its code.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool3d.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  std::string name;
  Shape input;  // [N, C, H, W] or [C, H, W]
  std::vector<int64_t> kernel, stride, padding;
  bool ceilMode = false;
  aclDataType dtype = ACL_FLOAT, indexDtype = ACL_INT64;
  View inView = View::kContiguous, outView = View::kContiguous;
  aclFormat format = ACL_FORMAT_NCHW;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Case Make(std::string name, Shape input, std::vector<int64_t> kernel, std::vector<int64_t> stride,
          std::vector<int64_t> padding, bool ceilMode = false) {
  Case c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.kernel = std::move(kernel);
  c.stride = std::move(stride);
  c.padding = std::move(padding);
  c.ceilMode = ceilMode;
  c.format = c.input.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL;
  return c;
}

int64_t Axis(const std::vector<int64_t>& v, size_t d, int64_t fallback) {
  return v.empty() ? fallback : v.size() == 1 ? v[0] : v[d];
}

// PyTorch's pooling_output_shape (dilation 1).
int64_t OutExtent(int64_t in, int64_t k, int64_t s, int64_t p, bool ceil) {
  int64_t out = (in + 2 * p - k + (ceil ? s - 1 : 0)) / s + 1;
  if (ceil && (out - 1) * s >= in + p) --out;
  return out;
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const size_t rank = c.input.size();
  const int64_t H = c.input[rank - 2], W = c.input[rank - 1];
  int64_t k[2], s[2], p[2], o[2];
  for (size_t d = 0; d < 2; ++d) {
    k[d] = Axis(c.kernel, d, 1);
    s[d] = Axis(c.stride, d, k[d]);
    p[d] = Axis(c.padding, d, 0);
    o[d] = OutExtent(c.input[rank - 2 + d], k[d], s[d], p[d], c.ceilMode);
  }
  Shape outShape = c.input;
  outShape[rank - 2] = o[0];
  outShape[rank - 1] = o[1];
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  DeviceTensor indices(c.indexDtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  indices.Poison();
  const std::vector<uint8_t> outBefore = out.DownloadBytes(), indicesBefore = indices.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMaxPool2dWithIndicesGetWorkspaceSize(
            a.Tensor(in, c.format), a.IntArray(c.kernel), a.IntArray(c.stride), a.IntArray(c.padding),
            a.IntArray({1, 1}), c.ceilMode, a.Tensor(out, c.format), a.Tensor(indices, c.format), ws, ex);
      },
      aclnnMaxPool2dWithIndices);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values wantValues, wantIndices;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    const int64_t oh = index[rank - 2], ow = index[rank - 1];
    double best = -std::numeric_limits<double>::infinity();
    int64_t bestIndex = -1;
    for (int64_t h = oh * s[0] - p[0]; h < oh * s[0] - p[0] + k[0]; ++h) {
      for (int64_t w = ow * s[1] - p[1]; w < ow * s[1] - p[1] + k[1]; ++w) {
        if (h < 0 || h >= H || w < 0 || w >= W) continue;
        index[rank - 2] = h;
        index[rank - 1] = w;
        const double v = x[static_cast<size_t>(Ravel(index, c.input))].real();
        if (bestIndex < 0 || v > best) best = v, bestIndex = h * W + w;
      }
    }
    wantValues.push_back(best);
    wantIndices.push_back(static_cast<double>(bestIndex));
  }
  ExpectExact(out.ReadView(), wantValues, c.name + " values");
  ExpectExact(indices.ReadView(), wantIndices, c.name + " indices");
  ExpectOutsideViewUnchanged(out, outBefore, c.name);
  ExpectOutsideViewUnchanged(indices, indicesBefore, c.name);
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const aclDataType indexDtype : {ACL_INT32, ACL_INT64}) {
      Case c = Make(std::string("k3s2p1_") + Name(dtype) + "_" + Name(indexDtype), {2, 3, 9, 8}, {3}, {2}, {1});
      c.dtype = dtype;
      c.indexDtype = indexDtype;
      cases.push_back(c);
    }
  }
  cases.push_back(Make("k2_default_stride", {1, 4, 6, 7}, {2}, {}, {0}));
  cases.push_back(Make("rect", {1, 2, 10, 9}, {3, 2}, {1, 3}, {1, 0}));
  cases.push_back(Make("ceil_mode", {1, 2, 7, 8}, {3, 3}, {2, 2}, {1, 1}, true));
  cases.push_back(Make("ceil_mode_drops_last", {1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, true));
  cases.push_back(Make("chw", {3, 7, 6}, {2, 3}, {1, 2}, {1, 1}));
  cases.push_back(Make("global", {2, 3, 5, 4}, {5, 4}, {1}, {0}));
  cases.push_back(Make("empty_batch", {0, 3, 6, 6}, {2}, {2}, {0}));
  Case nd = Make("nd", {1, 2, 6, 6}, {3}, {1}, {1});
  nd.format = ACL_FORMAT_ND;
  cases.push_back(nd);
  Case views = Make("views", {2, 3, 8, 9}, {3}, {2}, {1});
  views.dtype = ACL_FLOAT16;
  views.inView = View::kStepped;
  views.outView = View::kReversed;
  cases.push_back(views);
  views.name = "views_transposed";
  views.dtype = ACL_FLOAT;
  views.inView = View::kTransposed;
  views.outView = View::kOffset;
  cases.push_back(views);
  // The doc's example: [1, 1, 4, 3] f32 NCHW, kernel 2x2, stride 2, no padding, INT32 indices.
  Case doc = Make("doc_example", {1, 1, 4, 3}, {2, 2}, {2, 2}, {0, 0});
  doc.indexDtype = ACL_INT32;
  cases.push_back(doc);
  return cases;
}

class MaxPool2dWithIndicesTest : public ::testing::TestWithParam<Case> {};
TEST_P(MaxPool2dWithIndicesTest, MatchesFloat64Reference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MaxPool2dWithIndicesTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// NaN wins a window (its index is reported); -inf everywhere gives -inf at
// the window's first element; ties keep the first element.
TEST(MaxPool2dWithIndicesSpecial, NanInfinityAndTies) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  DeviceTensor in(ACL_FLOAT, {1, 1, 2, 6});
  DeviceTensor out(ACL_FLOAT, {1, 1, 1, 3});
  DeviceTensor indices(ACL_INT64, {1, 1, 1, 3});
  in.WriteView({1, nan, -inf, -inf, 5, 5, 2, 3, -inf, -inf, 5, 1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMaxPool2dWithIndicesGetWorkspaceSize(
            a.Tensor(in, ACL_FORMAT_NCHW), a.IntArray({2}), a.IntArray({2}), a.IntArray({0}), a.IntArray({1}), false,
            a.Tensor(out, ACL_FORMAT_NCHW), a.Tensor(indices, ACL_FORMAT_NCHW), ws, ex);
      },
      aclnnMaxPool2dWithIndices);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {nan, -inf, 5}, "values");
  ExpectExact(indices.ReadView(), {1, 2, 4}, "indices");
}

// ---- Rejections ---------------------------------------------------------------------------------

struct Call {
  Shape self = {1, 2, 6, 6}, out = {1, 2, 3, 3}, indices = {1, 2, 3, 3};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT, indexDtype = ACL_INT64;
  aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
  std::vector<int64_t> kernel = {2}, stride = {2}, padding = {0}, dilation = {1};
};

struct Rejection {
  std::string name;
  Call call;
  std::string keyword;
};

void PrintTo(const Rejection& r, std::ostream* os) { *os << r.name; }

std::vector<Rejection> Rejections() {
  std::vector<Rejection> r;
  auto add = [&](std::string name, auto change, std::string keyword) {
    Call x;
    change(x);
    r.push_back({std::move(name), x, std::move(keyword)});
  };
  add(
      "self_double", [](Call& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  add(
      "self_int32", [](Call& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  add(
      "out_dtype", [](Call& x) { x.outDtype = ACL_FLOAT16; }, "out");
  add(
      "indices_int16", [](Call& x) { x.indexDtype = ACL_INT16; }, "indices");
  add(
      "indices_float", [](Call& x) { x.indexDtype = ACL_FLOAT; }, "indices");
  add(
      "format_nhwc", [](Call& x) { x.selfFormat = x.outFormat = ACL_FORMAT_NHWC; }, "NHWC");
  add(
      "format_differs", [](Call& x) { x.outFormat = ACL_FORMAT_ND; }, "format");
  add(
      "rank2",
      [](Call& x) {
        x.self = {6, 6}, x.out = x.indices = {3, 3};
      },
      "self");
  add(
      "rank5",
      [](Call& x) {
        x.self = {1, 1, 2, 6, 6}, x.out = x.indices = {1, 1, 2, 3, 3};
      },
      "self");
  add(
      "kernel_empty", [](Call& x) { x.kernel = {}; }, "kernelSize");
  add(
      "kernel_length3",
      [](Call& x) {
        x.kernel = {2, 2, 2};
      },
      "kernelSize");
  add(
      "kernel_0", [](Call& x) { x.kernel = {0}; }, "kernelSize");
  add(
      "stride_length3",
      [](Call& x) {
        x.stride = {2, 2, 2};
      },
      "stride");
  add(
      "stride_0", [](Call& x) { x.stride = {0}; }, "stride");
  add(
      "padding_empty", [](Call& x) { x.padding = {}; }, "padding");
  add(
      "padding_negative", [](Call& x) { x.padding = {-1}; }, "padding");
  add(
      "padding_over_half", [](Call& x) { x.kernel = {3}, x.padding = {2}; }, "padding");
  add(
      "dilation_empty", [](Call& x) { x.dilation = {}; }, "dilation");
  add(
      "dilation_2",
      [](Call& x) {
        x.dilation = {1, 2};
      },
      "dilation");
  add(
      "dilation_0", [](Call& x) { x.dilation = {0}; }, "dilation");
  add(
      "empty_channels",
      [](Call& x) {
        x.self = {1, 0, 6, 6}, x.out = x.indices = {1, 0, 3, 3};
      },
      "empty");
  add(
      "empty_width",
      [](Call& x) {
        x.self = {1, 2, 6, 0};
      },
      "empty");
  add(
      "no_output",
      [](Call& x) {
        x.self = {1, 2, 1, 6}, x.kernel = {2};
      },
      "no output");
  add(
      "out_shape",
      [](Call& x) {
        x.out = {1, 2, 3, 2};
      },
      "out");
  add(
      "indices_shape",
      [](Call& x) {
        x.indices = {1, 2, 3, 2};
      },
      "indices");
  return r;
}

class MaxPool2dWithIndicesRejectionTest : public ::testing::TestWithParam<Rejection> {};

TEST_P(MaxPool2dWithIndicesRejectionTest, IsRejectedWithItsStatus) {
  const Rejection& x = GetParam();
  const Call& c = x.call;
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMaxPool2dWithIndicesGetWorkspaceSize(
            a.NewTensor(c.selfDtype, c.self, View::kContiguous, c.selfFormat), a.IntArray(c.kernel),
            a.IntArray(c.stride), a.IntArray(c.padding), a.IntArray(c.dilation), false,
            a.NewTensor(c.outDtype, c.out, View::kContiguous, c.outFormat),
            a.NewTensor(c.indexDtype, c.indices, View::kContiguous, c.outFormat), ws, ex);
      },
      aclnnMaxPool2dWithIndices);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, MaxPool2dWithIndicesRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return SanitizeName(info.param.name); });

// A null out or indices is 161001.
TEST(MaxPool2dWithIndicesRejection, NullOutputs) {
  for (int which = 0; which < 2; ++which) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          aclTensor* out = a.NewTensor(ACL_FLOAT, {1, 2, 3, 3}, View::kContiguous, ACL_FORMAT_NCHW);
          aclTensor* indices = a.NewTensor(ACL_INT64, {1, 2, 3, 3}, View::kContiguous, ACL_FORMAT_NCHW);
          return aclnnMaxPool2dWithIndicesGetWorkspaceSize(
              a.NewTensor(ACL_FLOAT, {1, 2, 6, 6}, View::kContiguous, ACL_FORMAT_NCHW), a.IntArray({2}),
              a.IntArray({2}), a.IntArray({0}), a.IntArray({1}), false, which == 0 ? nullptr : out,
              which == 1 ? nullptr : indices, ws, ex);
        },
        aclnnMaxPool2dWithIndices);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_NULLPTR) << Describe(run);
  }
}

// ---- AdaptiveMaxPool2d / AdaptiveMaxPool3d / MaxPool3dWithArgmax --------------------------------
// The same float64 window loop over [N, C, D, H, W] (a 2-D op has D = 1):
// windows per axis as PyTorch draws them, indices (d * H + h) * W + w.

struct Window3 {
  int64_t begin, end;  // input indices [begin, end), already clipped
};

// Adaptive: [floor(i * in / out), ceil((i + 1) * in / out)).
std::vector<Window3> AdaptiveWindowList(int64_t in, int64_t out) {
  std::vector<Window3> w;
  for (int64_t i = 0; i < out; ++i) {
    w.push_back({static_cast<int64_t>(std::floor(static_cast<double>(i * in) / static_cast<double>(out))),
                 static_cast<int64_t>(std::ceil(static_cast<double>((i + 1) * in) / static_cast<double>(out)))});
  }
  return w;
}

// Fixed: i * stride - pad .. + kernel, clipped (dilation 1).
std::vector<Window3> FixedWindowList(int64_t in, int64_t k, int64_t s, int64_t p, int64_t out) {
  std::vector<Window3> w;
  for (int64_t i = 0; i < out; ++i) {
    w.push_back({std::max<int64_t>(i * s - p, 0), std::min(i * s - p + k, in)});
  }
  return w;
}

// x holds [N, C, D, H, W] values row-major (`dims`); out in the same order.
void ReferenceMaxPool3(const Values& x, const Shape& dims, const std::array<std::vector<Window3>, 3>& windows,
                       Values& values, Values& indices) {
  const int64_t D = dims[2], H = dims[3], W = dims[4];
  for (int64_t p = 0; p < dims[0] * dims[1]; ++p) {
    for (const Window3& a : windows[0]) {
      for (const Window3& b : windows[1]) {
        for (const Window3& e : windows[2]) {
          double best = 0;
          int64_t bestIndex = -1;
          for (int64_t z = a.begin; z < a.end; ++z) {
            for (int64_t y = b.begin; y < b.end; ++y) {
              for (int64_t w = e.begin; w < e.end; ++w) {
                const double v = x[static_cast<size_t>(((p * D + z) * H + y) * W + w)].real();
                if (bestIndex < 0 || v > best) best = v, bestIndex = (z * H + y) * W + w;
              }
            }
          }
          values.emplace_back(best);
          indices.emplace_back(static_cast<double>(bestIndex));
        }
      }
    }
  }
}

enum class IndexedOp { kAdaptive2d, kAdaptive3d, kArgmax3d };

struct IndexedCase {
  std::string name;
  IndexedOp op = IndexedOp::kAdaptive2d;
  Shape input;                // as the op takes it
  std::vector<int64_t> size;  // outputSize (adaptive) or kernelSize
  std::vector<int64_t> stride, padding;
  bool ceilMode = false;
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_NCHW;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const IndexedCase& c, std::ostream* os) { *os << c.name; }

IndexedCase Indexed(std::string name, IndexedOp op, Shape input, std::vector<int64_t> size, aclFormat format) {
  IndexedCase c;
  c.name = std::move(name);
  c.op = op;
  c.input = std::move(input);
  c.size = std::move(size);
  c.format = format;
  return c;
}

void RunIndexed(const IndexedCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const bool nhwc = c.format == ACL_FORMAT_NHWC;
  const size_t spatial = c.op == IndexedOp::kAdaptive2d ? 2 : 3;
  // The input as [N, C, D, H, W] dims and the op's dims order.
  Shape dims = c.input;
  if (nhwc) dims = {c.input[0], c.input[3], c.input[1], c.input[2]};
  while (dims.size() < spatial + 2) dims.insert(dims.begin(), 1);
  if (spatial == 2) dims.insert(dims.begin() + 2, 1);
  std::array<std::vector<Window3>, 3> windows;
  windows[0] = {{0, 1}};
  for (size_t d = 0; d < spatial; ++d) {
    const size_t axis = 3 - spatial + d;
    const int64_t in = dims[2 + axis];
    if (c.op == IndexedOp::kArgmax3d) {
      const int64_t k = Axis(c.size, d, 1), s = Axis(c.stride, d, k), p = Axis(c.padding, d, 0);
      windows[axis] = FixedWindowList(in, k, s, p, OutExtent(in, k, s, p, c.ceilMode));
    } else {
      windows[axis] = AdaptiveWindowList(in, c.size[d]);
    }
  }
  Shape outShape = c.input;
  if (nhwc) {
    outShape[1] = static_cast<int64_t>(windows[1].size());
    outShape[2] = static_cast<int64_t>(windows[2].size());
  } else {
    for (size_t d = 0; d < spatial; ++d) {
      outShape[outShape.size() - spatial + d] = static_cast<int64_t>(windows[3 - spatial + d].size());
    }
  }
  const aclDataType indexDtype = c.op == IndexedOp::kAdaptive2d ? ACL_INT64 : ACL_INT32;
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  DeviceTensor indices(indexDtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  indices.Poison();
  const std::vector<uint8_t> outBefore = out.DownloadBytes(), indicesBefore = indices.DownloadBytes();
  const OpRun run =
      c.op == IndexedOp::kAdaptive2d ? RunOp(
                                           [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                                             return aclnnAdaptiveMaxPool2dGetWorkspaceSize(
                                                 a.Tensor(in, c.format), a.IntArray(c.size), a.Tensor(out, c.format),
                                                 a.Tensor(indices, c.format), ws, ex);
                                           },
                                           aclnnAdaptiveMaxPool2d)
      : c.op == IndexedOp::kAdaptive3d
          ? RunOp(
                [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnAdaptiveMaxPool3dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray(c.size),
                                                                a.Tensor(out, c.format), a.Tensor(indices, c.format),
                                                                ws, ex);
                },
                aclnnAdaptiveMaxPool3d)
          : RunOp(
                [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnMaxPool3dWithArgmaxGetWorkspaceSize(
                      a.Tensor(in, c.format), a.IntArray(c.size), a.IntArray(c.stride), a.IntArray(c.padding),
                      a.IntArray({1, 1, 1}), c.ceilMode, a.Tensor(out, c.format), a.Tensor(indices, c.format), ws, ex);
                },
                aclnnMaxPool3dWithArgmax);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // x in [N, C, D, H, W] order (NHWC input permuted).
  Values xs = x;
  if (nhwc) {
    xs.clear();
    for (int64_t i = 0; i < NumElements(dims); ++i) {
      const Shape at = Unravel(i, dims);  // n, c, 0, h, w
      xs.push_back(x[static_cast<size_t>(Ravel({at[0], at[3], at[4], at[1]}, c.input))]);
    }
  }
  Values values, idx;
  ReferenceMaxPool3(xs, dims, windows, values, idx);
  if (nhwc) {  // back to [N, Ho, Wo, C] order
    Values v2, i2;
    const Shape o = {dims[0], dims[1], 1, static_cast<int64_t>(windows[1].size()),
                     static_cast<int64_t>(windows[2].size())};
    for (int64_t i = 0; i < NumElements(outShape); ++i) {
      const Shape at = Unravel(i, outShape);  // n, h, w, c
      const size_t from = static_cast<size_t>(Ravel({at[0], at[3], 0, at[1], at[2]}, o));
      v2.push_back(values[from]);
      i2.push_back(idx[from]);
    }
    values = v2;
    idx = i2;
  }
  ExpectExact(out.ReadView(), values, c.name + " values");
  ExpectExact(indices.ReadView(), idx, c.name + " indices");
  ExpectOutsideViewUnchanged(out, outBefore, c.name);
  ExpectOutsideViewUnchanged(indices, indicesBefore, c.name);
}

std::vector<IndexedCase> IndexedCases() {
  std::vector<IndexedCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    IndexedCase c = Indexed(std::string("adaptive2d_") + Name(dtype), IndexedOp::kAdaptive2d, {2, 3, 7, 9}, {3, 4},
                            ACL_FORMAT_NCHW);
    c.dtype = dtype;
    cases.push_back(c);
  }
  cases.push_back(Indexed("adaptive2d_doc_example", IndexedOp::kAdaptive2d, {1, 1, 4, 4}, {2, 2}, ACL_FORMAT_NCHW));
  cases.push_back(Indexed("adaptive2d_upsizing", IndexedOp::kAdaptive2d, {1, 2, 3, 5}, {5, 7}, ACL_FORMAT_NCHW));
  cases.push_back(Indexed("adaptive2d_ncl", IndexedOp::kAdaptive2d, {3, 6, 5}, {4, 2}, ACL_FORMAT_NCL));
  cases.push_back(Indexed("adaptive2d_nhwc", IndexedOp::kAdaptive2d, {2, 6, 5, 3}, {4, 3}, ACL_FORMAT_NHWC));
  cases.push_back(Indexed("adaptive2d_empty_batch", IndexedOp::kAdaptive2d, {0, 2, 4, 4}, {2, 2}, ACL_FORMAT_NCHW));
  IndexedCase v = Indexed("adaptive2d_views", IndexedOp::kAdaptive2d, {2, 3, 8, 7}, {3, 3}, ACL_FORMAT_NCHW);
  v.inView = View::kStepped;
  v.outView = View::kReversed;
  cases.push_back(v);
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    IndexedCase c = Indexed(std::string("adaptive3d_") + Name(dtype), IndexedOp::kAdaptive3d, {2, 2, 5, 6, 7},
                            {2, 4, 3}, ACL_FORMAT_NCDHW);
    c.dtype = dtype;
    cases.push_back(c);
  }
  cases.push_back(
      Indexed("adaptive3d_doc_example", IndexedOp::kAdaptive3d, {1, 1, 1, 4, 4}, {1, 2, 2}, ACL_FORMAT_NCDHW));
  cases.push_back(Indexed("adaptive3d_cdhw", IndexedOp::kAdaptive3d, {3, 4, 5, 3}, {3, 2, 3}, ACL_FORMAT_NCHW));
  v = Indexed("adaptive3d_views", IndexedOp::kAdaptive3d, {2, 2, 4, 5, 6}, {3, 2, 4}, ACL_FORMAT_NCDHW);
  v.inView = View::kTransposed;
  v.outView = View::kOffset;
  cases.push_back(v);
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    IndexedCase c = Indexed(std::string("argmax3d_k3s2p1_") + Name(dtype), IndexedOp::kArgmax3d, {2, 2, 6, 7, 8}, {3},
                            ACL_FORMAT_NCDHW);
    c.stride = {2};
    c.padding = {1};
    c.dtype = dtype;
    cases.push_back(c);
  }
  IndexedCase m = Indexed("argmax3d_doc_example", IndexedOp::kArgmax3d, {1, 1, 2, 2, 2}, {2, 2, 2}, ACL_FORMAT_ND);
  m.stride = {2, 2, 2};
  m.padding = {0, 0, 0};
  cases.push_back(m);
  m = Indexed("argmax3d_default_stride", IndexedOp::kArgmax3d, {1, 3, 4, 6, 5}, {2}, ACL_FORMAT_NCDHW);
  m.padding = {0};
  cases.push_back(m);
  m = Indexed("argmax3d_rect_ceil", IndexedOp::kArgmax3d, {1, 2, 7, 8, 5}, {3, 2, 2}, ACL_FORMAT_NCDHW);
  m.stride = {2, 3, 2};
  m.padding = {1, 1, 0};
  m.ceilMode = true;
  cases.push_back(m);
  m = Indexed("argmax3d_ceil_drops_last", IndexedOp::kArgmax3d, {1, 1, 5, 5, 5}, {2}, ACL_FORMAT_NCDHW);
  m.stride = {2};
  m.padding = {1};
  m.ceilMode = true;
  cases.push_back(m);
  m = Indexed("argmax3d_cdhw", IndexedOp::kArgmax3d, {3, 4, 5, 6}, {2, 3, 2}, ACL_FORMAT_ND);
  m.stride = {1, 2, 2};
  m.padding = {1, 1, 0};
  cases.push_back(m);
  m = Indexed("argmax3d_views", IndexedOp::kArgmax3d, {2, 3, 5, 6, 7}, {3}, ACL_FORMAT_NCDHW);
  m.stride = {2};
  m.padding = {1};
  m.dtype = ACL_FLOAT16;
  m.inView = View::kStepped;
  m.outView = View::kReversed;
  cases.push_back(m);
  m.name = "argmax3d_empty_batch";
  m.input = {0, 3, 5, 6, 7};
  m.inView = m.outView = View::kContiguous;
  cases.push_back(m);
  return cases;
}

class IndexedMaxPoolTest : public ::testing::TestWithParam<IndexedCase> {};
TEST_P(IndexedMaxPoolTest, MatchesFloat64Reference) { RunIndexed(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, IndexedMaxPoolTest, ::testing::ValuesIn(IndexedCases()),
                         [](const ::testing::TestParamInfo<IndexedCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- Their rejections ---------------------------------------------------------------------------

struct IndexedCall {
  IndexedOp op = IndexedOp::kAdaptive2d;
  Shape self, out, indices;
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT, indexDtype = ACL_INT64;
  aclFormat format = ACL_FORMAT_NCHW;
  std::vector<int64_t> size, stride = {2}, padding = {0}, dilation = {1};
};

struct IndexedRejection {
  std::string name;
  IndexedCall call;
  std::string keyword;
};

void PrintTo(const IndexedRejection& r, std::ostream* os) { *os << r.name; }

std::vector<IndexedRejection> IndexedRejections() {
  std::vector<IndexedRejection> r;
  IndexedCall a2;
  a2.op = IndexedOp::kAdaptive2d;
  a2.self = {1, 2, 6, 6};
  a2.out = {1, 2, 3, 3};
  a2.indices = {1, 2, 3, 3};
  a2.size = {3, 3};
  IndexedCall a3;
  a3.op = IndexedOp::kAdaptive3d;
  a3.self = {1, 2, 4, 6, 6};
  a3.out = {1, 2, 2, 3, 3};
  a3.indices = {1, 2, 2, 3, 3};
  a3.size = {2, 3, 3};
  a3.indexDtype = ACL_INT32;
  a3.format = ACL_FORMAT_NCDHW;
  IndexedCall m3;
  m3.op = IndexedOp::kArgmax3d;
  m3.self = {1, 2, 4, 6, 6};
  m3.out = {1, 2, 2, 3, 3};
  m3.indices = {1, 2, 2, 3, 3};
  m3.size = {2};
  m3.indexDtype = ACL_INT32;
  m3.format = ACL_FORMAT_NCDHW;
  auto add = [&](std::string name, const IndexedCall& base, auto change, std::string keyword) {
    IndexedCall x = base;
    change(x);
    r.push_back({std::move(name), x, std::move(keyword)});
  };
  add(
      "a2_self_int32", a2, [](IndexedCall& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  add(
      "a2_out_dtype", a2, [](IndexedCall& x) { x.outDtype = ACL_FLOAT16; }, "outputOut");
  add(
      "a2_indices_int32", a2, [](IndexedCall& x) { x.indexDtype = ACL_INT32; }, "indicesOut");
  add(
      "a2_rank5", a2,
      [](IndexedCall& x) {
        x.self = {1, 1, 2, 6, 6};
      },
      "self");
  add(
      "a2_empty_channels", a2,
      [](IndexedCall& x) {
        x.self = {1, 0, 6, 6};
      },
      "empty");
  add(
      "a2_indices_shape", a2,
      [](IndexedCall& x) {
        x.indices = {1, 2, 3, 2};
      },
      "indicesOut");
  add(
      "a2_size_length", a2, [](IndexedCall& x) { x.size = {3}; }, "outputSize");
  add(
      "a2_size_0", a2,
      [](IndexedCall& x) {
        x.size = {0, 3};
      },
      "outputSize");
  add(
      "a2_out_shape", a2,
      [](IndexedCall& x) {
        x.out = x.indices = {1, 2, 3, 2};
      },
      "outputOut");
  add(
      "a2_format_ncdhw", a2, [](IndexedCall& x) { x.format = ACL_FORMAT_NCDHW; }, "format");
  add(
      "a3_self_double", a3, [](IndexedCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  add(
      "a3_indices_int64", a3, [](IndexedCall& x) { x.indexDtype = ACL_INT64; }, "indicesOut");
  add(
      "a3_rank3", a3,
      [](IndexedCall& x) {
        x.self = {2, 6, 6};
      },
      "self");
  add(
      "a3_format_nd", a3, [](IndexedCall& x) { x.format = ACL_FORMAT_ND; }, "format");
  add(
      "a3_size_length", a3,
      [](IndexedCall& x) {
        x.size = {3, 3};
      },
      "outputSize");
  add(
      "a3_out_shape", a3,
      [](IndexedCall& x) {
        x.out = x.indices = {1, 2, 2, 3, 2};
      },
      "outputOut");
  add(
      "m3_self_double", m3, [](IndexedCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  add(
      "m3_out_dtype", m3, [](IndexedCall& x) { x.outDtype = ACL_BF16; }, "out");
  add(
      "m3_indices_int64", m3, [](IndexedCall& x) { x.indexDtype = ACL_INT64; }, "indices");
  add(
      "m3_format_ndhwc", m3, [](IndexedCall& x) { x.format = ACL_FORMAT_NDHWC; }, "format");
  add(
      "m3_rank3", m3,
      [](IndexedCall& x) {
        x.self = {6, 6, 6};
      },
      "self");
  add(
      "m3_kernel_length2", m3,
      [](IndexedCall& x) {
        x.size = {2, 2};
      },
      "kernelSize");
  add(
      "m3_kernel_0", m3, [](IndexedCall& x) { x.size = {0}; }, "kernelSize");
  add(
      "m3_stride_length2", m3,
      [](IndexedCall& x) {
        x.stride = {2, 2};
      },
      "stride");
  add(
      "m3_padding_over_half", m3, [](IndexedCall& x) { x.padding = {2}; }, "padding");
  add(
      "m3_dilation_2", m3, [](IndexedCall& x) { x.dilation = {2}; }, "dilation");
  add(
      "m3_no_output", m3,
      [](IndexedCall& x) {
        x.self = {1, 2, 1, 6, 6};
      },
      "no output");
  add(
      "m3_out_shape", m3,
      [](IndexedCall& x) {
        x.out = {1, 2, 2, 3, 2};
      },
      "out");
  add(
      "m3_indices_shape", m3,
      [](IndexedCall& x) {
        x.indices = {1, 2, 2, 3, 2};
      },
      "indices");
  return r;
}

class IndexedMaxPoolRejectionTest : public ::testing::TestWithParam<IndexedRejection> {};

TEST_P(IndexedMaxPoolRejectionTest, IsRejectedWithItsStatus) {
  const IndexedRejection& x = GetParam();
  const IndexedCall& c = x.call;
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* self = a.NewTensor(c.selfDtype, c.self, View::kContiguous, c.format);
        aclTensor* out = a.NewTensor(c.outDtype, c.out, View::kContiguous, c.format);
        aclTensor* indices = a.NewTensor(c.indexDtype, c.indices, View::kContiguous, c.format);
        switch (c.op) {
          case IndexedOp::kAdaptive2d:
            return aclnnAdaptiveMaxPool2dGetWorkspaceSize(self, a.IntArray(c.size), out, indices, ws, ex);
          case IndexedOp::kAdaptive3d:
            return aclnnAdaptiveMaxPool3dGetWorkspaceSize(self, a.IntArray(c.size), out, indices, ws, ex);
          case IndexedOp::kArgmax3d:
            break;
        }
        return aclnnMaxPool3dWithArgmaxGetWorkspaceSize(self, a.IntArray(c.size), a.IntArray(c.stride),
                                                        a.IntArray(c.padding), a.IntArray(c.dilation), false, out,
                                                        indices, ws, ex);
      },
      c.op == IndexedOp::kAdaptive2d   ? aclnnAdaptiveMaxPool2d
      : c.op == IndexedOp::kAdaptive3d ? aclnnAdaptiveMaxPool3d
                                       : aclnnMaxPool3dWithArgmax);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, IndexedMaxPoolRejectionTest, ::testing::ValuesIn(IndexedRejections()),
                         [](const ::testing::TestParamInfo<IndexedRejection>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
