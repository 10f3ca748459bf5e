// What the QuantConvolution and QuantConvolutionWeightNz suites share: the two
// entry points differ only in how the weight is handed over (an NCDHW tensor,
// or the NCDHW view over its FRACTAL_Z_3D storage), so one float64 reference,
// one run-and-compare helper and one table of the rejections both make serve
// both forms; each suite adds its own cases.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_quant_convolution.h"
#include "op_test_support.h"

namespace canopy_test::quant_conv {

// Which entry point a call goes through.
enum class Form { kPlain, kWeightNz };

using GetWorkspaceSize = decltype(&aclnnQuantConvolutionGetWorkspaceSize);

inline GetWorkspaceSize GetWorkspaceSizeOf(Form form) {
  return form == Form::kPlain ? aclnnQuantConvolutionGetWorkspaceSize : aclnnQuantConvolutionWeightNzGetWorkspaceSize;
}
inline Phase2 Phase2Of(Form form) {
  return form == Form::kPlain ? aclnnQuantConvolution : aclnnQuantConvolutionWeightNz;
}
// The weight's format each form takes.
inline aclFormat WeightFormatOf(Form form) { return form == Form::kPlain ? ACL_FORMAT_NCDHW : ACL_FRACTAL_Z_3D; }

constexpr int64_t kC0 = 32, kN0 = 16;  // FRACTAL_Z_3D of INT8

inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// [D * C1 * H * W, N1, N0, C0] of an NCDHW weight.
inline Shape NzStorage(const Shape& w) {
  return {w[2] * CeilDiv(w[1], kC0) * w[3] * w[4], CeilDiv(w[0], kN0), kN0, kC0};
}

// The contiguous `view` over `storage`.
inline Layout NzLayout(const Shape& view, const Shape& storage) {
  Layout layout;
  layout.shape = view;
  layout.strides = ContiguousStrides(view);
  layout.storageShape = storage;
  return layout;
}

// One convolution of a suite's cases; the suites extend it with how they make the weight.
struct CaseBase {
  std::string name;
  Shape input = {2, 3, 4, 5, 6}, weight = {4, 3, 2, 3, 3};
  std::vector<int64_t> stride = {1, 1, 1}, padding = {0, 1, 1}, dilation = {1, 1, 1};
  aclDataType outDtype = ACL_BF16, biasDtype = ACL_FLOAT;
  View inputView = View::kContiguous, scaleView = View::kContiguous, biasView = View::kContiguous;
  View outView = View::kContiguous;
  bool outputPadding = false;  // the doc's example passes {1, 1, 1} with transposed false
};

// The output and bias dtypes A2 takes.
struct OutputDtypes {
  const char* name;
  aclDataType out, bias;
};
inline constexpr OutputDtypes kOutputDtypes[] = {{"bf16_f32bias", ACL_BF16, ACL_FLOAT},
                                                 {"bf16_bf16bias", ACL_BF16, ACL_BF16},
                                                 {"f16_f32bias", ACL_FLOAT16, ACL_FLOAT},
                                                 {"f16_f16bias", ACL_FLOAT16, ACL_FLOAT16}};

// A suite's cases, each the default one edited.
template <class Case>
class CaseList {
 public:
  void Add(std::string name, const std::function<void(Case&)>& edit) {
    Case c;
    c.name = std::move(name);
    edit(c);
    cases_.push_back(c);
  }

  // The cases both suites run under the same names: geometry and the views of
  // the operands other than the weight, and the doc's example call.
  void AddShared() {
    Add("stride_2_1_3", [](Case& c) {
      c.input = {1, 2, 7, 8, 9}, c.weight = {3, 2, 3, 2, 3}, c.stride = {2, 1, 3}, c.padding = {1, 0, 2};
    });
    Add("pointwise_kernel", [](Case& c) { c.weight = {6, 3, 1, 1, 1}, c.padding = {0, 0, 0}; });
    Add("kernel_covers_padded_input", [](Case& c) {
      c.input = {1, 4, 2, 3, 3}, c.weight = {2, 4, 4, 5, 5}, c.padding = {1, 1, 1}, c.outDtype = ACL_FLOAT16,
      c.biasDtype = ACL_FLOAT16;
    });
    Add("input_stepped", [](Case& c) { c.inputView = View::kStepped; });
    Add("input_transposed", [](Case& c) { c.inputView = View::kTransposed, c.outDtype = ACL_FLOAT16; });
    Add("scale_broadcast_bias_stepped",
        [](Case& c) { c.scaleView = View::kBroadcast, c.biasView = View::kStepped, c.biasDtype = ACL_BF16; });
    Add("out_stepped", [](Case& c) { c.outView = View::kStepped; });
    Add("out_transposed", [](Case& c) { c.outView = View::kTransposed, c.outDtype = ACL_FLOAT16; });
    // The doc's example program: [2,2,32,32,32] (*) [2,2,3,3,3], padding 1, outputPadding {1,1,1}, BF16 out.
    Add("doc_example", [](Case& c) {
      c.input = {2, 2, 32, 32, 32}, c.weight = {2, 2, 3, 3, 3}, c.padding = {1, 1, 1}, c.outputPadding = true;
    });
  }

