// aclnnQuantConvolution and aclnnQuantConvolutionWeightNz: output =
// (input (*) weight) * scale[c] + bias[c], a per-channel quantised convolution
// of INT8 operands, as Atlas A2 runs it: there CANN's host code sends both to
// Conv3DV2 (registered for ascend910b with INT8 operands, FLOAT scale and a
// BFLOAT16 / FLOAT16 NCDHW output), so only the 3-D form exists, with one
// group, a bias, a FLOAT scale and padding of one value per spatial dim. The
// INT8 products are summed by Convolution's oneDNN path in f32 (exact while a
// sum stays within 2^24), then scaled and biased in f32 and rounded once to
// the output dtype.
//
// The WeightNz form takes the weight as the NPU stores it, FRACTAL_Z_3D
// (aclnnNpuFormatCast's layout, ops/math/conv_layout.h): the descriptor's view
// is the NCDHW weight, its storage [D*C1*H*W, N1, 16, 32] from the view's
// first element on. CANN's code makes no contiguous copy of it and neither
// does Canopy: the storage is read whatever the view's strides say, unpacked
// into an NCDHW temporary and convolved as the plain form's weight.
//
// CANN's A2 checks, in its order, the same for both forms: nulls (bias
// included), dtypes (scale, then the (input, weight, output, bias)
// combinations), ranks and attribute lengths, formats (the WeightNz weight's
// FRACTAL_Z_3D instead of NCDHW), values (positive dims, then the WeightNz
// storage shape, bias / scale / channel extents, strides, dilations, pads,
// groups, the inferred output shape). On A2 it reads neither transposed,
// outputPadding, offset, offsetx nor roundMode (the doc calls them reserved:
// false, null, null, 0, null), and neither does Canopy.
#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_convolution.h"
#include "convolution.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/math/conv_layout.h"
#include "spatial_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kQuantConvDtypes = {ACL_INT8, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kRank = 5;  // A2 runs the 3-D convolution only
constexpr size_t kSpatial = 3;
constexpr int64_t kWeightC0 = 32;  // FRACTAL_Z_3D's C block: 32 INT8 channels, as CANN's code fixes it

// How the weight reaches the op: plain NCDHW, or as the NPU stores it (WeightNz).
enum class WeightLayout { kNcdhw, kFractalZ3d };

// The (input, weight, output, bias) dtypes A2's host code accepts.
struct DtypeCombination {
  aclDataType output, bias;
};
constexpr DtypeCombination kCombinations[] = {
    {ACL_BF16, ACL_FLOAT}, {ACL_BF16, ACL_BF16}, {ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16}};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                        const aclTensor* scale, const aclTensor* output) {
  if (scale->dtype != ACL_FLOAT) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scale has dtype %s; Atlas A2 takes FLOAT only",
                       DtypeName(scale->dtype));
  }
  const bool accepted = input->dtype == ACL_INT8 && weight->dtype == ACL_INT8 &&
                        std::any_of(std::begin(kCombinations), std::end(kCombinations), [&](const DtypeCombination& c) {
                          return c.output == output->dtype && c.bias == bias->dtype;
                        });
  if (!accepted) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "input, weight, output and bias have dtypes %s, %s, %s, %s; Atlas A2 takes INT8, INT8 and "
                       "BFLOAT16 output with FLOAT or BFLOAT16 bias, or FLOAT16 output with FLOAT or FLOAT16 bias",
                       DtypeName(input->dtype), DtypeName(weight->dtype), DtypeName(output->dtype),
                       DtypeName(bias->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckRanks(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                       const aclTensor* scale, const aclTensor* output, const aclIntArray* stride,
                       const aclIntArray* padding, const aclIntArray* dilation) {
  CANOPY_CHECK(plan.CheckRank("scale", scale, 1, 1));
  CANOPY_CHECK(plan.CheckRank("bias", bias, 1, 1));
  CANOPY_CHECK(plan.CheckRank("input", input, kRank, kRank));
  CANOPY_CHECK(plan.CheckRank("weight", weight, kRank, kRank));
  CANOPY_CHECK(plan.CheckRank("output", output, kRank, kRank));
  // CANN reads a null dilation as an empty list: a wrong length, not a null pointer.
  const struct {
    const char* name;
    const aclIntArray* array;
  } lists[] = {{"stride", stride}, {"dilation", dilation}, {"padding", padding}};
  for (const auto& list : lists) {
    const size_t length = list.array ? list.array->values.size() : 0;
    if (length != kSpatial) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has %zu values; Atlas A2 takes %zu (D, H, W)", list.name, length,
                         kSpatial);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckFormats(Plan& plan, WeightLayout layout, const aclTensor* input, const aclTensor* weight,
                         const aclTensor* bias, const aclTensor* scale, const aclTensor* output) {
  CANOPY_CHECK(CheckFormat(plan, "bias", bias, ACL_FORMAT_ND));
  CANOPY_CHECK(CheckFormat(plan, "scale", scale, ACL_FORMAT_ND));
  CANOPY_CHECK(CheckFormat(plan, "input", input, ACL_FORMAT_NCDHW));
  if (layout == WeightLayout::kNcdhw) {
    CANOPY_CHECK(CheckFormat(plan, "weight", weight, ACL_FORMAT_NCDHW));
  } else if (weight->format != ACL_FRACTAL_Z_3D) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'weight' has format %d; aclnnQuantConvolutionWeightNz takes FRACTAL_Z_3D (%d), the "
                       "layout aclnnNpuFormatCast gives",
                       static_cast<int>(weight->format), static_cast<int>(ACL_FRACTAL_Z_3D));
  }
  return CheckFormat(plan, "output", output, ACL_FORMAT_NCDHW);
}

