// QuantConvolutionWeightNz through the public C API against a float64
// reference: INT8 input and weight of the whole INT8 range, the weight handed
// over in FRACTAL_Z_3D storage prepared two ways: through
// aclnnNpuFormatCastCalculateSizeAndFormat and aclnnNpuFormatCast exactly as
// CANN's example does, and packed by this file's own reading of the layout
// (padding filled with random values, which must not matter). Each output and
// bias dtype of A2, strides, paddings, dilations, more than 16 output and 32
// input channels (N1, C1 > 1), strided views of the other operands, the doc's
// example call, the same result as QuantConvolution with the NCDHW weight, and
// every rejection of CANN's path with its code (the weight's format and
// storage shape among them).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_npu_format_cast.h"
#include "aclnnop/aclnn_quant_convolution.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kC0 = 32, kN0 = 16;  // FRACTAL_Z_3D of INT8

// How the test builds the weight's FRACTAL_Z_3D storage.
enum class Prep { kFormatCast, kPacked };

struct Case {
  std::string name;
  Shape input = {2, 3, 4, 5, 6}, weight = {4, 3, 2, 3, 3};
  std::vector<int64_t> stride = {1, 1, 1}, padding = {0, 1, 1}, dilation = {1, 1, 1};
  aclDataType outDtype = ACL_BF16, biasDtype = ACL_FLOAT;
  Prep prep = Prep::kFormatCast;
  View inputView = View::kContiguous, scaleView = View::kContiguous, biasView = View::kContiguous;
  View outView = View::kContiguous;
  bool outputPadding = false;  // the doc's example passes {1, 1, 1} with transposed false
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// [D * C1 * H * W, N1, N0, C0] of an NCDHW weight.
Shape NzStorage(const Shape& w) { return {w[2] * CeilDiv(w[1], kC0) * w[3] * w[4], CeilDiv(w[0], kN0), kN0, kC0}; }

// The storage of `values` (NCDHW, row-major) walked in storage order: each
// element traced back to (n, c, d, h, w); padding gets random INT8 values.
Values PackFractalZ3d(const Values& values, const Shape& w, Rng& rng) {
  const Shape storage = NzStorage(w);
  const int64_t c1Count = CeilDiv(w[1], kC0);
  Values packed;
  for (int64_t flat = 0; flat < NumElements(storage); ++flat) {
    const Shape at = Unravel(flat, storage);  // [(d, c1, h, w), n1, n0, c0]
    int64_t row = at[0];
    const int64_t x = row % w[4];
    row /= w[4];
    const int64_t y = row % w[3];
    row /= w[3];
    const int64_t c1 = row % c1Count, d = row / c1Count;
    const int64_t n = at[1] * kN0 + at[2], ch = c1 * kC0 + at[3];
    if (n < w[0] && ch < w[1]) {
      packed.push_back(values[static_cast<size_t>(Ravel({n, ch, d, y, x}, w))]);
    } else {
      packed.push_back(rng.Draw(ACL_INT8, Range{-128, 127}));
    }
  }
  return packed;
}

Layout NzLayout(const Shape& view, const Shape& storage) {
  Layout layout;
  layout.shape = view;
  layout.strides = ContiguousStrides(view);
  layout.storageShape = storage;
  return layout;
}

// The doc example's preparation: the NCDHW weight's storage shape and format
// from CalculateSizeAndFormat (dstFormat 33, additionalDtype -1), a tensor of
// the NCDHW view over that storage, then NpuFormatCast into it.
std::unique_ptr<DeviceTensor> CastToNz(const DeviceTensor& ncdhw, aclFormat* format) {
  aclTensor* descriptor = ncdhw.CreateDescriptor(ACL_FORMAT_NCDHW);
  int64_t* dims = nullptr;
  uint64_t count = 0;
  int actual = -1;
  const aclnnStatus status =
      aclnnNpuFormatCastCalculateSizeAndFormat(descriptor, ACL_FRACTAL_Z_3D, -1, &dims, &count, &actual);
  aclDestroyTensor(descriptor);
  EXPECT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  if (status != ACLNN_SUCCESS) return nullptr;
  const Shape storage(dims, dims + count);
  delete[] dims;
  EXPECT_EQ(storage, NzStorage(ncdhw.shape()));
  EXPECT_EQ(actual, ACL_FRACTAL_Z_3D);
  *format = static_cast<aclFormat>(actual);
  auto nz = std::make_unique<DeviceTensor>(ACL_INT8, NzLayout(ncdhw.shape(), storage));
  nz->Poison();
  const OpRun cast = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNpuFormatCastGetWorkspaceSize(a.Tensor(ncdhw, ACL_FORMAT_NCDHW), a.Tensor(*nz, *format), ws, ex);
      },
      aclnnNpuFormatCast);
  EXPECT_TRUE(cast.ok()) << Describe(cast);
  return cast.ok() ? std::move(nz) : nullptr;
}

