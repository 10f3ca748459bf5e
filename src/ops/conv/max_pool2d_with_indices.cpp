// aclnnMaxPool2dWithIndices: torch.nn.functional.max_pool2d(...,
// return_indices=True) over [N, C, H, W] or [C, H, W]: the maxima and their
// flat indices h * W + w within the input plane. oneDNN's max pooling keeps
// its own workspace, not these indices, so this is Canopy's own kernel
// (kernels/max_pool_indices.*). Checks follow the A2 column: dilation 1, no NHWC.
// aclnnMaxPool2dWithMask (same header) pools alike and writes its indices in
// the layout A2's kernels give the mask (see PlanMaxPool2dWithMask).
#include <array>
#include <vector>

#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "common/shape.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "pooling.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMaxPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64};
constexpr OpTraits kMaxPoolIndicesTraits{
    .header = "aclnnop/aclnn_max_pool2d_with_indices.h", .dtypes = kAllDtypes, .max_rank = 4};

// Element `axis` of a 1- or 2-element array (one element: both axes); `fallback` for an empty one.
int64_t AxisValue(const aclIntArray* array, size_t axis, int64_t fallback) {
  const auto& v = array->values;
  if (v.empty()) return fallback;
  return v.size() == 1 ? v[0] : v[axis];
}

// The checks both ops make alike, in CANN's order, up to out's shape: `axes`
// and out's shape `expected` come back for the indices check and the plan.
aclnnStatus CheckMaxPool2d(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size, const aclIntArray* stride,
                           const aclIntArray* padding, const aclIntArray* dilation, bool ceil_mode,
                           const aclTensor* out, const aclTensor* indices, DtypeSet index_dtypes,
                           std::array<PoolAxis, 2>& axes, Shape& expected) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMaxPoolDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out has dtype %s; it must be self's (%s)", DtypeName(out->dtype),
                       DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, index_dtypes));
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format (%s) and out's (%s) differ", FormatName(self->format),
                       FormatName(out->format));
  }
  if (self->format == ACL_FORMAT_NHWC) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self has format NHWC; NCHW (or ND, NCL) is supported");
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 3, 4));
  CANOPY_CHECK(CheckIntArray(plan, "kernelSize", kernel_size, {1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {0, 1, 2}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {1, 2}, 0));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {1, 2}, 1));
  for (size_t d = 0; d < 2; ++d) {
    PoolAxis& a = axes[d];
    a.kernel = AxisValue(kernel_size, d, 1);
    a.stride = AxisValue(stride, d, a.kernel);  // none given: the kernel size
    a.pad_front = a.pad_back = AxisValue(padding, d, 0);
    if (a.pad_front > a.kernel / 2) {  // 2 * pad > kernel, without overflow
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "padding[%zu] is %lld; it must be at most half of kernelSize (%lld)",
                         d, static_cast<long long>(a.pad_front), static_cast<long long>(a.kernel));
    }
    if (AxisValue(dilation, d, 1) != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dilation[%zu] is %lld; only 1 is supported", d,
                         static_cast<long long>(AxisValue(dilation, d, 1)));
    }
  }
  const int64_t rank = self->rank();
  for (int64_t d = rank - 3; d < rank; ++d) {
    if (self->view_shape[d] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s is empty in C, H or W; only the batch may be empty",
                         ShapeToString(self->view_shape).c_str());
    }
  }
  expected.assign(self->view_shape.begin(), self->view_shape.end() - 2);
  for (size_t d = 0; d < 2; ++d) {
    const int64_t extent = PooledExtent(self->view_shape[rank - 2 + static_cast<int64_t>(d)], axes[d], ceil_mode);
    if (extent < 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s gives no output on axis %zu with kernelSize %lld",
                         ShapeToString(self->view_shape).c_str(), d, static_cast<long long>(axes[d].kernel));
    }
    expected.push_back(extent);
  }
  return plan.CheckShape("out", out, expected);
}

aclnnStatus PlanMaxPool2dWithIndices(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size,
                                     const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                                     bool ceil_mode, const aclTensor* out, const aclTensor* indices) {
  std::array<PoolAxis, 2> axes;
  Shape expected;
  CANOPY_CHECK(CheckMaxPool2d(plan, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices, kIndexDtypes,
                              axes, expected));
  CANOPY_CHECK(plan.CheckShape("indices", indices, expected));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  TensorRef i = plan.Output(indices, "indices");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  if (self->rank() == 3) {                         // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
    i = Unsqueeze(i, 0);
  }
  // [N, C, 1, H, W]: a depth of one.
  PlanMaxPoolWithIndices(
      plan, Unsqueeze(x, 2), Unsqueeze(y, 2), Unsqueeze(i, 2),
      {std::vector<kernels::PoolWindow>{kernels::PoolWindow{}}, FixedWindows(x.shape[2], axes[0], 1, y.shape[2]),
       FixedWindows(x.shape[3], axes[1], 1, y.shape[3])});
  return ACLNN_SUCCESS;
}

