// aclnnConvolution: 1-D, 2-D and 3-D convolution, plain or transposed, with
// groups, stride, padding, dilation and output padding, through oneDNN's
// convolution and deconvolution primitives (kernels/onednn_step.h); and the
// ops of the same header planned on it, ConvDepthwise2d and ConvTbc.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "canopy/canopy_runtime.h"
#include "convolution.h"
#include "kernels/onednn_step.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kConvDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kConvTraits{.header = "aclnnop/aclnn_convolution.h", .dtypes = kConvDtypes, .max_rank = 5};
constexpr int64_t kMinRank = 3, kMaxRank = 5;
constexpr int64_t kMaxGroups = 65535;
constexpr int8_t kKeepDtype = 0, kUseFp16 = 2, kUseHf32 = 3;

// The spatial geometry of one call, per spatial dimension.
struct Geometry {
  size_t spatial = 0;
  std::vector<int64_t> stride, dilation, pad_front, pad_back, output_padding, out;
};

// Padding as the doc allows it: one value per spatial dim (both sides), or for
// 1-D (non-transposed) {left, right} and for 2-D {top, bottom, left, right}.
aclnnStatus ReadPadding(Plan& plan, const aclIntArray* padding, bool transposed, Geometry& g) {
  std::vector<size_t> lengths = {g.spatial};
  if (g.spatial == 1 && !transposed) lengths.push_back(2);
  if (g.spatial == 2) lengths.push_back(4);
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, lengths, 0));
  const std::vector<int64_t>& p = padding->values;
  for (size_t d = 0; d < g.spatial; ++d) {
    const bool two_sided = p.size() == 2 * g.spatial;
    g.pad_front.push_back(two_sided ? p[2 * d] : p[d]);
    g.pad_back.push_back(two_sided ? p[2 * d + 1] : p[d]);
  }
  return ACLNN_SUCCESS;
}

// The ranges CANN's doc gives stride, padding and dilation on Atlas A2 / A3,
// by scenario; "H, W" are conv3d's last two axes and every axis of conv1d and
// conv2d. Strides of conv3d's H, W: [1, 63]. Padding: [0, 255] on every axis
// of a forward conv1d / conv2d and on conv3d's H, W. Dilation: [1, 255] on
// every axis of a transposed convolution and on a forward conv3d's H, W.
aclnnStatus CheckA2Ranges(Plan& plan, const Geometry& g, bool transposed) {
  const bool conv3d = g.spatial == 3;
  for (size_t d = 0; d < g.spatial; ++d) {
    const bool hw = !conv3d || d > 0;
    struct Range {
      const char* name;
      int64_t value, low, high;
      bool bounded;
    };
    const Range ranges[] = {
        {"stride", g.stride[d], 1, 63, conv3d && hw},
        {"padding", g.pad_front[d], 0, 255, hw && (conv3d || !transposed)},
        {"padding", g.pad_back[d], 0, 255, hw && (conv3d || !transposed)},
        {"dilation", g.dilation[d], 1, 255, transposed || (conv3d && hw)},
    };
    for (const Range& r : ranges) {
      if (r.bounded && r.value > r.high) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "%s on spatial dim %zu is %lld; it must be in [%lld, %lld] for a %s%s", r.name, d,
                           static_cast<long long>(r.value), static_cast<long long>(r.low),
                           static_cast<long long>(r.high), transposed ? "transposed " : "",
                           conv3d           ? "conv3d"
                           : g.spatial == 2 ? "conv2d"
                                            : "conv1d");
      }
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckGeometry(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclIntArray* stride,
                          const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
                          const aclIntArray* output_padding, Geometry& g) {
  g.spatial = static_cast<size_t>(input->rank() - 2);
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {g.spatial}, 1));
  CANOPY_CHECK(ReadPadding(plan, padding, transposed, g));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {g.spatial}, 1));
  g.stride = stride->values;
  g.dilation = dilation->values;
  g.output_padding.assign(g.spatial, 0);
  if (transposed) {  // ignored otherwise (and may be null), as the doc and CANN's null check say
    CANOPY_CHECK(plan.CheckNotNull("outputPadding", output_padding));
    CANOPY_CHECK(CheckIntArray(plan, "outputPadding", output_padding, {g.spatial}, 0));
    for (size_t d = 0; d < g.spatial; ++d) {
      const int64_t value = output_padding->values[d];
      if (value >= g.stride[d] && value >= g.dilation[d]) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "outputPadding[%zu] is %lld; it must be smaller than stride (%lld) or dilation (%lld)", d,
                           static_cast<long long>(value), static_cast<long long>(g.stride[d]),
                           static_cast<long long>(g.dilation[d]));
      }
      g.output_padding[d] = value;
    }
  }
  CANOPY_CHECK(CheckA2Ranges(plan, g, transposed));
  // In 128 bits: the axes the ranges leave unbounded (conv3d's D, transposed
  // padding, forward dilation) can take any int64, and an output extent past
  // int64 either way is refused rather than wrapped (a transposed padding of
  // INT64_MAX made 9 - 2^64, which wrapped to 9).
  constexpr __int128 kMaxExtent = std::numeric_limits<int64_t>::max();
  for (size_t d = 0; d < g.spatial; ++d) {
    const __int128 in = input->view_shape[2 + d];
    const __int128 extent = __int128{g.dilation[d]} * (weight->view_shape[2 + d] - 1) + 1;  // the dilated kernel
    const __int128 padded = in + g.pad_front[d] + g.pad_back[d];
    const __int128 out = transposed
                             ? (in - 1) * g.stride[d] - g.pad_front[d] - g.pad_back[d] + extent + g.output_padding[d]
                         : padded < extent ? -1
                                           : (padded - extent) / g.stride[d] + 1;
    if (!transposed && padded < extent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "input spatial dim %zu is %lld after padding, smaller than the dilated kernel (%lld)", d,
                         static_cast<long long>(std::min(padded, kMaxExtent)),
                         static_cast<long long>(std::min(extent, kMaxExtent)));
    }
    if (extent > kMaxExtent || padded > kMaxExtent || out > kMaxExtent || out < -kMaxExtent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "spatial dim %zu: the dilated kernel, the padded input or the output extent is past int64", d);
    }
    g.out.push_back(static_cast<int64_t>(out));
  }
  return ACLNN_SUCCESS;
}

