// Convolution (1-D, 2-D, 3-D; plain and transposed) against a float64
// direct-definition reference: every dtype, stride / padding / dilation /
// groups / output padding combinations, bias or none, strided views, empty
// batches, ggml's CONV_TRANSPOSE_1D and SSM_CONV calls, and every rejection.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

struct ConvCase {
  std::string name;
  Shape input, weight;
  std::vector<int64_t> stride, padding, dilation;
  bool transposed = false;
  std::vector<int64_t> outputPadding;  // empty: zeros of the spatial rank
  int64_t groups = 1;
  bool bias = true;
  aclDataType dtype = ACL_FLOAT;     // input and weight
  aclDataType outDtype = ACL_FLOAT;  // ACL_DT_UNDEFINED: dtype
  int8_t cubeMathType = kKeepDtype;
  View inputView = View::kContiguous;
  View weightView = View::kContiguous;
  View outView = View::kContiguous;
  bool depthwise = false;  // through aclnnConvDepthwise2d (groups = C, out dtype = dtype)
};

void PrintTo(const ConvCase& c, std::ostream* os) { *os << c.name; }

ConvCase Conv(std::string name, Shape input, Shape weight, std::vector<int64_t> stride, std::vector<int64_t> padding,
              std::vector<int64_t> dilation, bool transposed = false, std::vector<int64_t> outputPadding = {},
              int64_t groups = 1) {
  ConvCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.weight = std::move(weight);
  c.stride = std::move(stride);
  c.padding = std::move(padding);
  c.dilation = std::move(dilation);
  c.transposed = transposed;
  c.outputPadding = std::move(outputPadding);
  c.groups = groups;
  return c;
}

aclFormat FormatOf(size_t rank) { return rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW; }

// Per spatial dim: padding before and after (the doc's 1, 2 or 4 value forms).
std::pair<int64_t, int64_t> PadsOf(const std::vector<int64_t>& padding, size_t spatial, size_t d) {
  if (padding.size() == 2 * spatial) return {padding[2 * d], padding[2 * d + 1]};
  return {padding[d], padding[d]};
}

Shape OutputShape(const ConvCase& c) {
  const size_t spatial = c.input.size() - 2;
  Shape out = {c.input[0], c.transposed ? c.weight[1] * c.groups : c.weight[0]};
  for (size_t d = 0; d < spatial; ++d) {
    const auto [front, back] = PadsOf(c.padding, spatial, d);
    const int64_t extent = c.dilation[d] * (c.weight[2 + d] - 1) + 1;
    const int64_t op = c.outputPadding.empty() ? 0 : c.outputPadding[d];
    out.push_back(c.transposed ? (c.input[2 + d] - 1) * c.stride[d] - front - back + extent + op
                               : (c.input[2 + d] + front + back - extent) / c.stride[d] + 1);
  }
  return out;
}

// The definition, in float64: out[n, oc, o] = bias[oc] + sum over the group's
// input channels and kernel taps of x * w, each term at the input position the
// tap reads (plain) or writes from (transposed). `magnitude` gets sum |x * w|.
Values Reference(const ConvCase& c, const Values& x, const Values& w, const Values& b, const Shape& outShape,
                 std::vector<double>& magnitude) {
  const size_t spatial = c.input.size() - 2;
  const int64_t outChannels = outShape[1];
  const int64_t inPerGroup = c.input[1] / c.groups, outPerGroup = outChannels / c.groups;
  Shape kernel(c.weight.begin() + 2, c.weight.end());
  Shape inSpace(c.input.begin() + 2, c.input.end());
  Shape outSpace(outShape.begin() + 2, outShape.end());
  const int64_t taps = NumElements(kernel), inPoints = NumElements(inSpace), outPoints = NumElements(outSpace);
  Values out(static_cast<size_t>(NumElements(outShape)));
  magnitude.assign(out.size(), 0.0);
  for (int64_t n = 0; n < outShape[0]; ++n) {
    for (int64_t oc = 0; oc < outChannels; ++oc) {
      const int64_t g = oc / outPerGroup, ocInGroup = oc % outPerGroup;
      for (int64_t o = 0; o < outPoints; ++o) {
        const Shape op = Unravel(o, outSpace);
        double sum = c.bias ? b[static_cast<size_t>(oc)].real() : 0.0, mag = 0.0;
        for (int64_t icg = 0; icg < inPerGroup; ++icg) {
          const int64_t ic = g * inPerGroup + icg;
          for (int64_t t = 0; t < taps; ++t) {
            const Shape k = Unravel(t, kernel);
            Shape ip(spatial);
            bool inside = true;
            for (size_t d = 0; d < spatial && inside; ++d) {
              const int64_t front = PadsOf(c.padding, spatial, d).first;
              if (!c.transposed) {
                ip[d] = op[d] * c.stride[d] - front + k[d] * c.dilation[d];
              } else {
                const int64_t num = op[d] + front - k[d] * c.dilation[d];
                inside = num >= 0 && num % c.stride[d] == 0;
                ip[d] = num / c.stride[d];
              }
              inside = inside && ip[d] >= 0 && ip[d] < inSpace[d];
            }
            if (!inside) continue;
            const double xv = x[static_cast<size_t>((n * c.input[1] + ic) * inPoints + Ravel(ip, inSpace))].real();
            const int64_t wIndex =
                c.transposed ? (ic * outPerGroup + ocInGroup) * taps + t : (oc * inPerGroup + icg) * taps + t;
            const double wv = w[static_cast<size_t>(wIndex)].real();
            sum += xv * wv;
            mag += std::abs(xv * wv);
          }
        }
        const size_t index = static_cast<size_t>((n * outChannels + oc) * outPoints + o);
        out[index] = sum;
        magnitude[index] = mag + (c.bias ? std::abs(b[static_cast<size_t>(oc)].real()) : 0.0);
      }
    }
  }
  return out;
}