// aclnnMaxPool2dWithMask's indices: an INT8 [N, C, kH * kW, (ceil(Ho * Wo / 16) + 1) * 32]
// buffer whose bytes hold what A2's kernels write from its storage address (the view's offset
// plays no part, as on hardware). A window of more than one element runs MaxPool3DWithArgmaxV2
// there: the INT32 flat indices h * W + w of [N, C, Ho, Wo], contiguous, at the start of the
// buffer; the rest is not written. A 1x1 window runs MaxPoolWithArgmaxV1's 5HD bit mask
// (C0 = 16): UINT16 [N, ceil(C / 16), 1, blocks, 16], bit b of element (n, c1, 0, j, c0)
// set when output position 16 * j + b exists (the window's only element is always its maximum).
constexpr DtypeSet kMaskIndexDtypes = {ACL_INT8};
constexpr int64_t kMaskBlock = 16;         // output positions per mask element, channels per 5HD group
constexpr int64_t kMaskBytesPerBlock = 2;  // a UINT16 mask element as INT8s

TensorRef ContiguousAt(BufferRef buffer, aclDataType dtype, Shape shape) {
  TensorRef ref;
  ref.buffer = buffer;
  ref.dtype = dtype;
  ref.strides = Shape(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) ref.strides[d - 1] = ref.strides[d] * shape[d];
  ref.shape = std::move(shape);
  return ref;
}

// The 1x1 window's bit mask: full blocks all ones, the partial one its low bits, the spare block zero.
void PlanUnitWindowMask(Plan& plan, BufferRef storage, int64_t groups, int64_t positions) {
  const int64_t blocks = CeilDiv(positions, kMaskBlock) + 1;
  const TensorRef mask = ContiguousAt(storage, ACL_INT16, {groups, blocks, kMaskBlock});
  const int64_t full = positions / kMaskBlock;
  const int64_t partial = positions % kMaskBlock;
  plan.Fill(Slice(mask, 1, 0, full), ScalarValue::Integer(-1));  // 0xFFFF
  if (partial != 0) plan.Fill(Slice(mask, 1, full, 1), ScalarValue::Integer((int64_t{1} << partial) - 1));
  const int64_t used = full + (partial != 0 ? 1 : 0);
  plan.Fill(Slice(mask, 1, used, blocks - used), ScalarValue::Integer(0));
}

aclnnStatus PlanMaxPool2dWithMask(Plan& plan, const aclTensor* self, const aclIntArray* kernel_size,
                                  const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                                  bool ceil_mode, const aclTensor* out, const aclTensor* indices) {
  std::array<PoolAxis, 2> axes;
  Shape expected;
  CANOPY_CHECK(CheckMaxPool2d(plan, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices,
                              kMaskIndexDtypes, axes, expected));
  const int64_t rank = self->rank();
  const int64_t positions = expected[rank - 2] * expected[rank - 1];
  const int64_t window = axes[0].kernel * axes[1].kernel;
  Shape mask_shape(expected.begin(), expected.end() - 2);
  mask_shape.push_back(window);
  mask_shape.push_back((CeilDiv(positions, kMaskBlock) + 1) * kMaskBytesPerBlock * kMaskBlock);
  CANOPY_CHECK(plan.CheckShape("indices", indices, mask_shape));

  TensorRef x = plan.Input(self, "self");
  TensorRef y = plan.Output(out, "out");
  const TensorRef mask = plan.Output(indices, "indices");
  if (x.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  if (rank == 3) {                                 // [C, H, W]: one batch
    x = Unsqueeze(x, 0);
    y = Unsqueeze(y, 0);
  }
  const int64_t batch = x.shape[0], channels = x.shape[1];
  const BufferRef storage{mask.buffer.slot, 0};
  if (window == 1) {  // padding is 0 here (at most half the kernel): out samples self with the stride
    plan.Copy(Slice(Slice(x, 2, 0, y.shape[2], axes[0].stride), 3, 0, y.shape[3], axes[1].stride), y);
    PlanUnitWindowMask(plan, storage, batch * CeilDiv(channels, kMaskBlock), positions);
    return ACLNN_SUCCESS;
  }
  const TensorRef flat = ContiguousAt(storage, ACL_INT32, {batch, channels, 1, y.shape[2], y.shape[3]});
  PlanMaxPoolWithIndices(
      plan, Unsqueeze(x, 2), Unsqueeze(y, 2), flat,
      {std::vector<kernels::PoolWindow>{kernels::PoolWindow{}}, FixedWindows(x.shape[2], axes[0], 1, y.shape[2]),
       FixedWindows(x.shape[3], axes[1], 1, y.shape[3])});
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(
    MaxPool2dWithIndices, PlanMaxPool2dWithIndices,
    WithExample(kMaxPoolIndicesTraits,
                "f32[1,1,4,3]@NCHW ints[2,2] ints[2,2] ints[0,0] ints[1,1] false f32[1,1,2,1]@NCHW i32[1,1,2,1]@NCHW"),
    (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, stride),
    (const aclIntArray*, padding), (const aclIntArray*, dilation), (bool, ceilMode), (aclTensor*, out),
    (aclTensor*, indices))

CANOPY_ACLNN_OP(MaxPool2dWithMask, PlanMaxPool2dWithMask,
                (OpTraits{
                    .header = "aclnnop/aclnn_max_pool2d_with_indices.h",
                    .dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8},
                    .max_rank = 4,
                    .example = "f32[1,1,4,3]@NCHW ints[2,2] ints[2,2] ints[0,0] ints[1,1] false f32[1,1,2,1]@NCHW "
                               "i8[1,1,4,64]@NCHW"}),
                (const aclTensor*, self), (const aclIntArray*, kernelSize), (const aclIntArray*, stride),
                (const aclIntArray*, padding), (const aclIntArray*, dilation), (bool, ceilMode), (aclTensor*, out),
                (aclTensor*, indices))