// Channels: groups divide them, and the weight's channel dims match the input.
aclnnStatus CheckChannels(Plan& plan, const aclTensor* input, const aclTensor* weight, bool transposed,
                          int64_t groups) {
  if (groups < 1 || groups > kMaxGroups) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groups is %lld; it must be in [1, %lld]",
                       static_cast<long long>(groups), static_cast<long long>(kMaxGroups));
  }
  const int64_t in_channels = input->view_shape[1];
  const int64_t w0 = weight->view_shape[0], w1 = weight->view_shape[1];
  // Plain: weight is [Cout, Cin / groups, k...]; transposed: [Cin, Cout / groups, k...].
  const bool matches = transposed ? in_channels == w0 : in_channels == groups * w1;
  if (!matches || w0 % groups != 0) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID,
        "input has %lld channels and weight is %s with groups %lld; %s and weight.shape[0] divisible "
        "by groups",
        static_cast<long long>(in_channels), ShapeToString(weight->view_shape).c_str(), static_cast<long long>(groups),
        transposed ? "transposed needs input C == weight.shape[0]" : "it needs input C == groups * weight.shape[1]");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckCubeMathType(Plan& plan, int8_t cube_math_type, aclDataType promoted) {
  if (cube_math_type < kKeepDtype || cube_math_type > kUseHf32) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "cubeMathType %d is not one of 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), "
                       "3 (USE_HF32)",
                       static_cast<int>(cube_math_type));
  }
  if (cube_math_type == kUseFp16 && promoted == ACL_BF16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "cubeMathType 2 (USE_FP16) does not take BFLOAT16 operands");
  }
  return ACLNN_SUCCESS;
}