// Calls Convolution on the given descriptors of `c`'s attributes.
aclnnStatus CallConv(OpArgs& a, const ConvCase& c, aclTensor* input, aclTensor* weight, aclTensor* bias,
                     aclTensor* output, uint64_t* ws, aclOpExecutor** ex) {
  const std::vector<int64_t> outputPadding =
      c.outputPadding.empty() ? std::vector<int64_t>(c.input.size() - 2, 0) : c.outputPadding;
  return aclnnConvolutionGetWorkspaceSize(input, weight, bias, a.IntArray(c.stride), a.IntArray(c.padding),
                                          a.IntArray(c.dilation), c.transposed, a.IntArray(outputPadding), c.groups,
                                          output, c.cubeMathType, ws, ex);
}

// The operands of one call, on the device, with the values they hold.
struct ConvOperands {
  std::unique_ptr<DeviceTensor> input, weight, bias, out;
  Values x, w, b;
};

ConvOperands MakeOperands(const ConvCase& c, Rng& rng, const Layout* outLayout = nullptr,
                          const Layout* weightLayout = nullptr) {
  const aclDataType outDtype = c.outDtype == ACL_DT_UNDEFINED ? c.dtype : c.outDtype;
  const Shape outShape = OutputShape(c);
  const Range range{-1, 1};
  ConvOperands o;
  o.input = std::make_unique<DeviceTensor>(c.dtype, c.input, c.inputView);
  o.weight = weightLayout ? std::make_unique<DeviceTensor>(c.dtype, *weightLayout)
                          : std::make_unique<DeviceTensor>(c.dtype, c.weight, c.weightView);
  o.bias = std::make_unique<DeviceTensor>(c.dtype, Shape{outShape[1]});
  o.out = outLayout ? std::make_unique<DeviceTensor>(outDtype, *outLayout)
                    : std::make_unique<DeviceTensor>(outDtype, outShape, c.outView);
  o.x = o.input->FillRandom(rng, range);
  o.w = o.weight->FillRandom(rng, range);
  o.b = o.bias->FillRandom(rng, range);
  return o;
}

// Runs `c` on `o` (which holds the values o.x, o.w, o.b) and checks the result.
void CallAndCheck(const ConvCase& c, ConvOperands& o) {
  const aclDataType outDtype = c.outDtype == ACL_DT_UNDEFINED ? c.dtype : c.outDtype;
  const Shape outShape = OutputShape(c);
  const aclFormat format = FormatOf(c.input.size());
  o.out->Poison();
  const std::vector<uint8_t> before = o.out->DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* bias = c.bias ? a.Tensor(*o.bias) : nullptr;
        if (c.depthwise) {
          return aclnnConvDepthwise2dGetWorkspaceSize(
              a.Tensor(*o.input, format), a.Tensor(*o.weight, format), a.IntArray({c.weight[2], c.weight[3]}), bias,
              a.IntArray(c.stride), a.IntArray(c.padding), a.IntArray(c.dilation), a.Tensor(*o.out, format),
              c.cubeMathType, ws, ex);
        }
        return CallConv(a, c, a.Tensor(*o.input, format), a.Tensor(*o.weight, format), bias, a.Tensor(*o.out, format),
                        ws, ex);
      },
      c.depthwise ? aclnnConvDepthwise2d : aclnnConvolution);
  ASSERT_TRUE(run.ok()) << Describe(run);
  std::vector<double> magnitude;
  const Values want = Reference(c, o.x, o.w, o.b, outShape, magnitude);
  // The sum runs in f32 (fp16 and bf16 operands are exact in it); cubeMathType 2
  // first rounds f32 operands to fp16; the result is rounded to the out dtype.
  const int64_t terms = NumElements(c.weight) / std::max<int64_t>(c.weight[0], 1) + 1;
  const double accumulate = 4.0 * static_cast<double>(terms) * UnitRoundoff(ACL_FLOAT);
  const double operands = c.cubeMathType == kUseFp16 && c.dtype == ACL_FLOAT ? 4.0 * UnitRoundoff(ACL_FLOAT16) : 0.0;
  Expected expected{want, {}};
  for (size_t i = 0; i < want.size(); ++i) {
    expected.tolerance.push_back((accumulate + operands) * magnitude[i] +
                                 2.0 * UnitRoundoff(outDtype) * std::abs(want[i].real()) + 1e-30);
  }
  ExpectNear(o.out->ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(*o.out, before, c.name);
}

void RunAndCheck(const ConvCase& c, const Layout* outLayout = nullptr, const Layout* weightLayout = nullptr) {
  Rng rng = Rng::ForCurrentTest();
  ConvOperands o = MakeOperands(c, rng, outLayout, weightLayout);
  CallAndCheck(c, o);
}

