// aclnnGroupedMatmulSwigluQuant and aclnnGroupedMatmulSwigluQuantWeightNZ (CANN's
// gmm/grouped_matmul_swiglu_quant) as the A2 kernels compute them: x's rows split among
// the experts by groupList's cumulative ends, then for row r of expert e
//   A8W8: c = (x[r] @ weight[e]) * weightScale[e] * xScale[r]            (f32, n columns)
//   A8W4: c = (sum over K groups g of ((x[r] - 8) @ weight[e]_g) * weightScale[e, g]
//              + bias[e]) * xScale[r]
//   s = swish(c[:n/2]) * c[n/2:]                               (the first half activated)
//   outputScale[r] = max|s| / 127, output[r] = rint(s / outputScale[r])   (INT8)
// A8W4 (INT4 weights, or INT32 words of eight, low nibble first; UINT64 / INT64 scales
// holding an f32 in their low 32 bits, [e, n] or per group of K [e, groups, n]): the
// kernel splits each x into a high and a low int4 part, 16 * high + low = x - 8, and
// bias (FLOAT [e, n], required) is the client's auxiliary matrix that puts the 8 back
// (8 * sum_k weight * scale); Canopy computes the same sum in f32 where the NPU rounds
// the two partial products to fp16. bias and offset are not used by the A8W8 kernel,
// offset and outputOffset by neither (CANN's host code warns and goes on). Canopy plans
// it from shared blocks: the experts' weights dequantised by their channel (or group)
// scales (A8W4: with the bias as one more row of K, against a column of ones), the
// grouped product (kernels/grouped_matmul.h), the per-token scale, the SwiGLU step
// (kernels/glu.h) and DynamicQuant's row quantisation (quant_rows.h). Rows past the
// last end are left as they were, as CANN's kernel leaves them.
// Weights: a 5-D FRACTAL_NZ view is the NZ blocks [e, n / n0, k / 16, 16, n0], n0 32
// (INT8) or 64 (INT4) (element [e, j1, k1, k0, j0] is weight[e][k1 * 16 + k0][j1 * n0 +
// j0]); a 3-D view is [e, k, n], read through the view (Canopy's TransMatmulWeight leaves
// an ND weight as it is).
#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "aclnnop/aclnn_grouped_matmul_swiglu_quant.h"
#include "aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h"
#include "kernels/glu.h"
#include "kernels/grouped_matmul.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"
#include "weight_quant_matmul.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// Rows [0, end) of `src` (contiguous) into `dst` (any strides, rank 1 or 2, same dtype), end being the group
// list's last cumulative end (checked by the grouped product before): the rows past it keep dst's values, as
// CANN's kernel leaves them.
class LeadingRowsStep final : public Step {
 public:
  LeadingRowsStep(const TensorRef& list, const TensorRef& src, const TensorRef& dst)
      : list_(list), src_(src), dst_(dst) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* list = reinterpret_cast<const int64_t*>(context.Resolve(list_.buffer));
    const int64_t rows = dst_.shape[0];
    const int64_t last = list[(list_.shape[0] - 1) * list_.strides[0]];
    const int64_t end = std::clamp<int64_t>(last, 0, rows);
    const int64_t width = dst_.rank() == 2 ? dst_.shape[1] : 1;
    const int64_t column_step = dst_.rank() == 2 ? dst_.strides[1] : 0;
    const auto element = static_cast<int64_t>(DtypeSize(dst_.dtype));
    const char* src = context.Resolve(src_.buffer);
    char* dst = context.Resolve(dst_.buffer);
    for (int64_t r = 0; r < end; ++r) {
      for (int64_t c = 0; c < width; ++c) {
        std::memcpy(dst + (r * dst_.strides[0] + c * column_step) * element, src + (r * width + c) * element,
                    static_cast<size_t>(element));
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "rows up to the group list's end of " + ShapeToString(dst_.shape); }

 private:
  TensorRef list_, src_, dst_;
};

// The host code's lists. xScale: the host code also takes FLOAT16 and BFLOAT16, but the
// op definition registers kernels for FLOAT only, so CANN fails those in phase 1 when it
// looks for the kernel (561103); so does Canopy.
constexpr DtypeSet kWeightScaleDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kA8W4WeightScaleDtypes = {ACL_UINT64, ACL_INT64};  // INT64 read as UINT64, as CANN does
constexpr DtypeSet kWeightDtypes = {ACL_INT8, ACL_INT4};
constexpr DtypeSet kOpDtypes = {ACL_INT8, ACL_INT4, ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT64, ACL_UINT64};
constexpr int64_t kNzK0 = 16, kNzN0 = 32;  // an INT8 NZ block: 16 rows of 32 bytes
constexpr int64_t kNzN0Int4 = 64;          // an INT4 NZ block: 16 rows of 64 values
constexpr int64_t kMaxN = 10240;           // N limit of the host checks
constexpr int64_t kKLimit = 65536;         // k must stay below it (A8W8)
constexpr int64_t kKLimitA8W4 = 20000;     // and below this (A8W4)
constexpr int64_t kInt4PerInt32 = 8;
constexpr int64_t kMsdShift = 8;  // the A8W4 kernel's low int4 part is x's low nibble minus 8
constexpr int64_t kNdRank = 3, kNzRank = 5;

struct SwigluQuantArgs {
  const aclTensor *x, *weight, *bias, *offset, *weight_scale, *x_scale, *group_list, *output, *output_scale,
      *output_offset;
  bool weight_nz_view;  // the weight's view is the 5-D NZ blocks

