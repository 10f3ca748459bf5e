// aclnnTransposeBatchMatMul: y [B, M, N] = permute(x1, permX1) @ permute(x2, permX2),
// stored as permute(y, permY) = [M, B, N], or with batchSplitFactor f > 1 as
// [f, M, B / f * N] (batch b lands in block b / (B / f), column (b % (B / f)) * N + n).
//
// aclnnTransposeBatchMatMulWeightNz is the same product with x2 prepared by
// TransMatmulWeight: FRACTAL_NZ (5-D storage), or ND as Canopy's
// TransMatmulWeight leaves the descriptor, read through its view either way
// (see trans_matmul_weight.cpp). Its A2 rules (CANN's code, DAV_2201): x1 and
// x2 FLOAT16 or BFLOAT16, out x1's dtype, x2's k and n above 1.
#include <cstdint>
#include <optional>
#include <vector>

#include "aclnnop/aclnn_transpose_batch_mat_mul.h"
#include "matmul_planner.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kRank = 3;
// CANN's A2 kernels index batch, N (and K of an untransposed x1) in 16 bits.
constexpr int64_t kInnerAxisLimit = 65536;
const std::vector<int64_t> kIdentity = {0, 1, 2};
const std::vector<int64_t> kSwapFirst = {1, 0, 2};
const std::vector<int64_t> kSwapLast = {0, 2, 1};

aclnnStatus CheckPerm(Plan& plan, const char* name, const aclIntArray* perm, const std::vector<int64_t>& a,
                      const std::vector<int64_t>* b) {
  if (perm->values == a || (b != nullptr && perm->values == *b)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s must be %s%s%s", name, ShapeToString(a).c_str(),
                     b != nullptr ? " or " : "", b != nullptr ? ShapeToString(*b).c_str() : "");
}

constexpr int64_t kNzStorageRank = 5;
constexpr DtypeSet kScaleDtypes = {ACL_INT64, ACL_UINT64};

