// aclnnAllGatherMatmul and aclnnMatmulReduceScatter: the two halves of a
// sequence-parallel linear layer, as CANN's mc2 fuses them. AllGatherMatmul
// gathers every rank's rows of x1 (gatherOut, [m * ranks, k]) and multiplies
// them: output = gatherOut @ x2 + bias. MatmulReduceScatter multiplies and
// hands each rank its block of rows of the sum over ranks:
// output = reducescatter(x1 @ x2 + bias), [m / ranks, n].
#include "aclnnop/aclnn_all_gather_matmul.h"
#include "aclnnop/aclnn_matmul_reduce_scatter.h"
#include "collective.h"
#include "ops/framework/aclnn_op.h"
#include "ops/nn/matmul_planner.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHalves = {ACL_FLOAT16, ACL_BF16};
// CANN's A2 kernels for these two run on full meshes of 2, 4 or 8 ranks.
constexpr std::initializer_list<uint32_t> kRankSizes = {2, 4, 8};
// The k CANN's tiling of both takes: [256, 65535).
constexpr int64_t kMinK = 256, kMaxK = 65535;

// What both host layers check, in their order: dtypes (one of f16 / bf16 for
// all), streamMode, a non-zero k; `empty` is set (and nothing else checked)
// where CANN returns at once: x1 (AllGatherMatmul) or x1 or x2 empty.
aclnnStatus CheckOperands(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                          const aclTensor* output, int64_t stream_mode, bool x2_empty_returns, bool& empty) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kHalves));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, {x1->dtype}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {x1->dtype}));
  CANOPY_CHECK(CheckStreamMode(plan, stream_mode));
  if (x1->rank() >= 2 && x1->view_shape[1] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s has k = 0", ShapeToString(x1->view_shape).c_str());
  }
  empty = x1->NumElements() == 0 || (x2_empty_returns && x2->NumElements() == 0);
  if (empty) return ACLNN_SUCCESS;
  CANOPY_CHECK(plan.CheckRank("x1", x1, 2, 2));
  CANOPY_CHECK(plan.CheckRank("x2", x2, 2, 2));
  CANOPY_CHECK(CheckNotTransposed(plan, "x1", x1));
  const int64_t k = x1->view_shape[1];
  if (k != x2->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s do not agree on k",
                       ShapeToString(x1->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
  }
  if (k < kMinK || k >= kMaxK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "k is %lld; CANN's kernel takes %lld <= k < %lld",
                       static_cast<long long>(k), static_cast<long long>(kMinK), static_cast<long long>(kMaxK));
  }
  if (output->rank() != 2 || output->view_shape[1] != x2->view_shape[1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "output %s does not have x2's n (%lld) as its last dim of two",
                       ShapeToString(output->view_shape).c_str(), static_cast<long long>(x2->view_shape[1]));
  }
  if (bias != nullptr) CANOPY_CHECK(plan.CheckShape("bias", bias, {x2->view_shape[1]}));
  return ACLNN_SUCCESS;
}

// A shape CANN's infershape sets (561002 where the client's differs: it would be written past).
aclnnStatus CheckInferredShape(Plan& plan, const char* name, const aclTensor* tensor, const Shape& expected) {
  if (tensor->view_shape == expected) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument '%s' has shape %s; the op writes %s", name,
                     ShapeToString(tensor->view_shape).c_str(), ShapeToString(expected).c_str());
}

// Registers x1, x2 and bias (skipped when null), in prototype order.
struct Operands {
  TensorRef x1, x2;
  std::optional<TensorRef> bias;
};
Operands RegisterInputs(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias) {
  Operands o{plan.Input(x1, "x1"), plan.Input(x2, "x2"), std::nullopt};
  if (bias != nullptr) {
    o.bias = plan.Input(bias, "bias");
  } else {
    plan.SkipInput();
  }
  return o;
}

// out = a @ b (+ bias), f32 accumulation rounded once to out's dtype.
void PlanLinear(Plan& plan, const TensorRef& a, const TensorRef& b, const std::optional<TensorRef>& bias,
                const TensorRef& out) {
  const ProductTerms terms{.alpha = 1.0f, .beta = 1.0f, .bias = bias ? &*bias : nullptr};
  if (PlanProduct(plan, a, b, out, /*cube_math_type=*/0, terms) != ACLNN_SUCCESS) {
    throw std::logic_error("a checked product was rejected");
  }
}

