// QuantConvolution through the public C API against a float64 reference:
// INT8 input and weight of the whole INT8 range, the exact integer sum scaled
// per output channel and biased, into BFLOAT16 and FLOAT16 outputs with each
// bias dtype A2 takes; strides, paddings and dilations, strided and offset
// views of every operand (a broadcast scale too), the doc's example call
// (non-null outputPadding with transposed false), and every rejection of
// CANN's A2 path with its code.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_convolution.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

struct QuantConvCase {
  std::string name;
  Shape input = {2, 3, 4, 5, 6}, weight = {4, 3, 2, 3, 3};
  std::vector<int64_t> stride = {1, 1, 1}, padding = {0, 1, 1}, dilation = {1, 1, 1};
  aclDataType outDtype = ACL_BF16, biasDtype = ACL_FLOAT;
  View inputView = View::kContiguous, weightView = View::kContiguous, scaleView = View::kContiguous;
  View biasView = View::kContiguous, outView = View::kContiguous;
  bool outputPadding = false;  // the doc's example passes {1, 1, 1} with transposed false
};

void PrintTo(const QuantConvCase& c, std::ostream* os) { *os << c.name; }

Shape OutShape(const QuantConvCase& c) {
  Shape out = {c.input[0], c.weight[0]};
  for (size_t d = 0; d < 3; ++d) {
    const int64_t extent = c.dilation[d] * (c.weight[2 + d] - 1) + 1;
    out.push_back((c.input[2 + d] + 2 * c.padding[d] - extent) / c.stride[d] + 1);
  }
  return out;
}

// out[n, o, p] = scale[o] * sum x * w + bias[o]; `magnitude` gets |scale * sum| + |bias|.
Values Reference(const QuantConvCase& c, const Values& x, const Values& w, const Values& scale, const Values& bias,
                 std::vector<double>& magnitude) {
  const Shape out = OutShape(c);
  const Shape inSpace(c.input.begin() + 2, c.input.end()), outSpace(out.begin() + 2, out.end());
  const Shape kernel(c.weight.begin() + 2, c.weight.end());
  const int64_t channels = c.input[1], taps = NumElements(kernel);
  Values want;
  magnitude.clear();
  for (int64_t i = 0; i < NumElements(out); ++i) {
    const Shape at = Unravel(i, out);
    const int64_t n = at[0], o = at[1];
    int64_t sum = 0;  // exact: INT8 products
    for (int64_t ic = 0; ic < channels; ++ic) {
      for (int64_t t = 0; t < taps; ++t) {
        const Shape k = Unravel(t, kernel);
        Shape ip(3);
        bool inside = true;
        for (size_t d = 0; d < 3; ++d) {
          ip[d] = at[2 + d] * c.stride[d] - c.padding[d] + k[d] * c.dilation[d];
          inside = inside && ip[d] >= 0 && ip[d] < inSpace[d];
        }
        if (!inside) continue;
        const double xv =
            x[static_cast<size_t>((n * channels + ic) * NumElements(inSpace) + Ravel(ip, inSpace))].real();
        const double wv = w[static_cast<size_t>((o * channels + ic) * taps + t)].real();
        sum += static_cast<int64_t>(xv * wv);
      }
    }
    const double scaled = scale[static_cast<size_t>(o)].real() * static_cast<double>(sum);
    const double b = bias[static_cast<size_t>(o)].real();
    want.emplace_back(scaled + b);
    magnitude.push_back(std::abs(scaled) + std::abs(b));
  }
  return want;
}

