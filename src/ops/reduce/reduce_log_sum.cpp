// aclnnReduceLogSum (ONNX ReduceLogSum): log of the sum of data over `axes`
// (an empty list: every axis, or with noopWithEmptyAxes a plain copy of data),
// the reduced axes kept as 1 with keepDims. The sum accumulates in FLOAT.
// An empty data fills reduce with 0, as CANN does. data and reduce are FLOAT,
// FLOAT16 or BF16.
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "ops/framework/tensor_view.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLogSumDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

aclnnStatus PlanReduceLogSum(Plan& plan, const aclTensor* data, const aclIntArray* axes, bool keepDims,
                             bool noopWithEmptyAxes, const aclTensor* reduce) {
  CANOPY_CHECK(plan.CheckDtype("data", data->dtype, kLogSumDtypes));
  CANOPY_CHECK(plan.CheckDtype("reduce", reduce->dtype, kLogSumDtypes));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "axes", axes, data->rank(), reduced));
  const TensorRef in = plan.Input(data, "data");
  if (data->NumElements() == 0) {
    plan.Fill(plan.Output(reduce, "reduce"), ScalarValue::Real(0));
    return ACLNN_SUCCESS;
  }
  if (axes->values.empty() && noopWithEmptyAxes) {
    CANOPY_CHECK(plan.CheckShape("reduce", reduce, data->view_shape));
    plan.Copy(in, plan.Output(reduce, "reduce"));
    return ACLNN_SUCCESS;
  }
  const Shape expected = ReducedShape(data->view_shape, reduced, keepDims);
  CANOPY_CHECK(CheckReducedOut(plan, "reduce", reduce, expected));
  const TensorRef sum = plan.Temporary(ACL_FLOAT, expected);
  PlanReduceInto(plan, kernels::ReduceKind::kSum, in, reduced, keepDims, ACL_FLOAT, sum);
  const TensorRef dst = plan.Output(reduce, "reduce");
  plan.Unary(UnaryOp::kLog, ComputeType::kF32, sum, dst.shape == expected ? dst : *Reshape(dst, expected));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ReduceLogSum, PlanReduceLogSum,
                (OpTraits{.header = "aclnnop/aclnn_reduce_log_sum.h",
                          .dtypes = kLogSumDtypes,
                          .example = "f32[2,3]{0.5:2} ints[1] false false f32[2]"}),
                (const aclTensor*, data), (const aclIntArray*, axes), (bool, keepDims), (bool, noopWithEmptyAxes),
                (aclTensor*, reduce))