std::vector<ConvCase> Cases() {
  std::vector<ConvCase> cases;
  // Shapes and attributes, each in f32 here and in the other dtypes below.
  const std::vector<ConvCase> shapes = {
      Conv("conv1d", {2, 3, 11}, {4, 3, 3}, {1}, {0}, {1}),
      Conv("conv1d_stride2_pad1", {2, 4, 12}, {6, 4, 3}, {2}, {1}, {1}),
      Conv("conv1d_dilation2_pads_left_right", {1, 3, 13}, {5, 3, 3}, {1}, {2, 1}, {2}),
      Conv("conv1d_depthwise", {2, 6, 9}, {6, 1, 4}, {1}, {1}, {1}, false, {}, 6),
      Conv("conv2d", {2, 3, 7, 8}, {5, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}),
      Conv("conv2d_stride2_odd", {1, 4, 9, 7}, {8, 4, 3, 2}, {2, 3}, {1, 0}, {1, 1}),
      Conv("conv2d_dilation", {1, 2, 10, 9}, {3, 2, 3, 3}, {1, 2}, {2, 1}, {2, 3}),
      Conv("conv2d_groups2", {2, 4, 6, 6}, {6, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, false, {}, 2),
      Conv("conv2d_depthwise", {1, 8, 7, 7}, {8, 1, 3, 3}, {2, 2}, {1, 1}, {1, 1}, false, {}, 8),
      Conv("conv2d_pads4", {1, 3, 6, 7}, {2, 3, 3, 3}, {1, 1}, {2, 0, 1, 3}, {1, 1}),
      Conv("conv2d_1x1", {2, 16, 5, 5}, {8, 16, 1, 1}, {1, 1}, {0, 0}, {1, 1}),
      Conv("conv2d_floor_stride", {1, 2, 6, 6}, {3, 2, 1, 1}, {2, 2}, {0, 0}, {1, 1}),
      Conv("conv3d", {1, 2, 5, 6, 4}, {3, 2, 2, 3, 2}, {1, 2, 1}, {1, 1, 0}, {1, 1, 2}),
      Conv("tconv1d", {2, 4, 7}, {4, 3, 3}, {2}, {1}, {1}, true, {1}),
      Conv("tconv1d_dilation", {1, 3, 6}, {3, 2, 3}, {3}, {0}, {2}, true, {2}),
      Conv("tconv1d_groups", {1, 4, 5}, {4, 3, 2}, {2}, {0}, {1}, true, {0}, 2),
      Conv("tconv2d", {2, 3, 4, 5}, {3, 4, 3, 3}, {2, 2}, {1, 1}, {1, 1}, true, {1, 0}),
      Conv("tconv2d_groups_dilation", {1, 4, 3, 4}, {4, 2, 2, 3}, {1, 2}, {0, 1}, {2, 1}, true, {1, 1}, 2),
      Conv("tconv2d_outpad_over_pad", {1, 2, 3, 3}, {2, 3, 3, 3}, {3, 3}, {0, 1}, {1, 1}, true, {2, 2}),
      Conv("tconv3d", {1, 2, 3, 3, 2}, {2, 3, 2, 2, 2}, {2, 1, 2}, {0, 1, 0}, {1, 1, 1}, true, {1, 0, 0}),
  };
  for (const ConvCase& s : shapes) {
    ConvCase c = s;
    cases.push_back(c);
    c.name = s.name + "_nobias";
    c.bias = false;
    cases.push_back(c);
    for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
      c = s;
      c.name = s.name + (dtype == ACL_FLOAT16 ? "_f16" : "_bf16");
      c.dtype = dtype;
      c.outDtype = dtype;
      cases.push_back(c);
    }
  }
  // Views: strided input, transposed weight, reversed / strided output.
  for (const ConvCase& s : {shapes[1], shapes[4], shapes[7], shapes[16]}) {
    ConvCase c = s;
    c.name = s.name + "_views";
    c.inputView = View::kStepped;
    c.weightView = View::kTransposed;
    c.outView = View::kReversed;
    cases.push_back(c);
    c.name = s.name + "_offset_out_stepped_bf16";
    c.dtype = c.outDtype = ACL_BF16;
    c.inputView = View::kOffset;
    c.outView = View::kStepped;
    cases.push_back(c);
  }
  // A weight view with gaps between its elements: not kept reordered across
  // calls (its span is not only its own), reordered in the workspace instead.
  for (const ConvCase& s : {shapes[4], shapes[16]}) {
    ConvCase c = s;
    c.name = s.name + "_weight_stepped";
    c.weightView = View::kStepped;
    cases.push_back(c);
  }
  // Out dtype other than the input's (plain convolution only), every cubeMathType.
  ConvCase c = shapes[4];
  c.name = "conv2d_f16_to_f32";
  c.dtype = ACL_FLOAT16;
  c.outDtype = ACL_FLOAT;
  cases.push_back(c);
  c.name = "conv2d_f32_to_bf16";
  c.dtype = ACL_FLOAT;
  c.outDtype = ACL_BF16;
  cases.push_back(c);
  for (const int8_t mode : {kAllowFp32DownPrecision, kUseFp16, kUseHf32}) {
    c = shapes[4];
    c.name = "conv2d_cubeMathType" + std::to_string(mode);
    c.cubeMathType = mode;
    cases.push_back(c);
  }
  // The down-precision mode on more geometries: transposed with output
  // padding, 3-D, 1-D dilated, groups, strided views.
  for (const size_t s : {2, 7, 12, 16, 18}) {
    c = shapes[s];
    c.name = shapes[s].name + "_cubeMathType3";
    c.cubeMathType = kUseHf32;
    if (s == 16) {
      c.inputView = View::kStepped;
      c.weightView = View::kTransposed;
      c.outView = View::kReversed;
    }
    cases.push_back(c);
  }
  // Batches of 0 and of 5.
  c = shapes[4];
  c.name = "conv2d_empty_batch";
  c.input[0] = 0;
  cases.push_back(c);
  c = shapes[13];
  c.name = "tconv1d_empty_batch";
  c.input[0] = 0;
  cases.push_back(c);
  c = shapes[5];
  c.name = "conv2d_batch5";
  c.input[0] = 5;
  cases.push_back(c);
  // ggml's CONV_TRANSPOSE_1D: f32, stride s0, no padding, no bias.
  c = Conv("ggml_conv_transpose_1d", {1, 32, 16}, {32, 16, 5}, {3}, {0}, {1}, true, {0});
  c.bias = false;
  cases.push_back(c);
  c = Conv("ggml_conv_transpose_1d_s1", {1, 3, 337}, {3, 2, 13}, {1}, {0}, {1}, true, {0});
  c.bias = false;
  cases.push_back(c);
  return cases;
}

