// MaxPool2dWithMask against a float64 window loop: the maxima exactly, and the
// INT8 indices buffer byte for byte in A2's layout. A window of more than one
// element leaves the INT32 flat indices h * W + w of [N, C, Ho, Wo] (the first
// maximum in row-major order) at the start of the buffer and the rest
// untouched; a 1x1 window leaves the 5HD bit mask (UINT16 [N, ceil(C / 16),
// 1, blocks, 16], bit b of block j set when output 16 * j + b exists). Every
// dtype, 3-D and 4-D inputs, padding, ceil mode, strided views of self and
// out, an empty batch, the doc's example and the rejections with their codes.
#include <gtest/gtest.h>

#include <cstring>
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
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

int64_t PerAxis(const std::vector<int64_t>& v, size_t d, int64_t fallback) {
  if (v.empty()) return fallback;
  return v.size() == 1 ? v[0] : v[d];
}

// The pooling geometry of one axis, and PyTorch's output extent with its ceil-mode rule.
struct Axis {
  int64_t in, kernel, stride, pad, out;
};
Axis MakeAxis(int64_t in, int64_t kernel, int64_t stride, int64_t pad, bool ceilMode) {
  int64_t out = (in + 2 * pad - kernel + (ceilMode ? stride - 1 : 0)) / stride + 1;
  if (ceilMode && (out - 1) * stride >= in + pad) --out;
  return {in, kernel, stride, pad, out};
}

struct Geometry {
  Axis h, w;
  int64_t planes;  // N * C
  Shape outShape, maskShape;
};

Geometry MakeGeometry(const Case& c) {
  const size_t rank = c.input.size();
  Geometry g{};
  Axis axes[2];
  for (size_t d = 0; d < 2; ++d) {
    const int64_t k = PerAxis(c.kernel, d, 1);
    axes[d] = MakeAxis(c.input[rank - 2 + d], k, PerAxis(c.stride, d, k), PerAxis(c.padding, d, 0), c.ceilMode);
  }
  g.h = axes[0];
  g.w = axes[1];
  g.planes = NumElements(Shape(c.input.begin(), c.input.end() - 2));
  g.outShape = c.input;
  g.outShape[rank - 2] = g.h.out;
  g.outShape[rank - 1] = g.w.out;
  g.maskShape = c.input;
  g.maskShape[rank - 2] = g.h.kernel * g.w.kernel;
  g.maskShape[rank - 1] = ((g.h.out * g.w.out + 15) / 16 + 1) * 32;
  return g;
}

// The maximum of each window over the row-major input planes and its flat index h * W + w.
void Reference(const Values& x, const Geometry& g, Values& values, std::vector<int32_t>& indices) {
  for (int64_t plane = 0; plane < g.planes; ++plane) {
    for (int64_t oh = 0; oh < g.h.out; ++oh) {
      for (int64_t ow = 0; ow < g.w.out; ++ow) {
        double best = -std::numeric_limits<double>::infinity();
        int64_t where = -1;
        for (int64_t kh = 0; kh < g.h.kernel; ++kh) {
          for (int64_t kw = 0; kw < g.w.kernel; ++kw) {
            const int64_t h = oh * g.h.stride - g.h.pad + kh, w = ow * g.w.stride - g.w.pad + kw;
            if (h < 0 || h >= g.h.in || w < 0 || w >= g.w.in) continue;
            const double v = x[static_cast<size_t>((plane * g.h.in + h) * g.w.in + w)].real();
            if (where < 0 || v > best) {
              best = v;
              where = h * g.w.in + w;
            }
          }
        }
        values.push_back(best);
        indices.push_back(static_cast<int32_t>(where));
      }
    }
  }
}

// The bytes A2 leaves in a poisoned indices buffer.
std::vector<uint8_t> ExpectedMask(const Geometry& g, const std::vector<int32_t>& indices, std::vector<uint8_t> bytes) {
  if (g.h.kernel * g.w.kernel > 1) {
    if (!indices.empty()) std::memcpy(bytes.data(), indices.data(), indices.size() * sizeof(int32_t));  // empty: null
    return bytes;
  }
  const int64_t channels = g.maskShape[g.maskShape.size() - 3];
  const int64_t groups = (g.planes / channels) * ((channels + 15) / 16);
  const int64_t positions = g.h.out * g.w.out, blocks = (positions + 15) / 16 + 1;
  for (int64_t group = 0; group < groups; ++group) {
    for (int64_t j = 0; j < blocks; ++j) {
      uint16_t bits = 0;
      for (int64_t b = 0; b < 16; ++b) {
        if (16 * j + b < positions) bits = static_cast<uint16_t>(bits | (1u << b));
      }
      for (int64_t c0 = 0; c0 < 16; ++c0) {
        std::memcpy(bytes.data() + ((group * blocks + j) * 16 + c0) * 2, &bits, sizeof(bits));
      }
    }
  }
  return bytes;
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const Geometry g = MakeGeometry(c);
  const aclFormat format = c.input.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL;
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, g.outShape, c.outView);
  DeviceTensor mask(ACL_INT8, g.maskShape);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  mask.Poison();
  const std::vector<uint8_t> outBefore = out.DownloadBytes(), maskBefore = mask.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMaxPool2dWithMaskGetWorkspaceSize(a.Tensor(in, format), a.IntArray(c.kernel), a.IntArray(c.stride),
                                                      a.IntArray(c.padding), a.IntArray({1, 1}), c.ceilMode,
                                                      a.Tensor(out, format), a.Tensor(mask, format), ws, ex);
      },
      aclnnMaxPool2dWithMask);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  std::vector<int32_t> wantIndices;
  Reference(x, g, want, wantIndices);
  ExpectExact(out.ReadView(), want, c.name + " values");
  ExpectOutsideViewUnchanged(out, outBefore, c.name);
  const std::vector<uint8_t> got = mask.DownloadBytes(), wantBytes = ExpectedMask(g, wantIndices, maskBefore);
  ASSERT_EQ(got.size(), wantBytes.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], wantBytes[i]) << c.name << ": indices byte " << i;
  }
}