  const std::vector<Case>& cases() const { return cases_; }

 private:
  std::vector<Case> cases_;
};

inline Shape OutShape(const CaseBase& c) {
  Shape out = {c.input[0], c.weight[0]};
  for (size_t d = 0; d < 3; ++d) {
    const int64_t extent = c.dilation[d] * (c.weight[2 + d] - 1) + 1;
    out.push_back((c.input[2 + d] + 2 * c.padding[d] - extent) / c.stride[d] + 1);
  }
  return out;
}

// out[n, o, p] = scale[o] * sum x * w + bias[o], with its tolerance: the exact
// INT8 sum (f32 holds it, |sum| < 2^24), scaled and biased in f32, rounded once
// to the output. `w` is the NCDHW weight, row-major.
inline Expected Reference(const CaseBase& c, const Values& x, const Values& w, const Values& scale,
                          const Values& bias) {
  const Shape out = OutShape(c);
  const Shape inSpace(c.input.begin() + 2, c.input.end());
  const Shape kernel(c.weight.begin() + 2, c.weight.end());
  const int64_t channels = c.input[1], taps = NumElements(kernel);
  Expected want;
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
    want.values.emplace_back(scaled + b);
    want.tolerance.push_back(4.0 * UnitRoundoff(ACL_FLOAT) * (std::abs(scaled) + std::abs(b)) +
                             UnitRoundoff(c.outDtype) * std::abs(scaled + b) + 1e-30);
  }
  return want;
}

// A form's weight operand: the tensor handed over (nullptr when making it
// failed, with the failure reported) and the NCDHW values it holds, row-major.
struct Weight {
  std::unique_ptr<DeviceTensor> tensor;
  Values values;
};
using MakeWeight = std::function<Weight(Rng& rng)>;

// Runs case `c` through `form` on fresh INT8 data of the whole range, the
// weight from `makeWeight`, and compares with the float64 reference; the
// output outside its view and the weight's storage stay as they were.
inline void RunAndCheck(const CaseBase& c, Form form, const MakeWeight& makeWeight) {
  TestStream();  // acl initialised before the first allocation
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor input(ACL_INT8, c.input, c.inputView);
  DeviceTensor scale(ACL_FLOAT, {c.weight[0]}, c.scaleView), bias(c.biasDtype, {c.weight[0]}, c.biasView);
  DeviceTensor out(c.outDtype, OutShape(c), c.outView);
  const Values x = input.FillRandom(rng, Range{-128, 127});
  const Weight weight = makeWeight(rng);
  ASSERT_NE(weight.tensor, nullptr);
  const Values s = scale.FillRandom(rng, Range{-0.002, 0.002, 0.0002});
  const Values b = bias.FillRandom(rng, Range{-4, 4});
  const Values storageBefore = weight.tensor->DownloadStorage();
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return GetWorkspaceSizeOf(form)(
            a.Tensor(input, ACL_FORMAT_NCDHW), a.Tensor(*weight.tensor, WeightFormatOf(form)), a.Tensor(bias),
            a.Tensor(scale), nullptr, a.IntArray(c.stride), a.IntArray(c.padding), a.IntArray(c.dilation), false,
            c.outputPadding ? a.IntArray({1, 1, 1}) : nullptr, 1, 0, nullptr, a.Tensor(out, ACL_FORMAT_NCDHW), ws, ex);
      },
      Phase2Of(form));
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), Reference(c, x, weight.values, s, b), c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
  ExpectExact(weight.tensor->DownloadStorage(), storageBefore, c.name + " weight storage");
}