// ConvDepthwise2d: NCHW, weight [k * C, 1, kH, kW], groups = C, out in self's dtype.
std::vector<ConvCase> DepthwiseCases() {
  auto dw = [](std::string name, Shape input, Shape weight, std::vector<int64_t> stride, std::vector<int64_t> padding,
               std::vector<int64_t> dilation, aclDataType dtype = ACL_FLOAT) {
    ConvCase c = Conv(std::move(name), std::move(input), std::move(weight), std::move(stride), std::move(padding),
                      std::move(dilation), false, {}, 0);
    c.groups = c.input[1];
    c.depthwise = true;
    c.dtype = c.outDtype = dtype;
    return c;
  };
  std::vector<ConvCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(
        dw(std::string("dw_k3s1p1_") + Name(dtype), {2, 4, 7, 6}, {4, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, dtype));
  }
  cases.push_back(dw("dw_multiplier2_s2", {1, 3, 9, 8}, {6, 1, 3, 2}, {2, 2}, {1, 0}, {1, 1}));
  cases.push_back(dw("dw_dilated", {1, 2, 10, 9}, {2, 1, 3, 3}, {1, 2}, {2, 1}, {2, 2}));
  ConvCase c = dw("dw_no_bias", {2, 3, 5, 5}, {3, 1, 2, 2}, {1, 1}, {0, 0}, {1, 1});
  c.bias = false;
  cases.push_back(c);
  c = dw("dw_cube_fp16", {1, 4, 6, 6}, {4, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1});
  c.cubeMathType = kUseFp16;
  cases.push_back(c);
  c = dw("dw_views", {2, 4, 7, 8}, {8, 1, 3, 3}, {2, 1}, {1, 1}, {1, 1}, ACL_BF16);
  c.inputView = View::kStepped;
  c.outView = View::kReversed;
  cases.push_back(c);
  cases.push_back(dw("dw_empty_batch", {0, 2, 4, 4}, {2, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}));
  // The doc's example: [2, 2, 2, 2] f32, weight [2, 1, 1, 1], bias [2], stride 1, no padding, cubeMathType 1.
  c = dw("dw_doc_example", {2, 2, 2, 2}, {2, 1, 1, 1}, {1, 1}, {0, 0}, {1, 1});
  c.cubeMathType = kAllowFp32DownPrecision;
  cases.push_back(c);
  return cases;
}