Case Make(std::string name, Shape input, std::vector<int64_t> kernel, std::vector<int64_t> stride,
          std::vector<int64_t> padding, bool ceilMode = false) {
  return Case{std::move(name), std::move(input), std::move(kernel), std::move(stride), std::move(padding), ceilMode};
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Case c = Make(std::string("k3s2p1_") + Name(dtype), {2, 3, 9, 8}, {3}, {2}, {1});
    c.dtype = dtype;
    cases.push_back(c);
    Case unit = Make(std::string("k1s2_") + Name(dtype), {2, 20, 9, 11}, {1}, {2}, {0});
    unit.dtype = dtype;
    cases.push_back(unit);
  }
  cases.push_back(Make("k2_default_stride", {1, 4, 6, 7}, {2}, {}, {0}));
  cases.push_back(Make("rect", {1, 2, 10, 9}, {3, 2}, {1, 3}, {1, 0}));
  cases.push_back(Make("ceil_mode", {1, 2, 7, 8}, {3, 3}, {2, 2}, {1, 1}, true));
  cases.push_back(Make("ceil_mode_drops_last", {1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, true));
  cases.push_back(Make("chw", {3, 7, 6}, {2, 3}, {1, 2}, {1, 1}));
  cases.push_back(Make("k1_chw_16_positions", {17, 4, 4}, {1, 1}, {1, 1}, {0, 0}));
  cases.push_back(Make("k1_ceil", {1, 3, 5, 6}, {1}, {3, 4}, {0}, true));
  cases.push_back(Make("global", {2, 3, 5, 4}, {5, 4}, {1}, {0}));
  cases.push_back(Make("empty_batch", {0, 3, 6, 6}, {2}, {2}, {0}));
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
  views = Make("k1_views", {2, 5, 6, 7}, {1}, {2, 3}, {0});
  views.inView = View::kTransposed;
  views.outView = View::kStepped;
  cases.push_back(views);
  return cases;
}

class MaxPool2dWithMaskTest : public ::testing::TestWithParam<Case> {};
TEST_P(MaxPool2dWithMaskTest, MatchesFloat64Reference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MaxPool2dWithMaskTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: [1, 1, 4, 3] f32 NCHW, kernel and stride 2x2: maxima 0.0850 (at 0) and 1.7510 (at 6).
TEST(MaxPool2dWithMaskExample, DocValues) {
  auto self =
      Upload(ACL_FLOAT, {1, 1, 4, 3},
             {0.0850, -0.5147, -0.0212, -0.5654, -0.3222, 0.5847, 1.7510, 0.9954, 0.1842, 0.8392, 0.4835, 0.9213});
  auto out = Poisoned(ACL_FLOAT, {1, 1, 2, 1});
  auto mask = Upload(ACL_INT8, {1, 1, 4, 64}, Values(256, 0));
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMaxPool2dWithMaskGetWorkspaceSize(
            a.Tensor(*self, ACL_FORMAT_NCHW), a.IntArray({2, 2}), a.IntArray({2, 2}), a.IntArray({0, 0}),
            a.IntArray({1, 1}), false, a.Tensor(*out, ACL_FORMAT_NCHW), a.Tensor(*mask, ACL_FORMAT_NCHW), ws, ex);
      },
      aclnnMaxPool2dWithMask);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {static_cast<double>(0.0850f), static_cast<double>(1.7510f)}, "out");
  Values bytes = mask->ReadView();
  Values want(256, 0);
  want[4] = 6;  // INT32 0 then INT32 6, little-endian
  ExpectExact(bytes, want, "indices");
}

// ---- Rejections ---------------------------------------------------------------------------------

struct Call {
  Shape self = {1, 2, 6, 6}, out = {1, 2, 3, 3}, mask = {1, 2, 4, 64};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT, maskDtype = ACL_INT8;
  aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
  std::vector<int64_t> kernel = {2}, stride = {2}, padding = {0}, dilation = {1};
  bool nullOut = false, nullMask = false, nullStride = false;
};

