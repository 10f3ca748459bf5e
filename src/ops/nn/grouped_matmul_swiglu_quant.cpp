// aclnnGroupedMatmulSwigluQuant and aclnnGroupedMatmulSwigluQuantWeightNZ (CANN's
// gmm/grouped_matmul_swiglu_quant, A8W8 form) as the A2 kernel computes them: x's rows
// split among the experts by groupList's cumulative ends, then for row r of expert e
//   c = (x[r] @ weight[e]) * xScale[r] * weightScale[e]       (f32, n columns)
//   s = swish(c[:n/2]) * c[n/2:]                               (the first half activated)
//   outputScale[r] = max|s| / 127, output[r] = rint(s / outputScale[r])   (INT8)
// bias, offset and outputOffset are not used by CANN's A8W8 kernel (its host code
// warns and goes on). Canopy plans it from shared blocks: the experts' weights scaled
// by their channel scales and the grouped product (kernels/grouped_matmul.h), the
// per-token scale, the SwiGLU step (kernels/glu.h) and DynamicQuant's row
// quantisation (quant_rows.h). Rows past the last end, which CANN leaves as they
// were, come out as 0 with scale 0.
// Weights: a 5-D FRACTAL_NZ view is the NZ blocks [e, n / 32, k / 16, 16, 32] (element
// [e, j1, k1, k0, j0] is weight[e][k1 * 16 + k0][j1 * 32 + j0]); a 3-D view is [e, k, n],
// read through the view (Canopy's TransMatmulWeight leaves an ND weight as it is).
// The A8W4 form (INT4 or INT32-packed weights, UINT64 scales) is not implemented.
#include <utility>

#include "aclnnop/aclnn_grouped_matmul_swiglu_quant.h"
#include "aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h"
#include "kernels/glu.h"
#include "kernels/grouped_matmul.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The host code's lists. xScale: the host code also takes FLOAT16 and BFLOAT16, but the
// op definition registers kernels for FLOAT only, so CANN fails those in phase 1 when it
// looks for the kernel (561103); so does Canopy.
constexpr DtypeSet kWeightScaleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kWeightDtypes = {ACL_INT8, ACL_INT4};
constexpr DtypeSet kOpDtypes = {ACL_INT8, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT64};
constexpr int64_t kNzK0 = 16, kNzN0 = 32;  // an INT8 NZ block: 16 rows of 32 bytes
constexpr int64_t kMaxN = 10240;           // N limit of the A8W8 host checks
constexpr int64_t kKLimit = 65536;         // k must stay below it
constexpr int64_t kNdRank = 3, kNzRank = 5;

struct SwigluQuantArgs {
  const aclTensor *x, *weight, *bias, *offset, *weight_scale, *x_scale, *group_list, *output, *output_scale,
      *output_offset;
  bool weight_nz_view;  // the weight's view is the 5-D NZ blocks
};

aclnnStatus CheckRanks(Plan& plan, const SwigluQuantArgs& a) {
  CANOPY_CHECK(plan.CheckRank("x", a.x, 2, 2));
  const int64_t weight_rank = a.weight_nz_view ? kNzRank : kNdRank;
  CANOPY_CHECK(plan.CheckRank("weight", a.weight, weight_rank, weight_rank));
  CANOPY_CHECK(plan.CheckRank("weightScale", a.weight_scale, 2, 2));
  CANOPY_CHECK(plan.CheckRank("xScale", a.x_scale, 1, 1));
  CANOPY_CHECK(plan.CheckRank("groupList", a.group_list, 1, 1));
  CANOPY_CHECK(plan.CheckRank("output", a.output, 2, 2));
  return plan.CheckRank("outputScale", a.output_scale, 1, 1);
}

