// aclnnDeformableConv2d (CANN's conv/deformable_conv2d, A2 path): the modulated deformable
// convolution. Each kernel tap (kh, kw) of output position (oh, ow) reads x[n, c] bilinearly
// (kernels/bilinear_corners.h, zeros outside) at
//   y = oh * strideH - padTop + kh * dilationH + offset[n, D*K + d*K + k, oh, ow],
//   x = ow * strideW - padLeft + kw * dilationW + offset[n, d*K + k, oh, ow],
// times the mask offset[n, 2*D*K + d*K + k, oh, ow] (K = kH * kW, k = kh * kW + kw, D the
// deformable groups, d = c / (inC / D)). Those columns are deformOutOptional[n, c, oh * kH + kh,
// ow * kW + kw]; out is the grouped product of weight with them (one matrix product per group
// through the matmul path) plus biasOptional. Computed in f32, as CANN casts f16 / bf16 first.
// Checks: CANN's host code in order (161001, 161002); empty tensors are 161002 (CANN's doc).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_deformable_conv2d.h"
#include "kernels/bilinear_corners.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/matmul_planner.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
// CANN's limits.
constexpr int64_t kMaxKernelTaps = 2048;
constexpr int64_t kMaxProductDepth = 65535;
constexpr int64_t kMaxMapSize = INT32_MAX;
constexpr int8_t kKeepDtype = 0;

struct Geometry {
  int64_t n = 0, channels = 0, in_h = 0, in_w = 0, out_channels = 0;
  int64_t kernel_h = 0, kernel_w = 0, out_h = 0, out_w = 0;
  int64_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0, dilation_h = 1, dilation_w = 1;
  int64_t deformable_groups = 1;
};

