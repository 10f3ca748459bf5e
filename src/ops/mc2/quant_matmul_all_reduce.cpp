// aclnnQuantMatmulAllReduce, V2 and V3: the full-quantisation (A8W8) form of
// MatmulAllReduce on Atlas A2. Each rank computes
//   part = dequantScale [* pertokenScale] * (x1 @ x2 + bias) [+ x3]
// (INT8 operands multiplied exactly, an INT32 bias, the dequantisation in f32,
// the result and the x3 sum rounded to the output dtype) and the parts are
// summed over the ranks of the communicator `group` names. V3's
// commQuantScale1 / commQuantScale2 make the sum travel as INT8 (PlanInt8AllReduce).
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_quant_matmul_all_reduce.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v3.h"
#include "common/dtype.h"
#include "matmul_all_reduce.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/quant_matmul.h"
#include "ops/nn/quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHalves = {ACL_FLOAT16, ACL_BF16};

// The operands of one call: pertoken and the comm scales are null where the
// version has none (or the client passed none).
struct Operands {
  const aclTensor *x1, *x2, *bias, *x3, *dequant, *pertoken, *comm1, *comm2, *output;
};

// CANN's dtype checks of the three versions, in its order (161002).
aclnnStatus CheckDtypes(Plan& plan, const Operands& o) {
  CANOPY_CHECK(plan.CheckDtype("x1", o.x1->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("x2", o.x2->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("dequantScale", o.dequant->dtype, {ACL_UINT64, ACL_INT64, ACL_BF16, ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("output", o.output->dtype, kHalves));
  if (o.bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", o.bias->dtype, {ACL_INT32}));
  if (o.x3 != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("x3", o.x3->dtype, kHalves));
    CANOPY_CHECK(plan.CheckDtype("x3", o.x3->dtype, {o.output->dtype}));
  }
  if (o.output->dtype == ACL_BF16 || o.dequant->dtype == ACL_BF16) {
    CANOPY_CHECK(plan.CheckDtype("dequantScale", o.dequant->dtype, {o.output->dtype}));
  }
  if (o.pertoken != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("pertokenScale", o.pertoken->dtype, {ACL_FLOAT}));
    // An f16 output with a per-token scale takes an f32 dequantScale.
    if (o.output->dtype == ACL_FLOAT16) {
      CANOPY_CHECK(plan.CheckDtype("dequantScale", o.dequant->dtype, {o.pertoken->dtype}));
    }
  }
  if (o.comm1 != nullptr && o.comm2 != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("commQuantScale1", o.comm1->dtype, {o.output->dtype}));
    CANOPY_CHECK(plan.CheckDtype("commQuantScale2", o.comm2->dtype, {o.output->dtype}));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus Invalid(Plan& plan, const char* name, const aclTensor* t, const char* expected) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), expected);
}

// [n] or [1, n] (`one_allowed`: or [1]).
bool IsRowOfN(const aclTensor* t, int64_t n, bool one_allowed) {
  const Shape& s = t->view_shape;
  return (s.size() == 1 && (s[0] == n || (one_allowed && s[0] == 1))) || (s.size() == 2 && s[0] == 1 && s[1] == n);
}

// CANN's shape checks (161002). x2 is the [k, n] view, transposed or not.
aclnnStatus CheckShapes(Plan& plan, const Operands& o) {
  CANOPY_CHECK(plan.CheckRank("x1", o.x1, 2, 3));
  CANOPY_CHECK(plan.CheckRank("x2", o.x2, 2, 2));
  const int64_t k = o.x1->view_shape.back();
  if (k != o.x2->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the last dim of x1 %s differs from the first dim of x2 %s",
                       ShapeToString(o.x1->view_shape).c_str(), ShapeToString(o.x2->view_shape).c_str());
  }
  Shape out_shape = o.x1->view_shape;
  const int64_t n = o.x2->view_shape[1];
  out_shape.back() = n;
  CANOPY_CHECK(plan.CheckShape("output", o.output, out_shape));
  if (o.bias != nullptr) {
    CANOPY_CHECK(plan.CheckRank("bias", o.bias, 1, 1));
    CANOPY_CHECK(plan.CheckShape("bias", o.bias, {n}));
  }
  if (o.x3 != nullptr) CANOPY_CHECK(plan.CheckShape("x3", o.x3, out_shape));
  if (!IsRowOfN(o.dequant, n, true)) return Invalid(plan, "dequantScale", o.dequant, "[1], [n] or [1, n]");
  if (o.pertoken != nullptr) {
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < o.x1->view_shape.size(); ++d) rows *= o.x1->view_shape[d];
    if (o.pertoken->rank() != 1 || o.pertoken->view_shape[0] != rows) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'pertokenScale' has shape %s; it must be [%lld], x1's rows",
                         ShapeToString(o.pertoken->view_shape).c_str(), static_cast<long long>(rows));
    }
  }
  if ((o.comm1 == nullptr) != (o.comm2 == nullptr)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "commQuantScale1 and commQuantScale2 must be given together (commQuantScale%d is null)",
                       o.comm1 == nullptr ? 1 : 2);
  }
  if (o.comm1 != nullptr) {
    CANOPY_CHECK(plan.CheckRank("commQuantScale1", o.comm1, 1, 2));
    CANOPY_CHECK(plan.CheckRank("commQuantScale2", o.comm2, 1, 2));
    if (o.comm1->rank() != o.comm2->rank()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "commQuantScale1 %s and commQuantScale2 %s differ in rank",
                         ShapeToString(o.comm1->view_shape).c_str(), ShapeToString(o.comm2->view_shape).c_str());
    }
    // CANN's host layer reads both scales' extents from commQuantScale2; its
    // tiling checks commQuantScale1 (below).
    if (!IsRowOfN(o.comm2, n, false)) return Invalid(plan, "commQuantScale2", o.comm2, "[n] or [1, n]");
  }
  return ACLNN_SUCCESS;
}