// The WeightNz form's dtypes on A2, in CANN's order.
aclnnStatus CheckWeightNzDtypes(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                                const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kMatmulHalfDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kMatmulHalfDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_FLOAT16, ACL_BF16, ACL_INT8}));
  if (scale != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, kScaleDtypes));
    CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, {ACL_FLOAT16}));
  }
  if (out->dtype != x1->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "out (%s) must have x1's dtype (%s)", DtypeName(out->dtype),
                       DtypeName(x1->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanTbmm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                     const aclTensor* scale, const aclIntArray* perm_x1, const aclIntArray* perm_x2,
                     const aclIntArray* perm_y, int8_t cube_math_type, int32_t batch_split_factor, const aclTensor* out,
                     bool weight_nz) {
  // CANN returns a success code without an executor for these (a bug); Canopy rejects them.
  CANOPY_CHECK(plan.CheckRank("x1", x1, kRank, kRank));
  CANOPY_CHECK(plan.CheckRank("x2", x2, kRank, kRank));
  for (const auto& [name, perm] :
       {std::pair{"permX1", perm_x1}, std::pair{"permX2", perm_x2}, std::pair{"permY", perm_y}}) {
    if (static_cast<int64_t>(perm->values.size()) != kRank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has %zu values; it must have 3", name, perm->values.size());
    }
  }
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  if (scale != nullptr && batch_split_factor != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batchSplitFactor must be 1 with a scale (it is %d)",
                       static_cast<int>(batch_split_factor));
  }
  if (weight_nz) {
    CANOPY_CHECK(CheckWeightNzFormats(plan, "x2", x2, {{"x1", x1}, {"out", out}}));
    // CANN takes x2 in FRACTAL_NZ only; ND is the descriptor Canopy's TransMatmulWeight leaves.
    if (x2->format != ACL_FORMAT_FRACTAL_NZ && x2->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x2' has format %d; it must be FRACTAL_NZ",
                         static_cast<int>(x2->format));
    }
  } else {
    CANOPY_CHECK(plan.CheckPlainFormat("x1", x1));
    CANOPY_CHECK(plan.CheckPlainFormat("out", out));
  }
  if (x1->dtype != x2->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 (%s) and x2 (%s) must have one dtype", DtypeName(x1->dtype),
                       DtypeName(x2->dtype));
  }
  if (weight_nz) {
    CANOPY_CHECK(CheckWeightNzDtypes(plan, x1, x2, scale, out));
  } else {
    CANOPY_CHECK(CheckMatmulOperand(plan, "x1", x1));
    CANOPY_CHECK(CheckMatmulOperand(plan, "x2", x2));
    CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8}));
  }

  CANOPY_CHECK(CheckPerm(plan, "permX1", perm_x1, kIdentity, &kSwapFirst));
  CANOPY_CHECK(CheckPerm(plan, "permX2", perm_x2, kIdentity, &kSwapLast));
  CANOPY_CHECK(CheckPerm(plan, "permY", perm_y, kSwapFirst, nullptr));
  const Shape& s1 = x1->view_shape;
  const Shape& s2 = x2->view_shape;
  const std::vector<int64_t>& p1 = perm_x1->values;
  const std::vector<int64_t>& p2 = perm_x2->values;
  const int64_t batch = s2[p2[0]], k = s1[p1[2]], n = s2[p2[2]], m = s1[p1[1]];
  if (k != s2[p2[1]]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s do not agree on K", ShapeToString(s1).c_str(),
                       ShapeToString(s2).c_str());
  }
  const bool x1_transposed = p1 == kSwapFirst, x2_transposed = p2 == kSwapLast;
  if (n >= kInnerAxisLimit || batch >= kInnerAxisLimit) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batch (%lld) and N (%lld) must be below 65536",
                       static_cast<long long>(batch), static_cast<long long>(n));
  }
  if (!x1_transposed && k >= kInnerAxisLimit) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "K (%lld) must be below 65536 when x1 is not transposed",
                       static_cast<long long>(k));
  }
  if (x1_transposed && (k >= kInnerAxisLimit || batch * k >= kInnerAxisLimit) &&
      (scale != nullptr || batch_split_factor != 1)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "with x1 transposed and batch * K >= 65536, scale and batchSplitFactor != 1 are not supported");
  }
  if (x2_transposed && (scale != nullptr || batch_split_factor != 1 || !x1_transposed)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "with x2 transposed, permX1 must be [1, 0, 2], scale null and batchSplitFactor 1");
  }
  if (batch_split_factor <= 0 || s1[p1[0]] % batch_split_factor != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batchSplitFactor %d must be positive and divide the batch %lld",
                       static_cast<int>(batch_split_factor), static_cast<long long>(s1[p1[0]]));
  }
  if (weight_nz) {
    CANOPY_CHECK(CheckWeightNzExtents(plan, "x2", x2));
    if (x2->format == ACL_FORMAT_FRACTAL_NZ && static_cast<int64_t>(x2->storage_shape.size()) != kNzStorageRank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x2 is FRACTAL_NZ with storage shape %s; it must have 5 dims",
                         ShapeToString(x2->storage_shape).c_str());
    }
  }
  if (x1->NumElements() == 0 || x2->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s must not be empty", ShapeToString(s1).c_str(),
                       ShapeToString(s2).c_str());
  }
  if (bias != nullptr) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "bias is reserved and must be null");
  // Canopy's own limits: the INT8 output through a scale (TransQuantParamV2's
  // packed words) is not implemented, and x1's batch must be x2's.
  if (scale != nullptr || out->dtype == ACL_INT8) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scale and an INT8 out (quantised output) are not implemented");
  }
  if (s1[p1[0]] != batch) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1's batch (%lld) and x2's batch (%lld) differ",
                       static_cast<long long>(s1[p1[0]]), static_cast<long long>(batch));
  }
  const int64_t split = batch_split_factor;
  const int64_t columns = batch / split * n;
  const Shape expected = split == 1 ? Shape{m, batch, n} : Shape{split, m, columns};
  CANOPY_CHECK(plan.CheckShape("out", out, expected));

  const TensorRef a = Permute(plan.Input(x1, "x1"), p1);
  const TensorRef b = Permute(plan.Input(x2, "x2"), p2);
  plan.SkipInput();  // bias
  plan.SkipInput();  // scale
  const TensorRef result = plan.Output(out, "out");
  if (split == 1) return PlanProduct(plan, a, b, Permute(result, kSwapFirst), cube_math_type);
  // [B, M, N] as [f, B/f, M, N] goes to out seen as [f, M, B/f, N], dims 1 and 2 swapped.
  const TensorRef product = plan.Temporary(out->dtype, {batch, m, n});
  CANOPY_CHECK(PlanProduct(plan, a, b, product, cube_math_type));
  const int64_t per_block = batch / split;
  const std::optional<TensorRef> blocks = Reshape(product, {split, per_block, m, n});
  std::optional<TensorRef> out_blocks = Reshape(result, {split, m, per_block, n});
  TensorRef dense = result;
  if (!out_blocks) {  // a view that does not split: store densely, then copy through it
    dense = plan.Temporary(out->dtype, result.shape);
    out_blocks = Reshape(dense, {split, m, per_block, n});
  }
  plan.Copy(*blocks, Transpose(*out_blocks, 1, 2));
  if (!SameView(dense, result)) plan.Copy(dense, result);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanTransposeBatchMatMul(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                     const aclTensor* scale, const aclIntArray* perm_x1, const aclIntArray* perm_x2,
                                     const aclIntArray* perm_y, int8_t cube_math_type, int32_t batch_split_factor,
                                     const aclTensor* out) {
  return PlanTbmm(plan, x1, x2, bias, scale, perm_x1, perm_x2, perm_y, cube_math_type, batch_split_factor, out, false);
}