RejectionCase Reject(std::string name, const Call& c, std::string keyword,
                     aclnnStatus expected = ACLNN_ERR_PARAM_INVALID) {
  return {std::move(name),
          [c](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
            return aclnnMaxPool2dWithMaskGetWorkspaceSize(
                a.NewTensor(c.selfDtype, c.self, View::kContiguous, c.selfFormat), a.IntArray(c.kernel),
                c.nullStride ? nullptr : a.IntArray(c.stride), a.IntArray(c.padding), a.IntArray(c.dilation), false,
                c.nullOut ? nullptr : a.NewTensor(c.outDtype, c.out, View::kContiguous, c.outFormat),
                c.nullMask ? nullptr : a.NewTensor(c.maskDtype, c.mask, View::kContiguous, c.outFormat), ws, ex);
          },
          aclnnMaxPool2dWithMask, std::move(keyword), expected};
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> r;
  auto add = [&r](std::string name, auto change, std::string keyword, aclnnStatus expected = ACLNN_ERR_PARAM_INVALID) {
    Call c;
    change(c);
    r.push_back(Reject(std::move(name), c, std::move(keyword), expected));
  };
  add(
      "null_out", [](Call& c) { c.nullOut = true; }, "out", ACLNN_ERR_PARAM_NULLPTR);
  add(
      "null_indices", [](Call& c) { c.nullMask = true; }, "indices", ACLNN_ERR_PARAM_NULLPTR);
  add(
      "null_stride", [](Call& c) { c.nullStride = true; }, "stride", ACLNN_ERR_PARAM_NULLPTR);
  add(
      "self_double", [](Call& c) { c.selfDtype = c.outDtype = ACL_DOUBLE; }, "self");
  add(
      "self_int8", [](Call& c) { c.selfDtype = c.outDtype = ACL_INT8; }, "self");
  add(
      "out_dtype", [](Call& c) { c.outDtype = ACL_FLOAT16; }, "out");
  add(
      "indices_int32", [](Call& c) { c.maskDtype = ACL_INT32; }, "indices");
  add(
      "indices_uint8", [](Call& c) { c.maskDtype = ACL_UINT8; }, "indices");
  add(
      "format_differs", [](Call& c) { c.outFormat = ACL_FORMAT_ND; }, "format");
  add(
      "format_nhwc", [](Call& c) { c.selfFormat = c.outFormat = ACL_FORMAT_NHWC; }, "NHWC");
  add(
      "rank2",
      [](Call& c) {
        c.self = {6, 6}, c.out = {3, 3}, c.mask = {4, 64};
      },
      "self");
  // The window arrays: one field of the valid call changed.
  struct ArrayChange {
    const char* name;
    std::vector<int64_t> Call::*field;
    std::vector<int64_t> value;
    const char* keyword;
  };
  const std::vector<ArrayChange> arrays = {
      {"kernel_length3", &Call::kernel, {2, 2, 2}, "kernelSize"}, {"kernel_0", &Call::kernel, {0}, "kernelSize"},
      {"stride_length3", &Call::stride, {2, 2, 2}, "stride"},     {"stride_0", &Call::stride, {0}, "stride"},
      {"padding_empty", &Call::padding, {}, "padding"},           {"padding_negative", &Call::padding, {-1}, "padding"},
      {"dilation_2", &Call::dilation, {2}, "dilation"},           {"dilation_empty", &Call::dilation, {}, "dilation"},
  };
  for (const ArrayChange& change : arrays) {
    Call c;
    c.*change.field = change.value;
    r.push_back(Reject(change.name, c, change.keyword));
  }
  add(
      "padding_over_half", [](Call& c) { c.kernel = {3}, c.padding = {2}; }, "padding");
  add(
      "empty_channels",
      [](Call& c) {
        c.self = {1, 0, 6, 6}, c.out = {1, 0, 3, 3}, c.mask = {1, 0, 4, 64};
      },
      "empty");
  add(
      "no_output",
      [](Call& c) {
        c.self = {1, 2, 1, 6};
      },
      "no output");
  add(
      "out_shape",
      [](Call& c) {
        c.out = {1, 2, 3, 2};
      },
      "out");
  // The mask's shape, not out's: [1, 2, 4, (ceil(9 / 16) + 1) * 32] for 9 outputs of a 2x2 window.
  add(
      "indices_as_out",
      [](Call& c) {
        c.mask = {1, 2, 3, 3};
      },
      "indices");
  add(
      "indices_width",
      [](Call& c) {
        c.mask = {1, 2, 4, 32};
      },
      "indices");
  add(
      "indices_window",
      [](Call& c) {
        c.mask = {1, 2, 9, 64};
      },
      "indices");
  return r;
}

class MaxPool2dWithMaskRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(MaxPool2dWithMaskRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MaxPool2dWithMaskRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