// V3's INT8 communication of `part` ([m, n], contiguous, f16 / bf16), as
// CANN's A2 kernel does it: each rank's part divided by scale1 in f32, cast
// to f16 and to INT8 (half to even, saturated); the INT8 pieces summed over
// the ranks (exactly: CANN sums them in f32 after its all-to-all), times
// scale1 / scale2 (divided in f32), cast to f16 and to INT8 again, and the
// result times scale2 (in f32, rounded to the output dtype) into `part`.
// scale1 and scale2 are [1, n] of the output dtype, the same on every rank.
void PlanInt8AllReduce(Plan& plan, const TensorRef& part, const TensorRef& scale1, const TensorRef& scale2,
                       const CommGroup& comm) {
  const int64_t m = part.shape[0], n = part.shape[1];
  kernels::QuantAffineDesc quantise;
  quantise.in_dtype = part.dtype;
  quantise.out_dtype = ACL_INT8;
  quantise.elements = m * n;
  quantise.axis_extent = n;
  quantise.param_dtype = scale1.dtype;
  quantise.param_count = n;
  quantise.divide = true;
  quantise.through_half = true;
  const TensorRef pieces = plan.Temporary(ACL_INT8, {m, n});
  AddAffineStep(plan, quantise, part, scale1, nullptr, pieces);
  const TensorRef sum = plan.Temporary(ACL_INT32, {m, n});
  plan.Copy(pieces, sum);
  AddAllReduceSum(plan, comm, sum, sum);
  const TensorRef sum_f32 = plan.Temporary(ACL_FLOAT, {m, n});
  plan.Copy(sum, sum_f32);
  const TensorRef ratio = plan.Temporary(ACL_FLOAT, {1, n});
  plan.Elementwise(kernels::ElementwiseOp::kDiv, kernels::ComputeType::kF32, {scale1, scale2}, ratio,
                   ScalarValue::Integer(1));
  kernels::QuantAffineDesc requantise = quantise;
  requantise.in_dtype = ACL_FLOAT;
  requantise.param_dtype = ACL_FLOAT;
  requantise.divide = false;
  const TensorRef gathered = plan.Temporary(ACL_INT8, {m, n});
  AddAffineStep(plan, requantise, sum_f32, ratio, nullptr, gathered);
  kernels::QuantAffineDesc dequantise = quantise;
  dequantise.quantise = false;
  dequantise.in_dtype = ACL_INT8;
  dequantise.out_dtype = part.dtype;
  dequantise.param_dtype = scale2.dtype;
  dequantise.divide = false;
  dequantise.through_half = false;
  AddAffineStep(plan, dequantise, gathered, scale2, nullptr, part);
}