aclnnStatus PlanTransposeBatchMatMulWeightNz(Plan& plan, const aclTensor* x1, const aclTensor* x2,
                                             const aclTensor* bias, const aclTensor* scale, const aclIntArray* perm_x1,
                                             const aclIntArray* perm_x2, const aclIntArray* perm_y,
                                             int8_t cube_math_type, int32_t batch_split_factor, const aclTensor* out) {
  return PlanTbmm(plan, x1, x2, bias, scale, perm_x1, perm_x2, perm_y, cube_math_type, batch_split_factor, out, true);
}

}  // namespace

CANOPY_ACLNN_OP(TransposeBatchMatMulWeightNz, PlanTransposeBatchMatMulWeightNz,
                (OpTraits{
                    .header = "aclnnop/aclnn_transpose_batch_mat_mul.h",
                    .dtypes = kMatmulHalfDtypes,
                    .private_formats = true,
                    .example = "f16[2,3,32] f16[2,32,16] - - ints[0,1,2] ints[0,1,2] ints[1,0,2] 0 1 f16[3,2,16]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, scale, optional), (const aclIntArray*, permX1), (const aclIntArray*, permX2),
                (const aclIntArray*, permY), (int8_t, cubeMathType), (int32_t, batchSplitFactor), (aclTensor*, out))
CANOPY_ACLNN_OP(TransposeBatchMatMul, PlanTransposeBatchMatMul,
                (OpTraits{.header = "aclnnop/aclnn_transpose_batch_mat_mul.h",
                          .dtypes = kMatmulDtypes,
                          .example = "f32[2,3,4] f32[2,4,5] - - ints[0,1,2] ints[0,1,2] ints[1,0,2] 0 1 f32[3,2,5]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, scale, optional), (const aclIntArray*, permX1), (const aclIntArray*, permX2),
                (const aclIntArray*, permY), (int8_t, cubeMathType), (int32_t, batchSplitFactor), (aclTensor*, out))