// columns[n, c, kh, kw, oh, ow] = the masked bilinear read of tap (kh, kw) at (oh, ow), in f32.
class DeformableColumnsStep final : public Step {
 public:
  DeformableColumnsStep(const Geometry& g, BufferRef x, BufferRef offset, BufferRef columns)
      : g_(g), x_(x), offset_(offset), columns_(columns) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x = reinterpret_cast<const float*>(context.Resolve(x_));
    const auto* offset = reinterpret_cast<const float*>(context.Resolve(offset_));
    auto* columns = reinterpret_cast<float*>(context.Resolve(columns_));
    const int64_t taps = g_.kernel_h * g_.kernel_w, positions = g_.out_h * g_.out_w;
    const int64_t per_group = g_.channels / g_.deformable_groups;
    const int64_t offset_planes = g_.deformable_groups * taps;  // the x, the y and the mask planes each
    kernels::ParallelFor(g_.n * g_.channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t nc = begin; nc < end; ++nc) {
        const int64_t n = nc / g_.channels, c = nc % g_.channels, d = c / per_group;
        const float* map = x + nc * g_.in_h * g_.in_w;
        for (int64_t k = 0; k < taps; ++k) {
          const int64_t kh = k / g_.kernel_w, kw = k % g_.kernel_w;
          const float* dx = offset + ((n * 3 * offset_planes) + d * taps + k) * positions;
          const float* dy = dx + offset_planes * positions;
          const float* mask = dy + offset_planes * positions;
          float* column = columns + (nc * taps + k) * positions;
          for (int64_t oh = 0; oh < g_.out_h; ++oh) {
            for (int64_t ow = 0; ow < g_.out_w; ++ow) {
              const int64_t p = oh * g_.out_w + ow;
              const auto y = static_cast<float>(oh * g_.stride_h - g_.pad_top + kh * g_.dilation_h) + dy[p];
              const auto xx = static_cast<float>(ow * g_.stride_w - g_.pad_left + kw * g_.dilation_w) + dx[p];
              kernels::BilinearCorners corners;
              float v = 0.0F;
              if (kernels::BilinearAt(y, xx, g_.in_h, g_.in_w, corners)) {
                for (size_t q = 0; q < corners.weight.size(); ++q) v += corners.weight[q] * map[corners.offset[q]];
              }
              column[p] = v * mask[p];
            }
          }
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "deformable columns n=" + std::to_string(g_.n) + " c=" + std::to_string(g_.channels) +
           " in=" + std::to_string(g_.in_h) + "x" + std::to_string(g_.in_w) + " kernel=" + std::to_string(g_.kernel_h) +
           "x" + std::to_string(g_.kernel_w) + " out=" + std::to_string(g_.out_h) + "x" + std::to_string(g_.out_w);
  }

 private:
  Geometry g_;
  BufferRef x_, offset_, columns_;
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const Shape& want) {
  return plan.Reject(kInvalid, "argument '%s' has shape %s; it must be %s", name, ShapeToString(t->view_shape).c_str(),
                     ShapeToString(want).c_str());
}

// CANN's checks of the attributes, in its order.
aclnnStatus CheckAttributes(Plan& plan, const aclIntArray* kernelSize, const aclIntArray* stride,
                            const aclIntArray* padding, const aclIntArray* dilation, int64_t groups,
                            int64_t deformableGroups, bool modulated) {
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernelSize, {2}, INT64_MIN));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {4}, INT64_MIN));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {4}, INT64_MIN));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {4}, INT64_MIN));
  const auto& k = kernelSize->values;
  if (k[0] <= 0 || k[1] <= 0) return plan.Reject(kInvalid, "argument 'kernelSize' must be positive");
  if (k[0] > kMaxKernelTaps || k[1] > kMaxKernelTaps || k[0] * k[1] > kMaxKernelTaps) {  // no product overflows
    return plan.Reject(kInvalid, "argument 'kernelSize' (%lld x %lld) must have at most %lld taps",
                       static_cast<long long>(k[0]), static_cast<long long>(k[1]),
                       static_cast<long long>(kMaxKernelTaps));
  }
  for (const auto& [name, array] : {std::pair{"stride", stride}, std::pair{"dilation", dilation}}) {
    const auto& v = array->values;
    if (v[0] != 1 || v[1] != 1) return plan.Reject(kInvalid, "argument '%s' must be 1 in its N and C dims", name);
    if (v[2] <= 0 || v[3] <= 0)
      return plan.Reject(kInvalid, "argument '%s' must be positive in its H and W dims", name);
  }
  if (groups <= 0)
    return plan.Reject(kInvalid, "argument 'groups' (%lld) must be positive", static_cast<long long>(groups));
  if (deformableGroups <= 0) {
    return plan.Reject(kInvalid, "argument 'deformableGroups' (%lld) must be positive",
                       static_cast<long long>(deformableGroups));
  }
  if (!modulated)
    return plan.Reject(kInvalid, "argument 'modulated' must be true (CANN supports only the masked form)");
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDeformableConv2d(Plan& plan, const aclTensor* x, const aclTensor* weight, const aclTensor* offset,
                                 const aclTensor* bias, const aclIntArray* kernelSize, const aclIntArray* stride,
                                 const aclIntArray* padding, const aclIntArray* dilation, int64_t groups,
                                 int64_t deformableGroups, bool modulated, const aclTensor* out,
                                 const aclTensor* deformOut) {
  // Dtypes: x's list, then every tensor x's dtype.
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kDtypes));
  for (const auto& [name, t] : {std::pair{"biasOptional", bias}, std::pair{"deformOutOptional", deformOut},
                                std::pair{"offset", offset}, std::pair{"weight", weight}, std::pair{"out", out}}) {
    if (t != nullptr && t->dtype != x->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s; it must be x's dtype %s", name, DtypeName(t->dtype),
                         DtypeName(x->dtype));
    }
  }
  // Formats: x NCHW or ND, the others x's (the bias ND).
  if (x->format != ACL_FORMAT_NCHW && x->format != ACL_FORMAT_ND) {
    return plan.Reject(kInvalid, "argument 'x' is in format %s; it must be NCHW or ND", FormatName(x->format));
  }
  for (const auto& [name, t] :
       {std::pair{"offset", offset}, std::pair{"weight", weight}, std::pair{"biasOptional", bias},
        std::pair{"out", out}, std::pair{"deformOutOptional", deformOut}}) {
    if (t == nullptr) continue;
    const aclFormat want = t == bias ? ACL_FORMAT_ND : x->format;
    if (t->format != want) {
      return plan.Reject(kInvalid, "argument '%s' is in format %s; it must be %s", name, FormatName(t->format),
                         FormatName(want));
    }
  }
  CANOPY_CHECK(CheckAttributes(plan, kernelSize, stride, padding, dilation, groups, deformableGroups, modulated));
  for (const auto& [name, t] :
       {std::pair{"x", x}, std::pair{"weight", weight}, std::pair{"offset", offset}, std::pair{"biasOptional", bias},
        std::pair{"out", out}, std::pair{"deformOutOptional", deformOut}}) {
    const int64_t want = t == bias ? 1 : 4;
    if (t != nullptr) CANOPY_CHECK(plan.CheckRank(name, t, want, want));
  }

  // Shapes.
  const Shape& xs = x->view_shape;
  Geometry g{.n = xs[0], .channels = xs[1], .in_h = xs[2], .in_w = xs[3], .out_channels = weight->view_shape[0]};
  if (g.channels % deformableGroups != 0) {
    return plan.Reject(kInvalid, "argument 'x' has %lld channels; they must divide by deformableGroups (%lld)",
                       static_cast<long long>(g.channels), static_cast<long long>(deformableGroups));
  }
  if (g.channels % groups != 0 || g.out_channels % groups != 0) {
    return plan.Reject(kInvalid, "x's channels (%lld) and weight's output channels (%lld) must divide by groups (%lld)",
                       static_cast<long long>(g.channels), static_cast<long long>(g.out_channels),
                       static_cast<long long>(groups));
  }
  if (g.in_h * g.in_w > kMaxMapSize) {
    return plan.Reject(kInvalid, "argument 'x' has shape %s; H * W must be at most %lld", ShapeToString(xs).c_str(),
                       static_cast<long long>(kMaxMapSize));
  }
  const auto& pad = padding->values;
  g.kernel_h = kernelSize->values[0];
  g.kernel_w = kernelSize->values[1];
  g.stride_h = stride->values[2];
  g.stride_w = stride->values[3];
  g.dilation_h = dilation->values[2];
  g.dilation_w = dilation->values[3];
  g.pad_top = pad[0];
  g.pad_left = pad[2];
  g.deformable_groups = deformableGroups;
  // In 128 bits: padding and dilation may be any int64; an extent past int64 is refused, not wrapped.
  const __int128 out_h =
      (__int128{g.in_h} + pad[0] + pad[1] - __int128{g.kernel_h - 1} * g.dilation_h - 1) / g.stride_h + 1;
  const __int128 out_w =
      (__int128{g.in_w} + pad[2] + pad[3] - __int128{g.kernel_w - 1} * g.dilation_w - 1) / g.stride_w + 1;
  constexpr __int128 kMaxExtent = std::numeric_limits<int64_t>::max(), kMinExtent = std::numeric_limits<int64_t>::min();
  if (out_h > kMaxExtent || out_w > kMaxExtent || out_h < kMinExtent || out_w < kMinExtent) {
    return plan.Reject(kInvalid, "arguments 'padding' and 'dilation' give an output extent past int64");
  }
  g.out_h = static_cast<int64_t>(out_h);
  g.out_w = static_cast<int64_t>(out_w);
  const int64_t taps = g.kernel_h * g.kernel_w;
  const Shape weight_want = {g.out_channels, g.channels / groups, g.kernel_h, g.kernel_w};
  const Shape offset_want = {g.n, 3 * deformableGroups * taps, g.out_h, g.out_w};
  const Shape out_want = {g.n, g.out_channels, g.out_h, g.out_w};
  const Shape deform_want = {g.n, g.channels, g.out_h * g.kernel_h, g.out_w * g.kernel_w};
  if (weight->view_shape != weight_want) return RejectShape(plan, "weight", weight, weight_want);
  if (offset->view_shape != offset_want) return RejectShape(plan, "offset", offset, offset_want);
  if (bias != nullptr && bias->view_shape != Shape{g.out_channels}) {
    return RejectShape(plan, "biasOptional", bias, {g.out_channels});
  }
  if (out->view_shape != out_want) return RejectShape(plan, "out", out, out_want);
  if (deformOut != nullptr && deformOut->view_shape != deform_want) {
    return RejectShape(plan, "deformOutOptional", deformOut, deform_want);
  }
  const int64_t depth = taps * (g.channels / groups);
  if (depth > kMaxProductDepth) {
    return plan.Reject(kInvalid, "x's channels / groups * kernelSize's taps (%lld) must be at most %lld",
                       static_cast<long long>(depth), static_cast<long long>(kMaxProductDepth));
  }
  for (const auto& [name, t] :
       {std::pair{"x", x}, std::pair{"weight", weight}, std::pair{"offset", offset}, std::pair{"out", out}}) {
    if (t->NumElements() == 0) return plan.Reject(kInvalid, "argument '%s' is empty; CANN takes no empty tensor", name);
  }

  // Operands in prototype order.
  const TensorRef x_in = plan.Input(x, "x");
  const TensorRef weight_in = plan.Input(weight, "weight");
  const TensorRef offset_in = plan.Input(offset, "offset");
  TensorRef bias_in;
  if (bias != nullptr) {
    bias_in = plan.Input(bias, "biasOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(out, "out");
  TensorRef deform_dst;
  if (deformOut != nullptr) {
    deform_dst = plan.Output(deformOut, "deformOutOptional");
  } else {
    plan.SkipOutput();
  }

  // The columns [n, c, kh, kw, oh, ow] in f32, then deformOut (a permutation of them).
  const TensorRef columns = plan.Temporary(ACL_FLOAT, {g.n, g.channels, g.kernel_h, g.kernel_w, g.out_h, g.out_w});
  const TensorRef x_f32 = plan.Contiguous(x_in, ACL_FLOAT);
  const TensorRef offset_f32 = plan.Contiguous(offset_in, ACL_FLOAT);
  plan.AddStep(std::make_unique<DeformableColumnsStep>(g, x_f32.buffer, offset_f32.buffer, columns.buffer),
               {x_f32, offset_f32}, columns);
  if (deformOut != nullptr) {
    const Shape split = {g.n, g.channels, g.out_h, g.kernel_h, g.out_w, g.kernel_w};
    plan.Copy(Permute(columns, {0, 1, 4, 2, 5, 3}), *Reshape(deform_dst, split));
  }

  // out[n, group] = weight[group] @ columns[n, group] + bias: [1, G, OCg, K] @ [N, G, K, M].
  const int64_t out_per_group = g.out_channels / groups, positions = g.out_h * g.out_w;
  const Shape product = {g.n, groups, out_per_group, positions};
  const TensorRef a = *Reshape(plan.Contiguous(weight_in, ACL_FLOAT), {1, groups, out_per_group, depth});
  const TensorRef b = *Reshape(columns, {g.n, groups, depth, positions});
  TensorRef bias_rows;
  ProductTerms terms;
  if (bias != nullptr) {
    bias_rows = *Reshape(plan.Contiguous(bias_in, ACL_FLOAT), {1, groups, out_per_group, 1});
    terms.beta = 1.0F;
    terms.bias = &bias_rows;
  }
  const std::optional<TensorRef> out_view = Reshape(dst, product);
  const TensorRef result = out_view ? *out_view : plan.Temporary(ACL_FLOAT, product);
  CANOPY_CHECK(PlanProduct(plan, a, b, result, kKeepDtype, terms));
  if (!out_view) plan.Copy(*Reshape(result, dst.shape), dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(DeformableConv2d, PlanDeformableConv2d,
                (OpTraits{.header = "aclnnop/aclnn_deformable_conv2d.h",
                          .dtypes = kDtypes,
                          .example = "f32[1,4,5,5] f32[2,4,3,3] f32[1,27,3,3] f32[2] ints[3,3] ints[1,1,1,1] "
                                     "ints[0,0,0,0] ints[1,1,1,1] 1 1 true f32[1,2,3,3] f32[1,4,9,9]"}),
                (const aclTensor*, x), (const aclTensor*, weight), (const aclTensor*, offset),
                (const aclTensor*, biasOptional, optional), (const aclIntArray*, kernelSize),
                (const aclIntArray*, stride), (const aclIntArray*, padding), (const aclIntArray*, dilation),
                (int64_t, groups), (int64_t, deformableGroups), (bool, modulated), (aclTensor*, out),
                (aclTensor*, deformOutOptional, optional))
