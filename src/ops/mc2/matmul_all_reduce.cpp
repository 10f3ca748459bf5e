// aclnnMatmulAllReduce and aclnnMatmulAllReduceV2: output = allreduce(x1 @ x2
// + bias [+ x3]) over the communicator `group` names (CANN's mc2 fusion of a
// tensor-parallel row-split linear layer and its all-reduce).
#include "matmul_all_reduce.h"

#include "aclnnop/aclnn_matmul_all_reduce.h"
#include "aclnnop/aclnn_matmul_all_reduce_v2.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/matmul_planner.h"

using namespace canopy;
using namespace canopy::ops;

namespace canopy::ops {

aclnnStatus CheckMatmulAllReduceOperands(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                         const aclTensor* x3, const aclTensor* output) {
  constexpr DtypeSet kHalves = {ACL_FLOAT16, ACL_BF16};
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, kHalves));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kHalves));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, kHalves));
  if (x3 != nullptr) CANOPY_CHECK(plan.CheckDtype("x3", x3->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, {x1->dtype}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {x1->dtype}));
  // CANN: "non-quantization scenarios unsupport weight NZ".
  CANOPY_CHECK(plan.CheckPlainFormat("x2", x2));
  CANOPY_CHECK(plan.CheckRank("x2", x2, 2, 2));
  CANOPY_CHECK(plan.CheckRank("x1", x1, 2, 3));
  const int64_t k = x1->view_shape.back();
  if (k != x2->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the last dim of x1 %s differs from the first dim of x2 %s",
                       ShapeToString(x1->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
  }
  Shape out_shape = x1->view_shape;
  out_shape.back() = x2->view_shape[1];
  CANOPY_CHECK(plan.CheckShape("output", output, out_shape));
  if (x3 != nullptr) CANOPY_CHECK(plan.CheckShape("x3", x3, out_shape));
  if (bias != nullptr) {
    CANOPY_CHECK(plan.CheckRank("bias", bias, 1, 1));
    CANOPY_CHECK(plan.CheckShape("bias", bias, {out_shape.back()}));
  }
  return ACLNN_SUCCESS;
}

void PlanMatmulProductInto(Plan& plan, const TensorRef& x1, const TensorRef& x2, const TensorRef* bias,
                           const TensorRef& part) {
  const ProductTerms terms{.alpha = 1.0f, .beta = 1.0f, .bias = bias};
  // The product's dtypes were checked: planning it cannot be rejected.
  if (PlanProduct(plan, x1, x2, part, /*cube_math_type=*/0, terms) != ACLNN_SUCCESS) {
    throw std::logic_error("MatmulAllReduce: the checked product was rejected");
  }
}

void PlanMatmulAllReduceInto(Plan& plan, const TensorRef& x1, const TensorRef& x2, const TensorRef* bias,
                             const TensorRef* x3, const CommGroup& group, const TensorRef& reduced) {
  PlanMatmulProductInto(plan, x1, x2, bias, reduced);
  PlanAddX3AllReduce(plan, x3, group, reduced);
}

TensorRef AsMatrix(Plan& plan, const TensorRef& t, int64_t rows, int64_t cols) {
  if (auto flat = Reshape(t, {rows, cols})) return *flat;
  return *Reshape(plan.Contiguous(t, t.dtype), {rows, cols});
}

void PlanAddX3(Plan& plan, const TensorRef* x3, const TensorRef& part) {
  if (x3 != nullptr) {
    plan.Elementwise(kernels::ElementwiseOp::kAdd, kernels::ComputeType::kF32, {part, *x3}, part,
                     ScalarValue::Integer(1));
  }
}

void PlanAddX3AllReduce(Plan& plan, const TensorRef* x3, const CommGroup& group, const TensorRef& reduced) {
  PlanAddX3(plan, x3, reduced);
  AddAllReduceSum(plan, group, reduced, reduced);
}

}  // namespace canopy::ops

namespace {

constexpr OpTraits kMatmulAllReduce{.header = "aclnnop/aclnn_matmul_all_reduce.h",
                                    .dtypes = {ACL_FLOAT16, ACL_BF16},
                                    .max_rank = 3,
                                    .example = "f16[2,4] f16[4,3] - 'hccl_world_group' 'sum' 0 1 f16[2,3]"};
constexpr OpTraits kMatmulAllReduceV2{.header = "aclnnop/aclnn_matmul_all_reduce_v2.h",
                                      .dtypes = {ACL_FLOAT16, ACL_BF16},
                                      .max_rank = 3,
                                      .example = "f16[2,4] f16[4,3] - - 'hccl_world_group' 'sum' 0 1 f16[2,3]"};

// `has_x3`: the prototype has an x3 parameter (V2), null or not.
aclnnStatus PlanMatmulAllReduce(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                bool has_x3, const aclTensor* x3, const char* group, const char* reduce_op,
                                int64_t comm_turn, int64_t stream_mode, const aclTensor* output) {
  CANOPY_CHECK(CheckMatmulAllReduceOperands(plan, x1, x2, bias, x3, output));
  CANOPY_CHECK(CheckReduceOpSum(plan, reduce_op));
  CANOPY_CHECK(CheckStreamMode(plan, stream_mode));
  CommGroup comm;
  CANOPY_CHECK(ResolveGroup(plan, group, comm_turn, kAllReduceRankSizes, comm));
  if (output->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "output %s is empty; CANN's fused kernel needs m and n above 0",
                       ShapeToString(output->view_shape).c_str());
  }
  const TensorRef a = plan.Input(x1, "x1");
  const TensorRef b = plan.Input(x2, "x2");
  std::optional<TensorRef> bias_ref, x3_ref;
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "bias");
  } else {
    plan.SkipInput();
  }
  if (x3 != nullptr) {
    x3_ref = plan.Input(x3, "x3");
  } else if (has_x3) {
    plan.SkipInput();
  }
  const TensorRef out = plan.Output(output, "output");
  // The collective works on one contiguous buffer.
  const TensorRef reduced = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  PlanMatmulAllReduceInto(plan, a, b, bias_ref ? &*bias_ref : nullptr, x3_ref ? &*x3_ref : nullptr, comm, reduced);
  if (!out.IsContiguous()) plan.Copy(reduced, out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMatmulAllReduceV1(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                  const char* group, const char* reduce_op, int64_t comm_turn, int64_t stream_mode,
                                  const aclTensor* output) {
  return PlanMatmulAllReduce(plan, x1, x2, bias, false, nullptr, group, reduce_op, comm_turn, stream_mode, output);
}

aclnnStatus PlanMatmulAllReduceV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                  const aclTensor* x3, const char* group, const char* reduce_op, int64_t comm_turn,
                                  int64_t stream_mode, const aclTensor* output) {
  return PlanMatmulAllReduce(plan, x1, x2, bias, true, x3, group, reduce_op, comm_turn, stream_mode, output);
}

}  // namespace

CANOPY_ACLNN_OP(MatmulAllReduce, PlanMatmulAllReduceV1, kMatmulAllReduce, (const aclTensor*, x1),
                (const aclTensor*, x2), (const aclTensor*, bias, optional), (const char*, group),
                (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode), (const aclTensor*, output))

CANOPY_ACLNN_OP(MatmulAllReduceV2, PlanMatmulAllReduceV2, kMatmulAllReduceV2, (const aclTensor*, x1),
                (const aclTensor*, x2), (const aclTensor*, bias, optional), (const aclTensor*, x3, optional),
                (const char*, group), (const char*, reduceOp), (int64_t, commTurn), (int64_t, streamMode),
                (const aclTensor*, output))