// oneDNN's weight dims: [G, OC/G, IC/G, k...] with groups, else [OC, IC, k...],
// as a view of CANN's weight ([OC, IC/G, k...], transposed [IC, OC/G, k...]).
void WeightView(const TensorRef& w, bool transposed, int64_t groups, Shape& dims, Shape& strides) {
  const Shape& s = w.shape;
  const Shape& st = w.strides;
  dims.clear();
  strides.clear();
  if (groups > 1) {
    dims.push_back(groups);
    strides.push_back(st[0] * (s[0] / groups));
  }
  const int64_t outer = groups > 1 ? s[0] / groups : s[0];
  if (transposed) {
    dims.insert(dims.end(), {s[1], outer});
    strides.insert(strides.end(), {st[1], st[0]});
  } else {
    dims.insert(dims.end(), {outer, s[1]});
    strides.insert(strides.end(), {st[0], st[1]});
  }
  dims.insert(dims.end(), s.begin() + 2, s.end());
  strides.insert(strides.end(), st.begin() + 2, st.end());
}

dnnl::memory::desc AnyLayout(aclDataType dtype, const Shape& dims) {
  return dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()), kernels::OnednnType(dtype),
                            dnnl::memory::format_tag::any);
}

// The oneDNN step for x (*) w -> y in `engine` dtype (x and y already in it,
// w in any float dtype, the bias in f32), or null with `reason`.
std::unique_ptr<Step> ConvStep(Plan& plan, const TensorRef& x, const TensorRef& w, const TensorRef* b,
                               const TensorRef& y, bool transposed, int64_t groups, const Geometry& g,
                               aclDataType engine, std::string& reason) {
  Shape w_dims, w_strides;
  WeightView(w, transposed, groups, w_dims, w_strides);
  dnnl::memory::dims strides, dilates, pad_l, pad_r;
  for (size_t d = 0; d < g.spatial; ++d) {
    strides.push_back(g.stride[d]);
    dilates.push_back(g.dilation[d] - 1);  // oneDNN counts the gaps
    pad_l.push_back(g.pad_front[d]);
    // Output padding extends the far side of a transposed output: oneDNN sees it
    // as less padding there (never below 0: the caller narrows y instead).
    pad_r.push_back(std::max<int64_t>(g.pad_back[d] - g.output_padding[d], 0));
  }
  const auto src = AnyLayout(engine, x.shape), weights = AnyLayout(engine, w_dims), dst = AnyLayout(engine, y.shape);
  const dnnl::memory::desc bias = b ? kernels::OnednnViewDesc(b->dtype, b->shape, b->strides) : dnnl::memory::desc();
  std::vector<kernels::OnednnArgument> arguments = {
      {DNNL_ARG_SRC, x.buffer, kernels::OnednnViewDesc(x.dtype, x.shape, x.strides)},
      // Weights are usually constant: the step keeps them in the primitive's
      // layout (and dtype) while their bytes stay the same.
      {DNNL_ARG_WEIGHTS, w.buffer, kernels::OnednnViewDesc(w.dtype, w_dims, w_strides), false, true},
      {DNNL_ARG_DST, y.buffer, kernels::OnednnViewDesc(y.dtype, y.shape, y.strides), true}};
  if (b) arguments.push_back({DNNL_ARG_BIAS, b->buffer, bias});
  const auto book = [&plan](int64_t bytes) { return plan.Temporary(ACL_UINT8, {bytes}).buffer; };
  std::string what = std::string(transposed ? "transposed convolution " : "convolution ") + ShapeToString(x.shape) +
                     " (*) " + ShapeToString(w.shape) + " -> " + ShapeToString(y.shape) + " " + DtypeName(engine);
  // ACL_OPT_DETERMINISTIC: a primitive whose work split over threads reaches
  // into the reduction is made and run for one thread instead, so the bits do
  // not depend on the thread count (as the deterministic matmul's tiles).
  const auto step_for = [&](auto make_pd) {
    auto pd = make_pd();
    if (canopyDeterministicMode() == 0 || !kernels::SplitsReductionOverThreads(pd)) {
      return kernels::MakeOnednnStep(pd, arguments, book, std::move(what), reason);
    }
    const kernels::OneThreadScope one_thread;
    pd = make_pd();
    return kernels::MakeOnednnStep(pd, arguments, book, std::move(what), reason, true);
  };
  try {
    constexpr auto kInference = dnnl::prop_kind::forward_inference;
    if (transposed) {
      const auto desc = b ? dnnl::deconvolution_forward::desc(kInference, dnnl::algorithm::deconvolution_direct, src,
                                                              weights, bias, dst, strides, dilates, pad_l, pad_r)
                          : dnnl::deconvolution_forward::desc(kInference, dnnl::algorithm::deconvolution_direct, src,
                                                              weights, dst, strides, dilates, pad_l, pad_r);
      return step_for([&] {
        return dnnl::deconvolution_forward::primitive_desc(desc, kernels::OnednnAttr(), kernels::OneDnnEngine());
      });
    }
    const auto desc = b ? dnnl::convolution_forward::desc(kInference, dnnl::algorithm::convolution_direct, src, weights,
                                                          bias, dst, strides, dilates, pad_l, pad_r)
                        : dnnl::convolution_forward::desc(kInference, dnnl::algorithm::convolution_direct, src, weights,
                                                          dst, strides, dilates, pad_l, pad_r);
    return step_for([&] {
      return dnnl::convolution_forward::primitive_desc(desc, kernels::OnednnAttr(), kernels::OneDnnEngine());
    });
  } catch (const dnnl::error& e) {
    reason = e.what();
    return nullptr;
  }
}