// The reserved arguments are not read on A2: transposed true, an offset tensor,
// offsetx out of [-128, 127] and any roundMode run the same convolution.
inline void ExpectReservedIgnored(Form form) {
  TestStream();  // acl initialised before the first allocation
  const Shape weight = {3, 2, 1, 3, 3};
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return GetWorkspaceSizeOf(form)(
            a.NewTensor(ACL_INT8, {1, 2, 3, 4, 4}, View::kContiguous, ACL_FORMAT_NCDHW),
            form == Form::kPlain ? a.NewTensor(ACL_INT8, weight, View::kContiguous, ACL_FORMAT_NCDHW)
                                 : a.NewFractalZ3dTensor(ACL_INT8, weight),
            a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, {3}),
            a.IntArray({1, 1, 1}), a.IntArray({0, 0, 0}), a.IntArray({1, 1, 1}), true, a.IntArray({7}), 1, 300, "floor",
            a.NewTensor(ACL_BF16, {1, 3, 3, 2, 2}, View::kContiguous, ACL_FORMAT_NCDHW), ws, ex);
      },
      Phase2Of(form));
}

// ---- Rejections -------------------------------------------------------------------------------

// A phase-1 call: a valid one unless a case edits it.
struct Call {
  Shape input = {1, 2, 3, 4, 4}, weight = {3, 2, 1, 3, 3}, bias = {3}, scale = {3}, out = {1, 3, 3, 2, 2};
  // WeightNz: the storage shape under the weight's view, NzStorage(weight) unless set.
  std::optional<Shape> weightStorage;
  aclDataType inputDtype = ACL_INT8, weightDtype = ACL_INT8, biasDtype = ACL_FLOAT, scaleDtype = ACL_FLOAT;
  aclDataType outDtype = ACL_BF16;
  aclFormat inputFormat = ACL_FORMAT_NCDHW, weightFormat, outFormat = ACL_FORMAT_NCDHW;
  aclFormat biasFormat = ACL_FORMAT_ND, scaleFormat = ACL_FORMAT_ND;
  std::vector<int64_t> stride = {1, 1, 1}, padding = {0, 0, 0}, dilation = {1, 1, 1};
  int64_t groups = 1;
  int nullArg = -1;  // 0 input, 1 weight, 2 bias, 3 scale, 5 stride, 6 padding, 7 dilation, 13 output

  explicit Call(Form form) : weightFormat(WeightFormatOf(form)) {}
};

// Phase 1 of `c` through `form`: the plain form's weight a contiguous tensor,
// WeightNz's the weight's view over its storage (phase 1 reads no data).
inline Phase1 Phase1Of(const Call& c, Form form) {
  return [c, form](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
    const auto tensor = [&](int arg, aclDataType dtype, const Shape& shape, aclFormat format) {
      return arg == c.nullArg ? nullptr : a.NewTensor(dtype, shape, View::kContiguous, format);
    };
    const auto array = [&](int arg, const std::vector<int64_t>& values) {
      return arg == c.nullArg ? nullptr : a.IntArray(values);
    };
    std::optional<DeviceTensor> nz;
    aclTensor* weight = nullptr;
    if (form == Form::kPlain) {
      weight = tensor(1, c.weightDtype, c.weight, c.weightFormat);
    } else if (c.nullArg != 1) {
      // (NzStorage only when no storage is set: a case's weight may not be rank 5.)
      nz.emplace(c.weightDtype, NzLayout(c.weight, c.weightStorage ? *c.weightStorage : NzStorage(c.weight)));
      weight = a.Tensor(*nz, c.weightFormat);
    }
    return GetWorkspaceSizeOf(form)(
        tensor(0, c.inputDtype, c.input, c.inputFormat), weight, tensor(2, c.biasDtype, c.bias, c.biasFormat),
        tensor(3, c.scaleDtype, c.scale, c.scaleFormat), nullptr, array(5, c.stride), array(6, c.padding),
        array(7, c.dilation), false, nullptr, c.groups, 0, nullptr, tensor(13, c.outDtype, c.out, c.outFormat), ws, ex);
  };
}

// A form's rejection cases: Add(name, keyword, edit of the valid call[, code]).
class Rejections {
 public:
  explicit Rejections(Form form) : form_(form) {}

  void Add(std::string name, std::string keyword, const std::function<void(Call&)>& edit,
           aclnnStatus expected = ACLNN_ERR_PARAM_INVALID) {
    Call c(form_);
    edit(c);
    cases_.push_back({std::move(name), Phase1Of(c, form_), Phase2Of(form_), std::move(keyword), expected});
  }

