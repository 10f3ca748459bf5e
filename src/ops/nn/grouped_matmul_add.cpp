// aclnnGroupedMatmulAdd: grouped products split along K, accumulated in place.
// x [K, M] and weight [K, N] (f16 or bf16, one dtype) are cut along K by
// groupList (INT64 [g], cumulative ends), and group i adds, in f32,
//   yRef[i * M : (i + 1) * M, :] += x[k_i, :]^T @ weight[k_i, :]
// to yRef (f32 [g * M, N]); an empty group adds nothing. CANN's kernel always
// reads x as [K, M] and weight as [K, N]: transposeX, transposeWeight and
// groupType are not read (its tiling fixes the K split), and neither are they
// here. A list that falls, is negative or passes K fails the run. CANN has no
// host checks (the doc is a stub): dtypes are its op definition's (161002),
// the shapes its tiling's (561002); yRef must be [g * M, N], the block the
// kernel writes.
#include "aclnnop/aclnn_grouped_matmul_add.h"
#include "kernels/grouped_matmul.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

aclnnStatus PlanGroupedMatmulAdd(Plan& plan, const aclTensor* x, const aclTensor* weight, const aclTensor* group_list,
                                 const aclTensor* y, bool /*transpose_x*/, bool /*transpose_weight*/,
                                 int64_t /*group_type*/) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  if (weight->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'weight' is %s, but x is %s: they must match",
                       DtypeName(weight->dtype), DtypeName(x->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("groupList", group_list->dtype, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("yRef", y->dtype, DtypeSet{ACL_FLOAT}));
  if (x->rank() != 2 || weight->rank() != 2 || group_list->rank() != 1) {
    return plan.Reject(kTiling, "x (%s), weight (%s) and groupList (%s) must be 2-D, 2-D and 1-D",
                       ShapeToString(x->view_shape).c_str(), ShapeToString(weight->view_shape).c_str(),
                       ShapeToString(group_list->view_shape).c_str());
  }
  if (x->view_shape[0] != weight->view_shape[0]) {
    return plan.Reject(kTiling, "x (%s) and weight (%s) must have the same K (their first dim)",
                       ShapeToString(x->view_shape).c_str(), ShapeToString(weight->view_shape).c_str());
  }
  const int64_t k = x->view_shape[0], m = x->view_shape[1], n = weight->view_shape[1];
  const int64_t groups = group_list->view_shape[0];
  const int64_t rows = groups * m;
  if (y->view_shape != Shape{rows, n}) {
    return plan.Reject(kTiling, "argument 'yRef' has shape %s; it must be [groups * M, N] = [%lld, %lld]",
                       ShapeToString(y->view_shape).c_str(), static_cast<long long>(rows), static_cast<long long>(n));
  }

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef w_ref = plan.Input(weight, "weight");
  const TensorRef gl_ref = plan.Input(group_list, "groupList");
  const TensorRef y_in = plan.Input(y, "yRef");
  const TensorRef y_out = plan.Output(y, "yRef");
  if (y_out.NumElements() == 0 || k == 0) return ACLNN_SUCCESS;  // nothing to add

  kernels::GroupedGemmDesc desc;
  desc.split_k = true;
  desc.groups = groups;
  desc.m = m;
  desc.k = k;
  desc.n = n;
  desc.x = plan.Contiguous(Transpose(x_ref, 0, 1), ACL_FLOAT).buffer;  // [M, K]
  desc.weight = plan.Contiguous(w_ref, ACL_FLOAT).buffer;
  const TensorRef dense_list = plan.Contiguous(gl_ref, ACL_INT64);
  desc.group_list = dense_list.buffer;
  const TensorRef products = plan.Temporary(ACL_FLOAT, {rows, n});  // [groups, M, N]
  desc.y = products.buffer;
  plan.AddStep(kernels::MakeGroupedGemmStep(desc));
  plan.Elementwise(kernels::ElementwiseOp::kAdd, kernels::ComputeType::kF32, {y_in, products}, y_out,
                   ScalarValue::Real(1.0));
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT64, ACL_FLOAT};

}  // namespace

CANOPY_ACLNN_OP(GroupedMatmulAdd, PlanGroupedMatmulAdd,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_add.h",
                          .dtypes = kAllDtypes,
                          .example = "f16[6,3] f16[6,4] i64[2]{3:3} f32[6,4] true false 2"}),
                (const aclTensor*, x), (const aclTensor*, weight), (const aclTensor*, groupList), (aclTensor*, yRef),
                (bool, transposeX), (bool, transposeWeight), (int64_t, groupType))