class ConvDepthwise2dTest : public ::testing::TestWithParam<ConvCase> {};
TEST_P(ConvDepthwise2dTest, MatchesFloat64Reference) { RunAndCheck(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ConvDepthwise2dTest, ::testing::ValuesIn(DepthwiseCases()),
                         [](const ::testing::TestParamInfo<ConvCase>& info) { return SanitizeName(info.param.name); });

struct DepthwiseRejection {
  std::string name;
  Shape self = {1, 2, 6, 6}, weight = {2, 1, 3, 3}, out = {1, 2, 6, 6};
  aclDataType selfDtype = ACL_FLOAT, weightDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_NCHW;
  std::vector<int64_t> kernel = {3, 3}, stride = {1, 1}, padding = {1, 1}, dilation = {1, 1};
  int8_t cubeMathType = 0;
  std::string keyword;
};

void PrintTo(const DepthwiseRejection& r, std::ostream* os) { *os << r.name; }

std::vector<DepthwiseRejection> DepthwiseRejections() {
  std::vector<DepthwiseRejection> r;
  auto add = [&](std::string name, auto change, std::string keyword) {
    DepthwiseRejection x;
    x.name = std::move(name);
    change(x);
    x.keyword = std::move(keyword);
    r.push_back(x);
  };
  add(
      "self_double", [](DepthwiseRejection& x) { x.selfDtype = x.weightDtype = x.outDtype = ACL_DOUBLE; }, "self");
  add(
      "weight_dtype", [](DepthwiseRejection& x) { x.weightDtype = ACL_FLOAT16; }, "weight");
  add(
      "out_dtype", [](DepthwiseRejection& x) { x.outDtype = ACL_BF16; }, "out");
  add(
      "rank3",
      [](DepthwiseRejection& x) {
        x.self = {2, 6, 6}, x.weight = {2, 1, 3}, x.out = {2, 6, 6};
      },
      "self");
  add(
      "format_nd", [](DepthwiseRejection& x) { x.format = ACL_FORMAT_ND; }, "format");
  add(
      "stride_length1", [](DepthwiseRejection& x) { x.stride = {1}; }, "stride");
  add(
      "stride_64",
      [](DepthwiseRejection& x) {
        x.stride = {64, 1};
      },
      "stride");
  add(
      "padding_4",
      [](DepthwiseRejection& x) {
        x.padding = {1, 1, 1, 1};
      },
      "padding");
  add(
      "padding_256",
      [](DepthwiseRejection& x) {
        x.padding = {256, 1};
      },
      "padding");
  add(
      "dilation_0",
      [](DepthwiseRejection& x) {
        x.dilation = {0, 1};
      },
      "dilation");
  add(
      "kernel_mismatch",
      [](DepthwiseRejection& x) {
        x.kernel = {3, 2};
      },
      "kernelSize");
  add(
      "weight_not_depthwise",
      [](DepthwiseRejection& x) {
        x.weight = {2, 2, 3, 3};
      },
      "depthwise");
  add(
      "weight_channels",
      [](DepthwiseRejection& x) {
        x.weight = {3, 1, 3, 3}, x.out = {1, 3, 6, 6};
      },
      "depthwise");
  add(
      "out_shape",
      [](DepthwiseRejection& x) {
        x.out = {1, 2, 5, 6};
      },
      "output");
  add(
      "cube_fp16_bf16",
      [](DepthwiseRejection& x) {
        x.selfDtype = x.weightDtype = x.outDtype = ACL_BF16;
        x.cubeMathType = 2;
      },
      "cubeMathType");
  return r;
}

class ConvDepthwise2dRejectionTest : public ::testing::TestWithParam<DepthwiseRejection> {};

TEST_P(ConvDepthwise2dRejectionTest, IsRejectedWithItsStatus) {
  const DepthwiseRejection& x = GetParam();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnConvDepthwise2dGetWorkspaceSize(
            a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.format),
            a.NewTensor(x.weightDtype, x.weight, View::kContiguous, x.format), a.IntArray(x.kernel), nullptr,
            a.IntArray(x.stride), a.IntArray(x.padding), a.IntArray(x.dilation),
            a.NewTensor(x.outDtype, x.out, View::kContiguous, x.format), x.cubeMathType, ws, ex);
      },
      aclnnConvDepthwise2d);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvDepthwise2dRejectionTest, ::testing::ValuesIn(DepthwiseRejections()),
                         [](const ::testing::TestParamInfo<DepthwiseRejection>& info) {
                           return SanitizeName(info.param.name);
                         });

class ConvolutionTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvolutionTest, MatchesFloat64Reference) { RunAndCheck(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, ConvolutionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ConvCase>& info) { return SanitizeName(info.param.name); });

// ggml's SSM_CONV: a depthwise 1-D convolution whose weight is a [C, 1, K]
// view with the group stride repeated ({K, K, 1}) and whose output is the
// channel-last [N, C, L] view of ggml's {d_inner, n_t, n_s} tensor.
TEST(ConvolutionGgml, SsmConvDepthwiseChannelLastOutput) {
  const int64_t nc = 4, nr = 6, nt = 5, ns = 2;
  ConvCase c = Conv("ggml_ssm_conv", {ns, nr, nc - 1 + nt}, {nr, 1, nc}, {1}, {0}, {1}, false, {}, nr);
  c.bias = false;
  Layout weight;
  weight.shape = {nr, 1, nc};
  weight.strides = {nc, nc, 1};
  weight.storageShape = {nr, nc};
  Layout out;
  out.shape = {ns, nr, nt};
  out.strides = {nr * nt, 1, nr};
  out.storageShape = {ns, nt, nr};
  RunAndCheck(c, &out, &weight);
}

// A cached plan must take new addresses and values: the same call twice.
TEST(ConvolutionCache, RepeatedCallUsesNewBuffers) {
  for (int i = 0; i < 2; ++i) RunAndCheck(Cases()[0]);
}

// Weights are kept in oneDNN's layout across calls of a cached plan, per
// address; a client that rewrites them in place must get the new values, even
// when a single element changes (first or last byte of the buffer).
TEST(ConvolutionWeightCache, WeightsRewrittenInPlaceAreUsed) {
  Rng rng = Rng::ForCurrentTest();
  for (const ConvCase& c :
       {Conv("conv2d_groups_cache", {2, 8, 7, 8}, {16, 4, 3, 3}, {1, 1}, {1, 1}, {1, 1}, false, {}, 2),
        Conv("tconv2d_cache", {1, 16, 5, 5}, {16, 16, 3, 3}, {2, 2}, {1, 1}, {1, 1}, true, {1, 1}),
        // 1.2 MB of weights: compared in pieces on both threads, a change in any piece counts.
        Conv("conv2d_large_weight_cache", {1, 256, 3, 3}, {128, 256, 3, 3}, {1, 1}, {1, 1}, {1, 1})}) {
    SCOPED_TRACE(c.name);
    ConvOperands o = MakeOperands(c, rng);
    CallAndCheck(c, o);
    CallAndCheck(c, o);  // the kept copy, unchanged bytes
    o.w = o.weight->FillRandom(rng, {-1, 1});
    CallAndCheck(c, o);
    for (const size_t index : {o.w.size() - 1, o.w.size() / 2 + 1, size_t{0}}) {
      o.w[index] = o.w[index].real() + 0.5;
      o.weight->WriteView(o.w);
      CallAndCheck(c, o);
    }
  }
}