// Whether oneDNN has a bf16 convolution on this CPU (probed once).
bool Bf16ConvolutionNative() {
  static const bool native = [] {
    try {
      const dnnl::memory::dims strides = {1}, zero = {0};
      const auto md = [](const dnnl::memory::dims& dims) {
        return dnnl::memory::desc(dims, dnnl::memory::data_type::bf16, dnnl::memory::format_tag::any);
      };
      const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                 dnnl::algorithm::convolution_direct, md({1, 16, 8}), md({16, 16, 1}),
                                                 md({1, 16, 8}), strides, zero, zero, zero);
      const dnnl::convolution_forward::primitive_desc pd(desc, kernels::OnednnAttr(), kernels::OneDnnEngine());
      return std::string(pd.impl_info_str()).find("ref") == std::string::npos;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return native;
}

// out = the bias of each channel (0 without one): a convolution summing over nothing.
void FillWithBias(Plan& plan, const TensorRef* b, const TensorRef& y) {
  if (!b) {
    plan.Fill(y, ScalarValue::Integer(0));
    return;
  }
  TensorRef per_channel = *b;  // [C] viewed as [C, 1, ...]: broadcast over batch and space
  for (int64_t d = 2; d < y.rank(); ++d) per_channel = Unsqueeze(per_channel, per_channel.rank());
  plan.Copy(per_channel, y);
}

aclnnStatus AddConvolution(Plan& plan, TensorRef x, TensorRef w, std::optional<TensorRef> b, const TensorRef& y,
                           bool transposed, int64_t groups, const Geometry& g, aclDataType promoted,
                           int8_t cube_math_type);

aclnnStatus PlanConvolution(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                            const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                            bool transposed, const aclIntArray* output_padding, int64_t groups, const aclTensor* output,
                            int8_t cube_math_type) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kConvDtypes));
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kConvDtypes));
  if (bias) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, kConvDtypes));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kConvDtypes));
  CANOPY_CHECK(plan.CheckRank("input", input, kMinRank, kMaxRank));
  const int64_t rank = input->rank();
  CANOPY_CHECK(plan.CheckRank("weight", weight, rank, rank));
  CANOPY_CHECK(plan.CheckRank("output", output, rank, rank));
  const aclFormat format = ChannelFirstFormat(rank);
  CANOPY_CHECK(CheckFormat(plan, "input", input, format));
  CANOPY_CHECK(CheckFormat(plan, "weight", weight, format));
  CANOPY_CHECK(CheckFormat(plan, "output", output, format));
  if (transposed && output->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a transposed convolution's output (%s) must have input's dtype (%s)",
                       DtypeName(output->dtype), DtypeName(input->dtype));
  }
  const aclDataType promoted = PromoteTypes(input->dtype, weight->dtype);
  CANOPY_CHECK(CheckChannels(plan, input, weight, transposed, groups));
  Geometry g;
  CANOPY_CHECK(CheckGeometry(plan, input, weight, stride, padding, dilation, transposed, output_padding, g));
  const int64_t out_channels = transposed ? weight->view_shape[1] * groups : weight->view_shape[0];
  if (bias) {
    CANOPY_CHECK(plan.CheckShape("bias", bias, {out_channels}));
    if (bias->dtype != input->dtype && bias->dtype != weight->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "bias has dtype %s; it must be that of input (%s) or weight (%s)",
                         DtypeName(bias->dtype), DtypeName(input->dtype), DtypeName(weight->dtype));
    }
  }
  Shape expected = {input->view_shape[0], out_channels};
  expected.insert(expected.end(), g.out.begin(), g.out.end());
  CANOPY_CHECK(plan.CheckShape("output", output, expected));
  // CANN's checker refuses a sum over nothing into a non-empty output (no input
  // channels, an empty kernel, an empty spatial extent that padding would fill)
  // rather than giving the bias.
  if ((input->NumElements() == 0 || weight->NumElements() == 0) && output->NumElements() != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input %s or weight %s is empty, so output must be empty too; it is %s",
                       ShapeToString(input->view_shape).c_str(), ShapeToString(weight->view_shape).c_str(),
                       ShapeToString(output->view_shape).c_str());
  }
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type, promoted));

  const TensorRef x = plan.Input(input, "input");
  const TensorRef w = plan.Input(weight, "weight");
  std::optional<TensorRef> b;
  if (bias) {
    b = plan.Input(bias, "bias");
  } else {
    plan.SkipInput();
  }
  const TensorRef y = plan.Output(output, "output");
  return AddConvolution(plan, x, w, b, y, transposed, groups, g, promoted, cube_math_type);
}