// The weight of `values` in FRACTAL_Z_3D storage, as `prep` says.
std::unique_ptr<DeviceTensor> NzWeight(const Shape& shape, const Values& values, Prep prep, Rng& rng) {
  if (prep == Prep::kFormatCast) {
    auto ncdhw = Upload(ACL_INT8, shape, values);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    return CastToNz(*ncdhw, &format);
  }
  auto nz = std::make_unique<DeviceTensor>(ACL_INT8, NzLayout(shape, NzStorage(shape)));
  nz->UploadStorage(PackFractalZ3d(values, shape, rng));
  return nz;
}

Shape OutShape(const Case& c) {
  Shape out = {c.input[0], c.weight[0]};
  for (size_t d = 0; d < 3; ++d) {
    const int64_t extent = c.dilation[d] * (c.weight[2 + d] - 1) + 1;
    out.push_back((c.input[2 + d] + 2 * c.padding[d] - extent) / c.stride[d] + 1);
  }
  return out;
}

// out[n, o, p] = scale[o] * sum x * w + bias[o], with its tolerance: the exact
// INT8 sum (f32 holds it), scaled and biased in f32, rounded once to the output.
Expected Reference(const Case& c, const Values& x, const Values& w, const Values& scale, const Values& bias) {
  const Shape out = OutShape(c);
  const Shape inSpace(c.input.begin() + 2, c.input.end()), outSpace(out.begin() + 2, out.end());
  const Shape kernel(c.weight.begin() + 2, c.weight.end());
  const int64_t channels = c.input[1], taps = NumElements(kernel);
  Expected want;
  for (int64_t i = 0; i < NumElements(out); ++i) {
    const Shape at = Unravel(i, out);
    const int64_t n = at[0], o = at[1];
    int64_t sum = 0;
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
    want.values.emplace_back(scaled + b);
    want.tolerance.push_back(4.0 * UnitRoundoff(ACL_FLOAT) * (std::abs(scaled) + std::abs(b)) +
                             UnitRoundoff(c.outDtype) * std::abs(scaled + b) + 1e-30);
  }
  return want;
}