aclnnStatus CheckShapes(Plan& plan, const SwigluQuantArgs& a) {
  const int64_t m = a.x->view_shape[0], k = a.x->view_shape[1];
  const int64_t n = a.weight_scale->view_shape[1], e = a.weight->view_shape[0];
  if (n % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weightScale's n (%lld) must be even: output takes n / 2 columns",
                       static_cast<long long>(n));
  }
  if (a.weight_nz_view) {
    CANOPY_CHECK(plan.CheckShape("weight", a.weight, {e, n / kNzN0, k / kNzK0, kNzK0, kNzN0}));
    // Canopy reads the blocks as they are: a partial block would lie outside the tensor.
    if (k % kNzK0 != 0 || n % kNzN0 != 0) {
      return plan.Reject(
          ACLNN_ERR_PARAM_INVALID, "weight %s: a 5-D NZ weight needs k (%lld) a multiple of 16 and n (%lld) of 32",
          ShapeToString(a.weight->view_shape).c_str(), static_cast<long long>(k), static_cast<long long>(n));
    }
  } else {
    CANOPY_CHECK(plan.CheckShape("weight", a.weight, {e, k, n}));
  }
  CANOPY_CHECK(plan.CheckShape("weightScale", a.weight_scale, {e, n}));
  CANOPY_CHECK(plan.CheckShape("xScale", a.x_scale, {m}));
  CANOPY_CHECK(plan.CheckShape("output", a.output, {m, n / 2}));
  CANOPY_CHECK(plan.CheckShape("outputScale", a.output_scale, {m}));
  const int64_t groups = a.group_list->view_shape[0];
  if (groups > e) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupList holds %lld ends; the weight has %lld experts",
                       static_cast<long long>(groups), static_cast<long long>(e));
  }
  if (n > kMaxN) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "n is %lld; at most %lld is supported", static_cast<long long>(n),
                       static_cast<long long>(kMaxN));
  }
  if (k >= kKLimit) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's k is %lld; it must be below %lld", static_cast<long long>(k),
                       static_cast<long long>(kKLimit));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckDtypes(Plan& plan, const SwigluQuantArgs& a) {
  CANOPY_CHECK(plan.CheckDtype("x", a.x->dtype, DtypeSet{ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("weight", a.weight->dtype, kWeightDtypes));
  CANOPY_CHECK(plan.CheckDtype("weightScale", a.weight_scale->dtype, kWeightScaleDtypes));
  CANOPY_CHECK(plan.CheckDtype("xScale", a.x_scale->dtype, kWeightScaleDtypes));
  CANOPY_CHECK(plan.CheckDtype("groupList", a.group_list->dtype, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("output", a.output->dtype, DtypeSet{ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("outputScale", a.output_scale->dtype, DtypeSet{ACL_FLOAT}));
  if (a.x_scale->dtype != ACL_FLOAT) {
    return plan.Reject(ACLNN_ERR_INNER_NULLPTR, "xScale is %s: the kernels take FLOAT only",
                       DtypeName(a.x_scale->dtype));
  }
  return ACLNN_SUCCESS;
}

// CANN's checks in its order: null pointers (the kit), the A8W8 ranks and shapes, the
// dtypes, then the formats.
aclnnStatus CheckArguments(Plan& plan, const SwigluQuantArgs& a, bool weight_nz_entry) {
  const bool int8_x = a.x->dtype == ACL_INT8;
  if (int8_x && (a.weight->dtype == ACL_INT4 || a.weight->dtype == ACL_INT32)) {
    return plan.Reject(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                       "weight is %s: the A8W4 form (int4 weights) is not implemented on Canopy",
                       DtypeName(a.weight->dtype));
  }
  if (int8_x && a.weight->dtype == ACL_INT8) {
    CANOPY_CHECK(CheckRanks(plan, a));
    CANOPY_CHECK(CheckShapes(plan, a));
  }
  CANOPY_CHECK(CheckDtypes(plan, a));
  // The ND entry point takes the weight in FRACTAL_NZ only; an ND weight is one that
  // Canopy's TransMatmulWeight prepared (it leaves the descriptor's format as it was).
  if (!weight_nz_entry && a.weight_nz_view != (a.weight->format == ACL_FORMAT_FRACTAL_NZ)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight has format %d with %lld dimensions: FRACTAL_NZ needs 5",
                       static_cast<int>(a.weight->format), static_cast<long long>(a.weight->rank()));
  }
  if (a.weight->format != ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(plan.CheckPlainFormat("weight", a.weight));
  for (const auto& [name, t] :
       {std::pair{"x", a.x}, std::pair{"output", a.output}, std::pair{"bias", a.bias}, std::pair{"offset", a.offset},
        std::pair{"weightScale", a.weight_scale}, std::pair{"xScale", a.x_scale}, std::pair{"groupList", a.group_list},
        std::pair{"outputScale", a.output_scale}, std::pair{"outputOffset", a.output_offset}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckPlainFormat(name, t));
  }
  return ACLNN_SUCCESS;
}

// The weight as a dense f32 [e, k, n], each expert's columns times its channel scales.
TensorRef ScaledWeights(Plan& plan, const TensorRef& weight, const TensorRef& weight_scale, bool nz_view, int64_t k,
                        int64_t n) {
  const int64_t e = weight.shape[0];
  TensorRef dense = plan.Temporary(ACL_FLOAT, {e, k, n});
  if (nz_view) {
    // [e, j1, k1, k0, j0] -> [e, k1, k0, j1, j0], which is [e, k, n] row-major.
    const TensorRef blocks = Permute(weight, {0, 2, 3, 1, 4});
    plan.Copy(blocks, *Reshape(dense, blocks.shape));
  } else {
    plan.Copy(weight, dense);
  }
  const TensorRef scales = BroadcastTo(Unsqueeze(weight_scale, 1), {e, k, n});
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {dense, scales}, dense, ScalarValue::Integer(1));
  return dense;
}

aclnnStatus PlanSwigluQuantCommon(Plan& plan, const SwigluQuantArgs& a, bool weight_nz_entry) {
  CANOPY_CHECK(CheckArguments(plan, a, weight_nz_entry));
  const TensorRef x = plan.Input(a.x, "x");
  const TensorRef weight = plan.Input(a.weight, "weight");
  for (const auto& [name, t] : {std::pair{"bias", a.bias}, std::pair{"offset", a.offset}}) {
    if (t != nullptr) {
      plan.Input(t, name);  // not used by the A8W8 kernel
    } else {
      plan.SkipInput();
    }
  }
  const TensorRef weight_scale = plan.Input(a.weight_scale, "weightScale");
  const TensorRef x_scale = plan.Input(a.x_scale, "xScale");
  const TensorRef group_list = plan.Input(a.group_list, "groupList");
  const TensorRef output = plan.Output(a.output, "output");
  const TensorRef output_scale = plan.Output(a.output_scale, "outputScale");
  if (a.output_offset != nullptr) {
    plan.Output(a.output_offset, "outputOffset");  // not written, as on the NPU
  } else {
    plan.SkipOutput();
  }
  if (output.NumElements() == 0 || group_list.NumElements() == 0 || output_scale.NumElements() == 0) {
    return ACLNN_SUCCESS;
  }
  const int64_t m = x.shape[0], k = x.shape[1], n = weight_scale.shape[1];

  kernels::GroupedGemmDesc gemm;
  gemm.groups = group_list.shape[0];
  gemm.m = m;
  gemm.k = k;
  gemm.n = n;
  gemm.x = plan.Contiguous(x, ACL_FLOAT).buffer;
  gemm.weight = ScaledWeights(plan, weight, weight_scale, a.weight_nz_view, k, n).buffer;
  gemm.group_list = group_list.buffer;
  gemm.group_list_stride = group_list.shape[0] > 1 ? group_list.strides[0] : 1;
  const TensorRef product = plan.Temporary(ACL_FLOAT, {m, n});
  plan.Fill(product, ScalarValue::Integer(0));  // rows past the last end
  gemm.y = product.buffer;
  plan.AddStep(kernels::MakeGroupedGemmStep(gemm));
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {product, BroadcastTo(Unsqueeze(x_scale, 1), {m, n})},
                   product, ScalarValue::Integer(1));

  kernels::GluDesc glu;
  glu.activation = kernels::GluActivation::kSwish;
  glu.activate_first = true;
  glu.groups = m;
  glu.half = n / 2;
  glu.dtype = ACL_FLOAT;
  glu.in = product.buffer;
  const TensorRef activated = plan.Temporary(ACL_FLOAT, {m, n / 2});
  glu.out = activated.buffer;
  plan.AddStep(kernels::MakeGluStep(glu));
  PlanDynamicQuantRows(plan, activated, nullptr, output, output_scale);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGroupedMatmulSwigluQuant(Plan& plan, const aclTensor* x, const aclTensor* weight, const aclTensor* bias,
                                         const aclTensor* offset, const aclTensor* weight_scale,
                                         const aclTensor* x_scale, const aclTensor* group_list, const aclTensor* output,
                                         const aclTensor* output_scale, const aclTensor* output_offset) {
  const SwigluQuantArgs a{x,
                          weight,
                          bias,
                          offset,
                          weight_scale,
                          x_scale,
                          group_list,
                          output,
                          output_scale,
                          output_offset,
                          weight->format == ACL_FORMAT_FRACTAL_NZ};
  return PlanSwigluQuantCommon(plan, a, false);
}

// CANN takes the weight's storage as NZ whatever the descriptor says: a 5-D view is
// the NZ blocks, a 3-D one the [e, k, n] view.
aclnnStatus PlanGroupedMatmulSwigluQuantWeightNz(Plan& plan, const aclTensor* x, const aclTensor* weight,
                                                 const aclTensor* bias, const aclTensor* offset,
                                                 const aclTensor* weight_scale, const aclTensor* x_scale,
                                                 const aclTensor* group_list, const aclTensor* output,
                                                 const aclTensor* output_scale, const aclTensor* output_offset) {
  const bool nz_view =
      weight->rank() == kNzRank || (weight->rank() != kNdRank && weight->format == ACL_FORMAT_FRACTAL_NZ);
  const SwigluQuantArgs a{x,          weight, bias,         offset,        weight_scale, x_scale,
                          group_list, output, output_scale, output_offset, nz_view};
  return PlanSwigluQuantCommon(plan, a, true);
}

constexpr OpTraits kSwigluQuantTraits{
    .header = "aclnnop/aclnn_grouped_matmul_swiglu_quant.h",
    .dtypes = kOpDtypes,
    .private_formats = true,
    .example = "i8[4,32] i8[2,32,64] - - f32[2,64] f32[4] i64[2]{2:2} i8[4,32] f32[4] -"};

}  // namespace

CANOPY_ACLNN_OP(GroupedMatmulSwigluQuant, PlanGroupedMatmulSwigluQuant, kSwigluQuantTraits, (const aclTensor*, x),
                (const aclTensor*, weight), (const aclTensor*, bias, optional), (const aclTensor*, offset, optional),
                (const aclTensor*, weightScale), (const aclTensor*, xScale), (const aclTensor*, groupList),
                (aclTensor*, output), (aclTensor*, outputScale), (aclTensor*, outputOffset, optional))

CANOPY_ACLNN_OP(GroupedMatmulSwigluQuantWeightNZ, PlanGroupedMatmulSwigluQuantWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h",
                          .dtypes = kOpDtypes,
                          .private_formats = true,
                          .example = "i8[4,32] i8[2,32,64] - - f32[2,64] f32[4] i64[2]{2:2} i8[4,32] f32[4] -"}),
                (const aclTensor*, x), (const aclTensor*, weight), (const aclTensor*, bias, optional),
                (const aclTensor*, offset, optional), (const aclTensor*, weightScale), (const aclTensor*, xScale),
                (const aclTensor*, groupList), (aclTensor*, output), (aclTensor*, outputScale),
                (aclTensor*, outputOffset, optional))