aclnnStatus PlanAllGatherMatmul(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                const char* group, int64_t gather_index, int64_t comm_turn, int64_t stream_mode,
                                const aclTensor* output, const aclTensor* gather_out) {
  bool empty = false;
  CANOPY_CHECK(CheckOperands(plan, x1, x2, bias, output, stream_mode, /*x2_empty_returns=*/false, empty));
  if (empty) return ACLNN_SUCCESS;  // m = 0: CANN returns at once
  const bool gathered_out = gather_out != nullptr && gather_out->NumElements() > 0;
  if (gathered_out && (gather_out->rank() != 2 || gather_out->view_shape[1] != x1->view_shape[1])) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "gatherOut %s does not have x1's k (%lld) as its last dim of two",
                       ShapeToString(gather_out->view_shape).c_str(), static_cast<long long>(x1->view_shape[1]));
  }
  if (gather_index != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "gatherIndex is %lld; only 0 (gather x1) is supported",
                       static_cast<long long>(gather_index));
  }
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kRankSizes, comm));
  const int64_t m = x1->view_shape[0], k = x1->view_shape[1], n = x2->view_shape[1];
  const int64_t rows = m * comm.size;
  CANOPY_CHECK(CheckInferredShape(plan, "output", output, {rows, n}));
  if (gathered_out) CANOPY_CHECK(CheckInferredShape(plan, "gatherOut", gather_out, {rows, k}));
  if (gather_out != nullptr) CANOPY_CHECK(plan.CheckDtype("gatherOut", gather_out->dtype, {x1->dtype}));

  const Operands in = RegisterInputs(plan, x1, x2, bias);
  const TensorRef out = plan.Output(output, "output");
  std::optional<TensorRef> gathered_ref;
  if (gather_out != nullptr) {
    gathered_ref = plan.Output(gather_out, "gatherOut");
  } else {
    plan.SkipOutput();
  }
  const bool into_gather_out = gathered_out && gathered_ref->IsContiguous();
  const TensorRef gathered = into_gather_out ? *gathered_ref : plan.Temporary(x1->dtype, {rows, k});
  AddAllGather(plan, comm, plan.Contiguous(in.x1, x1->dtype), gathered);
  if (gathered_out && !into_gather_out) plan.Copy(gathered, *gathered_ref);
  PlanLinear(plan, gathered, in.x2, in.bias, out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMatmulReduceScatter(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                    const char* group, const char* reduce_op, int64_t comm_turn, int64_t stream_mode,
                                    const aclTensor* output) {
  bool empty = false;
  CANOPY_CHECK(CheckOperands(plan, x1, x2, bias, output, stream_mode, /*x2_empty_returns=*/true, empty));
  if (empty) return ACLNN_SUCCESS;                                                // CANN returns at once
  CANOPY_CHECK(CheckReduceOpSum(plan, reduce_op, ACLNN_ERR_INNER_TILING_ERROR));  // only its tiling checks it
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kRankSizes, comm));
  const int64_t m = x1->view_shape[0], n = x2->view_shape[1];
  if (m % comm.size != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "x1 has %lld rows; the %u ranks need a multiple of %u",
                       static_cast<long long>(m), comm.size, comm.size);
  }
  CANOPY_CHECK(CheckInferredShape(plan, "output", output, {m / comm.size, n}));

  const Operands in = RegisterInputs(plan, x1, x2, bias);
  const TensorRef out = plan.Output(output, "output");
  // Each rank's whole product, rounded to the output dtype, is what the sum reads.
  const TensorRef partial = plan.Temporary(x1->dtype, {m, n});
  PlanLinear(plan, in.x1, in.x2, in.bias, partial);
  const TensorRef block = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  AddReduceScatterSum(plan, comm, partial, block);
  if (!out.IsContiguous()) plan.Copy(block, out);
  return ACLNN_SUCCESS;
}

constexpr OpTraits kAllGatherMatmul{.header = "aclnnop/aclnn_all_gather_matmul.h",
                                    .dtypes = kHalves,
                                    .max_rank = 2,
                                    .example = "f16[2,256] f16[256,3] - 'hccl_world_group' 0 0 1 f16[2,3] f16[2,256]"};
constexpr OpTraits kMatmulReduceScatter{.header = "aclnnop/aclnn_matmul_reduce_scatter.h",
                                        .dtypes = kHalves,
                                        .max_rank = 2,
                                        .example = "f16[2,256] f16[256,3] - 'hccl_world_group' 'sum' 0 1 f16[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(AllGatherMatmul, PlanAllGatherMatmul, kAllGatherMatmul, (const aclTensor*, x1), (const aclTensor*, x2),
                (const aclTensor*, bias, optional), (const char*, group), (int64_t, gatherIndex), (int64_t, commTurn),
                (int64_t, streamMode), (const aclTensor*, output), (const aclTensor*, gatherOut, optional))

CANOPY_ACLNN_OP(MatmulReduceScatter, PlanMatmulReduceScatter, kMatmulReduceScatter, (const aclTensor*, x1),
                (const aclTensor*, x2), (const aclTensor*, bias, optional), (const char*, group),
                (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, output))