// y = x (*) w (+ b) for checked operands of any views: oneDNN in the dtype the
// operands and cubeMathType give, an empty sum (x or w empty; ConvTbc's
// checks let it through) the bias alone.
aclnnStatus AddConvolution(Plan& plan, TensorRef x, TensorRef w, std::optional<TensorRef> b, const TensorRef& y,
                           bool transposed, int64_t groups, const Geometry& g, aclDataType promoted,
                           int8_t cube_math_type) {
  if (y.NumElements() == 0) return ACLNN_SUCCESS;
  if (x.NumElements() == 0 || w.NumElements() == 0) {  // nothing to sum over
    FillWithBias(plan, b ? &*b : nullptr, y);
    return ACLNN_SUCCESS;
  }

  aclDataType compute = promoted;
  if (cube_math_type == kUseFp16 && compute == ACL_FLOAT) {  // the operands are rounded to fp16 first
    x = plan.Contiguous(x, ACL_FLOAT16);
    w = plan.Contiguous(w, ACL_FLOAT16);
    compute = ACL_FLOAT16;
  }
  // bf16 natively where oneDNN has it on this CPU; fp16 (no fp16 convolution on
  // CPUs without fp16 arithmetic) in f32.
  const aclDataType engine = compute == ACL_BF16 && Bf16ConvolutionNative() ? ACL_BF16 : ACL_FLOAT;
  if (x.dtype != engine || !kernels::OnednnDescribes(x.dtype, x.shape, x.strides)) x = plan.Contiguous(x, engine);
  if (!kernels::OnednnDescribes(w.dtype, w.shape, w.strides)) w = plan.Contiguous(w, w.dtype);
  // w stays as it is: the reorder into the primitive's layout converts it too,
  // and is kept across calls (bf16 runs only with bf16 weights, so oneDNN's
  // missing fp16-to-bf16 reorder is never asked for).
  if (b && b->dtype != ACL_FLOAT) b = plan.Contiguous(*b, ACL_FLOAT);
  // Output padding beyond the padding leaves positions that no input reaches:
  // they hold only the bias, and the primitive writes the rest (oneDNN takes no
  // negative padding for dilated deconvolutions).
  TensorRef reached = y;
  for (size_t d = 0; d < g.spatial; ++d) {
    const int64_t unreached = std::max<int64_t>(g.output_padding[d] - g.pad_back[d], 0);
    const int64_t dim = static_cast<int64_t>(2 + d);
    reached = Narrow(reached, dim, 0, reached.shape[dim] - unreached);
  }
  if (reached.NumElements() != y.NumElements()) FillWithBias(plan, b ? &*b : nullptr, y);
  const TensorRef dst =
      reached.dtype == engine && kernels::OnednnDescribes(reached.dtype, reached.shape, reached.strides)
          ? reached
          : plan.Temporary(engine, reached.shape);
  std::string reason;
  auto step = ConvStep(plan, x, w, b ? &*b : nullptr, dst, transposed, groups, g, engine, reason);
  if (!step) return plan.Reject(ACLNN_ERR_INNER, "no oneDNN convolution for this problem: %s", reason.c_str());
  plan.AddStep(std::move(step));
  if (!SameView(dst, reached)) plan.Copy(dst, reached);
  return ACLNN_SUCCESS;
}