  // INT8 x with INT4 weights (or INT32 words of eight INT4).
  bool A8W4() const { return x->dtype == ACL_INT8 && (weight->dtype == ACL_INT4 || weight->dtype == ACL_INT32); }
  // The weight's view shape counted in INT4 values (INT32: eight a word, along the last dim).
  Shape WeightShape() const {
    Shape shape = weight->view_shape;
    if (weight->dtype == ACL_INT32 && !shape.empty()) shape.back() *= kInt4PerInt32;
    return shape;
  }
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

// What both forms check after the weight and its scales: the per-row tensors, the
// group list's length, the n limit and the form's k limit.
aclnnStatus CheckRowsAndLimits(Plan& plan, const SwigluQuantArgs& a, int64_t n, int64_t k_limit) {
  const int64_t m = a.x->view_shape[0], k = a.x->view_shape[1], e = a.weight->view_shape[0];
  CANOPY_CHECK(plan.CheckShape("xScale", a.x_scale, {m}));
  CANOPY_CHECK(plan.CheckShape("output", a.output, {m, n / 2}));
  CANOPY_CHECK(plan.CheckShape("outputScale", a.output_scale, {m}));
  const int64_t ends = a.group_list->view_shape[0];
  if (ends > e) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupList holds %lld ends; the weight has %lld experts",
                       static_cast<long long>(ends), static_cast<long long>(e));
  }
  if (n > kMaxN) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "n is %lld; at most %lld is supported", static_cast<long long>(n),
                       static_cast<long long>(kMaxN));
  }
  if (k >= k_limit) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's k is %lld; it must be below %lld (%s)", static_cast<long long>(k),
                       static_cast<long long>(k_limit), a.A8W4() ? "A8W4" : "A8W8");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const SwigluQuantArgs& a) {
  const int64_t k = a.x->view_shape[1];
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
  return CheckRowsAndLimits(plan, a, n, kKLimit);
}

aclnnStatus CheckRanksA8W4(Plan& plan, const SwigluQuantArgs& a) {
  CANOPY_CHECK(plan.CheckRank("x", a.x, 2, 2));
  const int64_t weight_rank = a.weight_nz_view ? kNzRank : kNdRank;
  CANOPY_CHECK(plan.CheckRank("weight", a.weight, weight_rank, weight_rank));
  CANOPY_CHECK(plan.CheckRank("weightScale", a.weight_scale, 2, 3));  // per channel or per group of K
  CANOPY_CHECK(plan.CheckRank("bias", a.bias, 2, 2));
  CANOPY_CHECK(plan.CheckRank("xScale", a.x_scale, 1, 1));
  CANOPY_CHECK(plan.CheckRank("groupList", a.group_list, 1, 1));
  CANOPY_CHECK(plan.CheckRank("output", a.output, 2, 2));
  return plan.CheckRank("outputScale", a.output_scale, 1, 1);
}

