// aclnnGemm: out = alpha * op(A) @ op(B) + beta * C, where op transposes its
// matrix when transA / transB is non-zero (CANN reads them as booleans).
#include "aclnnop/aclnn_gemm.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

aclnnStatus CheckNd(Plan& plan, const char* name, const aclTensor* tensor) {
  if (tensor->format == ACL_FORMAT_ND) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has format %d; Gemm takes ND tensors only", name,
                     static_cast<int>(tensor->format));
}

aclnnStatus PlanGemm(Plan& plan, const aclTensor* a_tensor, const aclTensor* b_tensor, const aclTensor* c_tensor,
                     float alpha, float beta, int64_t trans_a, int64_t trans_b, const aclTensor* out,
                     int8_t cube_math_type) {
  CANOPY_CHECK(CheckMatmulOperand(plan, "A", a_tensor));
  CANOPY_CHECK(CheckMatmulOperand(plan, "B", b_tensor));
  CANOPY_CHECK(CheckMatmulOperand(plan, "C", c_tensor));
  CANOPY_CHECK(CheckMatmulOperand(plan, "out", out));
  CANOPY_CHECK(plan.CheckRank("A", a_tensor, 2, 2));
  CANOPY_CHECK(plan.CheckRank("B", b_tensor, 2, 2));
  const Shape& as = a_tensor->view_shape;
  const Shape& bs = b_tensor->view_shape;
  const int64_t m = trans_a != 0 ? as[1] : as[0];
  const int64_t k_a = trans_a != 0 ? as[0] : as[1];
  const int64_t k_b = trans_b != 0 ? bs[1] : bs[0];
  const int64_t n = trans_b != 0 ? bs[0] : bs[1];
  if (k_a != k_b) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "op(A) (K %lld) and op(B) (K %lld) cannot be multiplied",
                       static_cast<long long>(k_a), static_cast<long long>(k_b));
  }
  const Shape product = {m, n};
  CANOPY_CHECK(plan.CheckRank("out", out, 2, 2));
  if (m == 0 || n == 0) {
    // CANN asks only that out be empty too; nothing is computed.
    Shape broadcast;
    CANOPY_CHECK(plan.CheckBroadcast("C", c_tensor->view_shape, "the product", product, broadcast));
    if (out->NumElements() != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the product %s is empty, out %s is not",
                         ShapeToString(product).c_str(), ShapeToString(out->view_shape).c_str());
    }
  } else {
    CANOPY_CHECK(CheckBiasAndOut(plan, "C", c_tensor, product, "out", out));
  }
  CANOPY_CHECK(CheckCubeMathType(plan, cube_math_type));
  CANOPY_CHECK(CheckNd(plan, "A", a_tensor));
  CANOPY_CHECK(CheckNd(plan, "B", b_tensor));
  CANOPY_CHECK(CheckNd(plan, "C", c_tensor));
  CANOPY_CHECK(CheckNd(plan, "out", out));

  TensorRef a = plan.Input(a_tensor, "A");
  TensorRef b = plan.Input(b_tensor, "B");
  const TensorRef c = plan.Input(c_tensor, "C");
  const TensorRef result = plan.Output(out, "out");
  // An empty C or product leaves out as it is (CANN computes nothing then).
  if (c.NumElements() == 0 || result.NumElements() == 0) return ACLNN_SUCCESS;
  if (trans_a != 0) a = Transpose(a, 0, 1);
  if (trans_b != 0) b = Transpose(b, 0, 1);
  const TensorRef bias = BroadcastTo(c, product);
  return PlanProduct(plan, a, b, result, cube_math_type, ProductTerms{alpha, beta, &bias});
}

}  // namespace

CANOPY_ACLNN_OP(Gemm, PlanGemm,
                (OpTraits{.header = "aclnnop/aclnn_gemm.h",
                          .dtypes = kMatmulDtypes,
                          .example = "f32[2,3] f32[3,4] f32[2,4] 1 1 0 0 f32[2,4] 0"}),
                (const aclTensor*, A), (const aclTensor*, B), (const aclTensor*, C), (float, alpha), (float, beta),
                (int64_t, transA), (int64_t, transB), (aclTensor*, out), (int8_t, cubeMathType))