// Several weights of one shape (a network repeating a layer) go through the
// same cached plan in turn; each call must use its own.
TEST(ConvolutionWeightCache, AlternatingWeightsOfOneShape) {
  Rng rng = Rng::ForCurrentTest();
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    ConvCase c = Conv("alternating", {2, 16, 7, 7}, {32, 16, 3, 3}, {1, 1}, {1, 1}, {1, 1});
    c.dtype = c.outDtype = dtype;
    SCOPED_TRACE(static_cast<int>(dtype));
    std::vector<ConvOperands> layers;
    for (int i = 0; i < 3; ++i) layers.push_back(MakeOperands(c, rng));
    for (int round = 0; round < 3; ++round) {
      for (ConvOperands& layer : layers) CallAndCheck(c, layer);
    }
  }
}

// A freed weight buffer whose address comes back holding other values.
TEST(ConvolutionWeightCache, ReallocatedAddressWithNewValues) {
  Rng rng = Rng::ForCurrentTest();
  const ConvCase c = Conv("realloc", {1, 16, 6, 6}, {16, 16, 3, 3}, {1, 1}, {1, 1}, {1, 1});
  for (int i = 0; i < 4; ++i) {
    ConvOperands o = MakeOperands(c, rng);
    CallAndCheck(c, o);
  }
}

// Threads planning and running the same problem share one cached plan (its
// oneDNN primitive included); each call's scratchpad and reordered operands
// live in its own workspace, so every result must still be its own.
TEST(ConvolutionCache, ThreadsShareOneCachedPlan) {
  constexpr auto kWatchdog = std::chrono::seconds(300);  // a hang fails instead of stalling CI
  const ConvCase c = Conv("shared_plan", {2, 8, 9, 9}, {8, 4, 3, 3}, {2, 1}, {1, 1}, {1, 1}, false, {}, 2);
  std::vector<std::future<void>> runs;
  for (int t = 0; t < 4; ++t) {
    runs.push_back(std::async(std::launch::async, [&c] {
      TestStream();  // the process's device and stream exist before this thread binds the device
      ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      for (int i = 0; i < 3; ++i) RunAndCheck(c);
      EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    }));
  }
  for (auto& run : runs) ASSERT_EQ(run.wait_for(kWatchdog), std::future_status::ready);
}

// ---- Rejections ---------------------------------------------------------------------------------

struct Rejection {
  std::string name;
  ConvCase call;
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  std::string keyword;
  Shape outShape = {};  // empty: the valid output shape
  aclDataType biasDtype = ACL_DT_UNDEFINED;
  Shape biasShape = {};
  aclFormat inputFormat = ACL_FORMAT_UNDEFINED;
  aclDataType weightDtype = ACL_DT_UNDEFINED;
  bool nullArrays = false;
};

void PrintTo(const Rejection& r, std::ostream* os) { *os << r.name; }