aclnnStatus CheckShapesA8W4(Plan& plan, const SwigluQuantArgs& a) {
  const int64_t k = a.x->view_shape[1], e = a.weight->view_shape[0];
  const Shape& scale_shape = a.weight_scale->view_shape;
  const int64_t n = scale_shape.back(), groups = scale_shape.size() == 3 ? scale_shape[1] : 1;
  if (groups <= 0 || k % groups != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "weightScale %s gives %lld groups along k (%lld); they must be at least 1 and divide k",
                       ShapeToString(scale_shape).c_str(), static_cast<long long>(groups), static_cast<long long>(k));
  }
  if (n % 2 != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weightScale's n (%lld) must be even: output takes n / 2 columns",
                       static_cast<long long>(n));
  }
  const Shape weight_shape = a.WeightShape();
  const Shape expected = a.weight_nz_view ? Shape{e, n / kNzN0Int4, k / kNzK0, kNzK0, kNzN0Int4} : Shape{e, k, n};
  if (weight_shape != expected) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight holds %s INT4 values; it must hold %s",
                       ShapeToString(weight_shape).c_str(), ShapeToString(expected).c_str());
  }
  // Canopy reads the blocks as they are: a partial block would lie outside the tensor.
  if (a.weight_nz_view && (k % kNzK0 != 0 || n % kNzN0Int4 != 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "weight %s: a 5-D NZ INT4 weight needs k (%lld) a multiple of 16 and n (%lld) of 64",
                       ShapeToString(weight_shape).c_str(), static_cast<long long>(k), static_cast<long long>(n));
  }
  CANOPY_CHECK(plan.CheckShape("bias", a.bias, {e, n}));
  CANOPY_CHECK(
      plan.CheckShape("weightScale", a.weight_scale, scale_shape.size() == 3 ? Shape{e, groups, n} : Shape{e, n}));
  return CheckRowsAndLimits(plan, a, n, kKLimitA8W4);
}

