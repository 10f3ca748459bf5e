// aclnnMaxPool: 2-D max pooling over the last two dims of a 3-D or 4-D tensor
// (ONNX MaxPool's attributes: kernelShape, strides, autoPad NOTSET only, pads,
// dilations of 1, ceilMode), on Canopy's kernel (kernels/max_pool2d.h): NaN
// in a window wins and a window of -inf or of padding alone gives -inf, as in
// PyTorch (oneDNN's pooling kept neither).
#include <array>

#include "aclnnop/aclnn_max_pool.h"
#include "kernels/max_pool2d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The doc's A2 column (its list adds bf16 and integers on other products).
constexpr DtypeSet kMaxPoolDtypes = {ACL_FLOAT, ACL_FLOAT16};
constexpr OpTraits kMaxPoolTraits{.header = "aclnnop/aclnn_max_pool.h", .dtypes = kMaxPoolDtypes, .max_rank = 4};
constexpr int64_t kAutoPadNotSet = 0;

aclnnStatus PlanMaxPool(Plan& plan, const aclTensor* self, const aclIntArray* kernel_shape, const aclIntArray* strides,
                        int64_t auto_pad, const aclIntArray* pads, const aclIntArray* dilations, int64_t ceil_mode,
                        const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMaxPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, self->rank(), self->rank()));
  CANOPY_CHECK(CheckIntArray(plan, "kernelShape", kernel_shape, {1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "strides", strides, {0, 1, 2}, 1));
  if (auto_pad != kAutoPadNotSet) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "autoPad is %lld; only 0 (NOTSET) is supported",
                       static_cast<long long>(auto_pad));
  }
  CANOPY_CHECK(CheckIntArray(plan, "pads", pads, {0, 1, 2, 4}, 0));
  CANOPY_CHECK(CheckIntArray(plan, "dilations", dilations, {0, 1, 2, 4}, 1));
  for (size_t i = 0; i < dilations->values.size(); ++i) {
    if (dilations->values[i] != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dilations[%zu] is %lld; only 1 is supported", i,
                         static_cast<long long>(dilations->values[i]));
    }
  }
  const auto& k = kernel_shape->values;
  const auto& s = strides->values;
  const auto& p = pads->values;
  std::array<PoolAxis, 2> axes;
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 2);
  for (size_t d = 0; d < 2; ++d) {
    PoolAxis& a = axes[d];
    a.kernel = k.size() == 1 ? k[0] : k[d];
    a.stride = s.empty() ? 1 : s.size() == 1 ? s[0] : s[d];
    // Two pads: {H, W} on both sides; four: {top, left, bottom, right}.
    a.pad_front = p.empty() ? 0 : p.size() == 1 ? p[0] : p[d];
    a.pad_back = p.size() == 4 ? p[2 + d] : a.pad_front;
    if (a.pad_front > a.kernel - a.pad_back) {  // pad_front + pad_back > kernel, which could overflow
      return plan.Reject(
          ACLNN_ERR_PARAM_INVALID, "pads on axis %zu (%lld and %lld) sum to more than kernelShape (%lld)", d,
          static_cast<long long>(a.pad_front), static_cast<long long>(a.pad_back), static_cast<long long>(a.kernel));
    }
    const int64_t extent =
        PooledExtent(self->view_shape[self->rank() - 2 + static_cast<int64_t>(d)], a, ceil_mode != 0);
    if (extent < 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s padded is smaller than kernelShape %lld on axis %zu",
                         ShapeToString(self->view_shape).c_str(), static_cast<long long>(a.kernel), d);
    }
    expected.push_back(extent);
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (x.rank() == 3) {  // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
  }
  if (x.NumElements() == 0 || y.NumElements() == 0) return ACLNN_SUCCESS;
  kernels::MaxPool2dDesc desc;
  desc.src = x.buffer;
  desc.dst = y.buffer;
  desc.dtype = x.dtype;
  for (size_t d = 0; d < 4; ++d) {
    desc.src_shape[d] = x.shape[d];
    desc.src_strides[d] = x.strides[d];
    desc.dst_strides[d] = y.strides[d];
  }
  for (size_t d = 0; d < 2; ++d) {
    desc.dst_extent[d] = y.shape[2 + d];
    desc.axes[d] = {axes[d].kernel, axes[d].stride, axes[d].pad_front};
  }
  plan.AddStep(kernels::MakeMaxPool2dStep(desc), {x}, y);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MaxPool, PlanMaxPool,
                WithExample(kMaxPoolTraits,
                            "f32[1,2,4,4]@NCHW ints[2,2] ints[2,2] 0 ints[0,0,0,0] ints[1,1] 0 f32[1,2,2,2]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, kernelShape), (const aclIntArray*, strides),
                (int64_t, autoPad), (const aclIntArray*, pads), (const aclIntArray*, dilations), (int64_t, ceilMode),
                (aclTensor*, out))