std::vector<Rejection> Rejections() {
  const ConvCase base = Conv("base", {1, 4, 6, 6}, {4, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, false, {}, 2);
  std::vector<Rejection> r;
  auto add = [&](std::string name, auto change, std::string keyword, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    Rejection x;
    x.name = std::move(name);
    x.call = base;
    x.expected = code;
    x.keyword = std::move(keyword);
    change(x);
    r.push_back(x);
  };
  add(
      "dtype_double", [](Rejection& x) { x.call.dtype = x.call.outDtype = ACL_DOUBLE; }, "input");
  add(
      "weight_int32", [](Rejection& x) { x.weightDtype = ACL_INT32; }, "weight");
  add(
      "bias_int32", [](Rejection& x) { x.biasDtype = ACL_INT32; }, "bias");
  add(
      "bias_other_float", [](Rejection& x) { x.biasDtype = ACL_BF16; }, "bias");
  add(
      "out_double", [](Rejection& x) { x.call.outDtype = ACL_DOUBLE; }, "output");
  add(
      "rank2",
      [](Rejection& x) {
        x.call.input = {4, 6};
      },
      "input");
  add(
      "weight_rank",
      [](Rejection& x) {
        x.call.weight = {4, 2, 9};
      },
      "weight");
  add(
      "format_nd", [](Rejection& x) { x.inputFormat = ACL_FORMAT_ND; }, "format");
  add(
      "format_nhwc", [](Rejection& x) { x.inputFormat = ACL_FORMAT_NHWC; }, "format");
  add(
      "transposed_out_dtype",
      [](Rejection& x) {
        x.call.transposed = true;
        x.call.weight = {4, 2, 3, 3};
        x.call.outputPadding = {0, 0};
        x.call.outDtype = ACL_FLOAT16;
      },
      "dtype");
  add(
      "groups_0", [](Rejection& x) { x.call.groups = 0; }, "groups");
  add(
      "groups_65536", [](Rejection& x) { x.call.groups = 65536; }, "groups");
  add(
      "groups_mismatch", [](Rejection& x) { x.call.groups = 1; }, "groups");
  add(
      "groups_not_dividing_out",
      [](Rejection& x) {
        x.call.weight = {3, 2, 3, 3};
        x.outShape = {1, 3, 6, 6};
      },
      "groups");
  add(
      "stride_length", [](Rejection& x) { x.call.stride = {1}; }, "stride");
  add(
      "stride_0",
      [](Rejection& x) {
        x.call.stride = {1, 0};
      },
      "stride");
  add(
      "dilation_length",
      [](Rejection& x) {
        x.call.dilation = {1, 1, 1};
      },
      "dilation");
  add(
      "dilation_0",
      [](Rejection& x) {
        x.call.dilation = {0, 1};
      },
      "dilation");
  add(
      "padding_length3",
      [](Rejection& x) {
        x.call.padding = {1, 1, 1};
      },
      "padding");
  add(
      "padding_negative",
      [](Rejection& x) {
        x.call.padding = {-1, 1};
      },
      "padding");
  // Atlas A2's ranges (CANN's doc): a forward conv2d's padding in [0, 255], a
  // transposed convolution's dilation in [1, 255].
  add(
      "padding_256",
      [](Rejection& x) {
        x.call.padding = {256, 0};
      },
      "padding");
  add(
      "transposed_dilation_256",
      [](Rejection& x) {
        x.call.transposed = true;
        x.call.weight = {4, 2, 3, 3};
        x.call.outputPadding = {0, 0};
        x.call.dilation = {256, 1};
      },
      "dilation");
  // Extents past int64 are refused, not wrapped (a transposed stride is unbounded;
  // so is a forward dilation, whose kernel extent then outgrows any padded input).
  add(
      "transposed_stride_past_int64",
      [](Rejection& x) {
        x.call.transposed = true;
        x.call.weight = {4, 2, 3, 3};
        x.call.outputPadding = {0, 0};
        x.call.stride = {std::numeric_limits<int64_t>::max(), 1};
      },
      "int64");
  add(
      "transposed_padding_below_int64",
      [](Rejection& x) {
        x.call.transposed = true;
        x.call.weight = {4, 2, 3, 3};
        x.call.outputPadding = {0, 0};
        x.call.padding = {std::numeric_limits<int64_t>::max(), 1};
      },
      "int64");
  add(
      "dilation_past_int64",
      [](Rejection& x) {
        x.call.dilation = {std::numeric_limits<int64_t>::max(), 1};
      },
      "kernel");
  add(
      "outputPadding_too_large",
      [](Rejection& x) {
        x.call.transposed = true;
        x.call.weight = {4, 2, 3, 3};
        x.call.outputPadding = {1, 0};
        x.outShape = {1, 4, 5, 4};
      },
      "outputPadding");
  add(
      "outputPadding_length",
      [](Rejection& x) {
        x.call.transposed = true;
        x.call.weight = {4, 2, 3, 3};
        x.call.outputPadding = {0};
        x.outShape = {1, 4, 4, 4};
      },
      "outputPadding");
  add(
      "kernel_larger_than_padded_input",
      [](Rejection& x) {
        x.call.padding = {0, 0};
        x.call.dilation = {4, 1};
        x.outShape = {1, 4, 1, 4};
      },
      "kernel");
  add(
      "out_shape",
      [](Rejection& x) {
        x.outShape = {1, 4, 6, 5};
      },
      "output");
  // A sum over nothing into a non-empty output: refused as CANN's checker does.
  add(
      "zero_channels_nonempty_output",
      [](Rejection& x) {
        x.call.input = {1, 0, 6, 6};
        x.call.weight = {4, 0, 3, 3};
      },
      "empty");
  add(
      "empty_height_padded_to_nonempty_output",
      [](Rejection& x) {
        x.call.input = {1, 4, 0, 6};
        x.call.weight = {4, 2, 1, 1};
        x.call.padding = {1, 0};
        x.outShape = {1, 4, 2, 6};
      },
      "empty");
  add(
      "bias_shape", [](Rejection& x) { x.biasShape = {2}; }, "bias");
  add(
      "bias_rank2",
      [](Rejection& x) {
        x.biasShape = {4, 1};
      },
      "bias");
  add(
      "cubeMathType_4", [](Rejection& x) { x.call.cubeMathType = 4; }, "cubeMathType");
  add(
      "cubeMathType_fp16_bf16",
      [](Rejection& x) {
        x.call.dtype = x.call.outDtype = ACL_BF16;
        x.call.cubeMathType = kUseFp16;
      },
      "cubeMathType");
  add(
      "null_stride", [](Rejection& x) { x.nullArrays = true; }, "stride", ACLNN_ERR_PARAM_NULLPTR);
  return r;
}

class ConvolutionRejectionTest : public ::testing::TestWithParam<Rejection> {};

TEST_P(ConvolutionRejectionTest, IsRejectedWithItsStatus) {
  const Rejection& x = GetParam();
  const ConvCase& c = x.call;
  const Shape outShape = x.outShape.empty() ? Shape{1, 4, 6, 6} : x.outShape;
  const aclFormat format = FormatOf(c.input.size());
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* input = a.NewTensor(c.dtype, c.input, View::kContiguous,
                                       x.inputFormat == ACL_FORMAT_UNDEFINED ? format : x.inputFormat);
        aclTensor* weight = a.NewTensor(x.weightDtype == ACL_DT_UNDEFINED ? c.dtype : x.weightDtype, c.weight,
                                        View::kContiguous, FormatOf(c.weight.size()));
        aclTensor* bias = a.NewTensor(x.biasDtype == ACL_DT_UNDEFINED ? c.dtype : x.biasDtype,
                                      x.biasShape.empty() ? Shape{outShape[1]} : x.biasShape);
        aclTensor* output = a.NewTensor(c.outDtype, outShape, View::kContiguous, FormatOf(outShape.size()));
        if (x.nullArrays) {
          return aclnnConvolutionGetWorkspaceSize(input, weight, bias, nullptr, a.IntArray(c.padding),
                                                  a.IntArray(c.dilation), c.transposed, a.IntArray({0, 0}), c.groups,
                                                  output, c.cubeMathType, ws, ex);
        }
        return CallConv(a, c, input, weight, bias, output, ws, ex);
      },
      aclnnConvolution);
  EXPECT_EQ(run.phase1, x.expected) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvolutionRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return SanitizeName(info.param.name); });

