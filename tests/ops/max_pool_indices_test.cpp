// MaxPool2dWithIndices against float64 window loops with PyTorch's rules:
// maxima and their flat in-plane indices h * W + w (ties: the first in
// row-major order; NaN wins), every dtype and both index dtypes, ceil mode's
// last-window rule, padding, 3-D and 4-D inputs, strided views, an empty
// batch, the doc's example call, and every rejection with its code.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_max_pool2d_with_indices.h"
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

}  // namespace
}  // namespace canopy_test