aclnnStatus CheckDtypes(Plan& plan, const SwigluQuantArgs& a) {
  CANOPY_CHECK(plan.CheckDtype("x", a.x->dtype, DtypeSet{ACL_INT8}));
  if (a.A8W4()) {  // INT32 words count as INT4 here (CANN unpacks them first)
    CANOPY_CHECK(plan.CheckDtype("bias", a.bias->dtype, DtypeSet{ACL_FLOAT}));
    CANOPY_CHECK(plan.CheckDtype("weightScale", a.weight_scale->dtype, kA8W4WeightScaleDtypes));
  } else {
    CANOPY_CHECK(plan.CheckDtype("weight", a.weight->dtype, kWeightDtypes));
    CANOPY_CHECK(plan.CheckDtype("weightScale", a.weight_scale->dtype, kWeightScaleDtypes));
  }
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
  if (a.A8W4()) {
    // The bias carries the auxiliary matrix the A8W4 kernel adds; CANN answers a null
    // one with the null-pointer status.
    if (a.bias == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR,
                         "bias is null: with INT4 weights it is the auxiliary matrix (8 * sum_k weight * scale) the "
                         "kernel adds back, and is required");
    }
    CANOPY_CHECK(CheckRanksA8W4(plan, a));
    CANOPY_CHECK(CheckShapesA8W4(plan, a));
  } else if (a.x->dtype == ACL_INT8 && a.weight->dtype == ACL_INT8) {
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

// The packed INT4 weight (INT4 pairs, or INT32 words of eight) as contiguous bytes in
// [e, k, n] order, then read as INT4 [e, k, n]; null when its view splits a byte.
std::optional<TensorRef> PackedInt4Weight(Plan& plan, const SwigluQuantArgs& a, const TensorRef& weight, int64_t k,
                                          int64_t n) {
  const bool words = weight.dtype == ACL_INT32;
  const int64_t bytes_per_element = words ? 4 : 1, elements_per_byte = words ? 1 : 2;
  TensorRef bytes = weight;
  bytes.dtype = ACL_INT8;
  if (bytes.strides.back() != 1 || (!words && a.weight->offset % 2 != 0)) return std::nullopt;
  for (size_t d = 0; d + 1 < bytes.strides.size(); ++d) {
    if (bytes.strides[d] * bytes_per_element % elements_per_byte != 0) return std::nullopt;
    bytes.strides[d] = bytes.strides[d] * bytes_per_element / elements_per_byte;
  }
  bytes.shape.back() = bytes.shape.back() * bytes_per_element / elements_per_byte;
  // NZ blocks [e, j1, k1, k0, j0 bytes] -> [e, k1, k0, j1, j0 bytes], which is [e, k, n / 2] row-major.
  const TensorRef packed = plan.Contiguous(a.weight_nz_view ? Permute(bytes, {0, 2, 3, 1, 4}) : bytes, ACL_INT8);
  const Shape shape = {weight.shape[0], k, n};
  return TensorRef{packed.buffer, ACL_INT4, shape, ContiguousStrides(shape)};
}

// A8W4's weight as dense f32 [e, k + 1, n]: each expert's weight times its group scales,
// then its bias row (the product adds it against x's column of ones).
aclnnStatus A8W4Weights(Plan& plan, const SwigluQuantArgs& a, const TensorRef& weight, const TensorRef& bias,
                        const TensorRef& weight_scale, int64_t k, int64_t n, TensorRef& dense) {
  const std::optional<TensorRef> packed = PackedInt4Weight(plan, a, weight, k, n);
  if (!packed) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "weight's view splits the bytes its INT4 values are packed in: its last dim must be "
                       "contiguous, its other strides and its offset even");
  }
  const int64_t e = weight.shape[0];
  const TensorRef grid = weight_scale.rank() == 2 ? Unsqueeze(weight_scale, 1) : weight_scale;  // [e, groups, n]
  const TensorRef scales = plan.Contiguous(DeqScaleValues(grid), ACL_FLOAT);
  dense = plan.Temporary(ACL_FLOAT, {e, k + 1, n});
  PlanDequantizeExperts(plan, *packed, scales, nullptr, dense);
  plan.Copy(Unsqueeze(bias, 1), Narrow(dense, 1, k, 1));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSwigluQuantCommon(Plan& plan, const SwigluQuantArgs& a, bool weight_nz_entry) {
  CANOPY_CHECK(CheckArguments(plan, a, weight_nz_entry));
  const bool a8w4 = a.A8W4();
  const TensorRef x = plan.Input(a.x, "x");
  const TensorRef weight = plan.Input(a.weight, "weight");
  TensorRef bias;
  for (const auto& [name, t] : {std::pair{"bias", a.bias}, std::pair{"offset", a.offset}}) {
    if (t != nullptr) {
      const TensorRef ref = plan.Input(t, name);  // offset: used by neither kernel; bias: by A8W4's
      if (t == a.bias) bias = ref;
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
  const int64_t m = x.shape[0], k = x.shape[1], n = weight_scale.shape.back();

  kernels::GroupedGemmDesc gemm;
  gemm.groups = group_list.shape[0];
  gemm.m = m;
  gemm.n = n;
  if (a8w4) {
    // x - 8 (the kernel's 16 * high + low) and a column of ones for the bias row.
    TensorRef dense;
    CANOPY_CHECK(A8W4Weights(plan, a, weight, bias, weight_scale, k, n, dense));
    const TensorRef shifted = plan.Temporary(ACL_FLOAT, {m, k + 1});
    plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {x}, Narrow(shifted, 1, 0, k), ScalarValue::Integer(1),
                     ScalarValue::Integer(-kMsdShift));
    plan.Fill(Narrow(shifted, 1, k, 1), ScalarValue::Integer(1));
    gemm.k = k + 1;
    gemm.x = shifted.buffer;
    gemm.weight = dense.buffer;
  } else {
    gemm.k = k;
    gemm.x = plan.Contiguous(x, ACL_FLOAT).buffer;
    gemm.weight = ScaledWeights(plan, weight, weight_scale, a.weight_nz_view, k, n).buffer;
  }
  gemm.group_list = group_list.buffer;
  gemm.group_list_stride = group_list.shape[0] > 1 ? group_list.strides[0] : 1;
  const TensorRef product = plan.Temporary(ACL_FLOAT, {m, n});
  plan.Fill(product, ScalarValue::Integer(0));  // rows past the last end: quantised, then not stored
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
  // Quantised into temporaries; only the rows the group list names reach output and outputScale.
  const TensorRef quantised = plan.Temporary(output.dtype, output.shape);
  const TensorRef scales = plan.Temporary(output_scale.dtype, output_scale.shape);
  PlanDynamicQuantRows(plan, activated, nullptr, quantised, scales);
  plan.AddStep(std::make_unique<LeadingRowsStep>(group_list, quantised, output), {group_list, quantised}, output);
  plan.AddStep(std::make_unique<LeadingRowsStep>(group_list, scales, output_scale), {group_list, scales}, output_scale);
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