void RunAndCheck(const QuantConvCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const Shape outShape = OutShape(c);
  DeviceTensor input(ACL_INT8, c.input, c.inputView), weight(ACL_INT8, c.weight, c.weightView);
  DeviceTensor scale(ACL_FLOAT, {c.weight[0]}, c.scaleView), bias(c.biasDtype, {c.weight[0]}, c.biasView);
  DeviceTensor out(c.outDtype, outShape, c.outView);
  const Values x = input.FillRandom(rng, Range{-128, 127});
  const Values w = weight.FillRandom(rng, Range{-128, 127});
  const Values s = scale.FillRandom(rng, Range{-0.002, 0.002, 0.0002});
  const Values b = bias.FillRandom(rng, Range{-4, 4});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionGetWorkspaceSize(
            a.Tensor(input, ACL_FORMAT_NCDHW), a.Tensor(weight, ACL_FORMAT_NCDHW), a.Tensor(bias), a.Tensor(scale),
            nullptr, a.IntArray(c.stride), a.IntArray(c.padding), a.IntArray(c.dilation), false,
            c.outputPadding ? a.IntArray({1, 1, 1}) : nullptr, 1, 0, nullptr, a.Tensor(out, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolution);
  ASSERT_TRUE(run.ok()) << Describe(run);
  std::vector<double> magnitude;
  Expected expected{Reference(c, x, w, s, b, magnitude), {}};
  // The sum is exact in f32 here (|sum| < 2^24); scaling and biasing round in
  // f32, then the result rounds once to the output dtype.
  for (size_t i = 0; i < magnitude.size(); ++i) {
    expected.tolerance.push_back(4.0 * UnitRoundoff(ACL_FLOAT) * magnitude[i] +
                                 UnitRoundoff(c.outDtype) * std::abs(expected.values[i].real()) + 1e-30);
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<QuantConvCase> Cases() {
  std::vector<QuantConvCase> cases;
  const auto add = [&cases](std::string name, const std::function<void(QuantConvCase&)>& edit) {
    QuantConvCase c;
    c.name = std::move(name);
    edit(c);
    cases.push_back(c);
  };
  const struct {
    const char* name;
    aclDataType out, bias;
  } dtypes[] = {{"bf16_f32bias", ACL_BF16, ACL_FLOAT},
                {"bf16_bf16bias", ACL_BF16, ACL_BF16},
                {"f16_f32bias", ACL_FLOAT16, ACL_FLOAT},
                {"f16_f16bias", ACL_FLOAT16, ACL_FLOAT16}};
  for (const auto& d : dtypes) {
    add(d.name, [&d](QuantConvCase& c) { c.outDtype = d.out, c.biasDtype = d.bias; });
  }
  add("stride_2_1_3", [](QuantConvCase& c) {
    c.input = {1, 2, 7, 8, 9}, c.weight = {3, 2, 3, 2, 3}, c.stride = {2, 1, 3}, c.padding = {1, 0, 2};
  });
  add("dilation_2_3_1", [](QuantConvCase& c) {
    c.input = {2, 2, 6, 9, 5}, c.weight = {5, 2, 2, 3, 2}, c.dilation = {2, 3, 1}, c.padding = {0, 2, 1};
  });
  add("pointwise_kernel", [](QuantConvCase& c) { c.weight = {6, 3, 1, 1, 1}, c.padding = {0, 0, 0}; });
  add("kernel_covers_padded_input", [](QuantConvCase& c) {
    c.input = {1, 4, 2, 3, 3}, c.weight = {2, 4, 4, 5, 5}, c.padding = {1, 1, 1}, c.outDtype = ACL_FLOAT16,
    c.biasDtype = ACL_FLOAT16;
  });
  add("wide_channels", [](QuantConvCase& c) { c.input = {1, 40, 3, 4, 4}, c.weight = {33, 40, 2, 2, 2}; });
  add("input_stepped", [](QuantConvCase& c) { c.inputView = View::kStepped; });
  add("input_transposed", [](QuantConvCase& c) { c.inputView = View::kTransposed, c.outDtype = ACL_FLOAT16; });
  add("weight_reversed", [](QuantConvCase& c) { c.weightView = View::kReversed; });
  add("weight_offset", [](QuantConvCase& c) { c.weightView = View::kOffset; });
  add("scale_broadcast_bias_stepped",
      [](QuantConvCase& c) { c.scaleView = View::kBroadcast, c.biasView = View::kStepped, c.biasDtype = ACL_BF16; });
  add("scale_stepped", [](QuantConvCase& c) { c.scaleView = View::kStepped; });
  add("out_stepped", [](QuantConvCase& c) { c.outView = View::kStepped; });
  add("out_transposed", [](QuantConvCase& c) { c.outView = View::kTransposed, c.outDtype = ACL_FLOAT16; });
  // The doc's example program: [2,2,32,32,32] (*) [2,2,3,3,3], padding 1, outputPadding {1,1,1}.
  add("doc_example", [](QuantConvCase& c) {
    c.input = {2, 2, 32, 32, 32}, c.weight = {2, 2, 3, 3, 3}, c.padding = {1, 1, 1}, c.outputPadding = true;
  });
  return cases;
}

class QuantConvolutionTest : public ::testing::TestWithParam<QuantConvCase> {};

TEST_P(QuantConvolutionTest, MatchesFloat64Reference) { RunAndCheck(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<QuantConvCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// A second call with new values in new buffers (a plan-cache hit) computes them.
TEST(QuantConvolutionCache, RepeatedCallUsesNewBuffers) {
  QuantConvCase c;
  c.name = "repeat";
  RunAndCheck(c);
  RunAndCheck(c);
}

// The reserved arguments are not read on A2: transposed true, an offset tensor,
// offsetx out of [-128, 127] and any roundMode run the same convolution.
TEST(QuantConvolutionReserved, IgnoredAsOnAtlasA2) {
  const Shape input = {1, 2, 3, 4, 4}, weight = {3, 2, 1, 3, 3}, out = {1, 3, 3, 2, 2};
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionGetWorkspaceSize(
            a.NewTensor(ACL_INT8, input, View::kContiguous, ACL_FORMAT_NCDHW),
            a.NewTensor(ACL_INT8, weight, View::kContiguous, ACL_FORMAT_NCDHW), a.NewTensor(ACL_FLOAT, {3}),
            a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, {3}), a.IntArray({1, 1, 1}), a.IntArray({0, 0, 0}),
            a.IntArray({1, 1, 1}), true, a.IntArray({7}), 1, 300, "floor",
            a.NewTensor(ACL_BF16, out, View::kContiguous, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolution);
}

// ---- Rejections -------------------------------------------------------------------------------

struct Call {
  Shape input = {1, 2, 3, 4, 4}, weight = {3, 2, 1, 3, 3}, bias = {3}, scale = {3}, out = {1, 3, 3, 2, 2};
  aclDataType inputDtype = ACL_INT8, weightDtype = ACL_INT8, biasDtype = ACL_FLOAT, scaleDtype = ACL_FLOAT;
  aclDataType outDtype = ACL_BF16;
  aclFormat inputFormat = ACL_FORMAT_NCDHW, weightFormat = ACL_FORMAT_NCDHW, outFormat = ACL_FORMAT_NCDHW;
  aclFormat biasFormat = ACL_FORMAT_ND, scaleFormat = ACL_FORMAT_ND;
  std::vector<int64_t> stride = {1, 1, 1}, padding = {0, 0, 0}, dilation = {1, 1, 1};
  int64_t groups = 1;
  int nullArg = -1;  // 0 input, 1 weight, 2 bias, 3 scale, 5 stride, 6 padding, 7 dilation, 13 output
};

Phase1 Phase1Of(const Call& c) {
  return [c](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
    const auto tensor = [&](int arg, aclDataType dtype, const Shape& shape, aclFormat format) {
      return arg == c.nullArg ? nullptr : a.NewTensor(dtype, shape, View::kContiguous, format);
    };
    const auto array = [&](int arg, const std::vector<int64_t>& values) {
      return arg == c.nullArg ? nullptr : a.IntArray(values);
    };
    return aclnnQuantConvolutionGetWorkspaceSize(
        tensor(0, c.inputDtype, c.input, c.inputFormat), tensor(1, c.weightDtype, c.weight, c.weightFormat),
        tensor(2, c.biasDtype, c.bias, c.biasFormat), tensor(3, c.scaleDtype, c.scale, c.scaleFormat), nullptr,
        array(5, c.stride), array(6, c.padding), array(7, c.dilation), false, nullptr, c.groups, 0, nullptr,
        tensor(13, c.outDtype, c.out, c.outFormat), ws, ex);
  };
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> r;
  const auto add = [&r](std::string name, const std::function<void(Call&)>& edit, std::string keyword,
                        aclnnStatus expected = ACLNN_ERR_PARAM_INVALID) {
    Call c;
    edit(c);
    r.push_back({std::move(name), Phase1Of(c), aclnnQuantConvolution, std::move(keyword), expected});
  };
  const struct {
    int arg;
    const char* name;
  } pointers[] = {{0, "input"},  {1, "weight"},  {2, "bias"},   {3, "scale"},
                  {5, "stride"}, {6, "padding"}, {13, "output"}};
  for (const auto& p : pointers) {
    add(
        std::string("null_") + p.name, [&p](Call& c) { c.nullArg = p.arg; }, p.name, ACLNN_ERR_PARAM_NULLPTR);
  }
  add(
      "null_dilation", [](Call& c) { c.nullArg = 7; }, "dilation");
  // Dtypes: scale FLOAT only on A2, then the (input, weight, output, bias) combinations.
  add(
      "scale_int64", [](Call& c) { c.scaleDtype = ACL_INT64; }, "scale");
  add(
      "scale_uint64", [](Call& c) { c.scaleDtype = ACL_UINT64; }, "scale");
  add(
      "scale_bf16", [](Call& c) { c.scaleDtype = ACL_BF16; }, "scale");
  add(
      "input_float", [](Call& c) { c.inputDtype = ACL_FLOAT; }, "input");
  add(
      "weight_uint8", [](Call& c) { c.weightDtype = ACL_UINT8; }, "weight");
  add(
      "input_int16", [](Call& c) { c.inputDtype = c.weightDtype = ACL_INT16; }, "input");
  add(
      "output_float", [](Call& c) { c.outDtype = ACL_FLOAT; }, "output");
  add(
      "output_int8", [](Call& c) { c.outDtype = ACL_INT8; }, "output");
  add(
      "bias_int32", [](Call& c) { c.biasDtype = ACL_INT32; }, "bias");
  add(
      "bias_f16_out_bf16", [](Call& c) { c.biasDtype = ACL_FLOAT16; }, "bias");
  add(
      "bias_bf16_out_f16", [](Call& c) { c.biasDtype = ACL_BF16, c.outDtype = ACL_FLOAT16; }, "bias");
  // Ranks and attribute lengths.
  add(
      "scale_rank2",
      [](Call& c) {
        c.scale = {3, 1};
      },
      "scale");
  add(
      "bias_rank0", [](Call& c) { c.bias = {}; }, "bias");
  add(
      "conv2d_input",
      [](Call& c) {
        c.input = {1, 2, 4, 4}, c.weight = {3, 2, 3, 3}, c.out = {1, 3, 2, 2};
        c.inputFormat = c.weightFormat = c.outFormat = ACL_FORMAT_NCHW;
      },
      "input");
  add(
      "weight_rank4",
      [](Call& c) {
        c.weight = {3, 2, 3, 3}, c.weightFormat = ACL_FORMAT_NCHW;
      },
      "weight");
  add(
      "output_rank4",
      [](Call& c) {
        c.out = {1, 3, 3, 2}, c.outFormat = ACL_FORMAT_NCHW;
      },
      "output");
  add(
      "stride_length2",
      [](Call& c) {
        c.stride = {1, 1};
      },
      "stride");
  add(
      "dilation_length4",
      [](Call& c) {
        c.dilation = {1, 1, 1, 1};
      },
      "dilation");
  add(
      "padding_length6", [](Call& c) { c.padding = {0, 0, 0, 0, 0, 0}; }, "padding");
  // Formats.
  add(
      "bias_ncdhw", [](Call& c) { c.biasFormat = ACL_FORMAT_NCHW; }, "bias");
  add(
      "scale_nchw", [](Call& c) { c.scaleFormat = ACL_FORMAT_NCHW; }, "scale");
  add(
      "input_nd", [](Call& c) { c.inputFormat = ACL_FORMAT_ND; }, "input");
  add(
      "input_ndhwc", [](Call& c) { c.inputFormat = ACL_FORMAT_NDHWC; }, "input");
  add(
      "weight_nd", [](Call& c) { c.weightFormat = ACL_FORMAT_ND; }, "weight");
  add(
      "output_nd", [](Call& c) { c.outFormat = ACL_FORMAT_ND; }, "output");
  // Values.
  add(
      "empty_batch",
      [](Call& c) {
        c.input = {0, 2, 3, 4, 4}, c.out = {0, 3, 3, 2, 2};
      },
      "input");
  add(
      "empty_depth",
      [](Call& c) {
        c.input = {1, 2, 0, 4, 4}, c.out = {1, 3, 0, 2, 2};
      },
      "input");
  add(
      "empty_weight",
      [](Call& c) {
        c.weight = {0, 2, 1, 3, 3}, c.bias = c.scale = {0}, c.out = {1, 0, 3, 2, 2};
      },
      "weight");
  add(
      "bias_extent", [](Call& c) { c.bias = {4}; }, "bias");
  add(
      "scale_extent", [](Call& c) { c.scale = {2}; }, "scale");
  add(
      "stride_0",
      [](Call& c) {
        c.stride = {1, 0, 1};
      },
      "stride");
  add(
      "dilation_0",
      [](Call& c) {
        c.dilation = {0, 1, 1};
      },
      "dilation");
  add(
      "padding_negative",
      [](Call& c) {
        c.padding = {0, -1, 0}, c.out = {1, 3, 3, 0, 0};
      },
      "padding");
  add(
      "groups_2", [](Call& c) { c.groups = 2; }, "groups");
  add(
      "groups_0", [](Call& c) { c.groups = 0; }, "groups");
  add(
      "channels_mismatch",
      [](Call& c) {
        c.weight = {3, 1, 1, 3, 3};
      },
      "channels");
  add(
      "kernel_larger_than_padded_input",
      [](Call& c) {
        c.weight = {3, 2, 1, 5, 3}, c.stride = {1, 2, 1};  // (4 - 5) / 2 + 1 would be 1
        c.out = {1, 3, 3, 1, 2};
      },
      "kernel");
  add(
      "output_shape",
      [](Call& c) {
        c.out = {1, 3, 3, 2, 3};
      },
      "output");
  add(
      "output_channels",
      [](Call& c) {
        c.out = {1, 4, 3, 2, 2};
      },
      "output");
  return r;
}

class QuantConvolutionRejectionTest : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(QuantConvolutionRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