void RunAndCheck(const Case& c) {
  TestStream();  // acl initialised before the first allocation
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor input(ACL_INT8, c.input, c.inputView);
  DeviceTensor scale(ACL_FLOAT, {c.weight[0]}, c.scaleView), bias(c.biasDtype, {c.weight[0]}, c.biasView);
  DeviceTensor out(c.outDtype, OutShape(c), c.outView);
  const Values x = input.FillRandom(rng, Range{-128, 127});
  const Values w = RandomValues(rng, ACL_INT8, NumElements(c.weight), Range{-128, 127});
  const Values s = scale.FillRandom(rng, Range{-0.002, 0.002, 0.0002});
  const Values b = bias.FillRandom(rng, Range{-4, 4});
  const std::unique_ptr<DeviceTensor> weight = NzWeight(c.weight, w, c.prep, rng);
  ASSERT_NE(weight, nullptr);
  const Values storageBefore = weight->DownloadStorage();
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionWeightNzGetWorkspaceSize(
            a.Tensor(input, ACL_FORMAT_NCDHW), a.Tensor(*weight, ACL_FRACTAL_Z_3D), a.Tensor(bias), a.Tensor(scale),
            nullptr, a.IntArray(c.stride), a.IntArray(c.padding), a.IntArray(c.dilation), false,
            c.outputPadding ? a.IntArray({1, 1, 1}) : nullptr, 1, 0, nullptr, a.Tensor(out, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolutionWeightNz);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), Reference(c, x, w, s, b), c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
  ExpectExact(weight->DownloadStorage(), storageBefore, c.name + " weight storage");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const auto add = [&cases](std::string name, const std::function<void(Case&)>& edit) {
    Case c;
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
    add(std::string(d.name) + "_format_cast", [&d](Case& c) { c.outDtype = d.out, c.biasDtype = d.bias; });
    add(std::string(d.name) + "_packed",
        [&d](Case& c) { c.outDtype = d.out, c.biasDtype = d.bias, c.prep = Prep::kPacked; });
  }
  add("stride_2_1_3", [](Case& c) {
    c.input = {1, 2, 7, 8, 9}, c.weight = {3, 2, 3, 2, 3}, c.stride = {2, 1, 3}, c.padding = {1, 0, 2};
  });
  add("dilation_2_3_1_packed", [](Case& c) {
    c.input = {2, 2, 6, 9, 5}, c.weight = {5, 2, 2, 3, 2}, c.dilation = {2, 3, 1}, c.padding = {0, 2, 1};
    c.prep = Prep::kPacked;
  });
  add("pointwise_kernel", [](Case& c) { c.weight = {6, 3, 1, 1, 1}, c.padding = {0, 0, 0}; });
  add("kernel_covers_padded_input", [](Case& c) {
    c.input = {1, 4, 2, 3, 3}, c.weight = {2, 4, 4, 5, 5}, c.padding = {1, 1, 1}, c.outDtype = ACL_FLOAT16,
    c.biasDtype = ACL_FLOAT16;
  });
  // N1 = 3 and C1 = 2: the blocks past the first, and their padding.
  add("n1_3_c1_2_format_cast", [](Case& c) { c.input = {1, 40, 3, 4, 4}, c.weight = {33, 40, 2, 2, 2}; });
  add("n1_3_c1_2_packed", [](Case& c) {
    c.input = {1, 40, 3, 4, 4}, c.weight = {33, 40, 2, 2, 2}, c.prep = Prep::kPacked;
  });
  add("exact_blocks_packed", [](Case& c) {
    c.input = {1, 64, 2, 3, 3}, c.weight = {32, 64, 1, 2, 2}, c.prep = Prep::kPacked;
  });
  add("input_stepped", [](Case& c) { c.inputView = View::kStepped; });
  add("input_transposed", [](Case& c) { c.inputView = View::kTransposed, c.outDtype = ACL_FLOAT16; });
  add("scale_broadcast_bias_stepped",
      [](Case& c) { c.scaleView = View::kBroadcast, c.biasView = View::kStepped, c.biasDtype = ACL_BF16; });
  add("scale_offset_bias_reversed", [](Case& c) { c.scaleView = View::kOffset, c.biasView = View::kReversed; });
  add("out_stepped", [](Case& c) { c.outView = View::kStepped; });
  add("out_transposed", [](Case& c) { c.outView = View::kTransposed, c.outDtype = ACL_FLOAT16; });
  // The doc's example program: [2,2,32,32,32] (*) [2,2,3,3,3], padding 1, outputPadding {1,1,1}, BF16 out.
  add("doc_example", [](Case& c) {
    c.input = {2, 2, 32, 32, 32}, c.weight = {2, 2, 3, 3, 3}, c.padding = {1, 1, 1}, c.outputPadding = true;
  });
  return cases;
}

class QuantConvolutionWeightNzTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantConvolutionWeightNzTest, MatchesFloat64Reference) { RunAndCheck(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionWeightNzTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// A second call with new values in new buffers (a plan-cache hit) computes them.
TEST(QuantConvolutionWeightNzCache, RepeatedCallUsesNewBuffers) {
  Case c;
  c.name = "repeat";
  RunAndCheck(c);
  c.prep = Prep::kPacked;
  RunAndCheck(c);
}

// The same operands through QuantConvolution (NCDHW weight) and WeightNz
// (that weight cast to FRACTAL_Z_3D) give the same bytes.
TEST(QuantConvolutionWeightNzMatchesPlainForm, SameBytes) {
  TestStream();  // acl initialised before the first allocation
  Rng rng = Rng::ForCurrentTest();
  const Shape inShape = {2, 35, 3, 5, 4}, wShape = {18, 35, 2, 3, 2}, outShape = {2, 18, 4, 3, 4};
  const Values x = RandomValues(rng, ACL_INT8, NumElements(inShape), Range{-128, 127});
  const Values w = RandomValues(rng, ACL_INT8, NumElements(wShape), Range{-128, 127});
  const Values s = RandomValues(rng, ACL_FLOAT, wShape[0], Range{-0.01, 0.01, 0.001});
  const Values b = RandomValues(rng, ACL_FLOAT16, wShape[0], Range{-8, 8});
  auto input = Upload(ACL_INT8, inShape, x), weight = Upload(ACL_INT8, wShape, w);
  auto scale = Upload(ACL_FLOAT, {wShape[0]}, s), bias = Upload(ACL_FLOAT16, {wShape[0]}, b);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  const std::unique_ptr<DeviceTensor> nz = CastToNz(*weight, &format);
  ASSERT_NE(nz, nullptr);
  auto plainOut = Poisoned(ACL_FLOAT16, outShape), nzOut = Poisoned(ACL_FLOAT16, outShape);
  const std::vector<int64_t> stride = {1, 2, 1}, padding = {1, 1, 1}, dilation = {1, 1, 2};
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionGetWorkspaceSize(
            a.Tensor(*input, ACL_FORMAT_NCDHW), a.Tensor(*weight, ACL_FORMAT_NCDHW), a.Tensor(*bias), a.Tensor(*scale),
            nullptr, a.IntArray(stride), a.IntArray(padding), a.IntArray(dilation), false, nullptr, 1, 0, nullptr,
            a.Tensor(*plainOut, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolution);
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionWeightNzGetWorkspaceSize(
            a.Tensor(*input, ACL_FORMAT_NCDHW), a.Tensor(*nz, format), a.Tensor(*bias), a.Tensor(*scale), nullptr,
            a.IntArray(stride), a.IntArray(padding), a.IntArray(dilation), false, nullptr, 1, 0, nullptr,
            a.Tensor(*nzOut, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolutionWeightNz);
  EXPECT_EQ(nzOut->DownloadBytes(), plainOut->DownloadBytes());
}

// The reserved arguments are not read on A2: transposed true, an offset tensor,
// offsetx out of [-128, 127] and any roundMode run the same convolution.
TEST(QuantConvolutionWeightNzReserved, IgnoredAsOnAtlasA2) {
  TestStream();
  const Shape weight = {3, 2, 1, 3, 3};
  auto nz = std::make_shared<DeviceTensor>(ACL_INT8, NzLayout(weight, NzStorage(weight)));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionWeightNzGetWorkspaceSize(
            a.NewTensor(ACL_INT8, {1, 2, 3, 4, 4}, View::kContiguous, ACL_FORMAT_NCDHW),
            a.Tensor(*nz, ACL_FRACTAL_Z_3D), a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, {3}),
            a.NewTensor(ACL_FLOAT, {3}), a.IntArray({1, 1, 1}), a.IntArray({0, 0, 0}), a.IntArray({1, 1, 1}), true,
            a.IntArray({7}), 1, 300, "floor",
            a.NewTensor(ACL_BF16, {1, 3, 3, 2, 2}, View::kContiguous, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolutionWeightNz);
}

// ---- Rejections -------------------------------------------------------------------------------

struct Call {
  Shape input = {1, 2, 3, 4, 4}, weight = {3, 2, 1, 3, 3}, bias = {3}, scale = {3}, out = {1, 3, 3, 2, 2};
  Shape weightStorage = {9, 1, 16, 32};  // FRACTAL_Z_3D of the weight
  aclDataType inputDtype = ACL_INT8, weightDtype = ACL_INT8, biasDtype = ACL_FLOAT, scaleDtype = ACL_FLOAT;
  aclDataType outDtype = ACL_BF16;
  aclFormat inputFormat = ACL_FORMAT_NCDHW, weightFormat = ACL_FRACTAL_Z_3D, outFormat = ACL_FORMAT_NCDHW;
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
    // The weight's view over its storage shape (phase 1 reads no data).
    const DeviceTensor weight(c.weightDtype, NzLayout(c.weight, c.weightStorage));
    return aclnnQuantConvolutionWeightNzGetWorkspaceSize(
        tensor(0, c.inputDtype, c.input, c.inputFormat), c.nullArg == 1 ? nullptr : a.Tensor(weight, c.weightFormat),
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
    r.push_back({std::move(name), Phase1Of(c), aclnnQuantConvolutionWeightNz, std::move(keyword), expected});
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
      "scale_bf16", [](Call& c) { c.scaleDtype = ACL_BF16; }, "scale");
  add(
      "input_float", [](Call& c) { c.inputDtype = ACL_FLOAT; }, "input");
  add(
      "weight_uint8", [](Call& c) { c.weightDtype = ACL_UINT8; }, "weight");
  add(
      "output_float", [](Call& c) { c.outDtype = ACL_FLOAT; }, "output");
  add(
      "bias_int32", [](Call& c) { c.biasDtype = ACL_INT32; }, "bias");
  add(
      "bias_f16_out_bf16", [](Call& c) { c.biasDtype = ACL_FLOAT16; }, "bias");
  // Ranks and attribute lengths: the weight's rank is its view's (the NCDHW weight's).
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
        c.input = {1, 2, 4, 4}, c.out = {1, 3, 2, 2}, c.inputFormat = c.outFormat = ACL_FORMAT_NCHW;
      },
      "input");
  add(
      "weight_view_is_storage", [](Call& c) { c.weight = c.weightStorage; }, "weight");
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
  // Formats: the weight's must be FRACTAL_Z_3D.
  add(
      "bias_nchw", [](Call& c) { c.biasFormat = ACL_FORMAT_NCHW; }, "bias");
  add(
      "scale_nchw", [](Call& c) { c.scaleFormat = ACL_FORMAT_NCHW; }, "scale");
  add(
      "input_ndhwc", [](Call& c) { c.inputFormat = ACL_FORMAT_NDHWC; }, "input");
  add(
      "input_fractal_z_3d", [](Call& c) { c.inputFormat = ACL_FRACTAL_Z_3D; }, "input");
  add(
      "weight_ncdhw", [](Call& c) { c.weightFormat = ACL_FORMAT_NCDHW, c.weightStorage = c.weight; }, "weight");
  add(
      "weight_fractal_z", [](Call& c) { c.weightFormat = ACL_FORMAT_FRACTAL_Z; }, "weight");
  add(
      "weight_fractal_nz", [](Call& c) { c.weightFormat = ACL_FORMAT_FRACTAL_NZ; }, "weight");
  add(
      "weight_nd", [](Call& c) { c.weightFormat = ACL_FORMAT_ND; }, "weight");
  add(
      "output_nd", [](Call& c) { c.outFormat = ACL_FORMAT_ND; }, "output");
  // Values, the weight's storage shape among them.
  add(
      "empty_batch",
      [](Call& c) {
        c.input = {0, 2, 3, 4, 4}, c.out = {0, 3, 3, 2, 2};
      },
      "input");
  add(
      "empty_weight",
      [](Call& c) {
        c.weight = {0, 2, 1, 3, 3}, c.weightStorage = {9, 0, 16, 32}, c.bias = c.scale = {0}, c.out = {1, 0, 3, 2, 2};
      },
      "weight");
  add(
      "storage_c0_16",
      [](Call& c) {
        c.weightStorage = {9, 1, 16, 16};
      },
      "storage");
  add(
      "storage_n1_2",
      [](Call& c) {
        c.weightStorage = {9, 2, 16, 32};
      },
      "storage");
  add(
      "storage_rows_without_d",
      [](Call& c) {
        c.weight = {3, 2, 2, 3, 3}, c.out = {1, 3, 2, 2, 2};
      },
      "storage");
  add(
      "storage_rank5",
      [](Call& c) {
        c.weightStorage = {1, 9, 1, 16, 32};
      },
      "storage");
  add(
      "storage_zero_dim",
      [](Call& c) {
        c.weightStorage = {9, 0, 16, 32};
      },
      "storage");
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
      "channels_mismatch",
      [](Call& c) {
        c.input = {1, 3, 3, 4, 4};
      },
      "channels");
  add(
      "kernel_larger_than_padded_input",
      [](Call& c) {
        c.weight = {3, 2, 1, 5, 3}, c.weightStorage = {15, 1, 16, 32}, c.stride = {1, 2, 1}, c.out = {1, 3, 3, 1, 2};
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

class QuantConvolutionWeightNzRejectionTest : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(QuantConvolutionWeightNzRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionWeightNzRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
