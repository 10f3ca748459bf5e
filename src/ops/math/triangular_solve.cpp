// aclnnTriangularSolve: X with A X = self (A^T X = self when transposed), A
// upper or lower triangular, over batch dimensions that broadcast; mOut gets
// the triangle of the broadcast A that took part.
#include "kernels/triangular_solve.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSolveDtypes = {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanTriangularSolve(Plan& plan, const aclTensor* self, const aclTensor* a, bool upper, bool transpose,
                                bool unitriangular, const aclTensor* x_out, const aclTensor* m_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSolveDtypes));
  CANOPY_CHECK(plan.CheckDtype("A", a->dtype, kSolveDtypes));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, kSolveDtypes));
  CANOPY_CHECK(plan.CheckDtype("mOut", m_out->dtype, kSolveDtypes));
  if (a->dtype != self->dtype || x_out->dtype != self->dtype || m_out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self (%s), A (%s), xOut (%s) and mOut (%s) must have one dtype",
                       DtypeName(self->dtype), DtypeName(a->dtype), DtypeName(x_out->dtype), DtypeName(m_out->dtype));
  }
  if (unitriangular && self->dtype != ACL_FLOAT) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "unitriangular solves take FLOAT only, not %s", DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("self", self, 2, 8));
  CANOPY_CHECK(plan.CheckRank("A", a, 2, 8));
  const Shape& b_shape = self->view_shape;
  const Shape& a_shape = a->view_shape;
  const int64_t n = a_shape[a_shape.size() - 1];
  if (a_shape[a_shape.size() - 2] != n || b_shape[b_shape.size() - 2] != n) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "A %s must be square with as many rows as self %s",
                       ShapeToString(a_shape).c_str(), ShapeToString(b_shape).c_str());
  }
  const int64_t k = b_shape.back();
  Shape batch;
  CANOPY_CHECK(plan.CheckBroadcast("self batch", Shape(b_shape.begin(), b_shape.end() - 2), "A batch",
                                   Shape(a_shape.begin(), a_shape.end() - 2), batch));
  Shape x_shape = batch, m_shape = batch;
  x_shape.insert(x_shape.end(), {n, k});
  m_shape.insert(m_shape.end(), {n, n});
  CANOPY_CHECK(plan.CheckShape("xOut", x_out, x_shape));
  CANOPY_CHECK(plan.CheckShape("mOut", m_out, m_shape));

  const TensorRef b_in = plan.Input(self, "self");
  const TensorRef a_in = plan.Input(a, "A");
  const TensorRef x = plan.Output(x_out, "xOut");
  const TensorRef m = plan.Output(m_out, "mOut");
  int64_t batch_count = 1;
  for (int64_t extent : batch) batch_count *= extent;
  if (batch_count == 0 || n == 0) return ACLNN_SUCCESS;  // nothing to solve or copy
  // Dense copies with the batch broadcast spelled out: B becomes X in place.
  const TensorRef a_dense = plan.Temporary(a->dtype, m_shape);
  plan.Copy(BroadcastTo(a_in, m_shape), a_dense);
  const TensorRef m_dense = plan.Temporary(a->dtype, m_shape);
  const TensorRef x_dense = k == 0 ? x : plan.Temporary(self->dtype, x_shape);
  if (k > 0) plan.Copy(BroadcastTo(b_in, x_shape), x_dense);
  kernels::TriangularSolveDesc desc;
  desc.dtype = self->dtype;
  desc.batch = batch_count;
  desc.n = n;
  desc.k = k;
  desc.a = a_dense.buffer;
  desc.x = x_dense.buffer;
  desc.m = m_dense.buffer;
  desc.upper = upper;
  desc.transpose = transpose;
  desc.unitriangular = unitriangular;
  plan.AddStep(kernels::MakeTriangularSolveStep(desc));  // reads and writes temporaries only
  if (k > 0) plan.Copy(x_dense, x);
  plan.Copy(m_dense, m);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(TriangularSolve, PlanTriangularSolve,
                (OpTraits{.header = "aclnnop/aclnn_triangular_solve.h", .dtypes = kSolveDtypes}),
                (const aclTensor*, self), (const aclTensor*, A), (bool, upper), (bool, transpose),
                (bool, unitriangular), (aclTensor*, xOut), (aclTensor*, mOut))