// fp16 operands multiply exactly, as on the NPU's cube: with one non-zero
// input channel each output is one product of two random fp16 values, exact
// in an f32 output (a transposed convolution's output is fp16: the product
// rounded once). A convolution that rounded its operands further would fail.
TEST(ConvolutionFp16, ProductsAreExact) {
  constexpr int64_t channels = 16, side = 8;
  Rng rng = Rng::ForCurrentTest();
  for (const bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "transposed" : "plain");
    const Shape inputShape = {1, channels, side, side}, weightShape = {channels, channels, 1, 1};
    const Shape outShape = {1, channels, side, side};
    const auto live = static_cast<int64_t>(rng.Uniform(0, channels - 0.5));
    Values x(static_cast<size_t>(NumElements(inputShape)), 0.0);
    for (int64_t p = 0; p < side * side; ++p)
      x[static_cast<size_t>(live * side * side + p)] = rng.Draw(ACL_FLOAT16, {});
    const aclDataType outDtype = transposed ? ACL_FLOAT16 : ACL_FLOAT;
    DeviceTensor input(ACL_FLOAT16, inputShape), weight(ACL_FLOAT16, weightShape), out(outDtype, outShape);
    input.WriteView(x);
    const Values w = weight.FillRandom(rng, Range{-4, 4});
    out.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnConvolutionGetWorkspaceSize(a.Tensor(input, ACL_FORMAT_NCHW), a.Tensor(weight, ACL_FORMAT_NCHW),
                                                  nullptr, a.IntArray({1, 1}), a.IntArray({0, 0}), a.IntArray({1, 1}),
                                                  transposed, a.IntArray({0, 0}), 1, a.Tensor(out, ACL_FORMAT_NCHW),
                                                  kKeepDtype, ws, ex);
        },
        aclnnConvolution);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const Values got = out.ReadView();
    int mismatches = 0;
    for (int64_t o = 0; o < channels; ++o) {
      // Plain: weight [out, in]; transposed: weight [in, out].
      const double coefficient = transposed ? w[static_cast<size_t>(live * channels + o)].real()
                                            : w[static_cast<size_t>(o * channels + live)].real();
      for (int64_t p = 0; p < side * side; ++p) {
        const double want =
            ConvertValue(coefficient * x[static_cast<size_t>(live * side * side + p)].real(), outDtype).real();
        const double value = got[static_cast<size_t>(o * side * side + p)].real();
        if (value != want && ++mismatches <= 5)
          ADD_FAILURE() << "out[" << o << ", " << p << "] = " << value << ", exact " << want;
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

// f32 under ALLOW_FP32_DOWN_PRECISION and USE_HF32, on sums of 4608 products:
// no worse than HF32, which rounds both operands to 11 bits and sums the exact
// products (the smallest error HF32 can have). Canopy multiplies f32 there;
// a faster path that rounded the operands further (a bf16 product is about
// 8x worse) fails. The products of the matmul family keep the same promise in
// matmul_bf16_split_test.
TEST(ConvolutionOnBf16Units, Fp32DownPrecisionNoWorseThanHf32) {
  Rng rng = Rng::ForCurrentTest();
  for (const bool transposed : {false, true}) {
    for (const int8_t cube : {kAllowFp32DownPrecision, kUseHf32}) {
      SCOPED_TRACE(std::string(transposed ? "transposed" : "plain") + " cubeMathType " + std::to_string(cube));
      ConvCase c = transposed ? Conv("t", {2, 512, 4, 4}, {512, 8, 3, 3}, {1, 1}, {2, 2}, {1, 1})
                              : Conv("c", {2, 512, 6, 6}, {8, 512, 3, 3}, {1, 1}, {0, 0}, {1, 1});
      c.transposed = transposed;
      c.bias = false;
      c.cubeMathType = cube;
      ConvOperands o = MakeOperands(c, rng);
      const OpRun run = RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
            return CallConv(a, c, a.Tensor(*o.input, ACL_FORMAT_NCHW), a.Tensor(*o.weight, ACL_FORMAT_NCHW), nullptr,
                            a.Tensor(*o.out, ACL_FORMAT_NCHW), ws, ex);
          },
          aclnnConvolution);
      ASSERT_TRUE(run.ok()) << Describe(run);
      const Shape outShape = OutputShape(c);
      Values x_hf32 = o.x, w_hf32 = o.w;
      for (Value& v : x_hf32) v = ToHf32(v.real());
      for (Value& v : w_hf32) v = ToHf32(v.real());
      std::vector<double> magnitude, unused;
      const std::vector<double> exact = RealParts(Reference(c, o.x, o.w, o.b, outShape, magnitude));
      const std::vector<double> hf32 = RealParts(Reference(c, x_hf32, w_hf32, o.b, outShape, unused));
      const double hf32_error = WorstScaledError(hf32, exact, magnitude);
      const double canopy_error = WorstScaledError(RealParts(o.out->ReadView()), exact, magnitude);
      EXPECT_GT(hf32_error, 0.0);
      EXPECT_LE(canopy_error, hf32_error) << "HF32's worst scaled error " << hf32_error;
    }
  }
}

}  // namespace
}  // namespace canopy_test
