// aclnnEinsum for the two equations CANN registers (letters renamed in order of
// first appearance before matching, as CANN does):
//   "abcd,abced->abce": out[a,b,c,e] = sum_d x0[a,b,c,d] * x1[a,b,c,e,d], a batched
//     matrix-vector product on the matmul planner; integer tensors are converted to
//     FLOAT16, multiplied there and converted back, as CANN's A2 path does;
//   "a,b->ab": the outer product out[i,j] = x0[i] * x1[j] on the pointwise engine.
#include <cctype>
#include <string>
#include <unordered_map>

#include "aclnnop/aclnn_einsum.h"
#include "matmul_planner.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's A2 list (the document's; the code agrees).
constexpr DtypeSet kEinsumDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_INT16,  ACL_INT32,
                                    ACL_INT64,   ACL_UINT16, ACL_UINT32, ACL_UINT64};
constexpr size_t kOperands = 2;

// Letters renamed a, b, c, ... in order of first appearance.
std::string Normalised(const char* equation) {
  std::string text = equation;
  std::unordered_map<char, char> names;
  for (char& ch : text) {
    if (std::isalpha(static_cast<unsigned char>(ch)) == 0) continue;
    auto [it, added] = names.emplace(ch, static_cast<char>('a' + names.size()));
    ch = it->second;
  }
  return text;
}

aclnnStatus PlanBatchedMatVec(Plan& plan, const aclTensor* x0, const aclTensor* x1, const aclTensor* output,
                              const TensorRef& a, const TensorRef& b, const TensorRef& out) {
  CANOPY_CHECK(plan.CheckRank("tensors[0]", x0, 4, 4));
  CANOPY_CHECK(plan.CheckRank("tensors[1]", x1, 5, 5));
  CANOPY_CHECK(plan.CheckRank("output", output, 4, 4));
  const Shape& s0 = x0->view_shape;
  const Shape& s1 = x1->view_shape;
  const Shape expected = {s0[0], s0[1], s0[2], s1[3]};
  if (s0[0] != s1[0] || s0[1] != s1[1] || s0[2] != s1[2] || s0[3] != s1[4]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "tensors[0] %s and tensors[1] %s do not fit 'abcd,abced->abce'",
                       ShapeToString(s0).c_str(), ShapeToString(s1).c_str());
  }
  CANOPY_CHECK(plan.CheckShape("output", output, expected));
  if (x0->NumElements() == 0 || s1[3] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "tensors[0] %s and dim 3 of tensors[1] %s must not be empty",
                       ShapeToString(s0).c_str(), ShapeToString(s1).c_str());
  }
  // x1 [a,b,c,e,d] @ x0 [a,b,c,d,1] -> [a,b,c,e,1].
  const TensorRef& matrix = b;
  const TensorRef vector = Unsqueeze(a, 4);
  const TensorRef dst = Unsqueeze(out, 4);
  if (kMatmulDtypes.Contains(out.dtype)) return PlanProduct(plan, matrix, vector, dst, 0);
  const TensorRef product = plan.Temporary(ACL_FLOAT16, dst.shape);
  CANOPY_CHECK(
      PlanProduct(plan, plan.Contiguous(matrix, ACL_FLOAT16), plan.Contiguous(vector, ACL_FLOAT16), product, 0));
  plan.Copy(product, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanOuter(Plan& plan, const aclTensor* x0, const aclTensor* x1, const aclTensor* output, const TensorRef& a,
                      const TensorRef& b, const TensorRef& out) {
  CANOPY_CHECK(plan.CheckRank("tensors[0]", x0, 1, 1));
  CANOPY_CHECK(plan.CheckRank("tensors[1]", x1, 1, 1));
  CANOPY_CHECK(plan.CheckRank("output", output, 2, 2));
  CANOPY_CHECK(plan.CheckShape("output", output, {x0->view_shape[0], x1->view_shape[0]}));
  if (out.NumElements() == 0) return ACLNN_SUCCESS;
  plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(out.dtype), {Unsqueeze(a, 1), Unsqueeze(b, 0)}, out,
                   ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanEinsum(Plan& plan, const aclTensorList* tensors, const char* equation, const aclTensor* output) {
  for (size_t i = 0; i < tensors->tensors.size(); ++i) {
    const std::string name = "tensors[" + std::to_string(i) + "]";
    CANOPY_CHECK(plan.CheckDtype(name.c_str(), tensors->tensors[i]->dtype, kEinsumDtypes));
    if (tensors->tensors[i]->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s has format %d; it must be ND", name.c_str(),
                         static_cast<int>(tensors->tensors[i]->format));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kEinsumDtypes));
  if (tensors->tensors.size() != kOperands) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "tensors holds %zu tensors; it must hold 2", tensors->tensors.size());
  }
  const aclTensor* x0 = tensors->tensors[0];
  const aclTensor* x1 = tensors->tensors[1];
  if (x0->dtype != x1->dtype || x0->dtype != output->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "tensors[0] (%s), tensors[1] (%s) and output (%s) must have one dtype",
                       DtypeName(x0->dtype), DtypeName(x1->dtype), DtypeName(output->dtype));
  }
  const std::string normalised = Normalised(equation);
  const bool mat_vec = normalised == "abcd,abced->abce";
  if (!mat_vec && normalised != "a,b->ab") {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "equation '%s' is not one of those supported: 'abcd,abced->abce', 'a,b->ab'", equation);
  }
  const std::vector<TensorRef> inputs = plan.InputList(tensors, "tensors");
  const TensorRef out = plan.Output(output, "output");
  return mat_vec ? PlanBatchedMatVec(plan, x0, x1, output, inputs[0], inputs[1], out)
                 : PlanOuter(plan, x0, x1, output, inputs[0], inputs[1], out);
}

}  // namespace

CANOPY_ACLNN_OP(Einsum, PlanEinsum,
                (OpTraits{.header = "aclnnop/aclnn_einsum.h",
                          .dtypes = kEinsumDtypes,
                          .example = "(f32[2,2,2,3],f32[2,2,2,4,3]) 'abcd,abced->abce' f32[2,2,2,4]"}),
                (const aclTensorList*, tensors), (const char*, equation), (aclTensor*, output))