// The WeightNz weight's storage is FRACTAL_Z_3D's of its NCDHW view, C0 32 and N0 16.
aclnnStatus CheckWeightStorage(Plan& plan, const aclTensor* weight) {
  const ConvAxes axes = ConvAxesFrom("NCDHW", weight->view_shape, {});
  const Shape expected = ConvBlockedShape(ConvBlocking::kFractal, axes, true, kWeightC0);
  if (weight->storage_shape == expected) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument 'weight' %s has storage shape %s; its FRACTAL_Z_3D storage must be %s (D*C1*H*W, N1, "
                     "16, 32: what aclnnNpuFormatCastCalculateSizeAndFormat gives)",
                     ShapeToString(weight->view_shape).c_str(), ShapeToString(weight->storage_shape).c_str(),
                     ShapeToString(expected).c_str());
}

aclnnStatus CheckValues(Plan& plan, WeightLayout layout, const aclTensor* input, const aclTensor* weight,
                        const aclTensor* bias, const aclTensor* scale, const aclTensor* output,
                        const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                        int64_t groups) {
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "input", input, 0));
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "weight", weight, 0));
  if (layout == WeightLayout::kFractalZ3d) CANOPY_CHECK(CheckWeightStorage(plan, weight));
  const int64_t out_channels = weight->view_shape[0];
  CANOPY_CHECK(plan.CheckShape("bias", bias, {out_channels}));
  CANOPY_CHECK(plan.CheckShape("scale", scale, {out_channels}));
  CANOPY_CHECK(CheckIntArray(plan, "stride", stride, {kSpatial}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "dilation", dilation, {kSpatial}, 1));
  CANOPY_CHECK(CheckIntArray(plan, "padding", padding, {kSpatial}, 0));
  if (groups != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groups is %lld; Atlas A2 takes 1", static_cast<long long>(groups));
  }
  if (weight->view_shape[1] != input->view_shape[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input has %lld channels and weight is %s; weight.shape[1] must match",
                       static_cast<long long>(input->view_shape[1]), ShapeToString(weight->view_shape).c_str());
  }
  CANOPY_CHECK(CheckNonEmptyFrom(plan, "output", output, 0));
  Shape expected = {input->view_shape[0], out_channels};
  for (size_t d = 0; d < kSpatial; ++d) {
    const int64_t extent = dilation->values[d] * (weight->view_shape[2 + d] - 1) + 1;  // the dilated kernel
    const int64_t padded = input->view_shape[2 + d] + 2 * padding->values[d];
    if (padded < extent) {  // the doc's error list has it; the output check alone would let some through
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "input spatial dim %zu is %lld after padding, smaller than the dilated kernel (%lld)", d,
                         static_cast<long long>(padded), static_cast<long long>(extent));
    }
    expected.push_back((padded - extent) / stride->values[d] + 1);
  }
  return plan.CheckShape("output", output, expected);
}