// aclnnConvDepthwise2d: a 2-D convolution of NCHW tensors with one group per
// input channel, weight [Cout, 1, kH, kW] with Cout a multiple of C; the
// doc's tighter ranges first, then the same planning as Convolution.
aclnnStatus PlanConvDepthwise2d(Plan& plan, const aclTensor* self, const aclTensor* weight,
                                const aclIntArray* kernel_size, const aclTensor* bias, const aclIntArray* stride,
                                const aclIntArray* padding, const aclIntArray* dilation, const aclTensor* out,
                                int8_t cube_math_type) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kConvDtypes));
  for (const aclTensor* t : {weight, out, bias}) {
    if (t && t->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has dtype %s; it must be self's (%s)",
                         t == weight ? "weight"
                         : t == out  ? "out"
                                     : "bias",
                         DtypeName(t->dtype), DtypeName(self->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("weight", weight, 4, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  CANOPY_CHECK(CheckFormat(plan, "self", self, ACL_FORMAT_NCHW));
  CANOPY_CHECK(CheckFormat(plan, "weight", weight, ACL_FORMAT_NCHW));
  CANOPY_CHECK(CheckFormat(plan, "out", out, ACL_FORMAT_NCHW));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {2}, 0));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernel_size, {2}, 1));
  for (size_t d = 0; d < 2; ++d) {
    if (stride->values[d] > 63 || padding->values[d] > 255 || dilation->values[d] > 255) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "stride[%zu] %lld, padding[%zu] %lld or dilation[%zu] %lld is out of range: stride in "
                         "[1, 63], padding in [0, 255], dilation in [1, 255]",
                         d, static_cast<long long>(stride->values[d]), d, static_cast<long long>(padding->values[d]), d,
                         static_cast<long long>(dilation->values[d]));
    }
    if (kernel_size->values[d] != weight->view_shape[2 + d]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "kernelSize[%zu] is %lld; it must be weight's extent %lld", d,
                         static_cast<long long>(kernel_size->values[d]),
                         static_cast<long long>(weight->view_shape[2 + d]));
    }
  }
  const int64_t channels = self->view_shape[1];
  if (channels < 1 || channels > kMaxGroups || weight->view_shape[1] != 1 || weight->view_shape[0] % channels != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "self has %lld channels and weight is %s; a depthwise weight is [k * C, 1, kH, kW] with C in "
                       "[1, 65535]",
                       static_cast<long long>(channels), ShapeToString(weight->view_shape).c_str());
  }
  const aclIntArray no_output_padding{{0, 0}};  // read only by transposed convolutions
  return PlanConvolution(plan, self, weight, bias, stride, padding, dilation, false, &no_output_padding, channels, out,
                         cube_math_type);
}

