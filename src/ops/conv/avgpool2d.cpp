// aclnnAvgPool2d: 2-D average pooling of [N, C, H, W] (NCHW) or [C, H, W]
// (NCL) with ceil mode, count-include-pad and a divisor override, as
// torch.nn.functional.avg_pool2d, on oneDNN's pooling primitive (pooling.h).
#include <array>

#include "aclnnop/aclnn_avgpool2d.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAvgPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr OpTraits kAvgPoolTraits{.header = "aclnnop/aclnn_avgpool2d.h", .dtypes = kAvgPoolDtypes, .max_rank = 4};
constexpr int8_t kKeepDtype = 0, kAllowFp32DownPrecision = 1, kUseFp16 = 2;

// The doc's A2 column: 0 always; 1 not for f32, 2 not for bf16; 3 (USE_HF32) never.
aclnnStatus CheckCubeMathType(Plan& plan, int8_t mode, aclDataType dtype) {
  const bool ok = mode == kKeepDtype || (mode == kAllowFp32DownPrecision && dtype != ACL_FLOAT) ||
                  (mode == kUseFp16 && dtype != ACL_BF16);
  if (ok) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "cubeMathType %d is not supported for %s (0 KEEP_DTYPE always; 1 not for FLOAT, 2 USE_FP16 not "
                     "for BFLOAT16, 3 USE_HF32 never)",
                     static_cast<int>(mode), DtypeName(dtype));
}

// Element i of a 1- or 2-element array (one element: both axes); `fallback` for an empty one.
int64_t AxisValue(const aclIntArray* array, size_t axis, int64_t fallback) {
  const auto& v = array->values;
  if (v.empty()) return fallback;
  return v.size() == 1 ? v[0] : v[axis];
}

aclnnStatus PlanAvgPool2d(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size, const aclIntArray* strides,
                          const aclIntArray* paddings, bool ceil_mode, bool count_include_pad, int64_t divisor_override,
                          int8_t cube_math_type, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAvgPoolDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAvgPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  CANOPY_CHECK(plan.CheckRank("out", out, self->rank(), self->rank()));
  const aclFormat format = self->rank() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL;
  CANOPY_CHECK(CheckFormat(plan, "self", self, format));
  CANOPY_CHECK(CheckFormat(plan, "out", out, format));
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty; AvgPool2d takes no empty tensor",
                       ShapeToString(self->view_shape).c_str());
  }
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernel_size, {1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "strides", strides, {0, 1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "paddings", paddings, {1, 2}, 0));
  std::array<PoolAxis, 2> axes;
  Shape expected(self->view_shape.begin(), self->view_shape.end() - 2);
  for (size_t d = 0; d < 2; ++d) {
    PoolAxis& a = axes[d];
    a.kernel = AxisValue(kernel_size, d, 1);
    a.stride = AxisValue(strides, d, a.kernel);  // none given: the kernel size
    a.pad_front = a.pad_back = AxisValue(paddings, d, 0);
    if (a.pad_front > a.kernel / 2) {  // 2 * pad > kernel, without overflow
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "paddings[%zu] is %lld; it must be at most half of kernelSize (%lld)",
                         d, static_cast<long long>(a.pad_front), static_cast<long long>(a.kernel));
    }
    const int64_t in = self->view_shape[self->rank() - 2 + static_cast<int64_t>(d)];
    const int64_t extent = PooledExtent(in, a, ceil_mode);
    if (extent < 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s padded is smaller than kernelSize %lld on axis %zu",
                         ShapeToString(self->view_shape).c_str(), static_cast<long long>(a.kernel), d);
    }
    expected.push_back(extent);
  }
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type, self->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  if (x.rank() == 3) {  // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
  }
  return PlanAvgPool(plan, x, y, {axes[0], axes[1]}, count_include_pad, divisor_override);
}

}  // namespace

CANOPY_ACLNN_OP(AvgPool2d, PlanAvgPool2d,
                WithExample(kAvgPoolTraits,
                            "f32[1,2,4,4]@NCHW ints[2,2] ints[2,2] ints[0,0] false true 0 0 f32[1,2,2,2]@NCHW"),
                (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, strides),
                (const aclIntArray*, paddings), (bool, ceilMode), (bool, countIncludePad), (int64_t, divisorOverride),
                (int8_t, cubeMathType), (aclTensor*, out))