// Both forms: the checks in CANN's order, then the weight (unpacked from its
// FRACTAL_Z_3D storage for WeightNz) convolved, scaled and biased.
aclnnStatus PlanQuantConv(Plan& plan, WeightLayout layout, const aclTensor* input, const aclTensor* weight,
                          const aclTensor* bias, const aclTensor* scale, const aclIntArray* stride,
                          const aclIntArray* padding, const aclIntArray* dilation, int64_t groups,
                          const aclTensor* output) {
  CANOPY_CHECK(CheckDtypes(plan, input, weight, bias, scale, output));
  CANOPY_CHECK(CheckRanks(plan, input, weight, bias, scale, output, stride, padding, dilation));
  CANOPY_CHECK(CheckFormats(plan, layout, input, weight, bias, scale, output));
  CANOPY_CHECK(CheckValues(plan, layout, input, weight, bias, scale, output, stride, padding, dilation, groups));

  const TensorRef x = plan.Input(input, "input");
  TensorRef w = plan.Input(weight, "weight");
  TensorRef b = plan.Input(bias, "bias");
  TensorRef s = plan.Input(scale, "scale");
  plan.SkipInput();  // offset
  const TensorRef y = plan.Output(output, "output");
  if (layout == WeightLayout::kFractalZ3d) {
    TensorRef blocked = w;  // the whole storage, from the view's first element on
    blocked.shape = weight->storage_shape;
    blocked.strides = ContiguousStrides(blocked.shape);
    w = plan.Temporary(ACL_INT8, weight->view_shape);
    const ConvAxes axes = ConvAxesFrom("NCDHW", w.shape, w.strides);
    AddConvLayoutStep(plan, w, blocked, axes, ConvBlocking::kFractal, kWeightC0, false);
  }
  const TensorRef sum = plan.Temporary(ACL_FLOAT, y.shape);
  CANOPY_CHECK(AddPlainConvolution(plan, x, w, sum, stride->values, padding->values, dilation->values));
  for (size_t d = 0; d < kSpatial; ++d) {  // [C] as [C, 1, 1, 1]: one value per output channel
    b = Unsqueeze(b, b.rank());
    s = Unsqueeze(s, s.rank());
  }
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {sum, s}, sum, ScalarValue::Integer(1));
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {sum, b}, y, ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanQuantConvolution(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                 const aclTensor* scale, const aclTensor* /*offset: reserved*/,
                                 const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                                 bool /*transposed: reserved*/, const aclIntArray* /*outputPadding: reserved*/,
                                 int64_t groups, int32_t /*offsetx: reserved*/, const char* /*roundMode: reserved*/,
                                 const aclTensor* output) {
  return PlanQuantConv(plan, WeightLayout::kNcdhw, input, weight, bias, scale, stride, padding, dilation, groups,
                       output);
}

aclnnStatus PlanQuantConvolutionWeightNz(Plan& plan, const aclTensor* input, const aclTensor* weight,
                                         const aclTensor* bias, const aclTensor* scale,
                                         const aclTensor* /*offset: reserved*/, const aclIntArray* stride,
                                         const aclIntArray* padding, const aclIntArray* dilation,
                                         bool /*transposed: reserved*/, const aclIntArray* /*outputPadding: reserved*/,
                                         int64_t groups, int32_t /*offsetx: reserved*/,
                                         const char* /*roundMode: reserved*/, const aclTensor* output) {
  return PlanQuantConv(plan, WeightLayout::kFractalZ3d, input, weight, bias, scale, stride, padding, dilation, groups,
                       output);
}

}  // namespace

CANOPY_ACLNN_OP(QuantConvolution, PlanQuantConvolution,
                (OpTraits{.header = "aclnnop/aclnn_quant_convolution.h",
                          .dtypes = kQuantConvDtypes,
                          .max_rank = kRank,
                          // !CODE (registry_example.h): CANN reads a null dilation as a list of the wrong length
                          .example = "i8[1,2,3,4,4]@NCDHW i8[3,2,1,3,3]@NCDHW f32[3] f32[3] - ints[1,1,1] ints[0,1,1] "
                                     "ints[1,1,1]!161002 false - 1 0 - bf16[1,3,3,4,4]@NCDHW"}),
                (const aclTensor*, input), (const aclTensor*, weight), (const aclTensor*, bias),
                (const aclTensor*, scale), (const aclTensor*, offset, optional), (const aclIntArray*, stride),
                (const aclIntArray*, padding), (const aclIntArray*, dilation, optional), (bool, transposed),
                (const aclIntArray*, outputPadding, optional), (int64_t, groups), (int32_t, offsetx),
                (const char*, roundMode, optional), (aclTensor*, output))

// The weight's FRACTAL_Z_3D storage of [3,2,1,3,3] is [9,1,16,32]; the kit lets
// the private format through and the recipe checks every tensor's format.
CANOPY_ACLNN_OP(QuantConvolutionWeightNz, PlanQuantConvolutionWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_quant_convolution.h",
                          .dtypes = kQuantConvDtypes,
                          .max_rank = kRank,
                          .private_formats = true,
                          // !CODE (registry_example.h): CANN reads a null dilation as a list of the wrong length
                          .example = "i8[1,2,3,4,4]@NCDHW i8[3,2,1,3,3]@FRACTAL_Z_3D f32[3] f32[3] - ints[1,1,1] "
                                     "ints[0,1,1] ints[1,1,1]!161002 false - 1 0 - bf16[1,3,3,4,4]@NCDHW"}),
                (const aclTensor*, input), (const aclTensor*, weight), (const aclTensor*, bias),
                (const aclTensor*, scale), (const aclTensor*, offset, optional), (const aclIntArray*, stride),
                (const aclIntArray*, padding), (const aclIntArray*, dilation, optional), (bool, transposed),
                (const aclIntArray*, outputPadding, optional), (int64_t, groups), (int32_t, offsetx),
                (const char*, roundMode, optional), (aclTensor*, output))
