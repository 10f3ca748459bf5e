// The gated units whose two halves are one tensor split along a dimension:
// aclnnGlu (a * sigmoid(b), torch.nn.functional.glu, along `dim`), aclnnGeluMul
// (gelu(a) * b along the last dim, "none" / null for the erf form, "tanh" for
// its approximation) and aclnnFatreluMul ((a above threshold ? a : 0) * b along
// the last dim, threshold a one-element tensor read at run time). The halves
// are two views of the input; the pointwise engine reads them in place.
#include <cstring>

#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "ops/framework/tensor_view.h"
#include "ops/math/binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGluDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeSet kMulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Input's shape with `dim` halved, after checking the split (`status` when it does not split).
aclnnStatus CheckHalves(Plan& plan, const char* name, const aclTensor* input, int64_t dim, Shape& half,
                        aclnnStatus status = ACLNN_ERR_PARAM_INVALID) {
  if (input->view_shape[dim] % 2 != 0) {
    return plan.Reject(status, "'%s' has %lld elements along dim %lld; it must split in two halves", name,
                       static_cast<long long>(input->view_shape[dim]), static_cast<long long>(dim));
  }
  half = input->view_shape;
  half[dim] /= 2;
  return ACLNN_SUCCESS;
}

// out = f(first half, second half, extra...) along `dim`.
void AddGated(Plan& plan, PointwiseOp op, const TensorRef& in, int64_t dim, std::vector<PointwiseOperand> extra,
              const TensorRef& out) {
  const int64_t half = in.shape[dim] / 2;
  std::vector<PointwiseOperand> operands = {PointwiseOperand::Tensor(Narrow(in, dim, 0, half)),
                                            PointwiseOperand::Tensor(Narrow(in, dim, half, half))};
  operands.insert(operands.end(), extra.begin(), extra.end());
  AddPointwise(plan, op, in.dtype, in.dtype, operands, out);
}

aclnnStatus PlanGlu(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGluDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kGluDtypes));
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 8));
  const auto rank = static_cast<int64_t>(self->view_shape.size());
  const std::optional<int64_t> d = NormalizeDim(dim, rank);
  if (!d) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dim %lld is out of range for self of rank %lld",
                       static_cast<long long>(dim), static_cast<long long>(rank));
  }
  Shape half;
  CANOPY_CHECK(CheckHalves(plan, "self", self, *d, half));
  CANOPY_CHECK(plan.CheckShape("out", out, half));
  const TensorRef in = plan.Input(self, "self");
  AddGated(plan, PointwiseOp::kGluSigmoid, in, *d, {}, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

// GeluMul's and FatreluMul's dtypes: input's from the list, out's the same.
aclnnStatus CheckMulDtypes(Plan& plan, const aclTensor* input, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kMulDtypes));
  if (out->dtype == input->dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have input's dtype %s",
                     DtypeName(out->dtype), DtypeName(input->dtype));
}

// What CANN's tiling checks (561002): rank 2 or more, the last dim even and not
// empty; then out's shape. The tiling also caps the last dim at 1024 and the
// rows at 200000; those are limits of its kernel's buffers, which a CPU does
// not have.
aclnnStatus CheckLastDimHalves(Plan& plan, const aclTensor* input, const aclTensor* out) {
  if (input->view_shape.size() < 2) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'input' has rank %zu; it needs 2 or more",
                       input->view_shape.size());
  }
  const auto last = static_cast<int64_t>(input->view_shape.size()) - 1;
  if (input->view_shape[last] == 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'input' has an empty last dim; it must split in two halves");
  }
  Shape half;
  CANOPY_CHECK(CheckHalves(plan, "input", input, last, half, ACLNN_ERR_INNER_TILING_ERROR));
  return plan.CheckShape("out", out, half);
}

aclnnStatus PlanGeluMul(Plan& plan, const aclTensor* input, const char* approximateOptional, const aclTensor* out) {
  CANOPY_CHECK(CheckMulDtypes(plan, input, out));
  PointwiseOp op = PointwiseOp::kGeluErfMul;
  if (approximateOptional != nullptr && std::strcmp(approximateOptional, "tanh") == 0) {
    op = PointwiseOp::kGeluTanhMul;
  } else if (approximateOptional != nullptr && std::strcmp(approximateOptional, "none") != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "approximate '%s' is not \"none\" or \"tanh\"",
                       approximateOptional);
  }
  CANOPY_CHECK(CheckLastDimHalves(plan, input, out));
  const TensorRef in = plan.Input(input, "input");
  AddGated(plan, op, in, in.rank() - 1, {}, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFatreluMul(Plan& plan, const aclTensor* input, const aclTensor* threshold, const aclTensor* out) {
  CANOPY_CHECK(CheckMulDtypes(plan, input, out));
  if (threshold->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'threshold' has dtype %s; it must have input's dtype %s",
                       DtypeName(threshold->dtype), DtypeName(input->dtype));
  }
  CANOPY_CHECK(CheckLastDimHalves(plan, input, out));
  if (threshold->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'threshold' has %lld elements; it must have one",
                       static_cast<long long>(threshold->NumElements()));
  }
  const TensorRef in = plan.Input(input, "input");
  const TensorRef th = plan.Input(threshold, "threshold");
  const TensorRef one = *Reshape(plan.Contiguous(th, th.dtype), Shape{});
  AddGated(plan, PointwiseOp::kFatreluMul, in, in.rank() - 1, {PointwiseOperand::Tensor(one)}, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Glu, PlanGlu,
                (OpTraits{.header = "aclnnop/aclnn_glu.h", .dtypes = kGluDtypes, .example = "f32[2,4] -1 f32[2,2]"}),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, out))
CANOPY_ACLNN_OP(GeluMul, PlanGeluMul,
                (OpTraits{
                    .header = "aclnnop/aclnn_gelu_mul.h", .dtypes = kMulDtypes, .example = "f32[2,4] 'tanh' f32[2,2]"}),
                (const aclTensor*, input), (char*, approximateOptional, optional), (const aclTensor*, out))
CANOPY_ACLNN_OP(
    FatreluMul, PlanFatreluMul,
    (OpTraits{.header = "aclnnop/aclnn_fatrelu_mul.h", .dtypes = kMulDtypes, .example = "f32[2,4] f32[1] f32[2,2]"}),
    (const aclTensor*, input), (const aclTensor*, threshold), (const aclTensor*, out))