// `has_pertoken` / `has_comm`: the version's prototype has those parameters.
aclnnStatus PlanQuantAllReduce(Plan& plan, const Operands& o, bool has_pertoken, bool has_comm, const char* group,
                               const char* reduce_op, int64_t comm_turn, int64_t stream_mode) {
  CANOPY_CHECK(CheckDtypes(plan, o));
  CANOPY_CHECK(CheckReduceOpSum(plan, reduce_op));
  CANOPY_CHECK(CheckStreamMode(plan, stream_mode));
  CANOPY_CHECK(CheckShapes(plan, o));
  // The tiling's checks (561002).
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kAllReduceRankSizes, comm));
  const int64_t k = o.x1->view_shape.back(), n = o.x2->view_shape[1];
  if (o.output->NumElements() == 0 || k == 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "output %s is empty or k is 0 (x1 %s): CANN's A8W8 kernel needs m, k and n above 0",
                       ShapeToString(o.output->view_shape).c_str(), ShapeToString(o.x1->view_shape).c_str());
  }
  if (o.comm1 != nullptr && !IsRowOfN(o.comm1, n, false)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "argument 'commQuantScale1' has shape %s; it must be [n] or [1, n]",
                       ShapeToString(o.comm1->view_shape).c_str());
  }
  const int64_t m = o.output->NumElements() / n;

  const auto input_or_skip = [&plan](const aclTensor* t, const char* name) {
    if (t == nullptr) {
      plan.SkipInput();
      return TensorRef{};
    }
    return plan.Input(t, name);
  };
  QuantProduct p;
  p.x1 = AsMatrix(plan, plan.Input(o.x1, "x1"), m, k);
  p.x2 = plan.Input(o.x2, "x2");
  p.bias = input_or_skip(o.bias, "bias");
  const TensorRef x3 = input_or_skip(o.x3, "x3");
  p.scale = plan.Input(o.dequant, "dequantScale");
  if (has_pertoken) p.pertoken = input_or_skip(o.pertoken, "pertokenScale");
  TensorRef comm1, comm2;
  if (has_comm) {
    comm1 = input_or_skip(o.comm1, "commQuantScale1");
    comm2 = input_or_skip(o.comm2, "commQuantScale2");
  }
  const TensorRef out = plan.Output(o.output, "output");
  p.has_bias = o.bias != nullptr;
  p.has_pertoken = o.pertoken != nullptr;
  p.scale_count = o.dequant->NumElements();
  p.m = m;
  p.n = n;
  p.k = k;
  // The collective works on one contiguous buffer: this rank's part.
  const TensorRef part = out.IsContiguous() ? *Reshape(out, {m, n}) : plan.Temporary(out.dtype, {m, n});
  p.out = part;
  CANOPY_CHECK(PlanQuantProduct(plan, p));
  const TensorRef x3_rows = o.x3 != nullptr ? AsMatrix(plan, x3, m, n) : TensorRef{};
  if (o.comm1 != nullptr) {
    PlanAddX3(plan, o.x3 != nullptr ? &x3_rows : nullptr, part);
    PlanInt8AllReduce(plan, part, AsMatrix(plan, comm1, 1, n), AsMatrix(plan, comm2, 1, n), comm);
  } else {
    PlanAddX3AllReduce(plan, o.x3 != nullptr ? &x3_rows : nullptr, comm, part);
  }
  if (!out.IsContiguous()) plan.Copy(*Reshape(part, out.shape), out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanV1(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* x3,
                   const aclTensor* dequant, const char* group, const char* reduce_op, int64_t comm_turn,
                   int64_t stream_mode, const aclTensor* output) {
  const Operands o{x1, x2, bias, x3, dequant, nullptr, nullptr, nullptr, output};
  return PlanQuantAllReduce(plan, o, false, false, group, reduce_op, comm_turn, stream_mode);
}

aclnnStatus PlanV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* x3,
                   const aclTensor* dequant, const aclTensor* pertoken, const char* group, const char* reduce_op,
                   int64_t comm_turn, int64_t stream_mode, const aclTensor* output) {
  const Operands o{x1, x2, bias, x3, dequant, pertoken, nullptr, nullptr, output};
  return PlanQuantAllReduce(plan, o, true, false, group, reduce_op, comm_turn, stream_mode);
}

aclnnStatus PlanV3(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* x3,
                   const aclTensor* dequant, const aclTensor* pertoken, const aclTensor* comm1, const aclTensor* comm2,
                   const char* group, const char* reduce_op, int64_t comm_turn, int64_t stream_mode,
                   const aclTensor* output) {
  const Operands o{x1, x2, bias, x3, dequant, pertoken, comm1, comm2, output};
  return PlanQuantAllReduce(plan, o, true, true, group, reduce_op, comm_turn, stream_mode);
}

constexpr DtypeSet kDtypes = {ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

}  // namespace

CANOPY_ACLNN_OP(QuantMatmulAllReduce, PlanV1,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_all_reduce.h",
                          .dtypes = kDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "i8[2,4] i8[4,3] i32[3] - bf16[3] 'hccl_world_group' 'sum' 0 1 bf16[2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, bias, optional),
                (const aclTensor*, x3, optional), (const aclTensor*, dequantScale), (const char*, group),
                (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, output))

CANOPY_ACLNN_OP(QuantMatmulAllReduceV2, PlanV2,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_all_reduce_v2.h",
                          .dtypes = kDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "i8[2,4] i8[4,3] i32[3] - f32[3] f32[2] 'hccl_world_group' 'sum' 0 1 f16[2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, biasOptional, optional),
                (const aclTensor*, x3Optional, optional), (const aclTensor*, dequantScale),
                (const aclTensor*, pertokenScaleOptional, optional), (const char*, group), (const char*, reduceOp),
                (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, output))

CANOPY_ACLNN_OP(QuantMatmulAllReduceV3, PlanV3,
                (OpTraits{.header = "aclnnop/aclnn_quant_matmul_all_reduce_v3.h",
                          .dtypes = kDtypes,
                          .max_rank = 3,
                          .private_formats = true,
                          .example = "i8[2,4] i8[4,3] i32[3] - bf16[3] - - - 'hccl_world_group' 'sum' 0 1 bf16[2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, biasOptional, optional),
                (const aclTensor*, x3Optional, optional), (const aclTensor*, dequantScale),
                (const aclTensor*, pertokenScaleOptional, optional),
                (const aclTensor*, commQuantScale1Optional, optional),
                (const aclTensor*, commQuantScale2Optional, optional), (const char*, group), (const char*, reduceOp),
                (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, output))
