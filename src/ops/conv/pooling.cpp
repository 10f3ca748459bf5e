#include "pooling.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kernels/onednn_step.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {
namespace {

dnnl::algorithm AlgorithmOf(PoolKind kind) {
  switch (kind) {
    case PoolKind::kAverageOverWindow:
      return dnnl::algorithm::pooling_avg_include_padding;
    case PoolKind::kAverageOverInput:
      break;
  }
  return dnnl::algorithm::pooling_avg_exclude_padding;
}

const char* KindName(PoolKind kind) {
  switch (kind) {
    case PoolKind::kAverageOverWindow:
      return "average pool (padding counted)";
    case PoolKind::kAverageOverInput:
      break;
  }
  return "average pool (padding not counted)";
}

// Whether oneDNN pools bf16 natively on this CPU (probed once).
bool Bf16PoolingNative() {
  static const bool native = [] {
    try {
      const dnnl::memory::desc md({1, 16, 4, 4}, dnnl::memory::data_type::bf16, dnnl::memory::format_tag::nchw);
      const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::pooling_max, md, md,
                                             {1, 1}, {1, 1}, {0, 0}, {0, 0});
      const dnnl::pooling_forward::primitive_desc pd(desc, kernels::OnednnAttr(), kernels::OneDnnEngine());
      return std::string(pd.impl_info_str()).find("ref") == std::string::npos;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return native;
}

std::unique_ptr<Step> PoolStep(Plan& plan, const TensorRef& x, const TensorRef& y, PoolKind kind,
                               const std::vector<PoolAxis>& axes, float scale, std::string& reason) {
  dnnl::memory::dims strides, kernel, pad_l, pad_r;
  for (size_t d = 0; d < axes.size(); ++d) {
    const PoolAxis& a = axes[d];
    strides.push_back(a.stride);
    kernel.push_back(a.kernel);
    pad_l.push_back(a.pad_front);
    // oneDNN's far padding makes its size rule give y's extent exactly (CANN's
    // ceil-mode windows reach into it; the values it pads are never read as data).
    pad_r.push_back(std::max<int64_t>((y.shape[2 + d] - 1) * a.stride + a.kernel - x.shape[2 + d] - a.pad_front, 0));
  }
  const dnnl::memory::desc src = kernels::OnednnViewDesc(x.dtype, x.shape, x.strides);
  const dnnl::memory::desc dst = kernels::OnednnViewDesc(y.dtype, y.shape, y.strides);
  const auto book = [&plan](int64_t bytes) { return plan.Temporary(ACL_UINT8, {bytes}).buffer; };
  std::string what = std::string(KindName(kind)) + " " + ShapeToString(x.shape) + " -> " + ShapeToString(y.shape) +
                     " " + DtypeName(x.dtype);
  try {
    dnnl::primitive_attr attr = kernels::OnednnAttr();
    if (scale != 1.0f) {
      dnnl::post_ops post_ops;
      post_ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, scale, 0.0f);
      attr.set_post_ops(post_ops);
    }
    const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, AlgorithmOf(kind), src, dst, strides,
                                           kernel, pad_l, pad_r);
    const dnnl::pooling_forward::primitive_desc pd(desc, attr, kernels::OneDnnEngine());
    return kernels::MakeOnednnStep(pd, {{DNNL_ARG_SRC, x.buffer, src}, {DNNL_ARG_DST, y.buffer, dst, true}}, book,
                                   std::move(what), reason);
  } catch (const dnnl::error& e) {
    reason = e.what();
    return nullptr;
  }
}

}  // namespace

int64_t PooledExtent(int64_t in, const PoolAxis& axis, bool ceil_mode) {
  // In 128 bits: kernel, stride and pads may be any positive int64 (the sums
  // overflowed); an extent past int64 saturates, which no tensor's shape matches.
  const __int128 span = __int128{in} + axis.pad_front + axis.pad_back - axis.kernel;
  // Ceil mode rounds up: a window longer than the padded input by less than
  // a stride still gives one output, clipped (PyTorch's pooling_output_shape,
  // CANN's PoolingOutShape).
  const __int128 rounded = ceil_mode ? span + axis.stride - 1 : span;
  if (rounded < 0) return 0;  // no window fits
  __int128 out = rounded / axis.stride + 1;
  if (ceil_mode && (out - 1) * axis.stride >= __int128{in} + axis.pad_front) --out;
  return static_cast<int64_t>(std::min<__int128>(out, std::numeric_limits<int64_t>::max()));
}