  // The rejections both forms make, with the same codes.
  void AddShared() {
    const struct {
      int arg;
      const char* name;
    } pointers[] = {{0, "input"},  {1, "weight"},  {2, "bias"},   {3, "scale"},
                    {5, "stride"}, {6, "padding"}, {13, "output"}};
    for (const auto& p : pointers) {
      Add(
          std::string("null_") + p.name, p.name, [&p](Call& c) { c.nullArg = p.arg; }, ACLNN_ERR_PARAM_NULLPTR);
    }
    Add("null_dilation", "dilation", [](Call& c) { c.nullArg = 7; });
    // Dtypes: scale FLOAT only on A2, then the (input, weight, output, bias) combinations.
    Add("scale_int64", "scale", [](Call& c) { c.scaleDtype = ACL_INT64; });
    Add("scale_bf16", "scale", [](Call& c) { c.scaleDtype = ACL_BF16; });
    Add("input_float", "input", [](Call& c) { c.inputDtype = ACL_FLOAT; });
    Add("weight_uint8", "weight", [](Call& c) { c.weightDtype = ACL_UINT8; });
    Add("output_float", "output", [](Call& c) { c.outDtype = ACL_FLOAT; });
    Add("bias_int32", "bias", [](Call& c) { c.biasDtype = ACL_INT32; });
    Add("bias_f16_out_bf16", "bias", [](Call& c) { c.biasDtype = ACL_FLOAT16; });
    // Ranks and attribute lengths.
    Add("scale_rank2", "scale", [](Call& c) { c.scale = {3, 1}; });
    Add("bias_rank0", "bias", [](Call& c) { c.bias = {}; });
    Add("output_rank4", "output", [](Call& c) { c.out = {1, 3, 3, 2}, c.outFormat = ACL_FORMAT_NCHW; });
    Add("stride_length2", "stride", [](Call& c) { c.stride = {1, 1}; });
    Add("dilation_length4", "dilation", [](Call& c) { c.dilation = {1, 1, 1, 1}; });
    Add("padding_length6", "padding", [](Call& c) { c.padding = {0, 0, 0, 0, 0, 0}; });
    // Formats.
    Add("scale_nchw", "scale", [](Call& c) { c.scaleFormat = ACL_FORMAT_NCHW; });
    Add("input_ndhwc", "input", [](Call& c) { c.inputFormat = ACL_FORMAT_NDHWC; });
    Add("weight_nd", "weight", [](Call& c) { c.weightFormat = ACL_FORMAT_ND; });
    Add("output_nd", "output", [](Call& c) { c.outFormat = ACL_FORMAT_ND; });
    // Values.
    Add("empty_batch", "input", [](Call& c) { c.input = {0, 2, 3, 4, 4}, c.out = {0, 3, 3, 2, 2}; });
    Add("empty_weight", "weight", [](Call& c) {
      c.weight = {0, 2, 1, 3, 3}, c.bias = c.scale = {0}, c.out = {1, 0, 3, 2, 2};
    });
    Add("bias_extent", "bias", [](Call& c) { c.bias = {4}; });
    Add("scale_extent", "scale", [](Call& c) { c.scale = {2}; });
    Add("stride_0", "stride", [](Call& c) { c.stride = {1, 0, 1}; });
    Add("dilation_0", "dilation", [](Call& c) { c.dilation = {0, 1, 1}; });
    Add("padding_negative", "padding", [](Call& c) { c.padding = {0, -1, 0}, c.out = {1, 3, 3, 0, 0}; });
    Add("groups_2", "groups", [](Call& c) { c.groups = 2; });
    Add("kernel_larger_than_padded_input", "kernel", [](Call& c) {
      c.weight = {3, 2, 1, 5, 3}, c.stride = {1, 2, 1};  // (4 - 5) / 2 + 1 would be 1
      c.out = {1, 3, 3, 1, 2};
    });
    Add("output_shape", "output", [](Call& c) { c.out = {1, 3, 3, 2, 3}; });
    Add("output_channels", "output", [](Call& c) { c.out = {1, 4, 3, 2, 2}; });
  }

  const std::vector<RejectionCase>& cases() const { return cases_; }

 private:
  Form form_;
  std::vector<RejectionCase> cases_;
};

}  // namespace canopy_test::quant_conv
