// aclnnDiag and aclnnDiagFlat (torch.diag, torch.diagflat): a matrix's
// diagonal `diagonal` read as a vector, or a vector (DiagFlat: self flattened)
// written on that diagonal of a zero matrix. The diagonal is a strided view
// (stride = row stride + column stride), so each is one fill and one copy.
#include <algorithm>

#include "aclnnop/aclnn_diag.h"
#include "aclnnop/aclnn_diag_flat.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDiagDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32,     ACL_INT64, ACL_INT16,
                                  ACL_INT8,  ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX64, ACL_BF16};

// The elements of matrix diagonal `k` (above the main one for k > 0).
int64_t DiagonalLength(int64_t rows, int64_t columns, int64_t k) {
  return std::max<int64_t>(0, k >= 0 ? std::min(rows, columns - k) : std::min(rows + k, columns));
}

// Diagonal k of the matrix view m as a 1-D view.
TensorRef Diagonal(const TensorRef& m, int64_t k) {
  const int64_t length = DiagonalLength(m.shape[0], m.shape[1], k);
  TensorRef d = m;
  d.shape = {length};
  d.strides = {m.strides[0] + m.strides[1]};
  if (length > 0) {
    const int64_t start = k >= 0 ? k * m.strides[1] : -k * m.strides[0];
    d.buffer.byte_offset += start * static_cast<int64_t>(DtypeSize(m.dtype));
  }
  return d;
}

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kDiagDtypes));
  return CheckSameDtype(plan, "out", out, "self", self);
}

// out = a zero matrix with `vector` (1-D, n elements) on diagonal k.
aclnnStatus PlanVectorOnDiagonal(Plan& plan, const aclTensor* out, int64_t n, int64_t k, const TensorRef& vector) {
  if (k > INT32_MAX || k < -INT32_MAX) {  // keeps n + |k| far from overflow
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'diagonal' is %lld; it is too far from the main diagonal",
                       static_cast<long long>(k));
  }
  const int64_t side = n + (k < 0 ? -k : k);
  CANOPY_CHECK(plan.CheckShape("out", out, {side, side}));
  const TensorRef dst = plan.Output(out, "out");
  if (side == 0) return ACLNN_SUCCESS;
  plan.Fill(dst, ScalarValue::Integer(0));
  if (n > 0) plan.Copy(vector, Diagonal(dst, k));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDiag(Plan& plan, const aclTensor* self, int64_t diagonal, const aclTensor* out) {
  CANOPY_CHECK(CheckDtypes(plan, self, out));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 2));
  const TensorRef src = plan.Input(self, "self");
  if (self->rank() == 1) return PlanVectorOnDiagonal(plan, out, self->view_shape[0], diagonal, src);
  const int64_t length = DiagonalLength(self->view_shape[0], self->view_shape[1], diagonal);
  CANOPY_CHECK(plan.CheckShape("out", out, {length}));
  const TensorRef dst = plan.Output(out, "out");
  if (length > 0) plan.Copy(Diagonal(src, diagonal), dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDiagFlat(Plan& plan, const aclTensor* self, int64_t diagonal, const aclTensor* out) {
  CANOPY_CHECK(CheckDtypes(plan, self, out));
  const TensorRef src = plan.Input(self, "self");
  const int64_t n = src.NumElements();
  // self's elements in row-major order: a view where strides allow it, else a dense copy.
  std::optional<TensorRef> flat = Reshape(src, {n});
  if (!flat) flat = *Reshape(plan.Contiguous(src, src.dtype), {n});
  return PlanVectorOnDiagonal(plan, out, n, diagonal, *flat);
}

}  // namespace

CANOPY_ACLNN_OP(Diag, PlanDiag,
                (OpTraits{.header = "aclnnop/aclnn_diag.h", .dtypes = kDiagDtypes, .example = "f32[3,3] 1 f32[2]"}),
                (const aclTensor*, self), (int64_t, diagonal), (aclTensor*, out))
CANOPY_ACLNN_OP(DiagFlat, PlanDiagFlat,
                (OpTraits{
                    .header = "aclnnop/aclnn_diag_flat.h", .dtypes = kDiagDtypes, .example = "f32[2,2] -1 f32[5,5]"}),
                (const aclTensor*, self), (int64_t, diagonal), (aclTensor*, out))