aclnnStatus PlanPool(Plan& plan, const TensorRef& in, const TensorRef& out, PoolKind kind,
                     const std::vector<PoolAxis>& axes, float scale) {
  if (out.NumElements() == 0) return ACLNN_SUCCESS;
  // bf16 natively where oneDNN has it on this CPU; fp16 in f32.
  const aclDataType engine = in.dtype == ACL_BF16 && Bf16PoolingNative() ? ACL_BF16 : ACL_FLOAT;
  const bool in_described = kernels::OnednnDescribes(in.dtype, in.shape, in.strides);
  const TensorRef x = in.dtype == engine && in_described ? in : plan.Contiguous(in, engine);
  const bool out_described = kernels::OnednnDescribes(out.dtype, out.shape, out.strides);
  const TensorRef y = out.dtype == engine && out_described ? out : plan.Temporary(engine, out.shape);
  std::string reason;
  auto step = PoolStep(plan, x, y, kind, axes, scale, reason);
  if (!step) return plan.Reject(ACLNN_ERR_INNER, "no oneDNN pooling for this problem: %s", reason.c_str());
  plan.AddStep(std::move(step));
  if (!SameView(y, out)) plan.Copy(y, out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAvgPool(Plan& plan, const TensorRef& in, const TensorRef& out, const std::vector<PoolAxis>& axes,
                        bool count_include_pad, int64_t divisor_override) {
  if (divisor_override != 0) {  // sum / divisor: oneDNN's sum / volume, scaled
    int64_t volume = 1;
    for (const PoolAxis& a : axes) volume *= a.kernel;
    return PlanPool(plan, in, out, PoolKind::kAverageOverWindow, axes,
                    static_cast<float>(volume) / static_cast<float>(divisor_override));
  }
  if (!count_include_pad) return PlanPool(plan, in, out, PoolKind::kAverageOverInput, axes);
  // PyTorch counts the padding but not a ceil-mode window's part beyond it;
  // oneDNN counts the whole window. Where a window reaches past the padding,
  // pool a zero-padded copy and count only what lies inside it.
  bool past_padding = false;
  for (size_t d = 0; d < axes.size(); ++d) {
    const PoolAxis& a = axes[d];
    past_padding =
        past_padding || (out.shape[2 + d] - 1) * a.stride - a.pad_front + a.kernel > in.shape[2 + d] + a.pad_back;
  }
  if (!past_padding) return PlanPool(plan, in, out, PoolKind::kAverageOverWindow, axes);
  Shape padded_shape = in.shape;
  for (size_t d = 0; d < axes.size(); ++d) padded_shape[2 + d] += axes[d].pad_front + axes[d].pad_back;
  const TensorRef padded = plan.Temporary(in.dtype, padded_shape);
  plan.Fill(padded, ScalarValue::Integer(0));
  TensorRef inner = padded;
  for (size_t d = 0; d < axes.size(); ++d) {
    inner = Narrow(inner, static_cast<int64_t>(2 + d), axes[d].pad_front, in.shape[2 + d]);
  }
  plan.Copy(in, inner);
  std::vector<PoolAxis> unpadded = axes;
  for (PoolAxis& a : unpadded) a.pad_front = a.pad_back = 0;
  return PlanPool(plan, padded, out, PoolKind::kAverageOverInput, unpadded);
}

std::vector<kernels::PoolWindow> FixedWindows(int64_t in, const PoolAxis& axis, int64_t dilation, int64_t out) {
  std::vector<kernels::PoolWindow> windows;
  for (int64_t i = 0; i < out; ++i) {
    // In 128 bits: kernel, stride, padding and dilation may be near int64's
    // limits. The window starts at its first tap inside the input (a whole
    // number of dilations past the padding); one that ends before it is empty.
    const __int128 start = __int128{i} * axis.stride - axis.pad_front;
    const __int128 end = std::min<__int128>(start + __int128{axis.kernel - 1} * dilation + 1, in);
    const __int128 first = start < 0 ? start + (-start + dilation - 1) / dilation * dilation : start;
    kernels::PoolWindow w;
    w.begin = static_cast<int64_t>(std::min<__int128>(first, in));
    w.end = static_cast<int64_t>(std::max<__int128>(end, 0));
    w.step = dilation;
    windows.push_back(w);
  }
  return windows;
}

std::vector<kernels::PoolWindow> AdaptiveMaxWindows(int64_t in, int64_t out) {
  std::vector<kernels::PoolWindow> windows;
  for (int64_t i = 0; i < out; ++i) windows.push_back({i * in / out, ((i + 1) * in + out - 1) / out, 1});
  return windows;
}

void PlanMaxPoolWithIndices(Plan& plan, const TensorRef& x, const TensorRef& y, const TensorRef& indices,
                            std::array<std::vector<kernels::PoolWindow>, 3> windows) {
  if (y.NumElements() == 0) return;
  kernels::MaxPoolIndicesDesc desc;
  desc.src = x.buffer;
  desc.dst = y.buffer;
  desc.indices = indices.buffer;
  desc.dtype = x.dtype;
  desc.index_dtype = indices.dtype;
  for (size_t d = 0; d < 5; ++d) {
    desc.src_shape[d] = x.shape[d];
    desc.src_strides[d] = x.strides[d];
    desc.dst_strides[d] = y.strides[d];
    desc.index_strides[d] = indices.strides[d];
  }
  desc.windows = std::move(windows);
  plan.AddStep(kernels::MakeMaxPoolIndicesStep(std::move(desc)));
}

}  // namespace canopy::ops