// aclnnConvTbc (torch.conv_tbc): self [T, B, Cin] (time, batch, channels),
// weight [K, Cin, Cout], bias [Cout], out [T + 2 * pad - K + 1, B, Cout]; a
// 1-D convolution of stride 1 with `pad` zeros on both sides, planned on
// permuted views (no copies). CANN checks the time extent with one pad: T +
// pad >= K.
aclnnStatus PlanConvTbc(Plan& plan, const aclTensor* self, const aclTensor* weight, const aclTensor* bias, int64_t pad,
                        const aclTensor* out, int8_t cube_math_type) {
  CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, kConvDtypes));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kConvDtypes));
  for (const aclTensor* t : {weight, out}) {
    if (t->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has dtype %s; it must be self's (%s)",
                         t == weight ? "weight" : "out", DtypeName(t->dtype), DtypeName(self->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 3));
  CANOPY_CHECK(plan.CheckRank("weight", weight, 3, 3));
  CANOPY_CHECK(plan.CheckRank("out", out, 3, 3));
  CANOPY_CHECK(plan.CheckRank("bias", bias, 1, 1));
  for (const aclTensor* t : {self, weight, out}) {
    if (t->format != ACL_FORMAT_ND && t->format != ACL_FORMAT_NCL) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %s; ConvTbc takes ND or NCL",
                         t == self     ? "self"
                         : t == weight ? "weight"
                                       : "out",
                         FormatName(t->format));
    }
  }
  const Shape& s = self->view_shape;
  const Shape& k = weight->view_shape;
  if (pad < 0 || pad > 255) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'pad' (%lld) must be in [0, 255]",
                       static_cast<long long>(pad));
  }
  if (bias->view_shape[0] != k[2] || k[0] <= 0 || k[1] != s[2] ||
      (self->NumElements() > 0 && s[0] + pad - (k[0] - 1) - 1 < 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "self %s, weight %s, bias %s and pad %lld do not fit: weight is [K > 0, Cin, Cout] with self's "
                       "Cin, bias [Cout], and T + pad >= K",
                       ShapeToString(s).c_str(), ShapeToString(k).c_str(), ShapeToString(bias->view_shape).c_str(),
                       static_cast<long long>(pad));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, {s[0] + 2 * pad - k[0] + 1, s[1], k[2]}));
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type, self->dtype));
  Geometry g;
  g.spatial = 1;
  g.stride = {1};
  g.dilation = {1};
  g.pad_front = {pad};
  g.pad_back = {pad};
  g.output_padding = {0};
  g.out = {out->view_shape[0]};
  const TensorRef x = Permute(plan.Input(self, "self"), {1, 2, 0});      // [B, Cin, T]
  const TensorRef w = Permute(plan.Input(weight, "weight"), {2, 1, 0});  // [Cout, Cin, K]
  const TensorRef b = plan.Input(bias, "bias");
  const TensorRef y = Permute(plan.Output(out, "out"), {1, 2, 0});  // [B, Cout, Tout]
  return AddConvolution(plan, x, w, b, y, false, 1, g, self->dtype, cube_math_type);
}

}  // namespace

aclnnStatus canopy::ops::AddPlainConvolution(Plan& plan, const TensorRef& x, const TensorRef& w, const TensorRef& y,
                                             const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                                             const std::vector<int64_t>& dilation) {
  Geometry g;
  g.spatial = stride.size();
  g.stride = stride;
  g.dilation = dilation;
  g.pad_front = padding;
  g.pad_back = padding;
  g.output_padding.assign(g.spatial, 0);
  g.out.assign(y.shape.begin() + 2, y.shape.end());
  return AddConvolution(plan, x, w, std::nullopt, y, false, 1, g, ACL_FLOAT, kKeepDtype);
}

CANOPY_ACLNN_OP(Convolution, PlanConvolution,
                WithExample(kConvTraits,
                            "f32[1,2,4,4]@NCHW f32[3,2,3,3]@NCHW f32[3] ints[1,1] ints[1,1] ints[1,1] false ints[0,0] "
                            "1 f32[1,3,4,4]@NCHW 0"),
                (const aclTensor*, input), (const aclTensor*, weight), (const aclTensor*, bias, optional),
                (const aclIntArray*, stride), (const aclIntArray*, padding), (const aclIntArray*, dilation),
                (bool, transposed), (const aclIntArray*, outputPadding, optional), (int64_t, groups),
                (aclTensor*, output), (int8_t, cubeMathType))

CANOPY_ACLNN_OP(ConvDepthwise2d, PlanConvDepthwise2d,
                WithExample(kConvTraits,
                            "f32[2,2,2,2]@NCHW f32[2,1,1,1]@NCHW ints[1,1] f32[2] ints[1,1] ints[0,0] ints[1,1] "
                            "f32[2,2,2,2]@NCHW 1"),
                (const aclTensor*, self), (const aclTensor*, weight), (const aclIntArray*, kernelSize),
                (const aclTensor*, bias, optional), (const aclIntArray*, stride), (const aclIntArray*, padding),
                (const aclIntArray*, dilation), (aclTensor*, out), (int8_t, cubeMathType))

CANOPY_ACLNN_OP(ConvTbc, PlanConvTbc, WithExample(kConvTraits, "f32[2,2,3] f32[3,3,4] f32[4] 1 f32[2,2,4] 1"),
                (const aclTensor*, self), (const aclTensor*, weight), (const aclTensor*, bias), (const int64_t, pad),
                (aclTensor*, out), (int8_t, cubeMathType))
